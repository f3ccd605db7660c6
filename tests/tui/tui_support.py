"""Helpers for the Textual UI tests: a registry of Pig plus small test-only games, a
fake store with frozen times for snapshots, and Pilot helpers.

A module with its own name (not conftest) so test files can import it without
clashing with the other test folders' conftest modules.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from contextlib import asynccontextmanager
from typing import Any

from textual.screen import Screen

from tabletop.adapters.tui.app import TabletopApp
from tabletop.framework import (
    PASS_KEY,
    Action,
    Bot,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    GameRecord,
    Prompt,
    Result,
    SaveError,
    SaveInfo,
    SaveStore,
    State,
    hookimpl,
    views,
)
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.plugins import GameRegistry, PluginFailure, load_registry
from tabletop.framework.session import SessionStarter
from tabletop.games import pig

SIZE = (100, 30)


class Secrets(GameDefinition):
    """Two players each hold a secret number; on your turn pick 'pass' or 'reveal'.

    'reveal' ends the game; the higher number wins. Hidden information by design.
    """

    info = GameInfo(
        id="secrets",
        title="Secrets",
        min_players=2,
        max_players=2,
        description="Test game with secret hands.",
        version="0.1",
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("North", "South")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"hands": [["SECRET-NORTH-7"], ["SECRET-SOUTH-3"]], "active": 0, "over": False}

    def prompt(self, state: State) -> Prompt | None:
        if state["over"]:
            return None
        return Prompt(
            state["active"],
            "Pass or reveal?",
            (Choice("pass", "Pass"), Choice("reveal", "Reveal the hands")),
            rule="§1",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "reveal":
            state["over"] = True
            ctx.reveal("reveals")
            return
        ctx.emit("peek", f"looks at {state['hands'][seat][0]}", seats=[seat], seat=seat)
        state["active"] = 1 - seat

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        hands = [h if (seat == i or state["over"]) else None for i, h in enumerate(state["hands"])]
        return {"active": state["active"], "hands": hands}

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        return Result((0,), (7.0, 3.0), "North holds 7, South 3: higher wins.")


class Faulty(GameDefinition):
    """Its 'boom' choice raises: the UI must show the PluginFault and carry on."""

    info = GameInfo(id="faulty", title="Faulty", min_players=1, max_players=1)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Solo",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"n": 0}

    def prompt(self, state: State) -> Prompt | None:
        if state["n"] >= 3:
            return None
        return Prompt(0, "Count", (Choice("inc", "Count one"), Choice("boom", "Explode")))

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "boom":
            raise RuntimeError("kaboom")
        state["n"] += 1

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"count": state["n"]}

    def result(self, state: State) -> Result | None:
        return Result((0,), (float(state["n"]),), "Counted to three.") if state["n"] >= 3 else None


#: A card text longer than a details pane at 80x24, to show that it is kept whole.
LONG_TEXT = " ".join(f"Clause {n}: place a cube in district {n} and read on." for n in range(1, 13))
#: The warning the "Turncoat" choice carries.
WARNING = "breaches your own Final Crisis zone: -1 Political VP"
#: Options of Menu's long prompt besides pass and the turncoat: 14, so 16 in all.
MENU_SIZE = 14


class Menu(GameDefinition):
    """A long menu, stable keys, a warning, headings, long log lines, cards and a
    result that explains itself: everything the generic screen must show, on a small
    open-information game.

    Each round a seat picks from 16 choices (the pass on key 0, at a different place in
    each round's list); two rounds each, then the game ends.
    """

    info = GameInfo(
        id="menu", title="Menu", min_players=2, max_players=2, description="A long menu."
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Commune", "Versailles")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        ctx.heading("Round 1")
        return {"turn": 0, "score": [0, 0], "passes": [0, 0]}

    def prompt(self, state: State) -> Prompt | None:
        if state["turn"] >= 4:
            return None
        seat = state["turn"] % 2
        options = [
            Choice(f"district:{n}", f"Place a cube in district {n}", f"District {n}: worth {n}.")
            for n in range(1, MENU_SIZE + 1)
        ]
        options.insert(2, Choice("turncoat", "Turncoat", LONG_TEXT, WARNING))
        options.insert(state["turn"] + 1, Choice("pass", "No bonus action", key=PASS_KEY))
        rule = "§2.1" if state["turn"] < 2 else "§3"
        return Prompt(seat, f"Round {state['turn'] // 2 + 1}: your move", tuple(options), rule)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action.startswith("district:"):
            worth = int(action.split(":")[1])
            state["score"][seat] += worth
            ctx.emit(
                "place",
                f"places a cube in district {worth} (strength {worth}, drew nothing, "
                f"gains {worth} points: {state['score'][seat]} in all)",
            )
        elif action == "turncoat":
            state["score"][seat] -= 1
            ctx.emit("turncoat", "turns a coat and loses 1 point")
        else:
            state["passes"][seat] += 1
        state["turn"] += 1
        if state["turn"] == 2:
            ctx.heading("Round 2")
        elif state["turn"] == 4:
            ctx.heading("Final scoring")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "status": f"Turn {state['turn'] + 1} of 4",
            "seats": views.seats(
                ["Commune", "Versailles"],
                [
                    {"Points": state["score"][0], "Control": "Montmartre, Belleville"},
                    {"Points": state["score"][1], "Control": "Mont-Valérien, Versailles HQ"},
                ],
            ),
            "cards": [views.card("Turncoat", LONG_TEXT, where="hand")],
        }

    def result(self, state: State) -> Result | None:
        if state["turn"] < 4:
            return None
        score = state["score"]
        winner = 0 if score[0] >= score[1] else 1
        return Result(
            (winner,),
            (float(score[0]), float(score[1])),
            f"{self.seat_names(2, {})[winner]} scored more points ({score[0]} to {score[1]}); "
            "the Commune wins ties.",
            "points victory",
        )

    def rules_summary(self) -> str:
        setup = ["## §1 Setup", *(["Setting up."] * 30)]
        placing = ["## §2 Placing", *(["Placing cubes."] * 30)]
        return "\n\n".join(["# Menu", "Intro.", *setup, *placing, "## §3 Scoring", "Points win."])


class CrashyBot(Bot):
    """A bot whose thinking raises: the UI must report it and stay up."""

    name = "crashy"

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: Any
    ) -> Action:
        raise ValueError("the bot lost its marbles")


class TestGames:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Secrets())
        register(Faulty())
        register(Menu())

    @hookimpl
    def tabletop_register_bots(self, register: Any) -> None:
        register("crashy", lambda game: CrashyBot(), "secrets")

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


class FullDiskStore(FrozenStore):
    """Every write fails, as on a full disk."""

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        raise SaveError("cannot write save: No space left on device")


def make_app(
    registry: GameRegistry, store: SaveStore, *, bot_delay: float = 0.0, seed: int = 7
) -> TabletopApp:
    """The app wired by hand with test doubles (the app's own wiring, with the log, is
    ``tabletop.app.container``; test_tui_startup starts the app that way)."""
    sessions = SessionStarter(registry, rng_factory, dice_factory, store)
    return TabletopApp(sessions, bot_delay=bot_delay, new_seed=lambda: seed)


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async test body (no pytest-asyncio here)."""
    asyncio.run(main())


def current(app: TabletopApp) -> Screen[Any]:
    """The screen on top now (a call, so that type checkers do not keep an earlier
    ``isinstance`` of ``app.screen`` after the screen changed)."""
    return app.screen


def screen_text(app: TabletopApp) -> str:
    """What the terminal shows right now, as plain text (for 'is X on screen?')."""
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
    return console.export_text()


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
async def game_on(
    game_id: str,
    *,
    size: tuple[int, int] = SIZE,
    seats: tuple[str, ...] | None = None,
    **start: Any,
) -> AsyncIterator[tuple[TabletopApp, Any]]:
    """An app on the test registry with ``game_id`` started (``start_game``'s keywords),
    and its pilot: the opening every screen test of a toy game shares."""
    app = make_app(make_registry(), FrozenStore())
    async with app.run_test(size=size) as pilot:
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
    """Start ``game_id`` as the new-game dialog would.

    Going through the dialog costs about a second per test (it is made of many
    Selects), so only the tests about the dialog use ``via_dialog``.
    """
    from tabletop.adapters.tui.presenting import NewGameSpec
    from tabletop.adapters.tui.screens.new_game import NewGameScreen

    app = pilot.app
    if via_dialog:
        await fill_new_game_dialog(pilot, game_id, seats=seats, options=options, players=players)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        return
    info = app.registry.get(game_id).info
    count = players or (len(seats) if seats else info.min_players)
    spec = NewGameSpec(
        game_id=game_id,
        players=count,
        options={spec.key: (options or {}).get(spec.key, spec.default) for spec in info.options},
        controllers=list(seats or ["human"] * count),
        seed=seed,
    )
    session = app.start_game(spec)
    assert session is not None
    app.open_game(session)
    await pilot.pause()
    await pilot.pause()


async def fill_new_game_dialog(
    pilot: Any,
    game_id: str,
    *,
    seats: tuple[str, ...] | None = None,
    options: Mapping[str, str] | None = None,
    players: int | None = None,
) -> None:
    from textual.widgets import Select

    from tabletop.adapters.tui.screens.new_game import NewGameScreen

    app = pilot.app
    await app.push_screen(NewGameScreen(game_id))
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, NewGameScreen)
    if players is not None:
        dialog.query_one("#players", Select).value = players
        await pilot.pause()
    for index, spec in enumerate(dialog.game.info.options):
        if options and spec.key in options:
            dialog.query_one(f"#option-{index}", Select).value = options[spec.key]
    await pilot.pause()
    for seat, kind in enumerate(seats or ()):
        dialog.query_one(f"#seat-{seat}", Select).value = kind
    await pilot.pause()


async def human_turn(pilot: Any) -> None:
    """Wait until a person must decide (or the game is over): bots play meanwhile."""
    from tabletop.adapters.tui.screens.game import GameScreen
    from tabletop.adapters.tui.screens.game_over import GameOverScreen

    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return True
        if not isinstance(screen, GameScreen):
            return False
        prompt = screen.engine.prompt
        return prompt is None or screen.session.is_human(prompt.seat)

    await wait_until(pilot, ready)
    await pilot.pause()


async def roll_until_points_at_risk(pilot: Any, screen: Any, *, bots: bool = True) -> None:
    """Pig: roll until Player 1 has points at risk, so that 'hold' is on offer.

    With ``bots`` the bots' turns are awaited after each roll; without, a plain pause.
    """
    while screen.engine.state["turn_total"] == 0 or screen.engine.state["active"] != 0:
        await pilot.press("1")
        if bots:
            await human_turn(pilot)
        else:
            await pilot.pause()
