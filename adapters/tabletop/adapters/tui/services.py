"""What the terminal UI is given from outside, besides the games: server seats.

The UI imports nothing of the game server (nor the server of the UI): the home screen's
list of the server games a person joined, the status of each and the line to its table
come through ``ServerGames``, which the composition root makes from the server's
client (``tabletop.adapters.server.seats``) and hands to the app.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tabletop.framework.seats import SeatConnection, TableInfo


class ServerGamesError(Exception):
    """The list of server games cannot be read or written (the message says why)."""


class ServerSeat(Protocol):
    """A seat at a server game that a person joined from this machine (read-only, so
    the server client's own record of it is one without either importing the other)."""

    @property
    def key(self) -> str:
        """Identifies the entry in the list (forget it by this)."""
        ...

    @property
    def url(self) -> str: ...
    @property
    def token(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def seat_name(self) -> str: ...


class ServerGames(Protocol):
    """The server games a person joined, and the line to each."""

    def seats(self) -> Sequence[ServerSeat]:
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
