"""structlog set-up: JSON lines to a log file, readable lines on the console.

The file gets everything at INFO and up, one JSON object per line, for bug reports.
The console gets warnings only, so that ``--json`` output stays machine-readable and
the Textual screen is never written over (``console=False`` for ``tabletop play``).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import structlog

_SHARED: list[structlog.types.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def configure_logging(
    log_file: Path | None, *, console: bool = True
) -> structlog.stdlib.BoundLogger:
    root = logging.getLogger("tabletop")
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    root.setLevel(logging.INFO)
    root.propagate = False
    if log_file is not None:
        try:
            log_file.parent.mkdir(parents=True, exist_ok=True)
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
                    foreign_pre_chain=_SHARED,
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
                foreign_pre_chain=_SHARED,
            )
        )
        root.addHandler(console_handler)
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    structlog.configure(
        processors=[*_SHARED, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    logger: structlog.stdlib.BoundLogger = structlog.get_logger("tabletop")
    return logger
