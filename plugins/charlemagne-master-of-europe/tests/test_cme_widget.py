"""The board widget: a mid-game view and a battle drawn on screen (Textual's Pilot),
and the hook that hands the widget only to this game."""

from __future__ import annotations

import asyncio
from typing import Any

from cme_helpers import GAME

from tabletop.framework.bots import bot_move
from tabletop.framework.testing import default_factories, new_engine
from tabletop.games import charlemagne_master_of_europe as plugin
from tabletop.games.charlemagne_master_of_europe import StewardBot
from tabletop.games.charlemagne_master_of_europe.board import CUP_NAMES, CUPS
from tabletop.games.charlemagne_master_of_europe.data import (
    BOXES,
    ENEMY_BATTLE_UNITS,
    minimum_army_strength,
    vp_threshold,
)
from tabletop.games.charlemagne_master_of_europe.render import render_board


def _views() -> tuple[dict[str, Any], dict[str, Any]]:
    """A view of the campaign before any battle, and one during a battle (the
    steward's game with seed 1 fights for the Iron Crown on turn 1)."""
    engine = new_engine(GAME, seed=1, players=1)
    rng_factory, _ = default_factories()
    bot = StewardBot()
    calm: dict[str, Any] | None = None
    while engine.prompt is not None:
        view = engine.view(0)
        if view["battle"] is not None and view["battle"]["stage"] != "deploy":
            assert calm is not None
            return calm, view
        if view["phase"] == "campaign" and not view["battle"]:
            calm = view
        engine.act(0, bot_move(engine, bot, rng_factory))
    raise AssertionError("no battle in the steward's game")


def _a_stack(view: dict[str, Any]) -> str:
    """The first box holding two or more counters, top first, as the widget joins it."""
    for box, entry in view["map"].items():
        if len(entry["stack"]) >= 2:
            name = _box_name(box)
            zone = next(z for z in view["zones"] if z["name"].startswith(name))
            return " | ".join(c.removeprefix(name[:-1]) for c in zone["contents"])
    raise AssertionError("no stack of two")


def _box_name(box: str) -> str:
    return BOXES[box].name + " ["


def test_the_hook_gives_the_widget_to_this_game_only() -> None:
    assert plugin.tabletop_board_widget("pig") is None
    assert plugin.tabletop_board_widget("charlemagne-master-of-europe") is not None


def test_the_board_widget_draws_cups_stacks_tracks_and_the_battle_display() -> None:
    from textual.app import App, ComposeResult

    calm, fighting = _views()
    widget_class = plugin.tabletop_board_widget("charlemagne-master-of-europe")

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield widget_class(view=calm)

    async def run() -> tuple[str, str]:
        app = Host()
        async with app.run_test(size=(140, 60)) as pilot:
            await pilot.pause()
            board = app.query_one(widget_class)
            first = str(board.render())
            board.update_view(fighting)
            await pilot.pause()
            return first, str(board.render())

    before, during = asyncio.run(run())
    for cup in CUPS:
        assert f"{CUP_NAMES[cup]} {calm['cup_counts'][cup]}" in before
    assert _a_stack(calm) in before
    vp, turn = calm["numbers"]["vp"], calm["numbers"]["turn"]
    assert f"VP {vp} (threshold {vp_threshold(turn)})" in before
    assert "Battle in" not in before
    box = fighting["battle"]["box"]
    assert f"Battle in {_box_name(box)[:-2]}, round 1" in during
    assert "Left wing: the enemy's line" in during and "Right wing: the enemy's line" in during
    assert during.index("Battle in") < during.index("Map (")  # the battle comes first


def test_a_flipped_enemy_and_the_reserve_show_on_the_battle_display() -> None:
    _, fighting = _views()
    first = fighting["battle"]["enemy"]["left"][0]
    first["reduced"] = True
    unit = ENEMY_BATTLE_UNITS[first["id"]]
    text = render_board(fighting)
    left = text.split("Left wing: the enemy's line, then yours:\n", 1)[1].split("\n", 1)[0]
    assert left.split()[0] == f"1:{unit.reduced_attack}-{unit.reduced_defense}r"
    placed = sum(
        1 for w in ("left", "right") for u in fighting["battle"]["mine"][w] if u is not None
    )
    assert f"Reserve: {len(fighting['army']) - placed} units" in text


def test_the_board_shows_the_army_the_turn_track_and_the_movement_lines() -> None:
    """The findings: the army by type and level, every turn's thresholds and each
    box's connections were not on screen."""
    engine = new_engine(GAME, seed=1, players=1)
    engine.act(0, "marquis:breton_march")
    view = engine.view(0)
    text = render_board(view, 80)
    assert "Army: 20 units, strength 44" in text
    assert "Infantry L1 4, L2 4, L3 4, L4 0" in text and "Scara L2 4, L3 4, L4 0" in text
    assert "Infantry L1-2 0" in text  # the starting army holds every Infantry 1/2 counter
    rows = text.split("Turn track", 1)[1].splitlines()
    assert rows[1].split() == ["Turn", "[1]", *map(str, range(2, 9))]
    assert rows[2].split() == ["VP", *(str(vp_threshold(t)) for t in range(1, 9))]
    assert rows[8].split() == ["Army", *(str(minimum_army_strength(t)) for t in range(9, 17))]
    for box in ("aachen", "carinthia"):
        near = ", ".join(BOXES[b].name for b in BOXES[box].adjacent)
        assert f"{BOXES[box].name}: {near}" in " ".join(text.split())


def test_long_rows_wrap_under_themselves_at_80_columns() -> None:
    """The finding: a long stack wrapped to the left edge. Every line fits the width,
    and a stack's continuation starts under the stack, not at the edge."""
    engine = new_engine(GAME, seed=1, players=1)
    engine.act(0, "marquis:breton_march")
    view = engine.view(0)
    text = render_board(view, 42)
    lines = text.splitlines()
    assert all(len(line) <= 42 for line in lines), [x for x in lines if len(x) > 42]
    row = next(i for i, line in enumerate(lines) if line.startswith("   Lombardy "))
    below = []
    for line in lines[row + 1 :]:
        if not line.startswith(" " * 22):
            break
        below.append(line.strip())
    assert below  # the stack goes on under itself, aligned after the box's name
    stack = " ".join([lines[row][22:], *below])
    assert stack == " ".join(_a_lombardy(view).split())
    wide = render_board(view, 120).splitlines()
    assert any(line.startswith("   Lombardy ") and line.count("|") >= 3 for line in wide)


def _a_lombardy(view: dict[str, Any]) -> str:
    zone = next(z for z in view["zones"] if z["name"].startswith("Lombardy ["))
    return " | ".join(c.removeprefix("Lombardy ") for c in zone["contents"])
