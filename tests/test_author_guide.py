"""The author guide's sections on the one-page API, the decision stack, typed actions,
response windows and fuzz reach (docs/writing-a-game.md, sections 20-24) run, and the
game they build, Toll Bridge, is a sound game (issue 26).

The blocks are run as tests/test_eco_tutorial.py runs every block of the page (units by
``<!-- unit: NAME -->``); this file checks what those sections promise."""

from __future__ import annotations

from typing import Any

import pytest
from test_eco_tutorial import DOC, run_units

from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import new_engine


@pytest.fixture(scope="module")
def units() -> dict[str, dict[str, Any]]:
    return run_units(DOC.read_text(encoding="utf-8"))


def test_the_sections_blocks_are_on_the_page(units: dict[str, dict[str, Any]]) -> None:
    assert {"api", "bridge", "actions"} <= set(units)
    text = DOC.read_text(encoding="utf-8")
    for title in ("Rules as a decision stack", "Typed actions", "Response windows"):
        assert f". {title}\n" in text


def test_toll_bridge_passes_the_fuzzer(units: dict[str, dict[str, Any]]) -> None:
    report = fuzz(
        units["bridge"]["TollBridge"](),
        games=20,
        seed=2,
    )
    assert report.errors == 0, report.failures[:1]
    assert set(report.reach.rules) == {"§2", "§3"}


def test_the_first_toll_closes_the_window_and_nobody_after_is_asked(
    units: dict[str, dict[str, Any]],
) -> None:
    bridge = units["bridge"]
    engine = new_engine(bridge["TollBridge"](), players=3)
    engine.act(0, bridge["LOAD"](2))
    assert engine.prompt is not None and engine.prompt.seat == 1
    engine.act(1, bridge["TOLL"]())
    assert engine.prompt is not None and engine.prompt.seat == 1  # Carter 3 never asked
    assert engine.prompt.text.startswith("How much")
    lines = [engine.event_line(event) for event in engine.events_for(2)]
    assert "Carter 2: demands a toll (toll)" in lines
    assert engine.view(None)["coins"] == [1, 1, 0]


def test_when_everyone_lets_the_cart_pass_it_sells_everything(
    units: dict[str, dict[str, Any]],
) -> None:
    bridge = units["bridge"]
    engine = new_engine(bridge["TollBridge"](), players=3)
    engine.act(0, bridge["LOAD"](3))
    engine.act(1, bridge["LET"]())
    engine.act(2, bridge["LET"]())
    assert engine.view(None)["coins"] == [3, 0, 0]
    assert engine.view(None)["next"] == ["arrive", "toll", "load"]  # carter 2's trip
