"""What one server lets its clients use: connections, games hosted, games with no
person at them, how long a search bot thinks, and how long a game nobody is at stays in
memory. A module of its own, with nothing heavy imported, so that the ``tabletop serve``
command line shows the defaults without loading the server."""

from __future__ import annotations

from dataclasses import dataclass, fields

#: Games with no person at them (every seat a bot) a server plays at once, in all and
#: per client address: each keeps a worker busy for as long as it lasts.
DEFAULT_BOT_GAMES = 16
DEFAULT_BOT_GAMES_PER_CLIENT = 4
#: The longest a search bot on a server thinks about one decision (seconds of wall
#: clock): no decision may hold a worker for long, whatever the game.
BOT_SECONDS = 2.0
#: Open connections in all and from one client address: each holds a file descriptor,
#: and the system gives a process about a thousand by default. A household or a club
#: behind one address (NAT) still fits in the second: a seat is one connection.
DEFAULT_CONNECTIONS = 1000
DEFAULT_CONNECTIONS_PER_CLIENT = 64
#: Seconds a connection may stay silent before it sits at a table (its first message,
#: or the next after a host or fetch): an idle connection holds a descriptor for nothing.
DEFAULT_IDLE_SECONDS = 30.0
#: Games one client address may host in an hour (each is kept in the store for good).
DEFAULT_HOSTS_PER_CLIENT_HOUR = 60
#: Seconds a game's bot lease runs (several server processes on one database): the
#: longest a game waits for another process to take over its bots when the one that
#: played them died.
LEASE_SECONDS = 10.0
#: Seconds a game stays in memory once nobody is at it and no bot of it is due; the
#: next join replays it from the store (a second or less for a long game).
DEFAULT_IDLE_GAME_SECONDS = 120.0


@dataclass(frozen=True)
class Limits:
    """What one client may take of the server, and what the server keeps in memory:
    no client must be able to lock the others out."""

    bot_games: int = DEFAULT_BOT_GAMES
    bot_games_per_client: int = DEFAULT_BOT_GAMES_PER_CLIENT
    connections: int = DEFAULT_CONNECTIONS
    connections_per_client: int = DEFAULT_CONNECTIONS_PER_CLIENT
    idle_seconds: float = DEFAULT_IDLE_SECONDS
    hosts_per_client_hour: int = DEFAULT_HOSTS_PER_CLIENT_HOUR
    idle_game_seconds: float = DEFAULT_IDLE_GAME_SECONDS

    def __post_init__(self) -> None:
        if self.bot_games < 0 or self.bot_games_per_client < 0:
            raise ValueError("the limits on bot games are 0 or more")
        for name in ("connections", "connections_per_client", "hosts_per_client_hour"):
            if getattr(self, name) < 1:
                raise ValueError(f"the limit {name.replace('_', ' ')} is 1 or more")
        if self.idle_seconds <= 0 or self.idle_game_seconds <= 0:
            raise ValueError("the idle times are more than 0 seconds")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in fields(cls))
