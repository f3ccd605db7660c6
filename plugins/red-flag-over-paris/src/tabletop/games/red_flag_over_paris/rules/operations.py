"""§7.2-§7.5 Operations: spend Operations Points in Political or Military spaces where
the side is present or next to a space it controls, removing first, then placing.

Presence and control are assessed once before removing and again before placing
(§3.3): the task's ``assessment`` freezes them. A political removal always works
(§7.3); a military one needs strength 3, or a card drawn from the deck worth no more
than the strength (§7.4).
"""

from __future__ import annotations

from functools import cache, lru_cache

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.actions import Verb
from tabletop.framework.stack import Decision, Rule

from .. import board
from ..board import other
from ..data import CARDS, CUBE_LIMIT, DISC_NAMES, SIDE_NAMES, card_name, space_name
from ..verbs import DONE, KIND, PLACE, REMOVE, REMOVE_EXTRA, TO_PLACE, VERBS
from . import deck
from .choices import space_choice
from .tasks import TASKS, Assessment, Operations
from .told import PUBLIC, restate
from .warnings import breach_notes


def _eligible(task: Operations) -> list[str]:
    assessment = task["assessment"]
    assert assessment is not None and "eligible" in assessment
    return assessment["eligible"]


def _assessment(task: Operations) -> Assessment:
    assert task["assessment"] is not None
    return task["assessment"]


def _removal_targets(state: State, task: Operations) -> list[tuple[str, int, bool]]:
    """(space, OP cost, whether an enemy cube is there) of each eligible space holding an
    enemy piece: a cube costs 1 OP, a military attack on a disc 2 (§7.3-§7.4)."""
    opp = 1 - task["seat"]
    counts_of, discs = state["cubes"], state["discs"]
    targets: list[tuple[str, int, bool]] = []
    if not discs:  # the usual case: cubes alone
        for s in _eligible(task):
            if counts_of[s][opp] > 0:
                targets.append((s, 1, True))
        return targets
    political = task["space_kind"] == "political"
    for s in _eligible(task):
        enemy_cubes = counts_of[s][opp] > 0
        enemy_disc = discs.get(s) == opp
        if enemy_cubes or enemy_disc:
            targets.append((s, 2 if enemy_disc and not political else 1, enemy_cubes))
    return targets


def _removals(state: State, task: Operations) -> tuple[tuple[str, int, bool, int], ...]:
    """``_removal_targets`` with the attack strength of each (0 in political spaces)."""
    political = task["space_kind"] == "political"
    assessment = _assessment(task)
    removals: list[tuple[str, int, bool, int]] = []
    for s, cost, cubes in _removal_targets(state, task):
        strength = 0 if political else board.military_strength(assessment, s, False)
        removals.append((s, cost, cubes, strength))
    return tuple(removals)


def remove_choices(state: State, task: Operations) -> list[Choice]:
    return _remove_choices(task["seat"], task["space_kind"], task["points"], _removals(state, task))


def _remove_choices(
    seat: int, kind: str | None, points: int, removals: tuple[tuple[str, int, bool, int], ...]
) -> list[Choice]:
    opp = other(seat)
    out: list[Choice] = []
    for s, cost, enemy_cubes, strength in removals:
        if kind == "political":
            if points >= 1:
                out.append(space_choice(REMOVE, "Remove a cube from {} (1 OP)", s))
            continue
        what = "cube" if enemy_cubes else DISC_NAMES[opp]
        if points >= cost:
            out.append(_attack(REMOVE, s, what, cost, strength))
        if strength < 3 and points >= cost + 1:
            out.append(_attack(REMOVE_EXTRA, s, what, cost + 1, strength + 1))
    return out


def removal_possible(state: State, task: Operations) -> bool:
    """Whether ``remove_choices`` offers anything, without building its choices: an
    attack with the extra point costs more than the plain one, so the plain cost decides."""
    points = task["points"]
    for _, cost, _ in _removal_targets(state, task):  # noqa: SIM110 (a loop: no generator)
        if points >= cost:
            return True
    return False


# The words of a choice depend on a few small values only: each is built once.


@cache
def _attack(verb: Verb, space: str, what: str, cost: int, strength: int) -> Choice:
    return Choice(
        verb(space),
        f"Attack the {what} in {space_name(space)} ({cost} OP, strength {strength})",
        _attack_detail(strength),
    )


@cache
def _placement(space: str, cost: int, detail: str, breach: str) -> Choice:
    return Choice(PLACE(space), f"Place a cube in {space_name(space)} ({cost} OP)", detail, breach)


def _attack_detail(strength: int) -> str:
    if strength >= 3:
        return f"Strength {strength}: the attack succeeds without a draw (§7.4)"
    return (
        f"Strength {strength}: a card is drawn from the deck and leaves the game; the "
        f"attack succeeds if the card is worth {strength} OP or less (§7.4)"
    )


def _unspent_note(points: int) -> str:
    """Operations Points are not kept: finishing early throws the rest away (§7.2)."""
    return f"{points} Operations Point(s) left unspent are lost" if points else ""


def _placement_targets(state: State, task: Operations) -> list[tuple[str, int]]:
    """(space, OP cost) of each eligible space where a cube can go within the points: 2 OP
    where the enemy has a disc, else 1 (§7.5)."""
    seat, points = task["seat"], task["points"]
    if not board.available(state, seat) > 0:  # ``board.can_place``, its supply test once
        return []
    counts_of, discs = state["cubes"], state["discs"]
    targets: list[tuple[str, int]] = []
    if not discs:  # the usual case: 1 OP everywhere
        if points >= 1:
            for s in _eligible(task):
                if counts_of[s][seat] < CUBE_LIMIT:
                    targets.append((s, 1))
        return targets
    opp = 1 - seat
    for s in _eligible(task):
        cost = 2 if discs.get(s) == opp else 1
        if points >= cost and counts_of[s][seat] < CUBE_LIMIT:
            targets.append((s, cost))
    return targets


def place_choices(state: State, task: Operations) -> list[Choice]:
    targets = _placement_targets(state, task)
    if not targets:
        return []
    detail, breach = breach_notes(state, task["seat"])
    return [_placement(s, cost, detail, breach) for s, cost in targets]


def placement_possible(state: State, task: Operations) -> bool:
    """Whether ``place_choices`` offers anything, without building its choices (with no
    disc on the map, a cube costs 1 OP anywhere: the first space with room decides)."""
    if state["discs"]:
        return bool(_placement_targets(state, task))
    seat = task["seat"]
    if task["points"] < 1 or not board.available(state, seat) > 0:
        return False
    counts_of = state["cubes"]
    for s in _eligible(task):  # noqa: SIM110 (a loop: no generator, asked after every cube)
        if counts_of[s][seat] < CUBE_LIMIT:
            return True
    return False


@cache
def _space_kind(kind: str, open_spaces: tuple[str, ...]) -> Choice:
    return Choice(
        KIND(kind),
        f"{kind.capitalize()} spaces",
        "Open to you now: " + (board.where_text(list(open_spaces)) or "no space") + " (§7.2)",
    )


@cache
def _done(points: int) -> Choice:
    return Choice(DONE(), "Finish operations", consequence=_unspent_note(points), key=PASS_KEY)


_TO_PLACE = Choice(TO_PLACE(), "Stop removing; go on to placing cubes", key=PASS_KEY)


def prompt(state: State, task: Operations) -> Prompt:
    seat, points = task["seat"], task["points"]
    stage = task["stage"]
    if stage == "space_kind":
        assessment = board.snapshot(state, seat)
        return _kind_prompt(
            seat, points, tuple(assessment["controlled"]), tuple(assessment["present"])
        )
    kind = task["space_kind"]
    if stage == "remove":
        return _remove_prompt(seat, kind, points, _removals(state, task))
    targets = tuple(_placement_targets(state, task))
    detail, breach = breach_notes(state, seat) if targets else ("", "")
    return _place_prompt(seat, kind, points, targets, detail, breach)


# A prompt is decided by a few small values (the open spaces, the targets with their
# costs, the points): each distinct one is built once. The bound keeps a long batch
# run's memory flat.


@lru_cache(maxsize=4096)
def _kind_prompt(
    seat: int, points: int, controlled: tuple[str, ...], present: tuple[str, ...]
) -> Prompt:
    """The choice of space type, from the seat's assessment (§3.3)."""
    political = board.eligible_for("political", controlled, present)
    military = board.eligible_for("military", controlled, present)
    return _kind_prompt_for(seat, points, political, military)


@lru_cache(maxsize=4096)
def _kind_prompt_for(
    seat: int, points: int, political: tuple[str, ...], military: tuple[str, ...]
) -> Prompt:
    """``_kind_prompt`` from the spaces open of each type (fewer than the assessments)."""
    return Prompt(
        seat,
        f"Operations with {points} OP: Political or Military spaces?",
        (_space_kind("political", political), _space_kind("military", military)),
        "§7.2",
        public=PUBLIC,
    )


@lru_cache(maxsize=4096)
def _remove_prompt(
    seat: int, kind: str | None, points: int, removals: tuple[tuple[str, int, bool, int], ...]
) -> Prompt:
    choices = _remove_choices(seat, kind, points, removals)
    choices.append(_TO_PLACE)
    rule = "§7.3" if kind == "political" else "§7.4"
    text = f"Operations ({kind}, {points} OP left): remove first"
    return Prompt(seat, text, tuple(choices), rule, public=PUBLIC)


@lru_cache(maxsize=4096)
def _place_prompt(
    seat: int,
    kind: str | None,
    points: int,
    targets: tuple[tuple[str, int], ...],
    detail: str,
    breach: str,
) -> Prompt:
    choices = [_placement(s, cost, detail, breach) for s, cost in targets]
    choices.append(_done(points))
    text = f"Operations ({kind}, {points} OP left): place cubes"
    return Prompt(seat, text, tuple(choices), "§7.5", public=PUBLIC)


def apply(state: State, task: Operations, action: str, ctx: Context) -> None:
    seat = task["seat"]
    verb, args = VERBS.parse(action)
    space = args[0] if args else ""
    if verb is KIND:
        task["space_kind"] = space
        task["stage"] = "remove"
        task["assessment"] = None
    elif verb is TO_PLACE:
        task["stage"] = "place"
        task["assessment"] = None
    elif verb is DONE:
        TASKS.finish(state)
    elif verb is PLACE:
        task["points"] -= 2 if state["discs"].get(space) == 1 - seat else 1
        board.place_cube(state, space, seat)
        restate(state, seat, ctx, "place", f"places a cube in {space_name(space)}", space=space)
    else:
        _remove(state, task, space, verb is REMOVE_EXTRA, ctx)


def _remove(state: State, task: Operations, space: str, extra: bool, ctx: Context) -> None:
    """§7.3/§7.4: a political removal always works; a military one may need a draw."""
    seat = task["seat"]
    opp = other(seat)
    has_cube = board.cubes(state, space, opp) > 0
    if task["space_kind"] == "political":
        task["points"] -= 1
        board.remove_cube(state, space, opp)
        words = f"removes a {SIDE_NAMES[opp]} cube from {space_name(space)} (§7.3)"
        restate(state, seat, ctx, "remove", words, space=space)
        return
    task["points"] -= (2 if board.disc_owner(state, space) == opp else 1) + (1 if extra else 0)
    strength = board.military_strength(_assessment(task), space, extra)
    success = strength >= 3
    detail = f"strength {strength}"
    if not success:
        drawn = deck.draw(state, ctx)
        if drawn is not None:
            state["removed"].append(drawn)
            success = strength >= CARDS[drawn].ops
            detail += f" against {card_name(drawn)}'s {CARDS[drawn].ops} OP"
            ctx.reveal(
                f"draws {card_name(drawn)} ({CARDS[drawn].ops} OP) from the deck for "
                "the attack; it leaves the game (§7.4)",
                card=drawn,
            )
        else:
            detail += ", no card left to draw"
    if success and has_cube:
        board.remove_cube(state, space, opp)
    elif success:
        del state["discs"][space]
    target = "cube" if has_cube else DISC_NAMES[opp]
    ctx.emit(
        "attack",
        f"attacks the {SIDE_NAMES[opp]} {target} in {space_name(space)}: "
        f"{'success' if success else 'failure'} ({detail}) (§7.4)",
        space=space,
        success=success,
        strength=strength,
    )


def automatic(state: State, task: Operations, ctx: Context) -> bool:
    """Assess presence and control when a stage starts (§3.3), and go on to placing when
    no removal is possible (True: the stage moved on, to be assessed afresh)."""
    stage = task["stage"]
    if stage == "space_kind":
        return False
    if task["assessment"] is None:
        assessment = board.snapshot(state, task["seat"])
        assessment["eligible"] = board.eligible(assessment, task["space_kind"] or "")
        task["assessment"] = assessment
    if stage == "remove" and task["points"] > 0 and not removal_possible(state, task):
        task["stage"] = "place"
        task["assessment"] = None
        return True
    return False


def needed(state: State, task: Operations) -> bool:
    """The operations are over when the points run out, or when no cube can be placed
    (``automatic`` has moved a stage with no removal on to placing)."""
    stage = task["stage"]
    if stage == "space_kind":
        return True
    if task["points"] <= 0:
        return False
    return stage == "remove" or placement_possible(state, task)


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Decision("operations", prompt, apply, automatic=automatic, needed=needed),
)
