"""Helpers for the Textual UI tests: a registry of Pig plus the UI's toy games (from
toygames), a fake store with frozen times for snapshots, and Pilot helpers.

A module with its own name (not conftest) so test files can import it without
clashing with the other test folders' conftest modules.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, ParamSpec, cast

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from toygames import Crashy, Faulty, Menu, Secrets

from tabletop.adapters.tui.app import LocalGame, TabletopApp
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.new_game import NewGameScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.services import ServerGames
from tabletop.adapters.tui.widgets import ChoiceList, GameLog
from tabletop.framework import hookimpl
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.errors import SaveError
from tabletop.framework.plugins import GameRegistry, PluginFailure, load_registry
from tabletop.framework.ports import SaveInfo, SaveStore
from tabletop.framework.record import GameRecord
from tabletop.framework.seats import Cursor, seat_update
from tabletop.framework.seats import LogLine as SeatLine
from tabletop.framework.session import AUTOMATED, GameSession, SessionStarter
from tabletop.games import pig

SIZE = (100, 30)
P = ParamSpec("P")


class TestGames:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Secrets())
        register(Faulty())
        register(Menu())

    @hookimpl
    def tabletop_register_bots(self, register: Any) -> None:
        register("crashy", lambda game: Crashy(), "secrets")

    @hookimpl
    def tabletop_board_widget(self, game_id: str) -> Any:
        if game_id != "faulty":
            return None
        from textual.widgets import Static

        class CounterBoard(Static):
            """A plugin-style board widget: built with the view, then updated."""

            def __init__(self, view: dict[str, Any]) -> None:
                super().__init__(f"Counter board: {view['count']}")

            def update_view(self, view: dict[str, Any]) -> None:
                self.update(f"Counter board: {view['count']}")

        return CounterBoard


def make_registry(*, failures: bool = True) -> GameRegistry:
    registry = load_registry(
        plugins=[("pig", pig), ("test-games", TestGames())], use_entry_points=False
    )
    if failures:
        registry.failures.append(PluginFailure("broken", "failed to import: ImportError: no"))
    return registry


class FrozenStore(SaveStore):
    """In-memory saves with a fixed clock and predictable ids, for snapshots."""

    def __init__(self) -> None:
        self.records: dict[str, GameRecord] = {}
        self.broken: dict[str, str] = {}
        self._ids = itertools.count(1)

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        save_id = save_id or f"{record.game}-{next(self._ids)}"
        self.records[save_id] = GameRecord.from_json(record.to_json())
        return save_id

    def load(self, save_id: str) -> GameRecord:
        if save_id in self.broken:
            raise SaveError(self.broken[save_id])
        if save_id not in self.records:
            raise SaveError(f"no save named {save_id}")
        return GameRecord.from_json(self.records[save_id].to_json())

    def list(self) -> list[SaveInfo]:
        infos = [
            SaveInfo(
                sid,
                r.game,
                "2026-01-02T10:30:00Z",
                r.players,
                tuple(r.seats),
                r.progress,
                len(r.actions),
                r.finished,
            )
            for sid, r in self.records.items()
        ]
        infos += [
            SaveInfo(sid, "?", "2026-01-01T09:00:00Z", 0, (), "", 0, False, error=error)
            for sid, error in self.broken.items()
        ]
        return sorted(infos, key=lambda i: i.save_id)

    def delete(self, save_id: str) -> None:
        self.records.pop(save_id, None)

    def keep(
        self,
        save_id: str,
        game: str,
        seats: Sequence[str],
        actions: Sequence[tuple[int, str]],
        progress: str = "",
        **record: Any,
    ) -> None:
        """Put a save in the list as a screen test wants it (one player per seat, seed 1
        and no options unless ``record`` says otherwise); its moves need not be legal,
        since only the list reads them."""
        record.setdefault("seed", 1)
        record.setdefault("options", {})
        self.records[save_id] = GameRecord(
            game=game,
            players=len(seats),
            seats=[*seats],
            actions=[*actions],
            progress=progress,
            **record,
        )


class FullDiskStore(FrozenStore):
    """Every write fails, as on a full disk."""

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        raise SaveError("cannot write save: No space left on device")


def make_app(
    registry: GameRegistry | None = None,
    store: SaveStore | None = None,
    *,
    bot_delay: float = 0.0,
    seed: int = 7,
    server_games: ServerGames | None = None,
    first: Screen[Any] | None = None,
) -> TabletopApp:
    """The app wired by hand with test doubles: the test registry and a FrozenStore unless
    given (the app's own wiring, with the log, is ``tabletop.app.container``;
    test_tui_startup starts the app that way)."""
    sessions = SessionStarter(
        make_registry() if registry is None else registry,
        rng_factory,
        dice_factory,
        FrozenStore() if store is None else store,
    )
    return TabletopApp(
        sessions,
        bot_delay=bot_delay,
        new_seed=lambda: seed,
        server_games=server_games,
        first=first,
    )


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async part of a test that also works outside the event loop (a whole
    async test is a ``pilot_test``)."""
    asyncio.run(main())


def pilot_test(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """An ``async def`` test run as pytest runs any other (no pytest-asyncio here): its
    arguments, fixtures and parameters included, are passed on."""

    @functools.wraps(test)
    def run_test(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run_test


def snapshot_of(
    snap_compare: Any,
    size: tuple[int, int],
    play: Callable[[Pilot[None]], Awaitable[None]] | None = None,
    *,
    registry: GameRegistry | None = None,
    store: SaveStore | None = None,
    seed: int = 7,
    server_games: ServerGames | None = None,
) -> bool:
    """``snap_compare`` of the app (``make_app``'s keywords) at ``size`` once ``play``
    has run: the one way every snapshot test takes its picture."""
    app = make_app(registry, store, seed=seed, server_games=server_games)
    return bool(snap_compare(app, terminal_size=size, run_before=play))


def current(app: TabletopApp) -> Screen[Any]:
    """The screen on top now (a call, so that type checkers do not keep an earlier
    ``isinstance`` of ``app.screen`` after the screen changed)."""
    return app.screen


def game_screen(app: TabletopApp) -> SeatScreen:
    """The seat screen, which must be the one on top now."""
    screen = app.screen
    assert isinstance(screen, SeatScreen), screen
    return screen


def my_turn(app: TabletopApp) -> bool:
    """Whether the seat screen is on top and its seat has a decision to make."""
    screen = app.screen
    return isinstance(screen, SeatScreen) and screen._my_prompt() is not None


def local_game(screen: Screen[Any]) -> LocalGame:
    """The game a seat screen shows, as its app holds it: the tests read the engine
    there (the screen itself never does: it reads only its seats' messages)."""
    game = cast("TabletopApp", screen.app).local_game(screen)
    assert game is not None, f"{screen} shows no game this app holds"
    return game


def engine_of(screen: Screen[Any]) -> Engine:
    """The engine of the game a seat screen shows (``local_game``)."""
    return local_game(screen).session.engine


def fresh_story(screen: SeatScreen) -> list[SeatLine]:
    """The story of the seat on screen told from scratch by its table (to compare the
    log the screen built update by update with)."""
    return list(seat_update(engine_of(screen), screen.viewer.seat, Cursor()).log)


def retell(screen: SeatScreen) -> GameLog:
    """The screen's log with the seat on screen's story told afresh (``fresh_story``)."""
    log = screen.query_one("#log", GameLog)
    log.reset(screen.viewer.index, fresh_story(screen))
    log.show(screen.viewer.index)
    return log


def session_of(screen: Screen[Any]) -> GameSession:
    """The session of the game a seat screen shows (``local_game``)."""
    return local_game(screen).session


def screen_text(app: App[Any], *, styles: bool = False) -> str:
    """What the terminal shows right now, as plain text (for 'is X on screen?'), or
    with its colours and styles as ANSI (``styles``: two screens drawn alike)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text(styles=styles)


async def wait_until(pilot: Any, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``condition`` holds (bots think in worker threads)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.01)


async def press(pilot: Any, *keys: str) -> None:
    """Press ``keys`` and let the app settle (the pair nearly every Pilot step needs)."""
    await pilot.press(*keys)
    await pilot.pause()


@asynccontextmanager
async def app_on(
    *,
    size: tuple[int, int] = SIZE,
    registry: GameRegistry | None = None,
    store: SaveStore | None = None,
    bot_delay: float = 0.0,
    seed: int = 7,
) -> AsyncIterator[tuple[TabletopApp, Pilot[None]]]:
    """The app (``make_app``'s keywords) running under Pilot at ``size``, and its
    pilot: the opening of every screen test."""
    app = make_app(registry, store, bot_delay=bot_delay, seed=seed)
    async with app.run_test(size=size) as pilot:
        yield app, pilot


@asynccontextmanager
async def game_on(
    game_id: str,
    *,
    size: tuple[int, int] = SIZE,
    registry: GameRegistry | None = None,
    store: SaveStore | None = None,
    bot_delay: float = 0.0,
    seats: tuple[str, ...] | None = None,
    **start: Any,
) -> AsyncIterator[tuple[TabletopApp, Pilot[None]]]:
    """An app (``make_app``'s keywords) with ``game_id`` started (``start_game``'s), and
    its pilot: the opening every screen test of a game shares."""
    opened = app_on(size=size, registry=registry, store=store, bot_delay=bot_delay)
    async with opened as (app, pilot):
        await start_game(pilot, game_id, seats=seats, **start)
        yield app, pilot


async def start_game(
    pilot: Any,
    game_id: str,
    *,
    seats: tuple[str, ...] | None = None,
    options: Mapping[str, str] | None = None,
    players: int | None = None,
    seed: int = 7,
    via_dialog: bool = False,
) -> None:
    """Start ``game_id`` as the new-game dialog would (human seats unless ``seats`` says
    otherwise, the options' defaults unless ``options`` says otherwise).

    Going through the dialog costs about a second per test (it is made of many
    Selects), so only the tests about the dialog use ``via_dialog`` (which leaves the
    seed to the app).
    """
    app = pilot.app
    info = app.registry.get(game_id).info
    count = players or (len(seats) if seats else info.min_players)
    spec = NewGameSpec(
        game_id=game_id,
        players=count,
        options={o.key: (options or {}).get(o.key, o.default) for o in info.options},
        controllers=list(seats or ["human"] * count),
        seed=seed,
    )
    if via_dialog:
        await through_the_dialog(pilot, spec)
        return
    session = app.start_game(spec)
    assert session is not None
    app.open_game(session)
    await pilot.pause()
    await pilot.pause()


async def through_the_dialog(pilot: Any, spec: NewGameSpec) -> None:
    """Start ``spec``'s game by filling in the new-game dialog and pressing Ctrl+S."""
    from textual.widgets import Select

    app = pilot.app
    await app.push_screen(NewGameScreen(spec.game_id))
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, NewGameScreen)
    dialog.query_one("#players", Select).value = spec.players
    await pilot.pause()
    for index, option in enumerate(dialog.game.info.options):
        dialog.query_one(f"#option-{index}", Select).value = spec.options[option.key]
    await pilot.pause()
    for seat, kind in enumerate(spec.controllers):
        if kind != AUTOMATED:  # a seat the game plays itself has nobody to choose
            dialog.query_one(f"#seat-{seat}", Select).value = kind
    await pilot.pause()
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: not isinstance(app.screen, NewGameScreen))
    await pilot.pause()


async def open_finished(pilot: Any, spec: NewGameSpec) -> None:
    """Open ``spec``'s game of bots at its end: played headless first, since how the bots
    play is not what a game-over test is about."""
    app = pilot.app
    session = app.start_game(spec)
    assert session is not None
    session.play_bots()
    app.open_game(session)
    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    await pilot.pause()


async def human_turn(pilot: Any) -> None:
    """Wait until a person must act (decide, or take the device at a hand-off) or the
    game is over: bots play meanwhile, and the game's recaps on the way are read and
    dismissed (Enter), as a player would."""
    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        if isinstance(screen, (GameOverScreen, HandoffScreen, SummaryScreen)):
            return True
        if not isinstance(screen, SeatScreen):
            return False
        update = screen.viewer.update
        return screen.viewer.caught_up and (
            screen._my_prompt() is not None or (update is not None and update.over)
        )

    await wait_until(pilot, ready)
    while isinstance(app.screen, SummaryScreen):
        await press(pilot, "enter")
        await wait_until(pilot, ready)
    await pilot.pause()


def after_keys(game_id: str, *keys: str, **start: Any) -> Callable[[Pilot[None]], Awaitable[None]]:
    """What a snapshot test plays before its picture: ``game_id`` started
    (``start_game``'s keywords), then ``keys`` pressed one by one, each followed by the
    bots' answers."""

    async def play(pilot: Pilot[None]) -> None:
        await start_game(pilot, game_id, **start)
        for key in keys:
            await pilot.press(key)
            await human_turn(pilot)
        await pilot.pause()

    return play


def _moved_on(app: TabletopApp, game: SeatScreen, before: int) -> Callable[[], bool]:
    """True once the decision was answered (the seat was told a later position), or the
    screen changed to a hand-off or the end: read from the screen's messages only."""

    def moved() -> bool:
        if isinstance(app.screen, (GameOverScreen, HandoffScreen, SummaryScreen)):
            return True
        return any(side.state.seq > before or side.waiting for side in game.sides)

    return moved


async def first_choices(pilot: Any, *, limit: int) -> AsyncIterator[SeatScreen | HandoffScreen]:
    """Play a whole game by taking the first choice at every decision and passing every
    hand-off; each screen is yielded before it is answered, for the test to look at.
    Fails unless the game is over within ``limit`` decisions."""
    app = pilot.app
    decisions = 0
    while not isinstance(app.screen, GameOverScreen) and decisions < limit:
        screen = app.screen
        if isinstance(screen, SummaryScreen):  # a recap: read, then go on
            await press(pilot, "enter")
            continue
        if isinstance(screen, HandoffScreen):
            yield screen
            await press(pilot, "enter")
            continue
        assert isinstance(screen, SeatScreen), screen
        await human_turn(pilot)
        if app.screen is not screen:
            continue
        yield screen
        moved_on = _moved_on(app, screen, screen.viewer.state.seq)
        keys = screen.query_one("#choices", ChoiceList).keys
        await pilot.press(keys[0] if keys and keys[0] else "1")
        await wait_until(pilot, moved_on)
        decisions += 1
    assert isinstance(app.screen, GameOverScreen), f"not over after {limit} decisions"


async def roll_until_points_at_risk(pilot: Any, screen: Any, *, bots: bool = True) -> None:
    """Pig: roll until Player 1 has points at risk, so that 'hold' is on offer.

    With ``bots`` the bots' turns are awaited after each roll; without, a plain pause.
    """
    while engine_of(screen).state["turn_total"] == 0 or engine_of(screen).state["active"] != 0:
        await pilot.press("1")
        if bots:
            await human_turn(pilot)
        else:
            await pilot.pause()


def calls_to(monkeypatch: pytest.MonkeyPatch, obj: Any, method: str) -> list[Any]:
    """Count ``obj.method``'s calls from now on (each call still does its work): the
    arguments of each call."""
    calls: list[Any] = []
    original = getattr(obj, method)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(obj, method, counted)
    return calls
