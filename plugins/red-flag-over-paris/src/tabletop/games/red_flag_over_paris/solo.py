"""The solitaire mode's solo opponent (rulebook pp. 8-11, as summarised in the brief's
components.md): a side the game plays itself by a fixed procedure.

The solo opponent never gets a prompt. Whenever a decision of its seat is due, the
decision stack (``rules/table.py``) hands it to ``solo_turn.act``: its card play is the
solo turn (``solo_turn.turn``), and every other decision (a cube of an event, a step of
its operations, a bonus action) is answered by ``decide`` below from the legal choices
of the prompt, so it can never make an illegal move. Its ties are broken by the game's
random source (the physical game rolls a die), which keeps games reproducible from seed
and log.

The space-selection tables of the player aid are not public: ``PLACE_TABLE`` and
``REMOVE_TABLE`` are reconstructed from the summary's definitions (Room, Isolated,
Available cubes) and listed, with the other reconstructed choices, in
docs/games/red-flag-over-paris/reconstructed.md (section 4, provenance
``reconstructed``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.actions import Verb

from . import board, events
from .board import other
from .data import (
    CARDS,
    COMMUNE,
    CUBE_LIMIT,
    DIM_SPACES,
    FINAL_ZONE,
    MOMENTUM_MAX,
    PLAYS,
    ROUNDS,
    SPACES,
    VERSAILLES,
)
from .verbs import (
    APPLY,
    DE_ESCALATE,
    DECLINE,
    DISC,
    DONE,
    ENEMY,
    EVENT_OPTION,
    FROM,
    KIND,
    OWN,
    PASS,
    PERFORM,
    PIVOT,
    PLACE,
    PLAY_SECOND,
    PUT,
    REMOVE,
    REMOVE_EXTRA,
    SCORE_FIRST,
    SKIP,
    SPREAD,
    STOP,
    TAKE,
    TO,
    TO_PLACE,
    TURNCOAT,
)

#: A task of the decision stack (``rules.tasks``), read by name and fields.
Task = Mapping[str, Any]

#: Cards taken out of the deck for solitaire play (the summary's setup, rulebook p.8).
REMOVED_CARDS = (1, 12, 13, 22, 29, 30)
#: The option values: which side the solo opponent plays ("off": two players).
OPTION = "solo"
SIDES = {"versailles": VERSAILLES, "commune": COMMUNE}
#: Spaces whose cubes of that side are never Isolated (the summary's definitions).
NEVER_ISOLATED = (
    ("royalists", "mont_valerien", "fort_issy"),
    ("social_movements", "pere_lachaise"),
)
#: The kind of operations the solo opponent prefers: the VP type its victory counts
#: (§13.1: Versailles' Military VP against the Commune's Political VP). Reconstructed.
OPS_KIND = ("military", "political")


def seat_of(state: State) -> int | None:
    """The solo opponent's seat, or None in a two-player game."""
    seat = state.get("solo")
    return None if seat is None else int(seat)


# Definitions --------------------------------------------------------------------------


def available(state: State, seat: int) -> int:
    """Available cubes: the pool and the Crisis Track short of the Final Crisis zone
    (bonus spaces never count); in round 3 or the Final Crisis, once either side has
    breached its Final Crisis zone, that zone counts too."""
    track: list[int] = state["track"][seat]
    count = int(state["pool"][seat]) + sum(track[:FINAL_ZONE])
    late = state["fc"] or state["round"] >= ROUNDS
    if late and state["fc_first"] is not None:
        count += track[FINAL_ZONE]
    return count


def room(state: State, space: str, seat: int) -> bool:
    """Room: the bot may add cubes until it leads the player by 1 (2 in a Pivotal
    Space); a space with 4 of its cubes never has Room."""
    if board.cubes(state, space, seat) >= CUBE_LIMIT:
        return False
    lead = 2 if SPACES[space].pivotal else 1
    return board.pieces(state, space, seat) < board.pieces(state, space, other(seat)) + lead


def isolated(state: State, space: str, seat: int) -> bool:
    """A cube of ``seat`` in ``space`` not adjacent to any space that side controls."""
    if space in NEVER_ISOLATED[seat]:
        return False
    return not any(board.controls(state, a, seat) for a in SPACES[space].adjacent)


def objective_spaces(state: State, seat: int) -> set[str]:
    """The space on the bot's own objective. It scores the player's too when it controls
    it, but aims only at its own: the player's card is hidden from it until revealed."""
    card = state["objective"][seat]
    return set() if card is None else {CARDS[card].space or ""}


# The space-selection tables (reconstructed) -------------------------------------------

Row = Callable[[State, str, int], bool]


def _most_player_cubes(state: State, spaces: Sequence[str], seat: int) -> list[str]:
    most = max(board.cubes(state, s, other(seat)) for s in spaces)
    return [s for s in spaces if board.cubes(state, s, other(seat)) == most]


#: Where to place a cube: keep the spaces that pass each row in turn, skipping a row
#: that would leave none; a die breaks what ties remain.
PLACE_TABLE: tuple[tuple[str, Row | None], ...] = (
    ("gains control", lambda st, s, b: board.pieces(st, s, b) == board.pieces(st, s, other(b))),
    ("a Pivotal Space", lambda st, s, b: SPACES[s].pivotal),
    ("on its objective", lambda st, s, b: s in objective_spaces(st, b)),
    ("the player is present", lambda st, s, b: board.pieces(st, s, other(b)) > 0),
    ("not Isolated", lambda st, s, b: not isolated(st, s, b)),
)


#: Where to remove a player's cube, by the same procedure.
def _breaks_control(state: State, space: str, seat: int) -> bool:
    """Removing one of the player's cubes in ``space`` ends the player's control."""
    return board.controls(state, space, other(seat)) and (
        board.pieces(state, space, other(seat)) - 1 <= board.pieces(state, space, seat)
    )


REMOVE_TABLE: tuple[tuple[str, Row | None], ...] = (
    ("breaks the player's control", _breaks_control),
    ("a Pivotal Space", lambda st, s, b: SPACES[s].pivotal),
    ("on its objective", lambda st, s, b: s in objective_spaces(st, b)),
    ("the player's cube is Isolated", lambda st, s, b: isolated(st, s, other(b))),
    ("most player cubes", None),  # a ranking, not a test: see select()
)


def select(
    state: State,
    spaces: Sequence[str],
    seat: int,
    table: Sequence[tuple[str, Row | None]],
    ctx: Context,
) -> str | None:
    """The table's choice among ``spaces`` (None when there is none)."""
    left = list(dict.fromkeys(spaces))
    if not left:
        return None
    for _label, row in table:
        if len(left) == 1:
            break
        if row is None:
            kept = _most_player_cubes(state, left, seat)
        else:
            kept = [s for s in left if row(state, s, seat)]
        if kept:
            left = kept
    if len(left) == 1:
        return left[0]
    return left[ctx.rng.randbelow(len(left))]


# Events ------------------------------------------------------------------------------


def has_effect(state: State, seat: int, steps: Sequence[dict[str, Any]]) -> bool:
    """Whether carrying out ``steps`` for the bot would change anything other than
    raise the player's momentum (the summary: such events are skipped)."""
    for step in steps:
        if not events.check(state, seat, step.get("if")):
            continue
        kind = step["do"]
        if kind == "place_cubes":
            if available(state, seat) and any(
                room(state, s, seat) for s in events.target_spaces(step)
            ):
                return True
        elif kind == "remove_cubes":
            if any(board.cubes(state, s, other(seat)) for s in events.target_spaces(step)):
                return True
        elif kind == "operations":
            return True
        elif kind == "momentum":
            who = seat if step["who"] == "self" else other(seat)
            level = state["momentum"][who] + step["delta"]
            changes = 0 <= level <= MOMENTUM_MAX
            if changes and not (who != seat and step["delta"] > 0):
                return True
        elif kind == "place_disc":
            spaces = [s for s in events.target_spaces(step) if SPACES[s].kind == "military"]
            if board.discs_off_map(state, seat) and any(
                board.disc_owner(state, s) is None for s in spaces
            ):
                return True
        elif kind == "recover_cubes":
            if state["out"][seat]:
                return True
        elif kind == "choose" and any(
            has_effect(state, seat, option["steps"]) for option in step["options"]
        ):
            return True
    return False


def event_useful(state: State, seat: int, card: int) -> bool:
    return events.playable(state, seat, card) and has_effect(
        state, seat, events.event_steps(card, [])
    )


# The solo turn -----------------------------------------------------------------------


def may_play(state: State, seat: int) -> bool:
    """The bot plays 3 cards a round from the deck; in the Final Crisis, one card for
    each round played, the last being its Final Crisis card."""
    if state["fc"]:
        return bool(state.get("solo_fc_plays", 0) > 0)
    return bool(state["plays"][seat] < PLAYS)


# Every other decision ----------------------------------------------------------------

#: How the bot answers one kind of decision: its action, or None to fall back.
Rule = Callable[[State, Task, list[str], int, Context], "str | None"]


def decide(state: State, task: Task, actions: Sequence[str], ctx: Context) -> str:
    """The bot's answer to a prompt of its seat, from the prompt's legal ``actions``."""
    seat = task["seat"]
    kind = task["name"]
    answer = _RULES[kind](state, task, list(actions), seat, ctx) if kind in _RULES else None
    if answer is None or answer not in actions:
        answer = _fallback(actions)
    return answer


#: The answers that do least, in the order the bot falls back on them.
_QUIET = tuple(verb() for verb in (STOP, DONE, PASS, DECLINE, SKIP, PLAY_SECOND))


def _fallback(actions: Sequence[str]) -> str:
    for quiet in _QUIET:
        if quiet in actions:
            return quiet
    return actions[0]


def _spaces(actions: Sequence[str], verb: Verb) -> list[str]:
    return [verb.arg(a) for a in actions if verb.matches(a)]


def _place(state: State, actions: list[str], seat: int, verb: Verb, ctx: Context) -> str | None:
    """A placement by the Place table: only with Room and an Available cube."""
    if available(state, seat) <= 0:
        return None
    spaces = [s for s in _spaces(actions, verb) if room(state, s, seat)]
    chosen = select(state, spaces, seat, PLACE_TABLE, ctx)
    return None if chosen is None else verb(chosen)


def _placing(state: State, task: Task, actions: list[str], seat: int, ctx: Context) -> str | None:
    """An event's cube or a §9.3 cube, by the Place table."""
    return _place(state, actions, seat, PUT, ctx)


def _by_table(verb: Verb, table: Sequence[tuple[str, Row | None]]) -> Rule:
    """The rule that picks ``verb``'s space among the offered ones by ``table`` (discs
    go even where there is no Room; the bot never moves one)."""

    def rule(state: State, task: Task, actions: list[str], seat: int, ctx: Context) -> str | None:
        chosen = select(state, _spaces(actions, verb), seat, table, ctx)
        return None if chosen is None else verb(chosen)

    return rule


def _operations(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    if task["stage"] == "space_kind":
        first = OPS_KIND[seat]
        second = "political" if first == "military" else "military"
        snap = board.snapshot(state, seat)
        for kind in (first, second):
            if any(
                room(state, s, seat) or board.pieces(state, s, other(seat))
                for s in board.eligible(snap, kind)
            ):
                return KIND(kind)
        return KIND(first)
    if task["stage"] == "remove":
        targets = _spaces(actions, REMOVE)
        breaking = [s for s in targets if _breaks_control(state, s, seat)]
        can_place = available(state, seat) > 0 and any(
            room(state, s, seat) for s in task["assessment"]["eligible"]
        )
        if not breaking and can_place:
            return TO_PLACE()
        chosen = select(state, targets, seat, REMOVE_TABLE, ctx)
        if chosen is None:
            return TO_PLACE()
        if (
            task["space_kind"] == "military"
            and REMOVE_EXTRA(chosen) in actions
            and board.military_strength(task["assessment"], chosen, False) == 1
        ):
            return REMOVE_EXTRA(chosen)  # the extra OP at Military Value 1
        return REMOVE(chosen)
    return _place(state, actions, seat, PLACE, ctx) or DONE()


def _event_option(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    """Exclusive options: the first that has an effect."""
    step = events.event_steps(task["card"], [])[task["step"]]
    for index, option in enumerate(step["options"]):
        if has_effect(state, seat, option["steps"]):
            return EVENT_OPTION(index)
    return EVENT_OPTION(0)


def _apply_if_useful(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    useful = event_useful(state, seat, task["card"])
    if APPLY() in actions:
        return APPLY() if useful else DECLINE()
    return PERFORM() if useful else SKIP()


def _scoring_order(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    return SCORE_FIRST(seat)


def _initiative_order(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    """With the higher initiative the bot plays second."""
    return PLAY_SECOND()


# Bonus actions (§10.1), the first that applies of a) to f) ----------------------------


def _controlled(state: State, spaces: Sequence[str], seat: int) -> int:
    return sum(1 for s in spaces if board.controls(state, s, seat))


def _best_spread(state: State, seat: int, dim: str) -> tuple[int, list[list[str]]]:
    """The most spaces of ``dim`` one or two cube moves gain the bot, and the moves."""
    spaces = DIM_SPACES[dim]
    base = _controlled(state, spaces, seat)
    best: tuple[int, list[list[str]]] = (0, [])
    cubes = state["cubes"]

    def moves() -> list[tuple[str, str]]:
        return [
            (a, b)
            for a in spaces
            for b in spaces
            if a != b and cubes[a][seat] > 0 and cubes[b][seat] < CUBE_LIMIT
        ]

    for a, b in moves():
        cubes[a][seat] -= 1
        cubes[b][seat] += 1
        gain = _controlled(state, spaces, seat) - base
        if gain > best[0]:
            best = (gain, [[a, b]])
        for c, d in moves():
            cubes[c][seat] -= 1
            cubes[d][seat] += 1
            gain2 = _controlled(state, spaces, seat) - base
            if gain2 > best[0]:
                best = (gain2, [[a, b], [c, d]])
            cubes[c][seat] += 1
            cubes[d][seat] -= 1
        cubes[a][seat] += 1
        cubes[b][seat] -= 1
    return best


def _turncoat_gains(state: State, space: str, seat: int) -> tuple[bool, bool]:
    """(gains the bot control, ends the player's control) for a Turncoat in ``space``."""
    cubes = state["cubes"][space]
    had, theirs = board.controls(state, space, seat), board.controls(state, space, other(seat))
    cubes[other(seat)] -= 1
    cubes[seat] += 1
    gained = board.controls(state, space, seat) and not had
    ended = theirs and not board.controls(state, space, other(seat))
    cubes[other(seat)] += 1
    cubes[seat] -= 1
    return gained, ended


def _bonus_action(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    dim = task["dimension"]
    spread_gain, plan = _best_spread(state, seat, dim) if SPREAD() in actions else (0, [])
    turns = _spaces(actions, TURNCOAT)
    gains = {s: _turncoat_gains(state, s, seat) for s in turns}
    if spread_gain >= 2:  # a)
        state["solo_plan"] = plan
        return SPREAD()
    gaining = [s for s in turns if gains[s][0]]
    if gaining and available(state, seat) > 0:  # b)
        return TURNCOAT(select(state, gaining, seat, PLACE_TABLE, ctx))
    if spread_gain == 1:  # c)
        state["solo_plan"] = plan
        return SPREAD()
    if DE_ESCALATE() in actions:  # d)
        for s in DIM_SPACES[dim]:
            lead = board.pieces(state, s, seat) - board.pieces(state, s, other(seat))
            if board.cubes(state, s, seat) and lead >= (3 if SPACES[s].pivotal else 2):
                state["solo_plan"] = [["own", s]]
                return DE_ESCALATE()
    ending = [s for s in turns if gains[s][1]]
    if ending and available(state, seat) > 0:  # e)
        return TURNCOAT(select(state, ending, seat, REMOVE_TABLE, ctx))
    return PASS()  # f)


def _spread_influence(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    plan: list[list[str]] = state.get("solo_plan") or []
    if not plan:
        state.pop("solo_plan", None)
        return STOP()
    if task["moving_from"] is None:
        return FROM(plan[0][0])
    move = plan.pop(0)
    if not plan:
        state.pop("solo_plan", None)
    return TO(move[1])


def _de_escalate(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    plan: list[list[str]] = state.get("solo_plan") or []
    if plan:
        state.pop("solo_plan", None)
        return OWN(plan[0][1])
    chosen = select(state, _spaces(actions, ENEMY), seat, REMOVE_TABLE, ctx)
    return STOP() if chosen is None else ENEMY(chosen)


def _bonus_order(
    state: State, task: Task, actions: list[str], seat: int, ctx: Context
) -> str | None:
    """As Initiative Player the bot acts after the player: the player's spaces first."""
    for space in _spaces(actions, PIVOT):
        if board.controller(state, space) == other(seat):
            return PIVOT(space)
    return actions[0]


_RULES: dict[str, Rule] = {
    "event_placement": _placing,
    "event_removal": _by_table(TAKE, REMOVE_TABLE),
    "disc_placement": _by_table(DISC, PLACE_TABLE),
    "operations": _operations,
    "momentum_placement": _placing,
    "event_option": _event_option,
    "event_consent": _apply_if_useful,
    "objective_event": _apply_if_useful,
    "scoring_order": _scoring_order,
    "initiative_order": _initiative_order,
    "bonus_action": _bonus_action,
    "spread_influence": _spread_influence,
    "de_escalate": _de_escalate,
    "bonus_order": _bonus_order,
}
