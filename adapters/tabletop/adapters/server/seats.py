"""The server games a person joined, for the home screen: the UI's ``ServerGames``.

The terminal UI defines what it needs (``tabletop.adapters.tui.services.ServerGames``:
the remembered seats, each one's status, the line to its table, remembering and
forgetting); this implements it from the list ``tabletop join`` keeps
(``remembered``) and the client (``client.peek``, ``client.RemoteConnection``). It is
written to that protocol's shape (the same names and fields) without importing the UI:
the two packages never import each other, and the composition root hands this object
to the app. The error it raises for a list that cannot be read or written is the one
the composition root names (the UI's ``ServerGamesError``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tabletop.adapters.server import remembered
from tabletop.framework.seats import (
    Notice,
    SeatConnection,
    SeatMessage,
    SeatRequest,
    TableInfo,
)


@dataclass(frozen=True)
class ServerSeat:
    """A seat at a server game that a person joined from this machine (the fields of
    the UI's ``ServerSeat``)."""

    key: str
    """Identifies the entry in the list (forget it by this): never the token."""
    url: str
    token: str
    title: str
    seat_name: str


class _Seat(Protocol):
    """What is read of a seat the UI hands back (its own ``ServerSeat`` or ours)."""

    @property
    def key(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def token(self) -> str: ...


class RememberedServerGames:
    """``ServerGames`` from the remembered list (``path``, default the user data
    directory's) and the game servers themselves."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        error: type[Exception] = remembered.RememberedError,
        timeout: float | None = None,
    ) -> None:
        self.path = path
        #: Raised (with the reason) when the list cannot be read or written.
        self.error = error
        self.timeout = timeout

    def _where(self) -> Path:
        return self.path if self.path is not None else remembered.default_path()

    def seats(self) -> list[ServerSeat]:
        """The remembered seats, newest first."""
        try:
            games = remembered.load(self._where())
        except remembered.RememberedError as exc:
            raise self.error(str(exc)) from None
        return [
            ServerSeat(game.key, game.url, game.token, game.title, game.seat_name)
            for game in reversed(games)
        ]

    async def status(self, seat: _Seat) -> str:
        """Where the seat's game stands, in a few words ("your turn", "over: Commune
        won", "server unreachable"), asked of its server with a short timeout."""
        from tabletop.adapters.server import client

        try:
            if self.timeout is None:
                answer = await client.peek(seat.url, seat.token)
            else:
                answer = await client.peek(seat.url, seat.token, timeout=self.timeout)
        except client.ClientError as exc:
            if str(exc).startswith("server unreachable"):
                return "server unreachable"
            return f"refused: {exc}"
        except Exception as exc:  # a bad answer: said in the row, the screen goes on
            return f"unreadable answer ({type(exc).__name__})"
        return client.turn_words(answer)

    def connect(self, seat: _Seat) -> SeatConnection:
        """The line to the seat's table (opened by the screen that shows it). Once its
        table welcomes it, the seat is kept in the list (its title and name refreshed,
        and the secret an invite was just bound to); a list that cannot be written is
        said in a note (with that secret, the only key to the seat), and the game goes
        on."""
        from tabletop.adapters.server.client import RemoteConnection

        line = RemoteConnection(seat.url, token=seat.token)
        games = self

        class Remembering(SeatConnection):
            can_save = False

            def open(self, receive: Callable[[SeatMessage], None]) -> None:
                def told(message: SeatMessage) -> None:
                    if isinstance(message, TableInfo) and self.info is None:
                        self.info = message
                        invite = remembered.invite_hash(seat.token) if line.bound else ""
                        try:
                            games.remember(seat.url, line.token or seat.token, message, invite)
                        except Exception as exc:  # the list only: the game goes on
                            receive(message)
                            keep = f" Keep this seat's key: {line.token}" if invite else ""
                            receive(Notice("note", f"This seat is not listed: {exc}.{keep}"))
                            return
                    receive(message)

                line.open(told)

            def send(self, request: SeatRequest) -> None:
                line.send(request)

            def close(self) -> None:
                line.close()

        return Remembering()

    def remember(self, url: str, token: str, info: TableInfo, invite: str = "") -> None:
        """Keep (or refresh) the seat in the list once its table welcomed it."""
        try:
            game = remembered.from_welcome(url, token, info.to_json(), invite=invite)
            remembered.remember(self._where(), game)
        except remembered.RememberedError as exc:
            raise self.error(str(exc)) from None

    def forget(self, key: str) -> bool:
        """Take a seat off the list (the game goes on on its server); whether it was
        there."""
        try:
            return remembered.forget(self._where(), key) is not None
        except remembered.RememberedError as exc:
            raise self.error(str(exc)) from None
