"""Hot-seat games of hidden information: the hand-off screen hides everything."""

from __future__ import annotations

from tui_support import (
    app_on,
    engine_of,
    game_on,
    game_screen,
    pilot_test,
    press,
    screen_text,
    wait_until,
)

from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import GameLog, ViewPanel


@pilot_test
async def test_handoff_hides_the_other_seats_hand() -> None:
    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass the keyboard to North" in text
        assert "SECRET" not in text
        await press(pilot, "enter")
        game = game_screen(app)
        assert "SECRET-NORTH-7" in screen_text(app)
        assert "SECRET-SOUTH-3" not in screen_text(app)
        await pilot.press("1")  # pass: a private "looks at" event for North
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass the keyboard to South" in text
        assert "SECRET" not in text
        # Nothing of North's is even kept in the hidden game screen's widgets.
        assert "SECRET-NORTH" not in game.query_one("#board", ViewPanel).plain
        assert game.query_one("#log", GameLog).text_lines() == []
        await press(pilot, "enter")
        text = screen_text(app)
        assert "SECRET-SOUTH-3" in text
        assert "SECRET-NORTH-7" not in text
        assert "#1: —" in text  # North's hand, as the game's view leaves it: unknown


@pilot_test
async def test_pig_with_secret_banks_hides_the_other_bank() -> None:
    secret = {"banks": "secret"}
    async with game_on("pig", seats=("human", "human"), options=secret) as (app, pilot):
        assert isinstance(app.screen, HandoffScreen)
        await press(pilot, "enter")
        game = game_screen(app)
        while engine_of(game).state["active"] == 0:
            if engine_of(game).state["turn_total"] >= 8:
                await pilot.press("2")
            else:
                await pilot.press("1")
            await pilot.pause()
            if isinstance(app.screen, HandoffScreen):
                break
        assert isinstance(app.screen, HandoffScreen)
        assert "Player 1 (you)" not in screen_text(app)
        await press(pilot, "enter")
        # The table's rows (the board is the left column): own bank, the other "?".
        rows = [
            line.split("│")[1].split()
            for line in screen_text(app).splitlines()
            if line.startswith("│ Player")
        ]
        assert ["Player", "2", "(you)", "0", "to", "roll"] in rows
        assert ["Player", "1", "?"] in rows


@pilot_test
async def test_open_information_needs_no_handoff() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, _pilot):
        assert isinstance(app.screen, SeatScreen)


@pilot_test
async def test_leaving_at_the_handoff_reveals_nothing_and_reloading_hands_off_again() -> None:
    from textual.widgets import DataTable

    from tabletop.adapters.tui.screens.home import HomeScreen

    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        await pilot.press("enter", "1")  # North passes: hand-off to South
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
        app.screen.query_one("#saves", DataTable).focus()
        await press(pilot, "enter")
        assert isinstance(app.screen, HandoffScreen)
        assert "Pass the keyboard to South" in screen_text(app)
        assert "SECRET" not in screen_text(app)


@pilot_test
async def test_a_save_can_be_watched_as_a_spectator_seeing_only_the_public_table() -> None:
    """The home screen's w (Watch) follows a save from the public view: nobody's hand,
    no decision to make, the seats' people left waiting (issue 35)."""
    from tabletop.adapters.tui.presenting import NewGameSpec
    from tabletop.adapters.tui.screens.home import HomeScreen

    async with app_on() as (app, pilot):
        session = app.start_game(NewGameSpec("secrets", 2, {}, ["human", "human"], 7))
        assert session is not None and session.save_id is not None
        home = app.screen
        assert isinstance(home, HomeScreen)
        home.refresh_saves()
        home.action_watch_game(session.save_id)
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        await pilot.pause()
        screen = game_screen(app)
        assert screen.viewer.seat is None and screen.people == []
        text = screen_text(app)
        assert "spectator view" in text and "SECRET" not in text
        assert "Waiting for North" in text and screen._my_prompt() is None
