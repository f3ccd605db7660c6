"""What one server lets its clients use: games with no person at them, and how long a
search bot thinks. A module of its own, with nothing heavy imported, so that the
``tabletop serve`` command line shows the defaults without loading the server."""

from __future__ import annotations

from dataclasses import dataclass

#: Games with no person at them (every seat a bot) a server plays at once, in all and
#: per client address: each keeps a worker busy for as long as it lasts.
DEFAULT_BOT_GAMES = 16
DEFAULT_BOT_GAMES_PER_CLIENT = 4
#: The longest a search bot on a server thinks about one decision (seconds of wall
#: clock): no decision may hold a worker for long, whatever the game.
BOT_SECONDS = 2.0


@dataclass(frozen=True)
class Limits:
    """How many games with no person at them the server plays at once, in all and per
    client address (a client must not be able to fill the server with them)."""

    bot_games: int = DEFAULT_BOT_GAMES
    bot_games_per_client: int = DEFAULT_BOT_GAMES_PER_CLIENT

    def __post_init__(self) -> None:
        if self.bot_games < 0 or self.bot_games_per_client < 0:
            raise ValueError("the limits on bot games are 0 or more")
