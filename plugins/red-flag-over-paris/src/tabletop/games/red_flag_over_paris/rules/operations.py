"""§7.2-§7.5 Operations: spend Operations Points in Political or Military spaces where
the side is present or next to a space it controls, removing first, then placing.

Presence and control are assessed once before removing and again before placing
(§3.3): the task's ``assessment`` freezes them. A political removal always works
(§7.3); a military one needs strength 3, or a card drawn from the deck worth no more
than the strength (§7.4).
"""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from .. import board
from ..board import other
from ..data import CARDS, DISC_NAMES, SIDE_NAMES, card_name, space_name
from . import deck
from .tasks import Assessment, Operations
from .warnings import breach_notes


def _eligible(task: Operations) -> list[str]:
    assessment = task["assessment"]
    assert assessment is not None and "eligible" in assessment
    return assessment["eligible"]


def _assessment(task: Operations) -> Assessment:
    assert task["assessment"] is not None
    return task["assessment"]


def remove_choices(state: State, task: Operations) -> list[Choice]:
    opp, points = other(task["seat"]), task["points"]
    out: list[Choice] = []
    for s in _eligible(task):
        enemy_cubes = board.cubes(state, s, opp)
        enemy_disc = board.disc_owner(state, s) == opp
        if not enemy_cubes and not enemy_disc:
            continue
        what = "cube" if enemy_cubes else DISC_NAMES[opp]
        if task["space_kind"] == "political":
            if points >= 1:
                out.append(Choice(f"rm:{s}", f"Remove a cube from {space_name(s)} (1 OP)"))
            continue
        cost = 2 if enemy_disc else 1
        strength = board.military_strength(_assessment(task), s, False)
        if points >= cost:
            out.append(
                Choice(
                    f"rm:{s}",
                    f"Attack the {what} in {space_name(s)} ({cost} OP, strength {strength})",
                    _attack_detail(strength),
                )
            )
        if strength < 3 and points >= cost + 1:
            out.append(
                Choice(
                    f"rmx:{s}",
                    f"Attack the {what} in {space_name(s)} "
                    f"({cost + 1} OP, strength {strength + 1})",
                    _attack_detail(strength + 1),
                )
            )
    return out


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


def place_choices(state: State, task: Operations) -> list[Choice]:
    seat, points = task["seat"], task["points"]
    out: list[Choice] = []
    detail, breach = breach_notes(state, seat)
    for s in _eligible(task):
        cost = 2 if board.disc_owner(state, s) == other(seat) else 1
        if points >= cost and board.can_place(state, s, seat):
            out.append(
                Choice(f"pl:{s}", f"Place a cube in {space_name(s)} ({cost} OP)", detail, breach)
            )
    return out


def prompt(state: State, task: Operations) -> Prompt:
    seat, points = task["seat"], task["points"]
    if task["stage"] == "space_kind":
        assessment = board.snapshot(state, seat)
        kinds = tuple(
            Choice(
                f"kind:{kind}",
                f"{kind.capitalize()} spaces",
                "Open to you now: "
                + (board.where_text(board.eligible(assessment, kind)) or "no space")
                + " (§7.2)",
            )
            for kind in ("political", "military")
        )
        return Prompt(
            seat, f"Operations with {points} OP: Political or Military spaces?", kinds, "§7.2"
        )
    kind = task["space_kind"]
    if task["stage"] == "remove":
        choices = remove_choices(state, task)
        choices.append(Choice("toplace", "Stop removing; go on to placing cubes", key=PASS_KEY))
        rule = "§7.3" if kind == "political" else "§7.4"
        return Prompt(
            seat, f"Operations ({kind}, {points} OP left): remove first", tuple(choices), rule
        )
    choices = place_choices(state, task)
    choices.append(
        Choice("done", "Finish operations", consequence=_unspent_note(points), key=PASS_KEY)
    )
    return Prompt(
        seat, f"Operations ({kind}, {points} OP left): place cubes", tuple(choices), "§7.5"
    )


def apply(state: State, task: Operations, action: str, ctx: Context) -> None:
    seat = task["seat"]
    verb, _, space = action.partition(":")
    if verb == "kind":
        task["space_kind"] = space
        task["stage"] = "remove"
        task["assessment"] = None
    elif verb == "toplace":
        task["stage"] = "place"
        task["assessment"] = None
    elif verb == "done":
        state["stack"].pop()
    elif verb == "pl":
        task["points"] -= 2 if board.disc_owner(state, space) == other(seat) else 1
        board.place_cube(state, space, seat)
        ctx.emit("place", f"places a cube in {space_name(space)}", space=space)
    else:
        _remove(state, task, space, verb == "rmx", ctx)


def _remove(state: State, task: Operations, space: str, extra: bool, ctx: Context) -> None:
    """§7.3/§7.4: a political removal always works; a military one may need a draw."""
    seat = task["seat"]
    opp = other(seat)
    has_cube = board.cubes(state, space, opp) > 0
    if task["space_kind"] == "political":
        task["points"] -= 1
        board.remove_cube(state, space, opp)
        ctx.emit(
            "remove",
            f"removes a {SIDE_NAMES[opp]} cube from {space_name(space)} (§7.3)",
            space=space,
        )
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
    """Assess presence and control when a stage starts (§3.3); end the removals when none
    is possible, and the operations when the points or the placements run out."""
    if task["stage"] == "space_kind":
        return False
    if task["assessment"] is None:
        assessment = board.snapshot(state, task["seat"])
        assessment["eligible"] = board.eligible(assessment, task["space_kind"] or "")
        task["assessment"] = assessment
    if task["points"] <= 0:
        state["stack"].pop()
        return True
    if task["stage"] == "remove" and not remove_choices(state, task):
        task["stage"] = "place"
        task["assessment"] = None
        return True
    if task["stage"] == "place" and not place_choices(state, task):
        state["stack"].pop()
        return True
    return False
