"""Red Flag Over Paris's solitaire from the screen (issue 25): the game says which seat
its own procedure plays (``GameDefinition.automated_seats``), so the new-game dialog
seats the person on the other side and shows the solo opponent's seat as the game's
procedure, with no drop-down; the game-over table names it so, and a solitaire loss
reads "You lose". Saves of solitaire games made before (a person or a bot recorded on
the solo seat) still load, and their solo seat is still the game's."""

from __future__ import annotations

from typing import Any

from textual.widgets import Select
from tui_support import (
    FrozenStore,
    app_on,
    current,
    engine_of,
    game_screen,
    pilot_test,
    press,
    screen_text,
    session_of,
    wait_until,
)

from tabletop.adapters.bots import register_search_bots
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.new_game import AUTOMATED_TEXT, NewGameScreen
from tabletop.framework.errors import TabletopError
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.framework.seats import SeatState
from tabletop.framework.session import AUTOMATED, HUMAN, GameSession
from tabletop.framework.table import QueuedWorkers, Table

GAME = "red-flag-over-paris"
VERSAILLES, COMMUNE = 0, 1


def registry() -> GameRegistry:
    return register_search_bots(load_registry())


def play_out(session: GameSession) -> None:
    """The person's decisions, always the first choice, to the end (headless)."""
    engine = session.engine
    while engine.prompt is not None:
        session.act(engine.prompt.seat, engine.prompt.choices[0].action)


@pilot_test
async def test_choosing_solitaire_seats_the_person_against_the_procedure() -> None:
    async with app_on(size=(100, 30), registry=registry()) as (app, pilot):
        await app.push_screen(NewGameScreen(GAME))
        await pilot.pause()
        dialog = current(app)
        assert isinstance(dialog, NewGameScreen)
        assert dialog.controllers[:2] == [HUMAN, "mcts"]
        dialog.query_one("#option-0", Select).value = "versailles"
        await pilot.pause()
        await pilot.pause()
        assert dialog.controllers[:2] == [AUTOMATED, HUMAN]
        assert not dialog.query("#seat-0")  # no drop-down for the procedure's seat
        text = screen_text(app)
        assert AUTOMATED_TEXT in text and "Bot strength" not in text
        assert app.focused is dialog.query_one("#option-0")  # the focus stays put
        # ... and the other way round, then back to two players
        dialog.query_one("#option-0", Select).value = "commune"
        await pilot.pause()
        await pilot.pause()
        assert dialog.controllers[:2] == [HUMAN, AUTOMATED]
        dialog.query_one("#option-0", Select).value = "off"
        await pilot.pause()
        await pilot.pause()
        assert dialog.controllers[:2] == [HUMAN, "mcts"]
        dialog.query_one("#option-0", Select).value = "versailles"
        await pilot.pause()
        await pilot.pause()
        await press(pilot, "ctrl+s")
        await wait_until(pilot, lambda: not isinstance(current(app), NewGameScreen))
        game = game_screen(app)
        assert session_of(game).controllers == [AUTOMATED, HUMAN]
        assert game.viewer.seat == COMMUNE and session_of(game).humans() == [COMMUNE]
        prompt = engine_of(game).prompt
        assert prompt is not None and prompt.seat == COMMUNE  # the person plays
        assert "Bots" not in screen_text(app)  # no bot: no bot key, no bot speed


@pilot_test
async def test_the_game_over_table_names_the_procedure_and_a_loss_reads_plainly() -> None:
    store = FrozenStore()
    async with app_on(size=(100, 30), registry=registry(), store=store) as (app, pilot):
        for seed in range(1, 30):  # a seed where always-the-first-choice loses
            spec = NewGameSpec(GAME, 2, {"solo": "versailles"}, [AUTOMATED, HUMAN], seed)
            session = app.start_game(spec)
            assert session is not None
            play_out(session)
            result = session.engine.result
            assert result is not None
            if COMMUNE not in result.winners:
                break
        else:
            raise AssertionError("no losing seed")
        app.open_game(session)
        await wait_until(pilot, lambda: isinstance(current(app), GameOverScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "You lose: Versailles (solo opponent) wins." in text
        assert "the game's procedure" in text and "random" not in text
        # the save records the procedure for that seat, and loads again
        assert store.records[session.save_id or ""].seats == [AUTOMATED, HUMAN]
        assert app.load_game(session.save_id or "") is not None


def test_a_solitaire_save_made_before_still_loads_with_its_solo_seat_the_games() -> None:
    """Older saves recorded a person or a bot on the solo seat (the dialog did not
    know better): they replay as they were, the solo seat counted as nobody's."""
    store = FrozenStore()
    app: Any = None
    from tui_support import make_app

    app = make_app(registry(), store)
    for seats in (["random", HUMAN], [HUMAN, HUMAN]):
        session = app.sessions.start(
            GAME, seed=4, players=2, options={"solo": "versailles"}, seats=seats
        )
        play_out(session)
        loaded = app.sessions.resume(session.save_id)
        assert loaded.engine.over and loaded.controllers == seats
        assert loaded.humans() == [COMMUNE] and not loaded.is_human(VERSAILLES)
        # what the seat's screen is told of the table, as the game over screen reads it
        info = Table(loaded, workers=QueuedWorkers()).info(COMMUNE)
        assert GameOverScreen(info, SeatState()).played_by(VERSAILLES) == "the game's procedure"
        assert GameOverScreen(info, SeatState()).played_by(COMMUNE) == HUMAN


def test_the_procedure_may_play_only_a_seat_the_game_automates() -> None:
    app: Any = None
    from tui_support import make_app

    app = make_app(registry(), FrozenStore())
    try:
        app.sessions.start(GAME, seed=4, players=2, options={}, seats=[AUTOMATED, HUMAN])
    except TabletopError as exc:
        assert "not played by the game's own procedure" in str(exc)
    else:
        raise AssertionError("a two-player seat given to the procedure")
