"""Snapshot of the home screen with server games listed (issue 24): one whose turn
it is, one waiting for another seat, one whose server does not answer. The servers'
answers come from a stand-in for the app's ``ServerGames`` (the UI's port to the
server's client), so the picture is the same on every run;
tests/server/test_server_games.py asks a real server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.widgets import DataTable
from tui_support import snapshot_of, wait_until

from tabletop.adapters.tui import services
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.framework.seats import SeatConnection, TableInfo


@dataclass(frozen=True)
class ServerSeat:
    """A remembered seat, as the app's server client gives one."""

    key: str
    url: str
    token: str
    title: str
    seat_name: str


class Answered:
    """Three remembered seats, each server's answer given in advance."""

    def __init__(self) -> None:
        self.rows = [
            ServerSeat(
                "g0", "ws://friends.example:8765", "mine", "Red Flag Over Paris", "Versailles"
            ),
            ServerSeat(
                "g1", "ws://friends.example:8765", "theirs", "Red Flag Over Paris", "Versailles"
            ),
            ServerSeat(
                "g2", "ws://unreachable.example:8765", "gone", "Red Flag Over Paris", "Commune"
            ),
        ]

    def seats(self) -> list[ServerSeat]:
        return list(self.rows)

    async def status(self, seat: services.ServerSeat) -> str:
        return {"mine": "your turn", "theirs": "Commune's turn"}.get(
            seat.token, "server unreachable"
        )

    def connect(self, seat: services.ServerSeat) -> SeatConnection:
        raise AssertionError("not joined in this test")

    def remember(self, url: str, token: str, info: TableInfo) -> None:
        pass

    def forget(self, key: str) -> bool:
        return False


def test_home_with_server_games(snap_compare: Any) -> None:
    async def answered(pilot: Any) -> None:
        await wait_until(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, HomeScreen)
                and bool(pilot.app.screen.query("#server-games"))
            ),
        )
        table = pilot.app.screen.query_one("#server-games", DataTable)
        await wait_until(
            pilot,
            lambda: all(
                "asking" not in str(table.get_row_at(i)[3]) for i in range(table.row_count)
            ),
        )

    assert snapshot_of(snap_compare, (80, 24), answered, server_games=Answered())
