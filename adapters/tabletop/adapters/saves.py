"""JSON file saves: one file per game, written atomically.

A save holds the record (seed, options, seats, action log, digest), never the state, so
a file is small, readable, diffable and cannot smuggle code in (JSON only, no pickle).
Writes go to a temporary file that is fsynced and renamed over the old one, so a crash
or a full disk at any moment leaves either the old save or the new one, never half.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import secrets
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabletop.framework.errors import SaveError
from tabletop.framework.ports import SaveInfo, SaveStore
from tabletop.framework.record import MAX_INT_DIGITS, GameRecord, check_plain_data, digest_of

try:  # POSIX: serialise writers of one save directory across processes
    import fcntl
except ImportError:  # pragma: no cover - Windows: compare-before-write still holds
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".json"
#: Saves larger than this are refused on load, and never written: no real game log
#: comes near it (a 640,000-action game is about 8 MB).
MAX_SAVE_BYTES = 16 * 1024 * 1024
#: A temporary file this old is the remains of an interrupted write, not one under way.
ORPHAN_AGE_SECONDS = 600
#: Names this store makes for new saves.
_NEW_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
#: Longest save name (without .json) this store opens.
MAX_NAME = 200


def printable(text: str, limit: int = 10_000) -> str:
    """``text`` from a file, safe to show as plain text in a terminal.

    Control and format characters (ESC starts terminal escape sequences, CR and BS
    overwrite what was shown, a newline would break a one-line message, U+202E turns
    text around) become U+FFFD, so a crafted save can neither move the cursor, change
    colours, retitle the window nor pass for another line. Markup is the caller's
    concern: show the result with markup off (a Rich ``Text``, ``markup=False``).
    Long text is cut.
    """
    clean = "".join(
        "\ufffd" if unicodedata.category(char) in ("Cc", "Cf") else char for char in text[:limit]
    )
    return clean if len(text) <= limit else clean + "…"


def default_save_dir() -> Path:
    """Per-user data directory (e.g. ~/.local/share/tabletop/saves)."""
    from platformdirs import user_data_path

    return user_data_path("tabletop", appauthor=False) / "saves"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, whole.

    A ``path`` that is a symbolic link to a regular file is written through: the new
    file replaces the link's target and the link stays (replacing the link itself
    would leave the target behind, never updated again)."""
    if path.is_symlink() and path.is_file():
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where supported
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def encode_record(record: GameRecord, saved_at: str) -> str:
    """The file's text: the record plus a checksum over it.

    Refuses (SaveError) a record the reader would refuse: the same depth, integer,
    type and size limits, so no save is ever written that cannot be opened again.
    """
    body = record.to_json()
    body["saved_at"] = saved_at
    try:
        check_plain_data(body, skip=("actions",))
        GameRecord.from_json(body)  # checks every action entry
    except SaveError as exc:
        raise SaveError(f"cannot save this game: {exc}") from None
    body["checksum"] = digest_of(body)
    text = _layout(body)
    size = len(text.encode("utf-8"))
    if size > MAX_SAVE_BYTES:
        raise SaveError(
            f"cannot save this game: {size} bytes is over the save limit of {MAX_SAVE_BYTES}"
        )
    return text


def _layout(body: dict[str, Any]) -> str:
    """One top-level field a line, each value compact: readable in an editor, and
    written by the JSON codec's C encoder (an indented dump of a 640,000-action log is
    ten times slower and twice the size)."""
    fields = [
        f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"
        for key, value in body.items()
    ]
    return "{\n " + ",\n ".join(fields) + "\n}\n"


#: A run of more digits than any integer a save may hold (seen anywhere in the text,
#: strings included, it sends the parse through the slower, bounding path).
_LONG_DIGITS = re.compile(rf"\d{{{MAX_INT_DIGITS + 1}}}")


class _Refused(ValueError):
    """A value the parser must not build (raised from inside ``json.loads``)."""


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer longer than {MAX_INT_DIGITS} digits")
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused("a number too large to be finite")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON")


def decode_record(text: str, *, name: str = "save") -> tuple[GameRecord, str]:
    """Parse and check a save's text; return the record and its saved_at time.

    The text is untrusted: integers are bounded while parsing (before Python's own
    4,300-digit limit could raise), deep nesting is refused before anything recurses
    over it, the checksum is mandatory, and every field has exactly its type.
    """
    bounded = _bounded_int if _LONG_DIGITS.search(text) else int
    try:
        data: Any = json.loads(
            text,
            parse_int=bounded,
            parse_float=_finite_float,
            parse_constant=_no_constant,
        )
    except _Refused as exc:
        raise SaveError(f"{name}: {exc}: damaged or not a save") from None
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{name}: not valid JSON (line {exc.lineno}): damaged or not a save"
        ) from None
    except (RecursionError, ValueError):
        raise SaveError(f"{name}: nested too deeply or malformed: damaged or not a save") from None
    try:
        check_plain_data(data, skip=("actions",))
    except SaveError as exc:
        raise SaveError(f"{name}: {exc}: damaged or not a save") from None
    signed = isinstance(data, dict) and "checksum" in data
    if signed:
        claimed = data.pop("checksum")
        try:
            actual = digest_of(data)
        except (RecursionError, ValueError):  # deep nesting in the (not yet checked) log
            raise SaveError(f"{name}: nested too deeply: damaged or not a save") from None
        if claimed != actual:
            raise SaveError(f"{name}: checksum mismatch: the file was changed or damaged")
    record = _with_name(name, lambda: GameRecord.from_json(data))
    if not signed:
        raise SaveError(f"{name}: no checksum: the file was edited by hand or damaged")
    saved_at = data.get("saved_at", "")
    if not isinstance(saved_at, str):
        raise SaveError(f"{name}: damaged save: saved_at must be str")
    return record, saved_at


def _with_name(name: str, build: Callable[[], GameRecord]) -> GameRecord:
    try:
        return build()
    except SaveError as exc:
        raise SaveError(f"{name}: {exc}") from None


def read_save_file(path: Path) -> tuple[GameRecord, str]:
    """Read one save file with every failure turned into a one-line SaveError."""
    name = printable(path.name, 120)
    try:
        if path.is_dir():
            raise SaveError(f"{name}: is a directory, not a save file")
        if path.exists() and not path.is_file():  # a FIFO or device would block or never end
            raise SaveError(f"{name}: not a regular file")
        size = path.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(
                f"{name}: {size} bytes is too large for a save (limit {MAX_SAVE_BYTES})"
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"{name}: no such save file") from None
    except PermissionError:
        raise SaveError(f"{name}: permission denied") from None
    except OSError as exc:
        raise SaveError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if not raw.strip():
        raise SaveError(f"{name}: empty file (an interrupted write?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{name}: not text: damaged or not a save") from None
    return decode_record(text, name=name)


def _mtime(path: Path) -> str:
    """When a file was last changed; "" if it vanished or is a dangling link."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_name(save_id: str) -> None:
    """Refuse a save name that is not one plain file name in the save directory.

    Names with spaces, accents or a leading dash are fine (a player may have renamed a
    file); a separator, a leading dot (hidden and temporary files), a control character
    or an overlong name is not.
    """
    if (
        not save_id
        or len(save_id) > MAX_NAME
        or save_id.startswith(".")
        or any(char in save_id for char in "/\\\0")
        or printable(save_id) != save_id
    ):
        raise SaveError(f"{printable(save_id, 60)!r} is not a valid save name")


Signature = tuple[int, int, int]
"""What identifies one version of a file on disk: inode, size and mtime in ns. An
atomic write renames a new file into place, so every write changes the inode."""


def _signature(path: Path) -> Signature | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


#: What a player whose save another window changed should know (issue 22, finding 5):
#: a copy is a snapshot, later moves still go to the refused save, so the moves are
#: kept by writing the game to another file when leaving it (the rescue dialog).
CONFLICT_ADVICE = (
    "this game's moves are no longer saved: to keep them, write the game to another "
    "file when you leave it (a copy saved now holds only the moves made so far)"
)


class JsonSaveStore(SaveStore):
    """Saves as ``<id>.json`` files in one directory.

    Two windows (or programs) on one save must not silently overwrite each other's
    moves, so the store remembers the version of each file it read or wrote and will
    not replace a file that changed since (compare-before-write, under a lock on the
    directory so the compare and the rename are one step for every writer): the save
    fails with a message saying so, and the game goes on in memory until it is saved
    under another name.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._seen: dict[str, Signature | None] = {}

    def path_of(self, save_id: str) -> Path:
        check_name(save_id)
        return self.directory / f"{save_id}{SUFFIX}"

    def new_id(self, record: GameRecord) -> str:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        game = record.game if _NEW_ID.match(record.game) else "game"
        return f"{game[:60]}-{stamp}-{secrets.token_hex(2)}"

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        text = encode_record(record, _now())  # refuses what the reader would refuse
        fresh = save_id is None
        if save_id is None:
            save_id = self.new_id(record)
        path = self.path_of(save_id)
        try:
            with self._locked():
                while fresh and path.exists():  # a new game never replaces another
                    save_id = self.new_id(record)
                    path = self.path_of(save_id)
                self._check_unchanged(save_id, path)
                atomic_write_text(path, text)
        except OSError as exc:
            raise SaveError(
                f"cannot write save {printable(save_id, 60)}: {exc.strerror or exc}"
            ) from exc
        self._seen[save_id] = _signature(path)
        return save_id

    def _check_unchanged(self, save_id: str, path: Path) -> None:
        """Refuse to replace a save another process wrote since this store saw it."""
        if save_id not in self._seen:
            return  # never opened here: a first save under this name
        known = self._seen[save_id]
        now = _signature(path)
        if now is not None and now != known:
            raise SaveError(
                f"{printable(save_id, 60)} was changed by another window or program since "
                f"this game opened it; it was not overwritten, and {CONFLICT_ADVICE}"
            )

    def _directory_problem(self) -> str | None:
        """Why the save directory cannot hold saves, in words (None: it can, or it is
        not there yet and will be made)."""
        where = printable(str(self.directory))
        if self.directory.is_symlink() and not self.directory.exists():
            return f"the save directory {where} is a link to something that does not exist"
        if self.directory.exists() and not self.directory.is_dir():
            return f"the save directory {where} is a file, not a directory"
        return None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold an exclusive lock on the save directory (POSIX) while writing."""
        problem = self._directory_problem()
        if problem is not None:
            raise SaveError(problem)
        self.directory.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def load(self, save_id: str) -> GameRecord:
        path = self.path_of(save_id)
        before = _signature(path)
        record, _ = read_save_file(path)
        self._seen[save_id] = before
        return record

    def forget(self, save_id: str) -> None:
        """Stop guarding ``save_id``: the next save replaces whatever is there."""
        self._seen.pop(save_id, None)

    def list(self) -> list[SaveInfo]:
        problem = self._directory_problem()
        if problem is not None:  # not "no saved games yet": there is no place for them
            raise SaveError(problem)
        try:
            paths = [p for p in self.directory.iterdir() if p.name.endswith(SUFFIX)]
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise SaveError(
                f"cannot list saves in {printable(str(self.directory))}: {exc.strerror}"
            ) from None
        self._sweep_orphans()
        infos: list[SaveInfo] = []
        for path in paths:
            if path.name.startswith("."):
                continue
            save_id = path.name[: -len(SUFFIX)]
            try:
                check_name(save_id)
                record, saved_at = read_save_file(path)
            except Exception as exc:  # any file at all must not stop the listing
                message = str(exc) if isinstance(exc, SaveError) else f"unreadable: {exc}"
                infos.append(
                    SaveInfo(
                        printable(save_id, MAX_NAME),
                        "?",
                        _mtime(path),
                        0,
                        (),
                        "",
                        0,
                        False,
                        error=printable(message, 300),
                    )
                )
                continue
            infos.append(
                SaveInfo(
                    save_id=save_id,
                    game=printable(record.game, 60),
                    saved_at=printable(saved_at, 40),
                    players=record.players,
                    seats=tuple(printable(seat, 40) for seat in record.seats),
                    progress=printable(record.progress, 200),
                    actions=len(record.actions),
                    finished=record.finished,
                )
            )
        infos.sort(key=lambda info: (info.saved_at, info.save_id), reverse=True)
        return infos

    def _sweep_orphans(self) -> None:
        """Delete temporary files left by writes that a crash interrupted.

        They never hold a save (the rename did not happen), but they would pile up. Only
        old ones go, so a write in progress in another process is never touched.
        """
        cutoff = time.time() - ORPHAN_AGE_SECONDS
        with contextlib.suppress(OSError):
            for path in self.directory.glob(".*.tmp"):
                with contextlib.suppress(OSError):
                    if path.is_file() and path.stat().st_mtime < cutoff:
                        path.unlink()

    def delete(self, save_id: str) -> None:
        try:
            self.path_of(save_id).unlink()
        except FileNotFoundError:
            raise SaveError(f"no save named {printable(save_id, 60)}") from None
        self._seen.pop(save_id, None)


class ShadowMismatch(SaveError):
    """The shadow game did not reach the digest it was told (or an action would not
    replay): what the game has would not load back. ``error`` is the exception the
    replay raised, or None when it ran and reached another state."""

    def __init__(self, message: str, error: Exception | None = None) -> None:
        super().__init__(message)
        self.error = error


class ShadowGame:
    """A second copy of a game that follows its actions and checks that they reach the
    digest the game claims (issue 22, finding 4).

    Loading a game replays its moves and insists on its digest; a game whose own code
    changes its state outside a move (a ``view`` or ``prompt`` that writes) reaches a
    digest its moves never reach, and could never be opened again. Following the moves
    in a shadow (one action a step, no undo snapshots, no history kept) finds that at
    the first action it happens, before the action is kept: ``ReplayCheckedStore``
    before a save is written, the game server's keeper before an action is stored."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.actions: list[tuple[int, str]] = []

    @classmethod
    def of(cls, record: GameRecord, game: Any, rng_factory: Any, dice_factory: Any) -> ShadowGame:
        """A shadow at the start of ``record``'s game (none of its actions followed)."""
        from tabletop.framework.engine import Engine

        return cls(
            Engine(
                game,
                seed=record.seed,
                players=record.players,
                options=record.options,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                undo=False,  # it only follows: no snapshots to keep
            )
        )

    def follows(self, actions: list[tuple[int, str]]) -> bool:
        """Whether ``actions`` begin with every action this shadow followed (otherwise
        an undo took some back, and a new shadow must start over)."""
        return actions[: len(self.actions)] == self.actions

    def follow(self, actions: list[tuple[int, str]], digest: str) -> None:
        """Play the actions of ``actions`` not followed yet, then compare digests;
        ``ShadowMismatch`` when an action does not replay or the digest differs (the
        shadow is then of no further use)."""
        self._play(actions[len(self.actions) :], digest)

    def step(self, seat: int, action: str, digest: str) -> None:
        """Follow one more action (the game's newest), then compare digests."""
        self._play([(seat, action)], digest)

    def _play(self, actions: list[tuple[int, str]], digest: str) -> None:
        engine = self.engine
        try:
            for seat, action in actions:
                engine.act(seat, action)
                self.actions.append((seat, action))
            engine.history.clear()  # nobody reads a shadow's story: keep memory flat
            same = engine.digest() == digest
        except Exception as exc:  # an action refused, a fault: it would not load either
            raise ShadowMismatch(f"{type(exc).__name__}: {exc}", exc) from exc
        if not same:
            raise ShadowMismatch("replaying the moves gives another state than the game has")


class ReplayCheckedStore(SaveStore):
    """A save store that writes only a game it could load back (issue 22, finding 4).

    Each save is checked first against a ``ShadowGame`` that follows the saved moves
    (one action per autosave; started over after an undo or for a new name): a record
    whose digest the shadow does not reach is refused with a ``SaveError`` (the
    session shows it at once: NOT SAVED), and the last good save stays on disk.

    ``game_for(game_id)`` gives the definition to replay with (the registry's).
    """

    def __init__(
        self,
        inner: SaveStore,
        game_for: Callable[[str], Any],
        rng_factory: Any,
        dice_factory: Any,
    ) -> None:
        self.inner = inner
        self.game_for = game_for
        self.rng_factory = rng_factory
        self.dice_factory = dice_factory
        self._shadows: dict[str, ShadowGame] = {}

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        shadow = self._follow(record, save_id)
        saved = self.inner.save(record, save_id)
        if shadow is not None:
            self._shadows[saved] = shadow
        return saved

    def _follow(self, record: GameRecord, save_id: str | None) -> ShadowGame | None:
        """The shadow game after ``record``'s moves, or SaveError when it does not reach
        the record's digest. None when there is nothing to check against (no digest)."""
        if not record.digest:
            return None
        actions = [(seat, action) for seat, action in record.actions]
        shadow = self._shadows.pop(save_id, None) if save_id is not None else None
        try:
            if shadow is None or not shadow.follows(actions):
                game = self.game_for(record.game)
                shadow = ShadowGame.of(record, game, self.rng_factory, self.dice_factory)
            shadow.follow(actions, record.digest)
        except ShadowMismatch as exc:
            if exc.error is not None:
                raise SaveError(f"not saved: this game would not load back ({exc})") from exc
            raise SaveError(
                f"not saved: {printable(record.game, 60)} would not load back from this "
                "save: replaying its moves gives another state than the game has now (the "
                "game's own code changed its state outside a move, in view() or prompt(): "
                "a bug in the game; the last good save is kept)"
            ) from None
        except Exception as exc:  # the game could not even be set up again
            raise SaveError(
                f"not saved: this game would not load back ({type(exc).__name__}: {exc})"
            ) from exc
        return shadow

    def load(self, save_id: str) -> GameRecord:
        return self.inner.load(save_id)

    def list(self) -> list[SaveInfo]:
        return self.inner.list()

    def delete(self, save_id: str) -> None:
        self._shadows.pop(save_id, None)
        self.inner.delete(save_id)

    def __getattr__(self, name: str) -> Any:
        """Adapter extras (``JsonSaveStore.path_of``, ``forget``) pass through."""
        return getattr(self.inner, name)
