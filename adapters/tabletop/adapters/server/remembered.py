"""The server games a person has joined from this machine: what the home screen lists.

Why a file of its own: a seat of a server game is played over days (asynchronous
play), and its secret is the only key to it: an invite works once, and the first join
binds the seat to a secret the client made, kept here and nowhere else (with the
invite's SHA-256, so that joining again with the same invite finds it). ``tabletop
join`` writes each seat it opens here (server, game, seat, title and the secret), so
the home screen can list the seats, ask their servers whose turn it is and re-join one
with Enter. The file holds those keys, so it is written with 0600 permissions (only its
owner reads it). A file that cannot be read is reported in words and left as it is:
nothing is written over it.
Only the standard library (and platformdirs for the default place) is imported here:
the home screen reads it without loading websockets.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

#: Overrides where the list is kept (tests, or a person with several lists).
ENV = "TABLETOP_SERVER_GAMES"
FILE_NAME = "server-games.json"
VERSION = 1
_FIELDS = ("url", "token", "game", "game_id", "title", "seat", "seat_name")


class RememberedError(Exception):
    """The list of server games cannot be read or written; the message says why."""


@dataclass(frozen=True)
class ServerGame:
    """One seat of a server game, as its ``join`` saw it."""

    url: str
    token: str
    game: str
    """The server's id of the game (``tabletop fetch`` takes it)."""
    game_id: str
    """The kind of game (``red-flag-over-paris``)."""
    title: str
    seat: int
    seat_name: str
    invite: str = ""
    """The SHA-256 of the invite this seat was joined with ("" when not known)."""

    @property
    def key(self) -> str:
        """Names the row: the server and the seat's game and number (never the token,
        which a row key would show to anyone reading the screen's internals)."""
        return f"{self.url}#{self.game}#{self.seat}"


def default_path() -> Path:
    """$TABLETOP_SERVER_GAMES, or server-games.json in the user data directory (beside
    ``saves/`` and the server's own database)."""
    override = os.environ.get(ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("tabletop", appauthor=False) / FILE_NAME


def load(path: Path) -> list[ServerGame]:
    """The remembered seats, oldest first; [] when the file does not exist yet.
    RememberedError (saying which file and what is wrong) when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise RememberedError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RememberedError(f"{path} is not JSON ({exc}); it was left as it is") from None
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise RememberedError(f'{path} has no "games" list; it was left as it is')
    games: list[ServerGame] = []
    for number, entry in enumerate(data["games"], start=1):
        games.append(_entry(path, number, entry))
    return games


def _entry(path: Path, number: int, entry: Any) -> ServerGame:
    if not isinstance(entry, dict):
        raise RememberedError(f"{path}: game {number} is not an object; the file was left as it is")
    for name in _FIELDS:
        wanted = int if name == "seat" else str
        if not isinstance(entry.get(name), wanted) or isinstance(entry.get(name), bool):
            raise RememberedError(
                f"{path}: game {number} has no {wanted.__name__} {name!r}; "
                "the file was left as it is"
            )
    invite = entry.get("invite", "")
    if not isinstance(invite, str):
        raise RememberedError(
            f"{path}: game {number} has no str 'invite'; the file was left as it is"
        )
    return ServerGame(**{name: entry[name] for name in _FIELDS}, invite=invite)


def invite_hash(invite: str) -> str:
    """What the list keeps of an invite it used: enough to know it again, nothing more
    (a used invite opens nothing, but it need not be kept as it is)."""
    return hashlib.sha256(invite.encode("utf-8", "replace")).hexdigest()


def by_invite(path: Path, url: str, invite: str) -> ServerGame | None:
    """The seat this machine joined on ``url`` with ``invite``, if any."""
    wanted = invite_hash(invite)
    return next((g for g in load(path) if g.url == url and g.invite == wanted), None)


def save(path: Path, games: list[ServerGame]) -> None:
    """Write the list whole (a temporary file renamed over it), readable only by its
    owner: it holds tokens."""
    text = json.dumps({"version": VERSION, "games": [asdict(g) for g in games]}, indent=2)
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        os.chmod(temporary, 0o600)  # O_CREAT's mode does not change an existing file
        os.replace(temporary, path)
    except OSError as exc:
        raise RememberedError(f"cannot write {path}: {exc.strerror or exc}") from None


def remember(path: Path, game: ServerGame) -> None:
    """Add a seat at the end, or refresh the one with the same server and token in
    its place (re-joining does not reorder the home screen's list; the invite's hash
    it was joined with is kept)."""
    games = load(path)
    same = [i for i, g in enumerate(games) if (g.url, g.token) == (game.url, game.token)]
    if same:
        if not game.invite:
            game = replace(game, invite=games[same[0]].invite)
        games[same[0]] = game
    else:
        games.append(game)
    save(path, games)


def forget(path: Path, key: str) -> ServerGame | None:
    """Drop the seat named ``key``; the seat dropped, or None when it was not there."""
    games = load(path)
    kept = [g for g in games if g.key != key]
    if len(kept) == len(games):
        return None
    save(path, kept)
    return next(g for g in games if g.key == key)


def from_welcome(url: str, token: str, welcome: dict[str, Any], *, invite: str = "") -> ServerGame:
    """The seat as the table's welcome names it (``seats.TableInfo`` as JSON: ``game``
    is the kind of game, ``table`` the server's id of it); ``token`` opens it (the
    secret an invite was bound to), ``invite`` is that invite's hash."""
    seat = welcome.get("seat", -1)
    seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else -1
    names = welcome.get("seats", [])
    name = names[seat] if isinstance(names, list) and 0 <= seat < len(names) else f"seat {seat}"
    return ServerGame(
        url=url,
        token=token,
        game=str(welcome.get("table", "")),
        game_id=str(welcome.get("game", "")),
        title=str(welcome.get("title", welcome.get("game", ""))),
        seat=seat,
        seat_name=str(name),
        invite=invite,
    )
