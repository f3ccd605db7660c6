"""Tic-tac-toe: lines win, a full grid draws, a marked cell is not offered again; and
the conformance kit (views, saves, replays) on the whole game."""

from __future__ import annotations

import pytest

from tabletop.framework import IllegalAction
from tabletop.framework.engine import Engine
from tabletop.framework.testing import GameConformance, new_engine
from tabletop.games.tic_tac_toe import MARK, TicTacToe


class TestTicTacToeConformance(GameConformance):
    game = TicTacToe()


def _play(*cells: int) -> Engine:
    engine = new_engine(TicTacToe())
    for move, cell in enumerate(cells):
        engine.act(move % 2, MARK(cell))
    return engine


@pytest.mark.parametrize(
    ("cells", "winner"),
    [
        ((0, 3, 1, 4, 2), 0),  # X: top row
        ((1, 0, 2, 4, 5, 8), 1),  # O: the diagonal
        ((3, 2, 4, 0, 8, 1), 1),  # O: top row, after X's threat
        ((0, 1, 3, 2, 6), 0),  # X: left column
    ],
)
def test_three_in_a_row_wins_at_once(cells: tuple[int, ...], winner: int) -> None:
    engine = _play(*cells)
    result = engine.result
    assert engine.over and result is not None and result.winners == (winner,)
    assert result.scores == tuple(1.0 if seat == winner else 0.0 for seat in (0, 1))


def test_a_full_grid_without_a_line_is_a_draw() -> None:
    engine = _play(0, 1, 2, 4, 3, 5, 7, 6, 8)
    result = engine.result
    assert result is not None and result.winners == () and "draw" in result.summary
    assert result.scores == (0.5, 0.5)


def test_a_marked_cell_is_not_offered_and_is_refused() -> None:
    engine = _play(4)
    prompt = engine.prompt
    assert prompt is not None and MARK(4) not in prompt.actions() and len(prompt.choices) == 8
    with pytest.raises(IllegalAction):
        engine.act(1, MARK(4))
    assert engine.view(None)["cells"][4] == 0


def test_the_end_is_told_in_the_log() -> None:
    """The last move's events say how the game ended: the log must not just stop."""
    engine = _play(0, 3, 1, 4)
    assert [event.kind for event in engine.act(0, MARK(2))] == ["win"]
    engine = _play(0, 1, 2, 4, 3, 5, 7, 6)
    assert [event.kind for event in engine.act(0, MARK(8))] == ["draw"]


def test_there_is_no_result_while_cells_are_open() -> None:
    engine = _play(0, 3, 1)
    assert TicTacToe().result(engine.state) is None


def test_invariants_hold_in_play_and_catch_a_miscounted_grid() -> None:
    """X moves first, so X has as many marks as O or one more; anything else is a bug."""
    game = TicTacToe()
    engine = _play()
    for cell in (4, 0, 8, 2, 6):
        assert game.invariants(engine.state) == []
        engine.act(engine.state["turn"], MARK(cell))
    assert game.invariants(engine.state) == []
    two_x = {**engine.state, "cells": [0, 0, -1, -1, -1, -1, -1, -1, -1]}
    more_o = {**engine.state, "cells": [1, -1, -1, -1, -1, -1, -1, -1, -1]}
    assert game.invariants(two_x) == ["2 X marks and 0 O marks"]
    assert game.invariants(more_o) == ["0 X marks and 1 O marks"]
