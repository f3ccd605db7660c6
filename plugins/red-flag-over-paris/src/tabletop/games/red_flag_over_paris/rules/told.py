"""What the table reads of a decision (issue 26). Every decision but the kept objective
(§5.2) is public: the other side sees the card played, the cube placed, the order
chosen, so the log names the choice ("Versailles chose: Place a cube in Press")
rather than "Versailles decided.". An event that would only say the same again is
left out then; the solo opponent answers no prompt and has no choice line, so its
decisions are still told by these events."""

from __future__ import annotations

from typing import Any

from tabletop.framework import Context, State

#: Every prompt of the game but the objective kept (``keep_objective``) is public.
PUBLIC = True


def has_choice_line(state: State, seat: int) -> bool:
    """Whether ``seat`` answered a prompt, so that its public choice line tells every
    seat what it chose: any seat but the solo opponent's (``state["solo"]``)."""
    return seat != state.get("solo")


def restate(state: State, seat: int, ctx: Context, kind: str, text: str, **data: Any) -> None:
    """Log an event that only repeats ``seat``'s public choice, when no choice line
    already tells it (the solo opponent's decision)."""
    if not has_choice_line(state, seat):
        ctx.emit(kind, text, **data)
