"""The terminal UI when things go wrong: a failing autosave, a game whose code exits or
blocks. The player is told, can still quit, and never loses a move without being asked.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sessions import DICE_FACTORY, RNG_FACTORY
from textual.widgets import Input, Static
from toygames import Counter, renamed
from tui_support import engine_of, pilot_test, press, wait_until

from tabletop.adapters.saves import JsonSaveStore, read_save_file
from tabletop.adapters.tui import app as app_module
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens import seat as seat_screen
from tabletop.adapters.tui.screens.error import ErrorScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.unsaved import UnsavedScreen
from tabletop.framework import Action, Choice, Context, State, hookimpl
from tabletop.framework.errors import SaveError
from tabletop.framework.plugins import load_registry
from tabletop.framework.record import GameRecord
from tabletop.framework.session import SessionStarter
from tabletop.framework.testing import new_engine

#: Released at the end of the blocking test, so its mover thread ends too.
RELEASE = threading.Event()


@pytest.fixture
def blocking(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test in which the game's code may block: the UI's patience is short (0.2 s to
    a "still working" note), and RELEASE is set at the end whatever happened, so that
    no blocked mover thread outlives the test."""
    monkeypatch.setattr(app_module, "MOVE_WAIT_SECONDS", 0.2)
    monkeypatch.setattr(seat_screen, "ANSWER_LATE_SECONDS", 0.2)
    monkeypatch.setattr(app_module, "LOAD_WAIT_SECONDS", 0.2)
    RELEASE.clear()
    yield
    RELEASE.set()


class Tricky(Counter):
    """Count to five; 'exit' calls sys.exit, 'block' waits until RELEASE is set."""

    info = renamed(Counter.info, "tricky", "Tricky")

    def choices(self) -> tuple[Choice, ...]:
        return (*super().choices(), Choice("exit", "Exit"), Choice("block", "Block"))

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "exit":
            state["n"] = 99
            sys.exit("the plugin quits")
        if action == "block":
            RELEASE.wait(30)
            return
        super().apply(state, seat, action, ctx)


class Hostile(Tricky):
    """Markup and escapes in its title, and a describe() that raises after a move."""

    info = renamed(
        Tricky.info,
        "hostile",
        "[/oops] [bold]Evil\x1b[2J",
        description="\x1b]0;pwned\x07 [link=x]y",
    )

    def describe(self, state: State) -> str:
        if state["n"] >= 1:
            raise RuntimeError("describe is broken")
        return "starting"


class Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Tricky())
        register(Hostile())


class FailingStore(JsonSaveStore):
    """A save directory that fills up after the first save."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.full = False

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        if self.full:
            raise SaveError("cannot write save [/oops]: No space left on device")  # markup too
        self.full = True
        return super().save(record, save_id)


class NotedApp(TabletopApp):
    """The app, noting every notification it shows (what the player reads)."""

    # A relative CSS_PATH is read beside the module that sets it: name the app's own.
    CSS_PATH = str(Path(app_module.__file__).with_name(str(TabletopApp.CSS_PATH)))

    def __init__(self, sessions: SessionStarter, **settings: Any) -> None:
        super().__init__(sessions, **settings)
        self.told: list[str] = []

    def notify(self, message: str, **details: Any) -> None:
        self.told.append(message)
        super().notify(message, **details)


@asynccontextmanager
async def _running(store: JsonSaveStore) -> AsyncIterator[tuple[NotedApp, Any]]:
    """The app with the two faulty games, saving to ``store``, under Pilot and settled:
    the opening every test here shares."""
    registry = load_registry(plugins=[("faulty", Plugin())], use_entry_points=False)
    sessions = SessionStarter(registry, RNG_FACTORY, DICE_FACTORY, store)
    app = NotedApp(sessions, bot_delay=0.0, new_seed=lambda: 7)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        yield app, pilot


@asynccontextmanager
async def _playing(
    store: JsonSaveStore, game: str = "tricky"
) -> AsyncIterator[tuple[NotedApp, Any, SeatScreen]]:
    """``_running`` with a one-seat game of ``game`` open on its game screen."""
    async with _running(store) as (app, pilot):
        session = app.start_game(NewGameSpec(game, 1, {}, ["human"], 7))
        assert session is not None
        app.open_game(session)
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        yield app, pilot, screen


def _status(screen: SeatScreen) -> str:
    return str(screen.query_one("#status", Static).render())


@pilot_test
async def test_quitting_with_a_failing_autosave_asks_and_saves_elsewhere(tmp_path: Path) -> None:
    rescue = tmp_path / "elsewhere" / "rescued.json"
    async with _playing(FailingStore(tmp_path / "saves")) as (app, pilot, screen):
        await press(pilot, "1")
        await press(pilot, "1")
        played = len(engine_of(screen).log)
        assert "NOT SAVED" in _status(screen) and "No space left" in _status(screen)
        await press(pilot, "ctrl+q")
        assert isinstance(app.screen, UnsavedScreen), "quit at once with unsaved moves"
        app.screen.query_one("#unsaved-path", Input).value = str(rescue)
        await press(pilot, "enter")
    record, _ = read_save_file(rescue)
    assert len(record.actions) == played == 2


@pilot_test
async def test_a_second_ctrl_q_quits_without_saving_and_escape_stays(tmp_path: Path) -> None:
    async with _playing(FailingStore(tmp_path / "saves")) as (app, pilot, screen):
        await press(pilot, "1")
        await press(pilot, "escape")  # leaving the game asks too
        assert isinstance(app.screen, UnsavedScreen)
        await press(pilot, "escape")  # back to the game
        assert screen.is_current
        await press(pilot, "ctrl+q")
        assert isinstance(app.screen, UnsavedScreen)
        await press(pilot, "ctrl+q")
    assert app.return_code == 0


@pilot_test
async def test_quitting_with_everything_saved_asks_nothing(tmp_path: Path) -> None:
    async with _playing(JsonSaveStore(tmp_path / "saves")) as (app, pilot, _):
        await press(pilot, "1")
        await press(pilot, "ctrl+q")
        assert not isinstance(app.screen, UnsavedScreen)


@pilot_test
async def test_sys_exit_in_apply_is_shown_and_the_ui_goes_on(tmp_path: Path) -> None:
    async with _playing(JsonSaveStore(tmp_path / "saves")) as (app, pilot, screen):
        await press(pilot, "1")
        await press(pilot, "2")  # 'exit': the game's code calls sys.exit
        assert isinstance(app.screen, ErrorScreen)
        assert engine_of(screen).state["n"] == 1, "the state was not restored"
        await press(pilot, "escape")
        await press(pilot, "1")
        assert engine_of(screen).state["n"] == 2


@pilot_test
async def test_a_blocked_apply_leaves_the_ui_working_and_finishes_later(
    tmp_path: Path, blocking: None
) -> None:
    async with _playing(JsonSaveStore(tmp_path / "saves")) as (app, pilot, screen):
        await press(pilot, "3")  # 'block': apply waits for RELEASE
        assert "still working on this move" in _status(screen)
        await press(pilot, "1")  # the UI still answers keys, and makes no other move
        assert any("still working" in message for message in app.told)
        RELEASE.set()  # the game's code ends its move: the note goes, the screen plays on
        await wait_until(pilot, lambda: "still working" not in _status(screen))
        assert len(engine_of(screen).log) == 1
        await press(pilot, "1")
        assert engine_of(screen).state["n"] == 1 and len(engine_of(screen).log) == 2
        await pilot.press("ctrl+q")


@pilot_test
async def test_ctrl_q_quits_while_the_games_code_blocks(tmp_path: Path, blocking: None) -> None:
    async with _playing(JsonSaveStore(tmp_path / "saves")) as (app, pilot, _):
        await press(pilot, "3")
        await press(pilot, "ctrl+q")  # the game was saved before the move: no question
    assert app.return_code == 0


@asynccontextmanager
async def _loading_a_slow_save(directory: Path) -> AsyncIterator[tuple[NotedApp, Any, str]]:
    """The app a moment after it began to load a save whose replay blocks until RELEASE
    is set (its log holds a 'block'); with the save's id."""
    RELEASE.set()  # let the game be played once to make the save
    engine = new_engine(Tricky(), players=1)
    for action in ("tick", "block", "tick"):
        engine.act(0, action)
    RELEASE.clear()
    store = JsonSaveStore(directory)
    save_id = store.save(engine.record(seats=["human"]), "slow-replay")
    async with _running(store) as (app, pilot):
        app.open_save(save_id)
        await pilot.pause()
        yield app, pilot, save_id


@pilot_test
async def test_a_long_load_goes_on_behind_a_working_screen(tmp_path: Path, blocking: None) -> None:
    async with _loading_a_slow_save(tmp_path / "saves") as (app, pilot, save_id):
        assert any("a long game takes a while" in message for message in app.told)
        app.open_save(save_id)  # the screen answers; a second load waits its turn
        await pilot.pause()
        assert any("Still loading" in message for message in app.told)
        RELEASE.set()  # the replay ends: the game opens
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        screen = app.screen
        assert isinstance(screen, SeatScreen) and engine_of(screen).state["n"] == 2
        await pilot.press("ctrl+q")


@pilot_test
async def test_ctrl_q_quits_while_a_save_loads(tmp_path: Path, blocking: None) -> None:
    async with _loading_a_slow_save(tmp_path / "saves") as (app, pilot, _):
        await press(pilot, "ctrl+q")
    assert app.return_code == 0


@pilot_test
async def test_a_hostile_plugin_cannot_break_the_home_screen_or_lose_moves(tmp_path: Path) -> None:
    async with _playing(JsonSaveStore(tmp_path), "hostile") as (app, pilot, screen):
        await press(pilot, "1")  # the autosave after it fails: describe() raises
        assert screen.is_current, "the game screen stays"
        assert "NOT SAVED" in _status(screen) and "describe is broken" in _status(screen)
        await press(pilot, "ctrl+q")
        assert isinstance(app.screen, UnsavedScreen)
        await press(pilot, "enter")  # saving elsewhere fails the same way: it says so
        result = str(app.screen.query_one("#unsaved-result", Static).render())
        assert "Not saved" in result and "describe is broken" in result
