"""The board widget and its text drawing, from real views; the packaged rules summary."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from tabletop.framework.testing import new_engine
from tabletop.games import la_revolution_francaise as plugin
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.render import render_board


def test_render_board_shows_regions_assembly_and_only_the_viewers_secrets() -> None:
    engine = new_engine(LaRevolutionFrancaise(), seed=1, players=6)
    royal = render_board(engine.view(0))
    assert "Bourges" in royal and "Paris box: Commune calm" in royal
    assert "center Mar 10, hidden 2" in royal
    assert max(len(line) for line in royal.splitlines()) <= 44  # half a 100-column screen
    assert "Royaliste hidden deputies: 2" in royal
    assert "hidden deputies" not in render_board(engine.view(2))  # the Marais has none


def test_board_widget_hook_and_widget_follow_the_game() -> None:
    from textual.app import App, ComposeResult

    assert plugin.tabletop_board_widget("pig") is None
    widget_class = plugin.tabletop_board_widget("la-revolution-francaise")
    engine = new_engine(LaRevolutionFrancaise(), seed=2, players=5)
    view = engine.view(None)

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield widget_class(view=view)

    async def run() -> tuple[str, str]:
        app = Host()
        async with app.run_test() as pilot:
            await pilot.pause()
            board = app.query_one(widget_class)
            first = str(board.render())
            chooser = random.Random(2)
            while engine.state["phase"] != "placement" or engine.state["turn"] < 2:
                prompt = engine.prompt
                assert prompt is not None
                engine.act(prompt.seat, chooser.choice(prompt.choices).action)
            board.update_view(engine.view(None))
            await pilot.pause()
            return first, str(board.render())

    first, later = asyncio.run(run())
    assert "Turn 1 of 8" in first and "Turn 2 of 8" in later


def test_docs_summary_matches_the_packaged_one() -> None:
    docs = (
        Path(__file__).resolve().parents[3] / "docs/games/la-revolution-francaise/rules-summary.md"
    )
    assert docs.read_text(encoding="utf-8") == LaRevolutionFrancaise().rules_summary()


def test_the_docs_name_only_tests_that_exist() -> None:
    """The coverage table and the decisions point at tests by name: a renamed or
    deleted test must not leave the docs claiming coverage that is gone."""
    here = Path(__file__).resolve().parent
    defined = set()
    for module in here.glob("test_*.py"):
        defined |= set(re.findall(r"def (test_\w+)", module.read_text(encoding="utf-8")))
    docs = here.parents[2] / "docs/games/la-revolution-francaise"
    named = set()
    for doc in docs.glob("*.md"):
        named |= set(re.findall(r"`(?:\w+\.py::)?(test_\w+)`", doc.read_text(encoding="utf-8")))
    assert named and named <= defined, sorted(named - defined)
