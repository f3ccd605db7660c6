"""One seat screen for every way of playing (issue 35): the screen reads a game only
through its seats' messages.

Two checks. The screen's modules import nothing of the engine, the session or the table
(only the seat protocol). And the screen plays every bundled game to its end when every
message and request crosses as JSON, exactly what a remote seat gets from a server: a
screen that needed anything but the message could not play on.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from tui_support import app_on, first_choices, pilot_test

import tabletop.adapters.tui as tui_package
from tabletop.adapters.tui.app import LocalGame
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.plugins import load_registry
from tabletop.framework.seats import (
    SeatConnection,
    SeatMessage,
    SeatRequest,
    TableInfo,
    message_from_json,
    request_from_json,
    request_to_json,
)

#: What a front end must not import: the game's machinery behind the messages.
MACHINERY = (
    "tabletop.framework.engine",
    "tabletop.framework.session",
    "tabletop.framework.table",
    "tabletop.framework.record",
    "tabletop.adapters.server",
)
#: The modules that draw a game for a seat.
SCREEN_MODULES = ("screens/seat.py", "screens/game_over.py", "screens/handoff.py", "widgets")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_seat_screen_imports_nothing_of_the_engine_session_or_table() -> None:
    root = Path(tui_package.__file__).parent
    files: list[Path] = []
    for name in SCREEN_MODULES:
        path = root / name
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    assert len(files) >= 8
    for path in files:
        bad = {m for m in imports_of(path) if m.startswith(MACHINERY)}
        assert not bad, f"{path.relative_to(root)} imports {sorted(bad)}"


class Wire(SeatConnection):
    """A local seat's line on which every message and request crosses as JSON text."""

    def __init__(self, inner: SeatConnection) -> None:
        self.inner = inner
        self.can_save = inner.can_save
        self.crossed = 0

    def open(self, receive: Callable[[SeatMessage], None]) -> None:
        def across(message: SeatMessage) -> None:
            self.crossed += 1
            crossed = message_from_json(json.loads(json.dumps(message.to_json())))
            if isinstance(crossed, TableInfo):
                self.info = crossed
            receive(crossed)

        self.inner.open(across)

    def send(self, request: SeatRequest) -> None:
        self.inner.send(request_from_json(json.loads(json.dumps(request_to_json(request)))))

    def save_copy(self, name: str) -> str:
        return self.inner.save_copy(name)

    def close(self) -> None:
        self.inner.close()


#: Every bundled game, a person in the first seat and random bots in the others; the
#: most decisions the person is asked for before the game must be over.
GAMES = [
    ("pig", ("human", "random"), 400),
    ("tic-tac-toe", ("human", "random"), 20),
    ("council", ("human", "random"), 200),
    ("red-flag-over-paris", ("human", "random"), 400),
    ("charlemagne-master-of-europe", ("human",), 3000),
    ("la-revolution-francaise", ("human", "random", "random", "random"), 1500),
]


@pytest.mark.parametrize(("game", "seats", "limit"), GAMES, ids=[g for g, _, _ in GAMES])
@pilot_test
async def test_the_screen_plays_every_bundled_game_to_its_end_on_messages_alone(
    game: str, seats: tuple[str, ...], limit: int
) -> None:
    registry = load_registry()
    async with app_on(registry=registry, size=(120, 40)) as (app, pilot):
        info = registry.get(game).info
        options = {option.key: option.default for option in info.options}
        spec = NewGameSpec(game, len(seats), options, list(seats), seed=11)
        session = app.start_game(spec)
        assert session is not None
        local = LocalGame(session, workers=app.play_workers, registry=registry)
        lines, spectator = local.lines()
        wires = [Wire(line) for line in lines]
        screen = SeatScreen(wires, spectator=None if spectator is None else Wire(spectator))
        app.local_games[id(screen)] = local
        await app.push_screen(screen)
        decisions = 0
        async for shown in first_choices(pilot, limit=limit):
            if not isinstance(shown, HandoffScreen):
                decisions += 1
        over = app.screen
        assert isinstance(over, GameOverScreen) and session.engine.over
        assert decisions and all(wire.crossed for wire in wires)
        # the end the screen shows is the game's: its length and its result
        assert over.state.update is not None and over.state.update.seq == len(session.engine.log)
        assert over.result == session.engine.result
