"""Tic-tac-toe: two players mark a 3x3 grid in turn; three in a row wins, a full grid
with no line is a draw.

Why it is here: it is the smallest complete game, so it measures what the framework
itself costs per decision, and OpenSpiel ships the same game in Python and in C++, so
``tabletop bench --openspiel`` can time the three side by side. The rules are the
common ones (no rulebook is needed); the code is written for this project.

Like every game here it runs on the framework's stack with a declared verb: the one
decision, "mark a cell", stays on top of the stack and is asked again, seat after
seat, until the game ends (a line or a full grid finishes it). Its prompts and the
cells its actions name are made once, so the stack costs little per decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from tabletop.framework import (
    Action,
    Choice,
    Context,
    Decision,
    GameDefinition,
    GameInfo,
    GameRegistrar,
    Prompt,
    Result,
    Sides,
    Stack,
    State,
    Verb,
    hookimpl,
    views,
)
from tabletop.framework.actions import Int

MARKS = ("X", "O")
SIDES = Sides.fixed(*MARKS)
#: The eight lines of three cells (rows, columns, diagonals), cells numbered 0-8.
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
#: The lines through each cell: a mark can only complete one of these.
_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
#: The one action (§2): mark a cell, 0-8 row by row ("mark:4" is the centre).
MARK = Verb("mark", Int("cell", 0, 8))
#: One choice per cell, made once: a prompt offers those of the empty cells.
_CHOICES = tuple(
    Choice(MARK(cell), f"Mark row {cell // 3 + 1}, column {cell % 3 + 1}") for cell in range(9)
)
#: The cell each action names, read once through the verb (an action is one of these:
#: the engine has checked it against the prompt).
_CELL = {MARK(cell): MARK.value(MARK(cell)) for cell in range(9)}
_TEXT = ("X to mark a cell", "O to mark a cell")
RULES = """\
# Tic-tac-toe

## §1 Goal
Be the first to have three of your marks in a row: across, down or on a diagonal.

## §2 A turn
X moves first, then the players take turns. On your turn you put your mark in one empty
cell of the 3x3 grid; marks never move.

## §3 The end
Three in a row wins at once. When the grid is full and nobody has three in a row, the
game is a draw.
"""
#: Every prompt made so far, by (seat, the grid's marks): at most 2 x 3**9. Keyed on the
#: whole grid because copying it into a tuple is a few times cheaper than working out
#: its empty cells, which is only done once per grid.
_PROMPTS: dict[tuple[int, tuple[int, ...]], Prompt] = {}


class Marking(TypedDict):
    """The one task: whoever's turn it is marks a cell (§2)."""

    name: str


def mark_prompt(state: State, task: Marking) -> Prompt:
    """§2: the seat to play marks one of the empty cells."""
    seat: int = state["turn"]
    key = (seat, tuple(state["cells"]))
    prompt = _PROMPTS.get(key)
    if prompt is None:  # prompts are immutable: one per grid and seat
        empty = [cell for cell, mark in enumerate(key[1]) if mark < 0]
        prompt = Prompt(seat, _TEXT[seat], tuple(_CHOICES[cell] for cell in empty), "§2")
        _PROMPTS[key] = prompt
    return prompt


def mark_apply(state: State, task: Marking, action: Action, ctx: Context) -> None:
    """§2-§3: the mark is placed; a line wins and a full grid draws, which finishes the
    decision (the stack is then empty: the game is over); otherwise the other seat is
    asked the same question."""
    cells = state["cells"]
    cell = _CELL[action]
    seat: int = state["turn"]
    cells[cell] = seat
    for a, b, c in _THROUGH[cell]:
        if cells[a] == cells[b] == cells[c]:
            state["winner"], state["over"] = seat, True
            GRID.finish(state)
            ctx.emit("win", "three in a row")
            return
    if -1 not in cells:
        state["over"] = True
        GRID.finish(state)
        ctx.emit("draw", "the grid is full: a draw")
        return
    state["turn"] = 1 - seat


#: The game's rules: one decision, asked until the game ends.
GRID = Stack([Decision[Marking]("mark", mark_prompt, mark_apply)])


class TicTacToe(GameDefinition):
    info = GameInfo(
        id="tic-tac-toe",
        title="Tic-tac-toe",
        min_players=2,
        max_players=2,
        description="Mark three cells in a row on a 3x3 grid before your opponent does.",
        version="1.1.0",
    )
    fresh_views = True

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return MARKS

    def sides(self, players: int, options: Mapping[str, str]) -> Sides:
        """Two sides, X (who moves first) and O: a tournament tells how often each
        side wins, whichever bot plays it."""
        return SIDES

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {
            "stack": [{"name": "mark"}],
            "cells": [-1] * 9,
            "turn": 0,
            "winner": None,
            "over": False,
        }

    def prompt(self, state: State) -> Prompt | None:
        return GRID.prompt(state)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        GRID.apply(state, action, ctx)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cells = state["cells"]
        rows = [" ".join("." if m < 0 else MARKS[m] for m in cells[r : r + 3]) for r in (0, 3, 6)]
        winner = state["winner"]
        if state["over"]:
            status = "Draw" if winner is None else f"{MARKS[winner]} wins"
        else:
            status = f"{MARKS[state['turn']]} to play"
        return {
            "status": status,
            "zones": [views.zone("Grid", contents=rows)],
            "cells": list(cells),
        }

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        winner = state["winner"]
        if winner is None:
            return Result((), (0.5, 0.5), "a draw: the grid is full")
        scores = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
        return Result((winner,), scores, f"{MARKS[winner]} has three in a row", side=MARKS[winner])

    def rules_summary(self) -> str:
        return RULES

    def describe(self, state: State) -> str:
        return f"{9 - state['cells'].count(-1)} cells marked"

    def invariants(self, state: State) -> Sequence[str]:
        cells = state["cells"]
        x, o = cells.count(0), cells.count(1)
        return [] if x - o in (0, 1) else [f"{x} X marks and {o} O marks"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(TicTacToe())
