"""Tiny games for framework tests: each exercises one engine feature, nothing more.

The home of the tests' toy games (Liar's Dice and its leaky variants are in liars.py;
the terminal UI's own are in tests/tui/tui_support.py). A broken variant used by one
test file stays in that file; one that a plugin installed by fakesite.py must import
by name lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletop.framework import (
    Action,
    Bot,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
)
from tabletop.games.pig import Pig


def renamed(info: GameInfo, id: str, title: str, **changes: Any) -> GameInfo:
    """``info`` under another id and title: a variant registers beside its original."""
    return replace(info, id=id, title=title, **changes)


class HighCard(GameDefinition):
    """Each seat holds a hidden card; in turn each may keep it, swap it (a random draw)
    or, in the variant, peek at a public counter (a move that touches no randomness)."""

    info = GameInfo(
        id="highcard",
        title="High Card",
        min_players=2,
        max_players=4,
        options=(OptionSpec("deck", "Deck", (("10", "1-10"), ("20", "1-20")), "10"),),
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(f"Seat {n}" for n in range(players))

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        top = int(options["deck"])
        cards = [ctx.rng.randint(1, top) for _ in range(players)]
        for seat, card in enumerate(cards):
            ctx.emit("deal", f"you hold {card}", seats=[seat], card=card)
        return {"top": top, "cards": cards, "turn": 0, "taps": 0, "done": False}

    def prompt(self, state: State) -> Prompt | None:
        if state["done"]:
            return None
        return Prompt(
            state["turn"],
            "Keep, swap or tap?",
            (Choice("keep", "Keep"), Choice("swap", "Swap"), Choice("tap", "Tap the table")),
            rule="§1",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap":
            state["taps"] += 1
            ctx.emit("tap", "taps the table")
            return
        if action == "swap":
            state["cards"][seat] = ctx.rng.randint(1, state["top"])
            ctx.emit("swap", "swaps a card")
        state["turn"] += 1
        if state["turn"] == len(state["cards"]):
            state["done"] = True
            ctx.reveal("cards shown", cards=list(state["cards"]))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = [
            card if state["done"] or index == seat else None
            for index, card in enumerate(state["cards"])
        ]
        return {"held": cards, "turn": state["turn"], "taps": state["taps"]}

    def result(self, state: State) -> Result | None:
        if not state["done"]:
            return None
        best = max(state["cards"])
        winners = tuple(i for i, card in enumerate(state["cards"]) if card == best)
        return Result(winners, tuple(float(c) for c in state["cards"]), f"high card {best}")


class OpenHighCard(HighCard):
    """High Card played face up: an open-information game (undo may cross bot moves)."""

    info = renamed(HighCard.info, "openhighcard", "Open High Card", hidden_information=False)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"held": list(state["cards"]), "turn": state["turn"], "taps": state["taps"]}


class Exploding(HighCard):
    """High Card whose code raises on the second 'tap': a buggy plugin."""

    info = renamed(HighCard.info, "exploding", "Exploding", max_players=2, hidden_information=False)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap" and state["taps"] == 1:
            state["taps"] = 99  # half-done change the engine must roll back
            raise ZeroDivisionError("boom")
        super().apply(state, seat, action, ctx)


class Counter(GameDefinition):
    """One seat counts up, one event per count, until ``limit``: no chance, nothing
    hidden, for tests of what runs around a game (the UI, saves, undo's memory)."""

    info = GameInfo(id="counter", title="Counter", min_players=1, max_players=1, version="1")
    limit = 5

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Counter",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"n": 0}

    def choices(self) -> tuple[Choice, ...]:
        return (Choice("tick", "Count one more"),)

    def prompt(self, state: State) -> Prompt | None:
        return None if state["n"] >= self.limit else Prompt(0, "Count on", self.choices())

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["n"] += 1
        ctx.emit("tick", f"counts to {state['n']}")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"n": state["n"]}

    def result(self, state: State) -> Result | None:
        return Result((0,), (float(state["n"]),), "Counted.") if state["n"] >= self.limit else None


class Crashy(Bot):
    """A bot whose thinking raises, quoting a secret: the error must be reported, and
    the secret must stay out of the log."""

    name = "crashy"

    def choose(self, *args: Any) -> Action:
        raise ValueError("the bot saw SECRET-CARD-7 and lost its marbles")


# Broken Pig variants that an installed plugin registers (see fakesite.install_games).


class SetState(Pig):
    """Keeps a set in its state after the third action: not JSON."""

    info = renamed(Pig.info, "set-pig", "Set Pig", max_players=3, version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        if state["turn"] >= 3:
            state["seen"] = {seat}


class BadDescribe(Pig):
    """A progress line that raises: every save of it fails."""

    info = renamed(Pig.info, "bad-describe", "Bad Describe", max_players=3, version="0.1")

    def describe(self, state: State) -> str:
        raise RuntimeError("describe is broken")


class Cursed(Pig):
    """Breaks its own invariant from turn 4 on: every fuzzed game fails, replayably."""

    info = renamed(Pig.info, "cursed", "Cursed Pig", max_players=3, version="0.1")

    def invariants(self, state: State) -> list[str]:
        return ["turn 4 is cursed"] if state["turn"] >= 4 else []


class Flaky(Pig):
    """Raises in ``apply`` at turn ``fail_at``, in every game that gets there: a game
    fault each batch run must count with the seed that reproduces it."""

    info = renamed(Pig.info, "flaky-pig", "Flaky Pig", version="0.1")
    fail_at = 7

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == self.fail_at and self.fails(state):
            raise KeyError("bug")
        super().apply(state, seat, action, ctx)

    def fails(self, state: State) -> bool:
        return True


class SometimesFlaky(Flaky):
    """Fails only with 8 or more points at risk at turn 7: some games, not all."""

    info = renamed(Pig.info, "sometimes-flaky-pig", "Sometimes Flaky Pig", version="0.1")

    def fails(self, state: State) -> bool:
        return bool(state["turn_total"] >= 8)
