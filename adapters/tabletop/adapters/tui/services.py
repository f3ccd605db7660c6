"""What the terminal UI is given from outside, besides the games: server seats.

The UI imports nothing of the game server (nor the server of the UI): the home screen's
list of the server games a person joined, the status of each and the line to its table
come through ``ServerGames``, which the composition root makes from the server's
client (``tabletop.adapters.server.seats``) and hands to the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tabletop.framework.seats import SeatConnection, TableInfo


class ServerGamesError(Exception):
    """The list of server games cannot be read or written (the message says why)."""


@dataclass(frozen=True)
class ServerSeat:
    """A seat at a server game that a person joined from this machine."""

    key: str
    """Identifies the entry in the list (forget it by this)."""
    url: str
    token: str
    title: str
    seat_name: str


class ServerGames(Protocol):
    """The server games a person joined, and the line to each."""

    def seats(self) -> list[ServerSeat]:
        """The remembered seats, newest first; ServerGamesError when unreadable."""
        ...

    async def status(self, seat: ServerSeat) -> str:
        """Where the seat's game stands, in a few words ("your turn", "over: Commune
        won", "server unreachable"), asked of its server with a short timeout."""
        ...

    def connect(self, seat: ServerSeat) -> SeatConnection:
        """The line to the seat's table (opened by the screen that shows it)."""
        ...

    def remember(self, url: str, token: str, info: TableInfo) -> None:
        """Keep (or refresh) the seat in the list once its table welcomed it;
        ServerGamesError when the list cannot be written."""
        ...

    def forget(self, key: str) -> bool:
        """Take a seat off the list (the game goes on on its server); whether it was
        there. ServerGamesError when the list cannot be written."""
        ...
