"""6.2: what an event's effects do (``apply_effect``) and how they read in words
(``describe_fx``).

The event tables (events.json) write each effect as a short phrase, a verb and its
words: ``take F Lyon``, ``pays Amiens 300 SC``, ``unless_outlawed hebertiste fame M -2``.
``Effect.read`` reads a phrase once; ``EFFECTS`` is the table of every verb, each a
small named rule with its words for the log and the kinds of its arguments
(``EffectKind.params``), which ``effect_check.check`` holds the data to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.framework import NOBODY, Context, State

from ..core import (
    TASKS,
    adjust_fame,
    adjust_track,
    armies_in,
    commune_may_rise,
    controller,
    enemy_present,
    gov_controller,
    money,
    name,
    pay,
    set_control,
)
from ..data import ADJACENT
from ..factions import FEUILLANT, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..tasks import (
    Step,
)
from ..words import (
    FACTION_NAMES,
    army_name,
)


@dataclass(frozen=True)
class Effect:
    """One effect of an event as the tables write it, read once: its ``verb`` and the
    ``words`` after it (``text`` is the phrase as written, kept for the effects that
    wait for the Interphase)."""

    verb: str
    words: tuple[str, ...]
    text: str

    @classmethod
    def read(cls, text: str) -> Effect:
        verb, _, rest = text.partition(" ")
        return cls(verb, tuple(rest.split(" ")) if rest else (), text)

    @property
    def rest(self) -> str:
        """The words after the verb as written (a region, a Personality's name)."""
        return " ".join(self.words)

    def word(self, index: int, default: str | None = None) -> str | None:
        """The ``index``-th word, or ``default`` when the phrase is shorter."""
        return self.words[index] if len(self.words) > index else default


Apply = Callable[[State, Effect, Context], None]
Words = Callable[[Effect], str]


@dataclass(frozen=True)
class EffectKind:
    """A verb of the event language: what it does, how it reads, and its arguments'
    kinds in order (``PARAMS``; a trailing ``?`` marks an optional one, ``*`` one that
    takes the rest of the phrase, ``+`` one or more words of that kind)."""

    apply: Apply
    words: Words
    params: tuple[str, ...] = ()


def who_text(code: str) -> str:
    """A Current, or one of the event language's words for whoever it is then."""
    return {
        "gov_holder": "Government's Current",
        "not_gov_left": "Montagne or Sans-Culotte not governing",
    }.get(code) or name(code)


def describe_fx(fx: str) -> str:
    """An effect in words: a log line must never read like a code ("commune rises
    none")."""
    effect = Effect.read(fx)
    kind = EFFECTS.get(effect.verb)
    return (kind.words(effect) if kind is not None else "") or fx.replace("_", " ")


def describe_entry(entry: dict[str, Any]) -> str:
    if "decide" in entry:
        return str(entry["decide"]["question"])
    text = "; ".join(describe_fx(fx) for fx in entry["fx"])
    if entry.get("person"):
        text = f"({entry['person']}) " + text
    return text


def apply_effect(state: State, fx: str, ctx: Context) -> None:
    """Apply one effect of the event language (see events.json and components-more.md A)."""
    effect = Effect.read(fx)
    kind = EFFECTS.get(effect.verb)
    if kind is None:
        ctx.emit("events", f"effect not yet implemented, ignored: {fx}", about=NOBODY)
        return
    kind.apply(state, effect, ctx)


def _said(template: str) -> Words:
    """Words that are one sentence: ``{rest}`` stands for the effect's words as
    written (a region), ``{either}`` for its regions joined by "or"."""

    def words(effect: Effect) -> str:
        return template.format(rest=effect.rest, either=" or ".join(effect.words))

    return words


def _ignored_there(region: str, ctx: Context) -> None:
    ctx.emit("events", f"ignored: {region} is in revolt or occupied", about=NOBODY)


# Fame, tracks, money --------------------------------------------------------------------


def _fame(state: State, fx: Effect, ctx: Context) -> None:
    who = gov_controller(state) if fx.words[0] == "gov_holder" else fx.words[0]
    adjust_fame(state, who, int(fx.words[1]), ctx, " (event)")


def _track(state: State, fx: Effect, ctx: Context) -> None:
    adjust_track(state, fx.words[0], int(fx.words[1]), ctx, " (event)")


def _pays(state: State, fx: Effect, ctx: Context) -> None:
    """The holder of a region pays (all it has, at most), unless it is the Current
    exempted."""
    region, amount = fx.words[0], int(fx.words[1])
    holder = controller(state, region)
    if holder is not None and holder != fx.word(2):
        pay(state, holder, min(amount, money(state, holder)), ctx, f" ({region} event)")


def _pays_words(fx: Effect) -> str:
    exempt = fx.word(2)
    return f"the holder of {fx.words[0]} pays {fx.words[1]}" + (
        f" (not the {name(exempt)})" if exempt is not None else ""
    )


def _gov_pays(state: State, fx: Effect, ctx: Context) -> None:
    pay(state, "gov", min(int(fx.rest), money(state, "gov")), ctx, " (event)")


def _receive(state: State, fx: Effect, ctx: Context) -> None:
    current, amount = fx.words[0], int(fx.words[1])
    state["currents"][current]["money"] += amount
    ctx.emit(
        "money",
        f"the {name(current)} receives {fx.words[1]} (event)",
        about=NOBODY,
        money={current: amount},
    )


def _bonus(state: State, fx: Effect, ctx: Context) -> None:
    """A modifier for this turn (``bonuses``), for one Current or for everyone."""
    who_for = fx.word(2)
    if who_for == "not_gov_left":  # FROI political 7: whichever of MT/SC is not governing
        who_for = SANS_CULOTTE if gov_controller(state) == MONTAGNE else MONTAGNE
    key = fx.words[0] + (f":{who_for}" if who_for else "")
    state["bonuses"][key] = state["bonuses"].get(key, 0) + int(fx.words[1])


def _bonus_words(fx: Effect) -> str:
    who_for = fx.word(2)
    return f"this turn: {fx.words[0].replace('_', ' ')} {int(fx.words[1]):+d}" + (
        f" for the {who_text(who_for)}" if who_for is not None else ""
    )


def _subsidies(state: State, fx: Effect, ctx: Context) -> None:
    state["subsidies"] = True


# Regions --------------------------------------------------------------------------------


def _event_revolt(
    state: State, region: str, owner: str | None, blocked: bool, ctx: Context
) -> None:
    """An event's revolt in ``region``, controlled by ``owner`` (None: neutral), unless
    ``blocked``, which the log says (the event then does nothing there)."""
    if blocked:
        ctx.emit("events", f"ignored: no revolt can start in {region}", about=NOBODY)
        return
    state["regions"][region]["revolt"] = True
    set_control(state, region, owner, ctx, " (revolt)", about=NOBODY)
    ctx.emit("revolt", f"{region} revolts (event)", about=NOBODY)


def _neutral(state: State, fx: Effect, ctx: Context) -> None:
    region = fx.rest
    r = state["regions"][region]
    if r["revolt"] or r["coalition"] or (region == "Paris" and state["commune"]["raised"]):
        _ignored_there(region, ctx)
    else:
        set_control(state, region, None, ctx, " (event)", about=NOBODY)


def _neutral_revolt(state: State, fx: Effect, ctx: Context) -> None:
    region = fx.rest
    r = state["regions"][region]
    blocked = r["revolt"] or armies_in(state, region) or region == "Paris" or r["coalition"]
    _event_revolt(state, region, None, bool(blocked), ctx)


def _take_revolt(state: State, fx: Effect, ctx: Context) -> None:
    """A Current's revolt; the Royalist's may rise where the Coalition's armies stand."""
    current, region = fx.words[0], " ".join(fx.words[1:])
    r = state["regions"][region]
    royal_exception = current == ROYALIST and r["coalition"]
    blocked = r["revolt"] or region == "Paris" or (armies_in(state, region) and not royal_exception)
    _event_revolt(state, region, current, bool(blocked), ctx)


def _riot(state: State, fx: Effect, ctx: Context) -> None:
    if controller(state, fx.rest) != ROYALIST:
        set_control(state, fx.rest, None, ctx, " (riot)", about=NOBODY)


def _take(state: State, fx: Effect, ctx: Context) -> None:
    current, region = fx.words[0], " ".join(fx.words[1:])
    r = state["regions"][region]
    if r["revolt"] or r["coalition"]:
        _ignored_there(region, ctx)
    else:
        set_control(state, region, current, ctx, " (event)", about=NOBODY)


# The Commune ----------------------------------------------------------------------------


def _commune_rises(state: State, fx: Effect, ctx: Context) -> None:
    if not commune_may_rise(state):
        return
    leader = None if fx.words[0] == "none" else fx.words[0]
    state["commune"] = {"raised": True, "controller": leader}
    ctx.emit(
        "commune",
        "the Commune rises" + (f" under the {name(leader)}" if leader else ", leaderless"),
        about=NOBODY,
    )


def _commune_rises_words(fx: Effect) -> str:
    leader = fx.words[0]
    return "the Commune rises" + (
        ", leaderless" if leader == "none" else f" under the {who_text(leader)}"
    )


def _commune_calms(state: State, fx: Effect, ctx: Context) -> None:
    if state["commune"]["raised"]:
        leader = state["commune"]["controller"]
        state["commune"] = {"raised": False, "controller": None}
        set_control(state, "Paris", leader, ctx, " (the Commune calms)", about=NOBODY)


# Personalities and deputies -------------------------------------------------------------


def _exile_or_kill(state: State, fx: Effect, ctx: Context) -> None:
    person = fx.rest
    p = state["persons"].get(person)
    if p is not None and p["status"] != "dead":
        exiled = fx.verb == "exile"
        p["status"] = "exiled" if exiled else "dead"
        p["where"] = None
        ctx.emit("person", f"{person} is {'exiled' if exiled else 'dead'} (event)", about=NOBODY)


def _exile_or_kill_words(fx: Effect) -> str:
    return f"{fx.rest} is {'exiled' if fx.verb == 'exile' else 'killed'}"


def _massacre(state: State, fx: Effect, ctx: Context) -> None:
    """The prison massacres: Royalist and Feuillant prisoners die, the King only in
    Prairial's (``massacre king``)."""
    king_too = fx.rest == "king"
    for pname, p in state["persons"].items():
        if (
            p["status"] == "prison"
            and p["current"] in (ROYALIST, FEUILLANT)
            and (pname != "Louis XVI" or king_too)
        ):
            p["status"] = "dead"
            ctx.emit("person", f"{pname} dies in the prison massacres (event)", about=NOBODY)
            if pname == "Louis XVI":
                state["king"]["dead"] = True


def _free_prisoners(state: State, fx: Effect, ctx: Context) -> None:
    for pname, p in state["persons"].items():
        if p["status"] == "prison" and pname != "Louis XVI":
            p["status"] = "fled"
            ctx.emit("person", f"{pname} is freed (event)", about=NOBODY)


def _switch(state: State, fx: Effect, ctx: Context) -> None:
    person, current = fx.words[0], fx.words[1]
    if person in state["persons"] and state["persons"][person]["status"] != "dead":
        state["persons"][person]["current"] = current
        ctx.emit("person", f"{person} joins the {name(current)} (event)", about=NOBODY)


def _deputies_half(state: State, fx: Effect, ctx: Context) -> None:
    source, target = fx.words
    moved = (state["assembly"][source]["count"] + 1) // 2
    state["assembly"][source]["count"] -= moved
    state["assembly"][target]["count"] += moved
    ctx.reveal(f"{moved} {name(source)} deputies join the {name(target)} (event)", about=NOBODY)


def _split_marais(state: State, fx: Effect, ctx: Context) -> None:
    """The Marais deputies go to the governing left Current (the larger half) and to
    the other."""
    count = state["assembly"][MARAIS]["count"]
    holder = gov_controller(state)
    other = SANS_CULOTTE if holder == MONTAGNE else MONTAGNE
    first = (count + 1) // 2
    state["assembly"][MARAIS]["count"] = 0
    state["assembly"][holder]["count"] += first
    state["assembly"][other]["count"] += count - first
    ctx.reveal(
        f"the Marais deputies split: {first} to the {name(holder)}, "
        f"{count - first} to the {name(other)} (event)",
        about=NOBODY,
    )


def _unless(state: State, fx: Effect, ctx: Context) -> None:
    """A penalty that waits for the Interphase (``interphase.pending_penalties``)."""
    state.setdefault("pending_penalties", []).append(fx.text)


def _unless_words(fx: Effect) -> str:
    cond, effect = fx.words[0], " ".join(fx.words[1:])
    unless = "is in prison" if fx.verb == "unless_jailed" else "is outlawed"
    who = f"the {FACTION_NAMES[cond]} faction" if cond in FACTION_NAMES else cond
    return f"at the Interphase, unless {who} {unless}: " + describe_fx(effect)


# Armies ---------------------------------------------------------------------------------


def _withdraw(state: State, fx: Effect, ctx: Context) -> None:
    for army_id in fx.words:
        gone = [a for a in state["armies"] if a["id"] == army_id]
        if gone:
            state["armies"].remove(gone[0])
            state["allied_gone"].append(army_id)
            ctx.emit(
                "army",
                f"{army_name(army_id)} leaves France (event)",
                about=NOBODY,
                army={army_id: "gone"},
            )


def _withdraw_words(fx: Effect) -> str:
    return f"{', '.join(fx.words)} leave{'s' if len(fx.words) == 1 else ''} France"


def _allied_return(state: State, fx: Effect, ctx: Context) -> None:
    if fx.rest in state["allied_gone"]:
        state["allied_gone"].remove(fx.rest)
        ctx.emit("army", f"{army_name(fx.rest)} may enter again (event)", about=NOBODY)


def _allied_return_first(state: State, fx: Effect, ctx: Context) -> None:
    """The first of the armies named that has left France may enter it again."""
    for army_id in fx.words:
        if army_id in state["allied_gone"]:
            state["allied_gone"].remove(army_id)
            ctx.emit("army", f"{army_id} may enter again (event)", about=NOBODY)
            break


def _catholic_back(state: State, fx: Effect, ctx: Context) -> None:
    if state["catholic_gone"]:
        back = state["catholic_gone"].pop(0)
        ctx.emit(
            "army", f"the Catholic & Royal army {back} may be raised again (event)", about=NOBODY
        )


def _army_removed(state: State, fx: Effect, ctx: Context) -> None:
    """A revolutionary army in the first of the regions named that has one is removed."""
    for region in fx.words:
        found = armies_in(state, region, "rev")
        if found:
            state["armies"].remove(found[0])
            ctx.emit(
                "army",
                f"{army_name(found[0]['id'])} at {region} is removed (event)",
                about=NOBODY,
                army={found[0]["id"]: "gone"},
            )
            break


def _retreat(state: State, fx: Effect, ctx: Context) -> None:
    """A revolutionary army in the first of the regions named that has one falls back
    to a neighbour free of enemies (Paris first, then by name)."""
    for region in fx.words:
        found = armies_in(state, region, "rev")
        if found:
            near = sorted(ADJACENT[region], key=lambda r: (r != "Paris", r))
            safe = [r for r in near if not enemy_present(state, r)]
            if safe:
                found[0]["where"] = safe[0]
                ctx.emit(
                    "army",
                    f"a revolutionary army retreats from {region} to {safe[0]}",
                    about=NOBODY,
                )
            break


def _jaunaye(state: State, fx: Effect, ctx: Context) -> None:
    if any(a["side"] == "catholic" for a in state["armies"]):
        adjust_track(state, "clergy", -5, ctx, " (La Jaunaye)")


def _temp_army(state: State, fx: Effect, ctx: Context) -> None:
    army_id = f"temporary_{state['turn']}"
    state["armies"].append({"id": army_id, "side": "rev", "kind": "temporary", "where": "Paris"})
    ctx.emit(
        "army",
        "the Government has a temporary army in Paris this turn",
        about=NOBODY,
        army={army_id: "new"},
    )


def _desert(state: State, fx: Effect, ctx: Context) -> None:
    """The Royalist chooses the deserting army (``event_decisions.desert_prompt``)."""
    if any(a["side"] == "rev" for a in state["armies"]):
        TASKS.schedule(state, Step(kind="desert"))


#: Every verb of the event language.
EFFECTS: dict[str, EffectKind] = {
    "fame": EffectKind(
        _fame, lambda fx: f"{who_text(fx.words[0])} fame {int(fx.words[1]):+d}", ("who", "int")
    ),
    "track": EffectKind(
        _track,
        lambda fx: f"{fx.words[0].capitalize()} {int(fx.words[1]):+d}",
        ("track", "int"),
    ),
    "neutral": EffectKind(_neutral, _said("{rest} becomes neutral"), ("region*",)),
    "neutral_revolt": EffectKind(_neutral_revolt, _said("{rest} revolts, neutral"), ("region*",)),
    "take_revolt": EffectKind(
        _take_revolt,
        lambda fx: f"{name(fx.words[0])} takes {' '.join(fx.words[1:])} in revolt",
        ("current", "region*"),
    ),
    "riot": EffectKind(_riot, _said("royalist riot in {rest}"), ("region*",)),
    "take": EffectKind(
        _take,
        lambda fx: f"{name(fx.words[0])} takes {' '.join(fx.words[1:])}",
        ("current", "region*"),
    ),
    "pays": EffectKind(_pays, _pays_words, ("region", "int", "current?")),
    "gov_pays": EffectKind(_gov_pays, _said("the Government pays {rest}"), ("int",)),
    "receive": EffectKind(
        _receive, lambda fx: f"the {name(fx.words[0])} receives {fx.words[1]}", ("current", "int")
    ),
    "bonus": EffectKind(_bonus, _bonus_words, ("key", "int", "who?")),
    "subsidies": EffectKind(
        _subsidies,
        _said("English subsidies for the Royalist while the Coalition is at 15 or more"),
    ),
    "commune_rises": EffectKind(_commune_rises, _commune_rises_words, ("leader",)),
    "commune_calms": EffectKind(
        _commune_calms, _said("the Commune calms down and its leader takes Paris")
    ),
    "exile": EffectKind(_exile_or_kill, _exile_or_kill_words, ("person*",)),
    "kill": EffectKind(_exile_or_kill, _exile_or_kill_words, ("person*",)),
    "massacre": EffectKind(
        _massacre, _said("prison massacres: Royalist and Feuillant prisoners die"), ("king?",)
    ),
    "free_prisoners": EffectKind(_free_prisoners, _said("every prisoner is freed")),
    "switch": EffectKind(
        _switch,
        lambda fx: f"{fx.words[0]} joins the {name(fx.words[1])}",
        ("person", "current"),
    ),
    "deputies_half": EffectKind(
        _deputies_half,
        lambda fx: f"half the {name(fx.words[0])} deputies join the {name(fx.words[1])}",
        ("current", "current"),
    ),
    "split_marais": EffectKind(
        _split_marais,
        _said("the Marais deputies split between the Montagne and the Sans-Culotte"),
    ),
    "unless_jailed": EffectKind(_unless, _unless_words, ("person", "effect*")),
    "unless_outlawed": EffectKind(_unless, _unless_words, ("faction", "effect*")),
    "withdraw": EffectKind(_withdraw, _withdraw_words, ("allied+",)),
    "allied_return": EffectKind(
        _allied_return, _said("{either} may enter France again"), ("allied",)
    ),
    "allied_return_first": EffectKind(
        _allied_return_first, _said("{either} may enter France again"), ("allied+",)
    ),
    "catholic_back": EffectKind(
        _catholic_back, _said("a destroyed Catholic & Royal army may be raised again")
    ),
    "army_removed": EffectKind(
        _army_removed, _said("a revolutionary army at {either} is removed"), ("region+",)
    ),
    "retreat": EffectKind(
        _retreat, _said("a revolutionary army at {either} retreats"), ("region+",)
    ),
    "jaunaye": EffectKind(
        _jaunaye, _said("Peace of La Jaunaye: Clergy -5 if a Catholic & Royal army stands")
    ),
    "temp_army": EffectKind(
        _temp_army, _said("the Government has a temporary army in Paris this turn")
    ),
    "desert": EffectKind(_desert, _said("the Royalist picks a revolutionary army that deserts")),
}
