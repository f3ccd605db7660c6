"""A server seat knows what happens to its game (issue 36), on the seat screen, driven
by Pilot against a real server on a thread: the end of the game by its host and a
server that went silent are said within 5 s (seats once waited "for ..." for ever, and
the screen never showed that the server was gone); a choice made while the line is down
is shown as not sent and the decision stays offered, and made again once the line is
back it is played (it once vanished in silence)."""

from __future__ import annotations

import time

from serverhelp import ServerThread, SilentProxy
from tui_support import game_screen as seat_screen
from tui_support import make_app, my_turn, pilot_test, screen_text, wait_until

from tabletop.adapters.server.client import AGAIN, NOT_SENT, RemoteConnection, request
from tabletop.adapters.server.hall import ENDED_BY_HOST
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList

#: The promise of issue 36: a seat says what happened within this many seconds.
SAID_WITHIN = 5.0
#: What the status line says once the line is down (``client.GONE`` and ``gone(n)``).
UNREACHABLE = "The server cannot be reached"


def told(app: TabletopApp) -> list[str]:
    """The notifications the app has shown."""
    return [notification.message for notification in app._notifications]


@pilot_test
async def test_a_seat_whose_host_ends_the_game_says_so_within_5_s(served: ServerThread) -> None:
    hosted = await request(served.url, {"type": "host", "game": "liars-dice", "players": 2})
    app = make_app(
        served.server.hall.registry,
        first=SeatScreen([RemoteConnection(served.url, token=hosted["invites"]["1"])]),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "Waiting for Player 1" in screen_text(app), 10)
        fetch = {"type": "fetch", "game": hosted["game"], "token": hosted["host_token"]}
        ended_at = time.monotonic()
        await request(served.url, fetch)  # the host takes the game home: it ends
        await wait_until(pilot, lambda: ENDED_BY_HOST in screen_text(app), SAID_WITHIN)
        assert time.monotonic() - ended_at < SAID_WITHIN
        assert seat_screen(app).ended == ENDED_BY_HOST
        assert "Waiting for Player 1" not in screen_text(app)
        await pilot.press("escape")


@pilot_test
async def test_a_silent_server_is_said_within_5_s_and_a_choice_meanwhile_is_offered_again(
    served: ServerThread,
) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
    )
    store = served.server.hall.store
    async with SilentProxy(served.url) as proxy:
        app = make_app(
            served.server.hall.registry,
            first=SeatScreen([RemoteConnection(proxy.url, token=hosted["invites"]["0"])]),
        )
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: my_turn(app), 10)
            screen = seat_screen(app)
            await pilot.pause(0.5)  # the line is settled: its pings answered
            proxy.freeze()  # nothing answers any more, and nothing is closed
            went_silent = time.monotonic()
            await wait_until(pilot, lambda: UNREACHABLE in screen_text(app), SAID_WITHIN)
            assert time.monotonic() - went_silent < SAID_WITHIN
            # a choice made now: said not sent, and the decision is still on offer
            choices = screen.query_one("#choices", ChoiceList)
            key = choices.keys[0] or "1"
            await pilot.press(key)
            await wait_until(pilot, lambda: any(NOT_SENT in text for text in told(app)))
            assert screen._sent is None and my_turn(app)
            assert store.length(hosted["game"]) == 0  # nothing reached the server
            proxy.thaw()  # the server answers again
            await wait_until(pilot, lambda: AGAIN in told(app), 15)
            await wait_until(pilot, lambda: UNREACHABLE not in screen_text(app) and my_turn(app))
            await pilot.press(seat_screen(app).query_one("#choices", ChoiceList).keys[0] or "1")
            await wait_until(pilot, lambda: store.length(hosted["game"]) >= 1)
            assert not any("Not done" in text for text in told(app)[-1:])
            await pilot.press("escape")
