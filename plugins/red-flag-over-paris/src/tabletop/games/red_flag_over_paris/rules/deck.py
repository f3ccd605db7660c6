"""The Strategy deck: drawing, and the reshuffle of the discard pile when it runs out."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State


def draw(state: State, ctx: Context) -> int | None:
    """Top card of the strategy deck; an empty deck takes the reshuffled discards (a
    reconstructed rule: see reconstructed.md). None when both are empty."""
    if not state["deck"] and state["discard"]:
        state["deck"] = [entry[0] for entry in state["discard"]]
        state["discard"] = []
        # Which cards went into this deck is public; determinize needs it (see there).
        state.setdefault("reshuffles", []).append(sorted(state["deck"]))
        ctx.rng.shuffle(state["deck"])
        ctx.emit(
            "deck",
            f"the discard pile ({len(state['deck'])} cards) is shuffled into a new deck",
            about=NOBODY,
        )
    if not state["deck"]:
        return None
    card: int = state["deck"].pop()
    return card
