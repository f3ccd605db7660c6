"""A Current's plan for the turn, for the search bot's hints (issue 27).

Short playouts cannot see why an objective, a placement or a plot matters: their effect
on the victory points comes at the Interphase (10.3: +1 fame for a met objective, -1
for a missed one) or after the placements and plots of other Currents. So the hints plan
the turn around one objective a Current can reach by its own hand: a plot (7.4.1) in a
region where its Personalities are influential (+2 each) and, better, that nobody holds
(+2), rolled on its fame column (7.1), three times if it can pay. The plan is worked out
again from the state at every decision (it lives nowhere but in the state), and sends
the Personalities there, plots there first and pays for every roll it can.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from tabletop.framework import State

from .bot_commune import (
    RAISE_COMMUNE,
    commune_pending,
    raise_chance,
    regime_choice,
    regime_plan,
)
from .bot_government import government_move, government_rolls, suppress_chance, suppression_plan
from .bot_revolt import affordable_rolls, best_revolt, own_free
from .core import controller, fame, gov_controller, influential, odds, seat_of
from .data import KING, REGION_NAMES, seating
from .factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from .plans import RAISE_TARGET, Objective
from .verbs import DONE, KIND, MORE, OBJECTIVE, PLACE, ROLLS, TRY

#: A region's worth as a plot target: Paris is 5 VP more to whoever holds it (14.1).
PARIS_BONUS = 2.0
#: The left-wing Currents, which win only with a Revolution majority (14.2.2, 14.3):
#: in practice with the Marais under 25 VP, which it starts at (fame 10, 5 regions, 10
#: deputies).
LEFT = frozenset({GIRONDE, MONTAGNE, SANS_CULOTTE})
#: The right-wing Currents, which win on their own VP (14.2.1, 14.3.1).
RIGHT = frozenset({ROYALIST, FEUILLANT})
#: Extra worth, to a left-wing Current, of a region taken from the Marais: the Marais
#: loses the region's VP now and, under the Legislative, the deputy it would elect for
#: it (R.1.6), so the same plot moves the Marais two VP towards the 25 line.
MARAIS_BONUS = 1.0
#: Extra worth, to a left-wing Current, of a region taken from nobody: the Marais
#: elects a deputy for every neutral region (R.1.6, and R.2.6 for the Convention and
#: the Terror), so the plot moves the Marais one VP towards the 25 line, half a Marais
#: region's swing.
NEUTRAL_BONUS = 0.5
#: The Feuillant wins under the Legislative with a Reaction majority only by having
#: the Marais's VP or more (14.3.1), so a region counts by how it moves the gap. Any
#: region taken is a VP and, at the election, a deputy for it (R.1.6): 2. Taken from
#: the Marais, the Marais loses the same two: 4. Taken from nobody, the Marais loses
#: the deputy it elects for a neutral region: 3. Extra worth over another's region:
FEUILLANT_SWING: dict[str | None, float] = {MARAIS: 1.0, None: 0.5}
#: Holders of the regions whose loss moves the Marais towards the 25 line: the Marais
#: itself and nobody (a neutral region elects a Marais deputy, R.1.6).
SWAYED = frozenset({MARAIS, None})
#: Below this chance of an A (best of the rolls it can pay for), a plot is no plan.
PLAN_ODDS = 0.35
#: A Current shares its own Government's suppression as its objective only where the
#: Government is likelier than not to succeed: a met objective is +1 fame, a missed
#: one -1 (10.3).
SHARED_SUPPRESSION = 0.5


@lru_cache(maxsize=512)
def chance_of_a(column: int, rolls: int) -> float:
    """The chance that the best of ``rolls`` rolls on ``column`` is an A (7.1)."""
    return odds(column, max(1, rolls))["A"]


def plot_rolls(state: State, who: str, spare: int = 0) -> int:
    """How many plot rolls ``who`` can pay for (7.1, at most three), keeping ``spare``."""
    return affordable_rolls(state, who, "plot", spare)


def plottable(state: State, who: str, region: str) -> bool:
    r = state["regions"][region]
    return not (r["revolt"] or r["coalition"] or controller(state, region) == who)


def plot_chance(state: State, who: str, region: str, helpers: int, rolls: int) -> float:
    """The chance of taking ``region`` by a plot with ``helpers`` influential
    Personalities there (7.4.1: +2 each, +2 in a neutral region)."""
    column = fame(state, who) + 2 * helpers + (2 if controller(state, region) is None else 0)
    return chance_of_a(column, rolls)


def worth(state: State, who: str, region: str, chance: float) -> float:
    """A plot's value to ``who``: its chance, more in Paris (14.1) and, for a left-wing
    Current, more in a region of the Marais (``MARAIS_BONUS``) or of nobody
    (``NEUTRAL_BONUS``); for the Feuillant,
    more in a region of the Marais or of nobody (``FEUILLANT_SWING``)."""
    value = chance * (1.0 + (PARIS_BONUS if region == "Paris" else 0.0))
    holder = controller(state, region)
    if who in LEFT and holder == MARAIS:
        value += chance * MARAIS_BONUS
    if who in LEFT and holder is None:
        value += chance * NEUTRAL_BONUS
    if who == FEUILLANT and state["regime"] == "legislative":
        value += chance * FEUILLANT_SWING.get(holder, 0.0)
    return value


def best_plot(state: State, who: str) -> tuple[str, float] | None:
    """The region ``who`` is likeliest to take by a plot this turn with the Personalities
    it can still send or has there, weighed by the region's worth; None if no plot is
    likely enough (``PLAN_ODDS``). A left-wing Current weighs only the likely plots, so
    that a Marais region too hard to take does not hide a likely one elsewhere."""
    rolls = plot_rolls(state, who)
    if rolls == 0:
        return None
    persons = own_free(state, who)
    best: tuple[float, str, float] | None = None
    for region in REGION_NAMES:
        if not plottable(state, who, region):
            continue
        helpers = sum(
            1
            for n in persons
            if influential(n, region) and state["persons"][n]["where"] in (None, region)
        )
        if helpers == 0:
            continue
        chance = plot_chance(state, who, region, min(helpers, 2), rolls)
        if who in LEFT and chance < PLAN_ODDS:
            continue
        value = worth(state, who, region, chance)
        if best is None or value > best[0]:
            best = (value, region, chance)
    if best is None or best[2] < PLAN_ODDS:
        return None
    return best[1], best[2]


def planned_target(state: State, who: str) -> str | None:
    """The region of ``who``'s declared plot objective, if it has one not met yet."""
    declared = _declared(state, who, "plot")
    if declared is None or declared.deed(who) in state.get("achieved", ()):
        return None
    return declared.target


def planned_revolt(state: State, who: str) -> str | None:
    """The region of ``who``'s declared revolt objective (6.4.2), if no revolt has
    broken out there yet this turn."""
    declared = _declared(state, who, "revolt")
    if declared is None or declared.value in state.get("achieved", ()):
        return None
    return declared.target


def _declared(state: State, who: str, kind: str) -> Objective | None:
    """``who``'s declared objective (6.4) if it is of ``kind`` and names a target."""
    value = (state.get("declared") or {}).get(who)
    if not isinstance(value, str):
        return None
    declared = Objective.read(value)
    return declared if declared.kind == kind and declared.target else None


def unwanted(state: State, actions: Sequence[str]) -> list[str]:
    """Moves that would spoil the plan: a plot in the region of the declared revolt
    (plots come first, 7.4, and a Personality acts once a turn, so it would use up the
    Personalities the revolt needs)."""
    tasks = state.get("tasks") or []
    if not tasks:
        return []
    top = tasks[-1]
    if top.get("kind") != "act" or top.get("segment") != "plot":
        return []
    region = planned_revolt(state, str(top["actor"]))
    return [TRY(region)] if region and TRY(region) in actions else []


def sealed_objective(state: State, who: str) -> str | None:
    """The objective ``who`` sealed this turn (before the reveal), from its own
    secret; None while it has not declared."""
    data = (state.get("objectives") or {}).get(who)
    if not isinstance(data, dict):
        return None
    return next((v for v in data.get("chosen") or () if isinstance(v, str)), None)


def next_objective_declarer(state: State) -> str | None:
    """Whose objective the open ``objectives`` prompt asks for (6.4): the first
    declarer whose sealed answer is still missing."""
    for who, data in (state.get("objectives") or {}).items():
        if isinstance(data, dict) and any(c is None for c in data.get("chosen") or ()):
            return str(who)
    return None


def planned(state: State, actions: Sequence[str]) -> str | None:
    """The plan's move at the open decision, or None where the plan has nothing to say
    (the search then chooses among all the choices)."""
    tasks = state.get("tasks") or []
    if not tasks:
        return None
    top = tasks[-1]
    kind = top.get("kind")
    if kind == "objectives":
        return _objective(state, actions)
    if top.get("actor") == "gov":
        return government_move(state, top, actions)
    if kind == "placement":
        return _placement(state, top, actions)
    if kind == "regime_change":
        return regime_choice(state, actions)
    if kind in ("act", "attempt") and commune_pending(state, str(top.get("actor"))):
        return _commune_move(top, actions)
    if kind == "act" and top.get("segment") == "revolt":
        region = planned_revolt(state, str(top["actor"]))
        return TRY(region) if region and TRY(region) in actions else None
    if kind == "attempt" and top.get("segment") == "revolt":
        if planned_revolt(state, str(top["actor"])) != top.get("target"):
            return None
        return _all_in(top, actions)
    if kind == "act" and top.get("segment") == "plot":
        who = str(top["actor"])
        target = planned_target(state, who)
        if target and TRY(target) in actions:
            return TRY(target)
        more = marais_plot(state, who) if who in LEFT else extra_plot(state, who)
        return TRY(more) if more and TRY(more) in actions else None
    if kind == "attempt" and top.get("segment") == "plot":
        who = str(top["actor"])
        target = top.get("target")
        if (
            top.get("persons") is None
            or planned_target(state, who) == target
            or (who in LEFT and isinstance(target, str) and controller(state, target) in SWAYED)
            or (who in RIGHT and target == extra_plot(state, who))
        ):
            return _all_in(top, actions)
    return None


def _commune_move(top: dict[str, object], actions: Sequence[str]) -> str | None:
    """A Current that declared the raising of the Commune (``bot_commune``): nothing
    in the segments before it (7.4: plots and the rest come first and would use up the
    Personalities and the money it needs), then the attempt with everyone and every
    roll it can pay for."""
    if top.get("segment") != "commune":
        return DONE() if top.get("kind") == "act" and DONE() in actions else None
    if top.get("kind") == "act":
        return TRY(RAISE_TARGET) if TRY(RAISE_TARGET) in actions else None
    return _all_in(top, actions) if top.get("target") == RAISE_TARGET else None


def _all_in(top: dict[str, object], actions: Sequence[str]) -> str | None:
    """A planned attempt's answers: every Personality there (7.1), then every roll
    that can be paid for."""
    if top.get("persons") is None:
        return "with:all" if "with:all" in actions else None
    rolls = [a for a in actions if ROLLS.matches(a)]
    return max(rolls, key=ROLLS.number) if rolls else None


def extra_plot(state: State, who: str) -> str | None:
    """For the Royalist or the Feuillant with no declared plot left to make: the plot
    its placed Personalities make likely enough (``PLAN_ODDS``) and worth most
    (``worth``), if any. Every region is a VP to the Royalist on its way to 25
    (14.2.1) and a VP and a deputy to the Feuillant (R.1.6); money left at the end is
    worth nothing (14.1), and both ended games with a thousand assignats or more."""
    if who not in RIGHT:
        return None
    uprising = planned_revolt(state, who)
    likely = _likely_plots(state, who, lambda region: region != uprising)
    best = max(
        ((worth(state, who, region, chance), region) for region, chance in likely),
        key=lambda found: found[0],
        default=None,
    )
    return best[1] if best else None


def marais_plot(state: State, who: str) -> str | None:
    """For a left-wing Current with no declared plot left to make: the region of the
    Marais or of nobody where its placed Personalities make a plot likely enough
    (``PLAN_ODDS``) and worth most (``worth``). Every region the Marais loses is a VP
    now and a deputy at the next election, and every neutral region taken a deputy
    (R.1.6, R.2.6), towards the Revolution majority (14.2.2)."""
    likely = _likely_plots(state, who, lambda region: controller(state, region) in SWAYED)
    best = max(
        ((worth(state, who, region, chance), region) for region, chance in likely),
        key=lambda found: found[0],
        default=None,
    )
    return best[1] if best else None


def _likely_plots(
    state: State, who: str, wanted: Callable[[str], bool]
) -> Iterator[tuple[str, float]]:
    """The ``wanted`` regions, in map order, where ``who``'s placed Personalities make a
    plot likely enough (``PLAN_ODDS``) with every roll it can pay for, and that chance."""
    rolls = plot_rolls(state, who)
    if rolls == 0:
        return
    persons = own_free(state, who)
    for region in REGION_NAMES:
        if not wanted(region) or not plottable(state, who, region):
            continue
        helpers = sum(
            1 for n in persons if influential(n, region) and state["persons"][n]["where"] == region
        )
        if helpers == 0:
            continue
        chance = plot_chance(state, who, region, min(helpers, 2), rolls)
        if chance >= PLAN_ODDS:
            yield region, chance


def own_plan(state: State, who: str) -> tuple[str, str] | None:
    """The objective ``who`` can reach by its own hand, as (kind, target): for the
    Montagne or the Sans-Culotte, the regime its seat's Commune opens, else the raising
    of the Commune where it is likely (``bot_commune``); else a plot where one is (6.4,
    7.4.1), else a revolt where one is (7.4.2, ``bot_revolt``)."""
    new = regime_plan(state, who)
    if new is not None:
        return ("regime", new)
    if raise_chance(state, who) >= PLAN_ODDS:
        return ("commune", RAISE_COMMUNE)
    plot = best_plot(state, who)
    if plot is not None:
        return ("plot", plot[0])
    revolt = best_revolt(state, who)
    return ("revolt", revolt[0]) if revolt is not None else None


def shared_plan(state: State, who: str) -> tuple[str, str] | None:
    """For a Current with no plan of its own: the revolt or the raising of the Commune
    that another Current of the same seat (the Montagne and the Sans-Culotte at four
    players, 15.2.2) has declared or will declare, else the revolt the seat's own
    Government will put down where that is likelier than not (``SHARED_SUPPRESSION``).
    Whoever makes it, the deed meets every objective naming it (6.4: anyone's deed
    counts, the Government's too), so the poorer Current of the pair (the Sans-Culotte
    has one Personality and the least income) shares the richer one's."""
    seat = seat_of(state, who)
    if seat is None:
        return None
    mine = seating(state["players"])[seat]
    for mate in mine:
        if mate == who:
            continue
        sealed = sealed_objective(state, mate)
        plan = own_plan(state, mate) if sealed is None else plan_of(sealed)
        if plan is not None and plan[0] in ("revolt", "commune"):
            return plan
    if gov_controller(state) not in mine:
        return None
    sealed = sealed_objective(state, "gov")
    region = suppression_plan(state) if sealed is None else None
    if sealed is not None and plan_of(sealed)[0] == "suppress":
        region = plan_of(sealed)[1]
    rolls = government_rolls(state)
    if region is None or suppress_chance(state, region, rolls) < SHARED_SUPPRESSION:
        return None
    return ("suppress", region)


def objective_of(plan: tuple[str, str]) -> str:
    """The objective (6.4) a plan (kind, target) declares: "kind:target", but the
    Commune's objective by its own name (``plan_of`` reads it back)."""
    kind, target = plan
    return target if kind == "commune" else f"{kind}:{target}"


def plan_of(objective: str) -> tuple[str, str]:
    """The plan (kind, target) an objective declares (the inverse of ``objective_of``)."""
    if objective == RAISE_COMMUNE:
        return ("commune", RAISE_COMMUNE)
    declared = Objective.read(objective)
    return (declared.kind, declared.target)


def _objective(state: State, actions: Sequence[str]) -> str | None:
    """The regime change its seat's Commune opens (R.1.8) or the raising of the
    Commune where it is likely (7.4.4.1, ``bot_commune``), else a plot objective where
    a plot is (6.4, 7.4.1), else a revolt objective where a revolt is (7.4.2,
    ``bot_revolt``: met on an A or a B), else what its seat shares (``shared_plan``:
    the other Current's revolt or Commune, the Government's suppression), in two
    steps: its kind, then its target; for the Government, a burning revolt to put
    down (``bot_government``). Without any the search picks, and in traced games it
    mostly picked objectives that were missed (10.3: a fame point lost each turn)."""
    who = next_objective_declarer(state)
    if who is None:
        return None
    if who == "gov":
        region = suppression_plan(state)
        plan: tuple[str, str] | None = ("suppress", region) if region else None
    else:
        plan = own_plan(state, who) or shared_plan(state, who)
    if plan is None:
        return None
    kind = (state.get("objective_kind") or {}).get(who)
    if kind is None:
        return KIND(plan[0]) if KIND(plan[0]) in actions else None
    if kind == plan[0]:
        wanted = OBJECTIVE(objective_of(plan))
        return wanted if wanted in actions else None
    return None  # another kind was chosen (not by the plan): the search picks its target


def _placement(state: State, top: dict[str, object], actions: Sequence[str]) -> str | None:
    """Send a Personality to the planned plot if he is influential there; otherwise where
    he could plot best, or Paris (6.5)."""
    order = top.get("order")
    index = top.get("index")
    if not isinstance(order, list) or not isinstance(index, int) or index >= len(order):
        return None
    current = str(order[index])
    person = next(
        (
            n
            for n, p in state["persons"].items()
            if p["current"] == current
            and p["status"] == "free"
            and p["where"] is None
            and n != KING
        ),
        None,
    )
    if person is None:
        return None
    if commune_pending(state, current):
        if PLACE("Paris") in actions:
            return PLACE("Paris")
        return MORE() if MORE() in actions else None  # Paris is not on the short list
    target = planned_target(state, current)
    if target and influential(person, target) and PLACE(target) in actions:
        return PLACE(target)
    uprising = planned_revolt(state, current)
    if uprising:
        there = [
            n
            for n, p in state["persons"].items()
            if p["current"] == current and p["where"] == uprising and n != KING
        ]
        if influential(person, uprising) or not there:
            if PLACE(uprising) in actions:
                return PLACE(uprising)
            if MORE() in actions:  # the region is not on the short list (6.5)
                return MORE()
    rolls = max(1, plot_rolls(state, current))
    best: tuple[float, str] | None = None
    for action in actions:
        if not PLACE.matches(action):
            continue
        region = action.split(":", 1)[1]
        if not influential(person, region) or not plottable(state, current, region):
            continue
        helpers = 1 + sum(
            1
            for n, p in state["persons"].items()
            if p["current"] == current and p["where"] == region and influential(n, region)
        )
        chance = plot_chance(state, current, region, min(helpers, 2), rolls)
        value = worth(state, current, region, chance)
        if best is None or value > best[0]:
            best = (value, action)
    if best is not None:
        return best[1]
    return "place:Paris" if "place:Paris" in actions else None
