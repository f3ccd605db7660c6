"""Tic-tac-toe: lines win, a full grid draws, a marked cell is not offered again; and
the conformance kit (views, saves, replays) on the whole game."""

from __future__ import annotations

import pytest

from tabletop.framework import Engine, IllegalAction
from tabletop.framework.testing import GameConformance, new_engine
from tabletop.games.tic_tac_toe import TicTacToe


class TestTicTacToeConformance(GameConformance):
    game = TicTacToe()


def _play(*cells: int) -> Engine:
    engine = new_engine(TicTacToe())
    for move, cell in enumerate(cells):
        engine.act(move % 2, str(cell))
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
    result = engine.result()
    assert engine.over and result is not None and result.winners == (winner,)


def test_a_full_grid_without_a_line_is_a_draw() -> None:
    engine = _play(0, 1, 2, 4, 3, 5, 7, 6, 8)
    result = engine.result()
    assert result is not None and result.winners == () and "draw" in result.summary


def test_a_marked_cell_is_not_offered_and_is_refused() -> None:
    engine = _play(4)
    prompt = engine.prompt
    assert prompt is not None and "4" not in prompt.actions() and len(prompt.choices) == 8
    with pytest.raises(IllegalAction):
        engine.act(1, "4")
    assert engine.view(None)["cells"][4] == 0
