"""The generic screen's promises on a real card game, Red Flag Over Paris (issue 11):
every option of a card-play menu is one key away at 100x30, the log says what
``tabletop export`` says at 80, 100 and 160 columns, and the rules open at the section
the decision cites. Only what the plugin has on main is relied on: positions are
reached by playing the first choice, and menus are found by their size."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_support import app_on, current, engine_of, pilot_test, run, screen_text, wait_until

from tabletop.adapters.saves import JsonSaveStore
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList, GameLog
from tabletop.app.cli import main as cli
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.framework.session import GameSession

GAME = "red-flag-over-paris"
#: A card-play menu at least this long is "long" (the issue counted 12-15 options).
LONG_MENU = 12


def registry() -> GameRegistry:
    found = load_registry()
    if GAME not in found.games:
        pytest.skip("Red Flag Over Paris is not installed")
    return found


def to_long_menu(session: GameSession) -> None:
    """Play the first choice until a person faces a long menu."""
    engine = session.engine
    for _ in range(80):
        prompt = engine.prompt
        assert prompt is not None, "the game ended before a long menu"
        if len(prompt.choices) >= LONG_MENU:
            return
        session.act(prompt.seat, prompt.choices[0].action)
    raise AssertionError("no long menu in the first 80 decisions")


@asynccontextmanager
async def at_long_menu() -> AsyncIterator[tuple[TabletopApp, Pilot[None], SeatScreen]]:
    """The app at 100x30 with a hot-seat game open where a person faces a long menu."""
    async with app_on(registry=registry()) as (app, pilot):
        session = app.start_game(NewGameSpec(GAME, 2, {}, ["human", "human"], seed=1))
        assert session is not None
        to_long_menu(session)
        app.open_game(session)
        await wait_until(pilot, lambda: isinstance(app.screen, HandoffScreen))  # hot-seat
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(current(app), SeatScreen))
        await pilot.pause()
        screen = current(app)
        assert isinstance(screen, SeatScreen)
        yield app, pilot, screen


@pilot_test
async def test_every_option_of_a_card_play_menu_has_a_key_at_100x30() -> None:
    async with at_long_menu() as (_app, pilot, screen):
        prompt = engine_of(screen).prompt
        assert prompt is not None and len(prompt.choices) >= LONG_MENU
        choices = screen.query_one("#choices", ChoiceList)
        assert all(choices.keys) and len(set(choices.keys)) == len(prompt.choices)
        last = choices.keys[-1]  # the option furthest down the list
        before = len(engine_of(screen).log)
        await pilot.press(last)
        await wait_until(pilot, lambda: len(engine_of(screen).log) > before)
        assert engine_of(screen).log[before].action == prompt.choices[-1].action


@pilot_test
async def test_the_rules_open_at_the_section_a_card_play_cites() -> None:
    async with at_long_menu() as (app, pilot, screen):
        prompt = engine_of(screen).prompt
        assert prompt is not None and prompt.rule
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(current(app), RulesScreen))
        await pilot.pause()
        rules = current(app)
        assert isinstance(rules, RulesScreen) and rules.target is not None
        section = rules.sections[rules.target]
        cited = prompt.rule.lstrip("§R.").split(".")
        assert cited[: len(section.number.split("."))] == section.number.split(".")
        top = screen_text(app).splitlines()[2]
        assert section.title.split(" ")[0] in top  # the cited section is at the top


@pytest.mark.parametrize("width", [80, 100, 160])
def test_the_log_of_a_card_game_is_its_export_at_any_width(
    width: int, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bots play a whole game; the spectator's log on the game-over screen says,
    character for character, what ``tabletop export`` prints of the save."""
    seen: dict[str, Any] = {}

    async def main() -> None:
        store = JsonSaveStore(isolated_env / "saves")
        opened = app_on(size=(width, 30), registry=registry(), store=store)
        async with opened as (app, pilot):
            session = app.start_game(NewGameSpec(GAME, 2, {}, ["random", "random"], seed=2))
            assert session is not None
            session.run()
            app.open_game(session)
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("l")
            await pilot.pause()
            log = app.screen.query_one("#final-log", GameLog)
            seen["shown"] = log.text_lines()
            seen["entries"] = [entry.plain for entry in log.entries()]
            seen["path"] = store.path_of(session.save_id or "")
            assert max(len(line.rstrip()) for line in seen["shown"]) <= width - 4

    run(main)
    capsys.readouterr()
    assert cli(["export", str(seen["path"]), "--log"]) == 0
    exported = capsys.readouterr().out.splitlines()[1:-1]  # less title and result
    assert [line[6:] for line in exported] == seen["entries"]  # entry for entry
    assert " ".join(exported).split() == " ".join(seen["shown"]).split()  # every character
