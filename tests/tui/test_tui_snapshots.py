"""Snapshots of the main screens at two terminal sizes (fixed seeds, frozen save times).

Regenerate with ``pytest tests/tui --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_support import FrozenStore, after_keys, open_finished, snapshot_of

from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.new_game import NewGameScreen

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((160, 50), id="160x50")]
HOT_SEAT = ("human", "human")


def stocked_store() -> FrozenStore:
    store = FrozenStore()
    pig_options = {"target": "50", "dice": "one", "banks": "open"}
    seats = ["human", "random", "random"]
    store.keep(
        "pig-evening", "pig", seats, [(0, "roll")] * 4, "Turn 3", seed=11, options=pig_options
    )
    store.keep(
        "secrets-done", "secrets", ["human", "human"], [(0, "reveal")], seed=2, finished=True
    )
    store.broken["half-written"] = "half-written.json: empty file (an interrupted write?)"
    return store


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot_of(snap_compare, size, store=stocked_store())


@pytest.mark.parametrize("size", SIZES)
def test_new_game(snap_compare: Any, size: tuple[int, int]) -> None:
    async def open_dialog(pilot: Any) -> None:
        await pilot.app.push_screen(NewGameScreen("pig"))
        await pilot.pause()

    assert snapshot_of(snap_compare, size, open_dialog, seed=12345)


@pytest.mark.parametrize("size", SIZES)
def test_game(snap_compare: Any, size: tuple[int, int]) -> None:
    play = after_keys("pig", *"1112", seats=("human", "random", "random"), players=3)
    assert snapshot_of(snap_compare, size, play)


@pytest.mark.parametrize("size", SIZES)
def test_handoff(snap_compare: Any, size: tuple[int, int]) -> None:
    play = after_keys("secrets", "enter", "1", seats=HOT_SEAT)
    assert snapshot_of(snap_compare, size, play)


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare: Any, size: tuple[int, int]) -> None:
    async def play(pilot: Any) -> None:
        options = {"target": "50", "dice": "one", "banks": "open"}
        await open_finished(pilot, NewGameSpec("pig", 2, options, ["random", "random"], seed=7))

    assert snapshot_of(snap_compare, size, play)


THREE_SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((100, 30), id="100x30"),
    pytest.param((160, 50), id="160x50"),
]


@pytest.mark.parametrize("size", THREE_SIZES)
def test_board_details_and_warning(snap_compare: Any, size: tuple[int, int]) -> None:
    """The generic board, a long menu with the pass on 0 and a warned choice, the
    highlighted choice's whole text in the details pane, and a heading in the log."""

    play = after_keys("menu", "2", "down", "down", "down", seats=HOT_SEAT)  # to the turncoat
    assert snapshot_of(snap_compare, size, play)


@pytest.mark.parametrize("size", THREE_SIZES)
def test_game_over_explained(snap_compare: Any, size: tuple[int, int]) -> None:
    """The result tab: the game has ended, the winner, how, the summary, the scores."""

    play = after_keys("menu", *"1212", seats=HOT_SEAT)  # four moves: the end
    assert snapshot_of(snap_compare, size, play)
