"""The home screen lists the server games a person joined (issue 24): the list's file,
its permissions and a corrupt one, and a real server asked whose turn it is."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest
from liars import LiarsDice
from serverhelp import ServerThread, small_registry
from textual.widgets import DataTable, Static
from tui_support import human_turn, make_app, pilot_test, wait_until

from tabletop.adapters.server import remembered
from tabletop.adapters.server.client import (
    bot_decider,
    new_secret,
    peek,
    play_seat,
    request,
    turn_words,
)
from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.remembered import RememberedError, ServerGame
from tabletop.adapters.server.seats import RememberedServerGames, ServerSeat
from tabletop.adapters.tui.screens.confirm import ConfirmScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.bots import RandomBot
from tabletop.framework.seats import SeatUpdate

UNREACHABLE = "ws://127.0.0.1:9"  # the discard port: nobody serves there


def a_game(url: str = UNREACHABLE, token: str = "t0k3n", seat: int = 0) -> ServerGame:
    return ServerGame(url, token, "g1", "liars-dice", "Liar's Dice", seat, f"Player {seat + 1}")


def test_the_list_is_readable_only_by_its_owner_and_keeps_one_row_per_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deep" / "server-games.json"
    remembered.remember(path, a_game())
    remembered.remember(path, a_game(token="other", seat=1))
    remembered.remember(path, a_game())  # the same seat again: refreshed, not doubled
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [g.token for g in remembered.load(path)] == ["t0k3n", "other"]
    assert remembered.forget(path, a_game(token="other", seat=1).key) is not None
    assert remembered.forget(path, "nobody") is None
    assert remembered.load(path) == [a_game()]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_loose_existing_file_is_tightened_when_written(tmp_path: Path) -> None:
    path = tmp_path / "server-games.json"
    path.write_text('{"version": 1, "games": []}')
    path.chmod(0o644)
    remembered.remember(path, a_game())
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "is not JSON"),
        ('{"games": 3}', 'has no "games" list'),
        ('{"games": [{"url": "ws://x"}]}', "game 1 has no str 'token'"),
        ('{"games": [7]}', "game 1 is not an object"),
    ],
)
def test_a_corrupt_list_is_reported_and_left_as_it_is(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "server-games.json"
    path.write_text(text)
    with pytest.raises(RememberedError, match="left as it is") as caught:
        remembered.remember(path, a_game())
    assert says in str(caught.value) and str(path) in str(caught.value)
    with pytest.raises(RememberedError):
        remembered.forget(path, a_game().key)
    assert path.read_text() == text


def server_games(path: Path) -> RememberedServerGames:
    """The home screen's server games as the composition root makes them."""
    from tabletop.adapters.tui.services import ServerGamesError

    return RememberedServerGames(path, error=ServerGamesError)


@pilot_test
async def test_the_home_screen_asks_the_servers_rejoins_and_forgets(
    served: ServerThread, hall: Hall, no_server_games: Path
) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "human"]}
    )
    tokens: dict[str, str] = {}
    remembered.remember(no_server_games, a_game())  # a server that does not answer
    for number in ("1", "0"):  # each invite bound to a secret, as tabletop join does
        seat = await peek(served.url, hosted["invites"][number], secret=new_secret())
        tokens[number] = seat.token
        remembered.remember(
            no_server_games, remembered.from_welcome(served.url, seat.token, seat.welcome)
        )
    app = make_app(small_registry(), server_games=server_games(no_server_games))
    async with app.run_test(size=(100, 30)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        table = home.query_one("#server-games", DataTable)

        def turns() -> list[str]:
            return [str(table.get_row_at(row)[3]) for row in range(table.row_count)]

        await wait_until(pilot, lambda: "asking the server..." not in turns())
        assert turns() == ["your turn", "Player 1's turn", "server unreachable"]  # newest first
        assert str(table.get_row_at(0)[1]) == "Player 1"
        # Enter on the first row: the seat screen, on the seat's line to its server
        table.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        await human_turn(pilot)
        await pilot.press("1")  # the first bid: now it is Player 2's turn
        game, _ = hall.sit(tokens["0"])
        await wait_until(pilot, lambda: len(game.engine.log) == 1)
        await pilot.press("escape")  # back home: the game waits, the list is asked again
        await wait_until(pilot, lambda: app.screen is home)
        await wait_until(pilot, lambda: turns()[:2] == ["Player 2's turn", "your turn"])
        # f forgets the highlighted row (the unreachable one), and only it, after asking
        table.focus()
        await pilot.press("down", "down", "f")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # kept
        await wait_until(pilot, lambda: app.screen is home)
        assert len(remembered.load(no_server_games)) == 3
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: table.row_count == 2)
    assert [g.url for g in remembered.load(no_server_games)] == [served.url, served.url]


@pilot_test
async def test_a_corrupt_list_is_said_on_the_home_screen(no_server_games: Path) -> None:
    no_server_games.write_text("{oops")
    app = make_app(small_registry(), server_games=server_games(no_server_games))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        note = app.screen.query_one("#server-games-note", Static)
        assert note.display and "Cannot list your server games" in str(note.render())
        await pilot.press("f")  # nothing to forget: nothing written
    assert no_server_games.read_text() == "{oops"


@pilot_test
async def test_a_finished_or_ended_seat_says_so(served: ServerThread) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
    )
    seat = await peek(served.url, hosted["invites"]["0"], secret=new_secret())
    await request(
        served.url, {"type": "fetch", "game": hosted["game"], "token": hosted["host_token"]}
    )
    assert turn_words(await peek(served.url, seat.token)) == "ended by its host"


@pilot_test
async def test_a_finished_seat_says_who_won(served: ServerThread) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
    )
    token = hosted["invites"]["0"]
    game = LiarsDice()
    played = await play_seat(served.url, token, bot_decider(game, RandomBot(), 5))
    assert played.over
    assert played.result is not None
    winners = ", ".join(played.names[w] for w in played.result.winners)
    assert played.token != token  # the invite was bound to the client's secret
    assert turn_words(await peek(served.url, played.token)) == f"over: {winners} won"


class ListBroken(Exception):
    """The error the composition root names (the UI's ``ServerGamesError``)."""


@pilot_test
async def test_server_games_for_the_home_screen_list_ask_connect_and_forget(
    served: ServerThread, tmp_path: Path
) -> None:
    """``RememberedServerGames``: the UI's ``ServerGames`` port, from the list and the
    client, without the UI (the same method names; the UI's error class is given)."""
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "human"]}
    )
    path = tmp_path / "games.json"
    games = RememberedServerGames(path, error=ListBroken)
    assert games.seats() == []
    for seat in ("0", "1"):
        connection = games.connect(ServerSeat("", served.url, hosted["invites"][seat], "", ""))
        told: list[object] = []
        connection.open(told.append)
        for _ in range(200):
            if any(isinstance(m, SeatUpdate) for m in told):
                break
            await asyncio.sleep(0.02)
        assert connection.info is not None and connection.info.seat == int(seat)
        # kept once welcomed: the secret the invite was bound to, found by the invite
        invite = hosted["invites"][seat]
        found = remembered.by_invite(path, served.url, invite)
        assert found is not None and found.token == games.seats()[0].token != invite
        connection.close()
    first, second = games.seats()  # newest first
    assert (first.seat_name, second.seat_name) == ("Player 2", "Player 1")
    assert first.title == "Liar's Dice" and first.token != hosted["invites"]["1"]
    assert await games.status(second) == "your turn"
    assert await games.status(first) == "Player 1's turn"
    assert await games.status(ServerSeat("k", UNREACHABLE, "t", "", "")) == "server unreachable"
    assert await games.status(ServerSeat("k", served.url, "nope", "", "")) == (
        "refused: unknown token"
    )
    assert games.forget(first.key) and not games.forget(first.key)
    assert [seat.seat_name for seat in games.seats()] == ["Player 1"]
    path.write_text("{broken")
    with pytest.raises(ListBroken, match="is not JSON"):
        games.seats()
    with pytest.raises(ListBroken):
        games.forget(second.key)
