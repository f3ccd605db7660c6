"""What the search bot should know about La Révolution française (issue #14).

A whole game is about a thousand decisions, so a playout to the end costs the search
almost all of its budget. The hints cut playouts short (``rollout_depth``) and judge
the position by the victory rules of chapter 14 applied to the board as it stands: each
Current's victory points now (14.1), who would win if the game ended now (14.2-14.3),
and how much can still change in the turns left. Playouts and the tree both start from
sensible defaults for each kind of decision (keep your money in the negotiations but
take any gift, no fame modifier on others' laws, your own laws and referendums
supported, your own men found innocent and the others guilty, one roll rather than
three, the best roll kept), so that a simulated Current does not ruin itself the way a random one
does (bankrupt Governments, fame spent on nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from tabletop.framework import Action, GameDefinition, Prompt, State
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import BotHints

from .bot_eval import points_now, seat_chances
from .bot_pacts import followed_pacts, pact_answer
from .bot_plan import planned, unwanted
from .bot_treasury import ruinous_proposals, ruinous_spending, treasury_vote
from .core import gov_controller, seat_of
from .data import seating
from .interphase import winner
from .verbs import KEEP, KIND, PLACEMENT_BACK

#: Playout weight of a choice by its whole action, then by its verb (before ``:``);
#: anything else weighs ``_DEFAULT``. Stopping, passing and modest spending come first.
_WEIGHTS = {
    "pass": 12,
    "done": 4,
    "stay": 3,
    "rolls:1": 4,
    "amount:50": 3,
    "mod:0": 6,
    "king:none": 2,
    "coup:none": 6,
    "veto:no": 2,
    "kidnap:try": 4,
    "vote:abstention": 1,
    "more": 1,
}
_VERB_WEIGHTS = {"offer": 1, "pact": 1, "amount": 1}
_DEFAULT = 2
#: The seat's own Current benefits (its law, its modifier): weight of the right answer.
_OWN = 10
#: Decisions whose default answer is the only one worth making (the best roll kept,
#: money taken, a pact accepted only where it declares): the search plays it without
#: searching, and so do simulated seats.
_CERTAIN = frozenset({"pick_result", "offer_answer"})
#: What only some kinds of decision have a default answer for.
_WITH_DEFAULTS = frozenset(
    {
        "pick_result",
        "fame_vote",
        "law_vote",
        "confidence",
        "negotiate",
        "offer_answer",
        "justice_vote",
        "referendum",
    }
)


#: Choices that only go back to an earlier menu (6.4: the kinds of objective again; 6.5:
#: the short list of regions again). They change nothing in the game, so a search that
#: may play them can go round a menu for ever: the search judges "back, then the same
#: choice" about as well as the choice itself, and a real game stalled at seed 2030 this
#: way (issue 27). The bots never play them; a human player still may.
_RETREATS = frozenset({KIND("back"), PLACEMENT_BACK})


def _forward(actions: Sequence[Action]) -> list[Action]:
    """``actions`` without the choices that go back to an earlier menu (``_RETREATS``),
    or all of them if nothing else is left."""
    ahead = [a for a in actions if a not in _RETREATS]
    return ahead or list(actions)


@lru_cache(maxsize=4096)
def _weight(action: Action) -> int:
    """An action's playout weight (by its whole text, then its verb): the same few
    hundred actions recur in every playout, so each is weighed once."""
    return _WEIGHTS.get(action, _VERB_WEIGHTS.get(action.partition(":")[0], _DEFAULT))


@lru_cache(maxsize=8)
def _seating(players: int) -> tuple[frozenset[str], ...]:
    """The Currents of each seat, for membership tests (``seating`` builds new lists)."""
    return tuple(frozenset(row) for row in seating(players))


def _treasury(state: State, prompt: Prompt) -> Action | None:
    """The vote the Government's treasury decides (10.2.2.1, ``bot_treasury``), or None."""
    tasks = state.get("tasks") or []
    if not tasks:
        return None
    mine = _seating(state["players"])[prompt.seat]
    return treasury_vote(state, tasks[-1], mine, prompt.actions())


def _spoilers(state: State, prompt: Prompt) -> list[Action]:
    """Moves the hints never make: those that spoil the turn's plan (``unwanted``),
    laws and the Government's own spending that would bankrupt the seat's own
    Government (``bot_treasury``) and pacts whose objective the partner would declare
    (``followed_pacts``)."""
    actions = prompt.actions()
    mine = _seating(state["players"])[prompt.seat]
    tasks = state.get("tasks") or []
    spending = ruinous_spending(state, tasks[-1], actions) if tasks else []
    return (
        unwanted(state, actions)
        + ruinous_proposals(state, mine, actions)
        + spending
        + followed_pacts(state, actions)
    )


class RevolutionHints(BotHints):
    """Short playouts judged by chapter 14, and a default answer for every decision.

    The playouts are eight actions long. Four (issue 25) kept decisions quick while the
    evaluation read only the VP margin, which a longer playout mostly blurred; judged by
    chapter 14's thresholds and the election to come (``bot_eval``), eight won more
    (issue 27: 8 of 20 games against 5 of 20, same seeds; balance.md) in about the same
    time a decision (the action cap, ``action_cost``, bounds the longer playouts)."""

    rollout_depth = 8
    #: A simulated action here costs six to seven of Red Flag's (docs/bots.md, measured
    #: with ``tabletop bench --bots``): prompts list every objective and placement, and
    #: each sample deals the sealed objectives again.
    action_cost = 7.0
    #: VP of margin that make a seat about 73% sure to lead, at the last turn; earlier
    #: turns widen it by ``spread_per_turn`` each (more can still change).
    scale = 3.0
    spread_per_turn = 1.5
    #: VP-equivalent of being the Current that would win if the game ended now.
    leader_bonus = 6.0
    #: The part of the evaluation that is the margin of VP rather than chapter 14's
    #: verdict over the futures left (``bot_eval``).
    margin_share = 0.25

    # Playouts -------------------------------------------------------------------------

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        guard = _treasury(state, prompt)
        if guard is not None:
            return guard
        preferred = self._preferred(state, prompt)
        if preferred is not None:
            return preferred
        plan = planned(state, prompt.actions())
        if plan is not None:
            return plan
        spoil = _spoilers(state, prompt)
        choices = [
            c for c in prompt.choices if c.action not in _RETREATS and c.action not in spoil
        ] or list(prompt.choices)
        weights = [_weight(c.action) for c in choices]
        return rng.weighted_choice(choices, weights).action

    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[Action]:
        """Every legal choice but a way back to an earlier menu (``_RETREATS``), the
        default answer first, then by playout weight; only the default answer where it
        is the only sensible one (``_CERTAIN``) or the treasury decides (``bot_treasury``)."""
        guard = _treasury(state, prompt)
        if guard is not None:
            return [guard]
        spoil = _spoilers(state, prompt)
        ahead = _forward(prompt.actions())
        actions = [a for a in ahead if a not in spoil] or ahead
        preferred = self._preferred(state, prompt)
        if preferred is not None and state["tasks"][-1].get("kind") in _CERTAIN:
            return [preferred]
        plan = planned(state, actions)
        if plan is not None:
            return [plan]

        def weight(action: Action) -> int:
            return 1000 if action == preferred else _weight(action)

        return sorted(actions, key=lambda a: -weight(a))

    def _preferred(self, state: State, prompt: Prompt) -> Action | None:
        """The answer a Current's own interest makes obvious, or None."""
        tasks = state.get("tasks") or []
        if not tasks:
            return None
        top = tasks[-1]
        kind = top.get("kind")
        if kind not in _WITH_DEFAULTS:
            return None
        mine = _seating(state["players"])[prompt.seat]
        actions = prompt.actions()
        if kind == "pick_result":  # keep the best letter (A before B before C)
            rolls = top.get("rolls", [])
            best = min(range(len(rolls)), key=lambda i: rolls[i]["letter"], default=None)
            return KEEP(best) if best is not None and KEEP(best) in actions else None
        proposer = top.get("proposer")
        own = proposer in mine or (proposer == "gov" and gov_controller(state) in mine)
        if kind == "fame_vote":
            if own:
                return actions[-1]  # the largest modifier in favour
            return "mod:0" if "mod:0" in actions else None
        if kind == "law_vote" and own:
            yes = [a for a in actions if a.endswith(":yes") or a.endswith(":guilty")]
            return yes[0] if yes else None
        if kind == "confidence":
            vote = "vote:confidence" if gov_controller(state) in mine else None
            return vote if vote in actions else None
        if kind == "negotiate":
            return "pass" if "pass" in actions else None
        if kind == "offer_answer" and top.get("pact"):
            return pact_answer(state, top, actions)  # only a pact it will declare
        if kind == "offer_answer":
            return "accept" if "accept" in actions else None  # money is never refused
        if kind == "justice_vote":
            ours = state["persons"][top["person"]]["current"] in mine
            vote = "vote:innocent" if ours else "vote:guilty"
            return vote if vote in actions else None
        if kind == "referendum" and own:
            return "vote:yes" if "vote:yes" in actions else None
        return None

    # Evaluation -----------------------------------------------------------------------

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        """Each seat's chance to win: mostly chapter 14's verdict over the futures the
        turns left allow (``bot_eval``), thresholds and regime included, and for a part
        (``margin_share``) the softer margin of victory points, so that a seat that wins
        in no future still sees which moves bring it nearer."""
        result = state.get("result")
        if result:
            return [1.0 if rank == 1 else 0.0 for rank in result["seat_rank"]]
        vp = points_now(state)
        chances = seat_chances(state, vp)
        margins = self._margins(state, vp)
        share = self.margin_share
        seats = len(_seating(state["players"]))
        return [
            (1.0 - share) * chance + share * margin
            for chance, margin in zip(chances[:seats], margins[:seats], strict=True)
        ]

    def _margins(self, state: State, vp: dict[str, int]) -> list[float]:
        """Each seat's share of a softmax over its best Current's VP (and a bonus for
        the Current that would win now), the Marais taking its part when automated."""
        rows = _seating(state["players"])
        leader, _, _ = winner(state, vp)
        spread = self.scale + self.spread_per_turn * max(0, 8 - int(state["turn"]))
        scores = []
        for row in rows:
            best = max(vp[c] for c in row)
            scores.append(best + (self.leader_bonus if leader in row else 0.0))
        # The automated Marais (4 and 5 seats) can win too: it takes its share.
        if seat_of(state, "M") is None:
            scores.append(vp["M"] + (self.leader_bonus if leader == "M" else 0.0))
        top = max(scores)
        weights = [math.exp((s - top) / spread) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]
