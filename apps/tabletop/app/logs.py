"""Logging: structlog set-up, and the observers that write the app's life to the log.

The file gets everything at INFO and up, one JSON object per line, for bug reports.
The console (stderr) gets warnings and errors only when asked for (``console=True``,
``TABLETOP_LOG_CONSOLE=1``): every command already reports its own failures in words,
``--json`` output must stay machine-readable, and the Textual screen must never be
written over.

What is logged, each line with the game, seed, save id and action number it concerns:
session start and end, game over, faults in a game's code and bots that raised (with
the traceback's frames, never the error's message), failed or slow saves, and plugins
that failed to load. The framework never imports structlog:
the app subscribes to sessions as an observer (``SessionLog``), wraps the save store
(``LoggedSaveStore``) and reads the registry's failures (``log_plugin_failures``).

Never a seat's hidden information: lines name seats, bot kinds, choice numbers and
error types; never action words, prompt texts, choice labels, views, event texts or a
game's exception message (any of these may quote a hidden card). The save file, which
the player owns, holds what reproduces a problem.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.framework.errors import PluginFault
from tabletop.framework.game import Result
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveInfo, SaveStore, SessionObserver
from tabletop.framework.record import GameRecord
from tabletop.framework.session import GameSession

if TYPE_CHECKING:  # structlog (and the rich it pulls in) is imported when logging starts
    import structlog

    Logger = structlog.stdlib.BoundLogger
#: A save slower than this (seconds) is logged: a slow disk makes every move lag.
SLOW_SAVE_SECONDS = 0.5
#: The log is rotated when logging starts and the file is larger than this: it becomes
#: ``tabletop.jsonl.1`` (the older ones ``.2``, ``.3``; the oldest is dropped).
MAX_LOG_BYTES = 5 * 1024 * 1024
KEEP_LOGS = 3
#: Where bugs are reported when the installed metadata does not say (Project-URL Issues).
ISSUES_URL = "https://github.com/tabletop-games/tabletop/issues"


def _shared() -> list[structlog.types.Processor]:
    """The processors every line goes through, file and console alike."""
    import structlog

    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def configure_logging(log_file: Path | None, *, console: bool = False) -> Logger:
    """Send the ``tabletop`` loggers to ``log_file`` (JSON lines) and, with ``console``,
    warnings to stderr. A log file that cannot be opened is skipped, never fatal.

    structlog is imported here, not with this module: a command that never logs
    (``tabletop games``) starts a tenth of a second sooner."""
    import structlog

    # A log file on a full or vanished device must not print logging's own traceback
    # into a player's terminal: the log is best-effort, the command goes on.
    logging.raiseExceptions = False
    shared = _shared()
    root = logging.getLogger("tabletop")
    for handler in list(root.handlers):
        root.removeHandler(handler)
        with contextlib.suppress(OSError):  # close flushes: a full device fails here
            handler.close()
    root.setLevel(logging.INFO)
    root.propagate = False
    if log_file is not None:
        try:
            log_file.parent.mkdir(parents=True, exist_ok=True)
            rotate(log_file)
            file_handler = logging.FileHandler(log_file, encoding="utf-8")
        except OSError:
            file_handler = None  # an unwritable log directory must not stop the game
        if file_handler is not None:
            file_handler.setFormatter(
                structlog.stdlib.ProcessorFormatter(
                    processors=[
                        structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                        structlog.processors.format_exc_info,
                        structlog.processors.JSONRenderer(sort_keys=True),
                    ],
                    foreign_pre_chain=shared,
                )
            )
            root.addHandler(file_handler)
    if console:
        console_handler = logging.StreamHandler(sys.stderr)
        console_handler.setLevel(logging.WARNING)
        console_handler.setFormatter(
            structlog.stdlib.ProcessorFormatter(
                processors=[
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()),
                ],
                foreign_pre_chain=shared,
            )
        )
        root.addHandler(console_handler)
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    logger: Logger = structlog.get_logger("tabletop")
    return logger


def rotate(log_file: Path, max_bytes: int | None = None, keep: int | None = None) -> None:
    """Move a log larger than ``max_bytes`` aside (``.1``, the older ones up by one,
    ``keep`` at most), so the log never grows without bound. Done when logging starts,
    not while a command writes: the worker processes of a batch run append to the same
    file and none of them renames it under another. Best effort: never raises.
    Defaults: MAX_LOG_BYTES and KEEP_LOGS."""
    max_bytes = MAX_LOG_BYTES if max_bytes is None else max_bytes
    keep = KEEP_LOGS if keep is None else keep
    try:
        if log_file.stat().st_size <= max_bytes:
            return
        for number in range(keep - 1, 0, -1):
            older = log_file.with_name(f"{log_file.name}.{number}")
            if older.exists():
                older.replace(log_file.with_name(f"{log_file.name}.{number + 1}"))
        log_file.replace(log_file.with_name(f"{log_file.name}.1"))
    except OSError:
        return


def issues_url() -> str:
    """Where to report a bug: the app's Project-URL "Issues", else ISSUES_URL."""
    from importlib import metadata

    try:
        entries: list[str] = metadata.metadata("tabletop-app").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        entries = []
    for entry in entries:
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("issues", "bug tracker") and url.strip():
            return url.strip()
    return ISSUES_URL


def _environment_log() -> Path | None:
    """The log file as the environment sets it (TABLETOP_LOG_FILE, else the user log
    directory); None when there is none (no home directory)."""
    import os

    from tabletop.app.catalogue import log_file

    try:
        return log_file(os.environ.get("TABLETOP_LOG_FILE"))
    except Exception:  # platformdirs without a home directory
        return None


def crash_report(error: BaseException, log_file: Path | None = None) -> str:
    """Write an unexpected error's traceback to the log (one JSON line, as the other
    lines; default: the log the environment names) and return what the one-line
    message adds: where to report the bug and where its traceback is. The traceback
    holds what the terminal already showed (the error's type and message) plus code
    locations, never a view or a prompt."""
    import json
    import traceback
    from datetime import UTC, datetime

    where = f"a bug: please report it at {issues_url()}"
    log_file = log_file or _environment_log()
    if log_file is None:
        return where
    line = {
        "event": "crash",
        "level": "error",
        "logger": "tabletop",
        "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "error": type(error).__name__,
        "exception": "".join(traceback.format_exception(error)).rstrip(),
    }
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        with log_file.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, sort_keys=True) + "\n")
    except OSError:
        return where
    return f"{where} with the traceback logged in {log_file}"


def log_plugin_failures(
    registry: GameRegistry,
    logger: Logger | None = None,
    make_logger: Callable[[], Logger] | None = None,
) -> GameRegistry:
    """Log each plugin that failed to load (with its reason); return the registry.

    ``make_logger`` sets logging up only when there is a failure to log, so listing
    sound games never pays for it."""
    for failure in registry.failures:
        if logger is None and make_logger is not None:
            logger = make_logger()
        if logger is not None:
            logger.warning("plugin.failed", plugin=failure.plugin, reason=failure.reason)
    return registry


def frames(error: BaseException) -> str:
    """Where an error happened: its traceback's frames, one a line (file, line number,
    function), oldest first. Never the error's message, nor the lines of code (a game's
    ``raise`` line may spell out what it was about), which the game's source holds."""
    import traceback

    return "\n".join(
        f"{frame.filename}:{frame.lineno} in {frame.name}"
        for frame in traceback.extract_tb(error.__traceback__)
    )


class SessionLog(SessionObserver):
    """One session's life in the log; ``lifecycle=False`` keeps only its incidents
    (faults, bot errors), for a simulation of thousands of games.

    ``secret_seed``: the seed is logged only once the game is over (a game server's:
    while a game goes on its seed tells every card still to come, and whoever reads
    the server's log is no player). A session's ``save_id`` is a server game's id."""

    def __init__(
        self, logger: Logger, *, lifecycle: bool = True, secret_seed: bool = False
    ) -> None:
        self.logger = logger
        self.lifecycle = lifecycle
        self.secret_seed = secret_seed
        self.session: GameSession | None = None

    def _log(self) -> Logger:
        session = self.session
        if session is None:
            return self.logger
        engine = session.engine
        if self.secret_seed and not engine.over:
            return self.logger.bind(game=engine.game.info.id, save_id=session.save_id)
        return self.logger.bind(game=engine.game.info.id, seed=engine.seed, save_id=session.save_id)

    def attached(self, session: GameSession) -> None:
        self.session = session
        if self.lifecycle:
            engine = session.engine
            self._log().info(
                "session.start",
                players=engine.players,
                seats=list(session.controllers),
                options=dict(engine.options),
                actions=len(engine.log),
            )

    def fault(self, fault: PluginFault) -> None:
        seat, action = fault.actions[-1] if fault.actions else (None, None)
        choice = None
        if self.session is not None:  # the game is as it was before: the same prompt
            prompt = self.session.engine.prompt
            actions = prompt.actions() if prompt is not None else ()
            choice = actions.index(action) + 1 if action in actions else None
        cause = fault.__cause__
        self._log().error(
            "game.fault",
            action=len(fault.actions),
            seat=seat,
            choice=choice,
            error=type(cause).__name__ if cause is not None else type(fault).__name__,
            frames=frames(cause if cause is not None else fault),
        )

    def bot_failed(self, seat: int, error: Exception) -> None:
        kind = self.session.controllers[seat] if self.session is not None else None
        actions = len(self.session.engine.log) if self.session is not None else 0
        self._log().error(
            "bot.failed",
            action=actions + 1,
            seat=seat,
            bot=kind,
            error=type(error).__name__,
            frames=frames(error),
        )

    def game_over(self, result: Result | None) -> None:
        if self.lifecycle and self.session is not None:
            winners = list(result.winners) if result is not None else None
            actions = len(self.session.engine.log)
            self._log().info("game.over", actions=actions, winners=winners)

    def closed(self) -> None:
        if self.lifecycle and self.session is not None:
            engine = self.session.engine
            self._log().info("session.end", actions=len(engine.log), finished=engine.over)


class LoggedSaveStore(SaveStore):
    """A save store that logs failed and slow saves, then behaves exactly as ``inner``."""

    def __init__(
        self, inner: SaveStore, logger: Logger, *, slow: float = SLOW_SAVE_SECONDS
    ) -> None:
        self.inner = inner
        self.logger = logger
        self.slow = slow

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        started = time.perf_counter()
        context: dict[str, Any] = {
            "game": record.game,
            "seed": record.seed,
            "save_id": save_id,
            "action": len(record.actions),
        }
        try:
            saved = self.inner.save(record, save_id)
        except Exception as exc:
            self.logger.warning("save.failed", error=str(exc), **context)
            raise
        seconds = time.perf_counter() - started
        if seconds > self.slow:
            context["save_id"] = saved
            self.logger.warning("save.slow", seconds=round(seconds, 3), **context)
        return saved

    def load(self, save_id: str) -> GameRecord:
        return self.inner.load(save_id)

    def list(self) -> list[SaveInfo]:
        return self.inner.list()

    def delete(self, save_id: str) -> None:
        self.inner.delete(save_id)

    def __getattr__(self, name: str) -> Any:
        """Adapter extras (``JsonSaveStore.path_of``) pass through unchanged."""
        return getattr(self.inner, name)
