"""The composition root: the one place where ports meet their adapters.

Everything else receives its collaborators; tests override a provider
(``container.save_store.override(...)``) instead of patching modules.
"""

from __future__ import annotations

import os
from pathlib import Path

from dependency_injector import containers, providers

from tabletop.adapters.saves import JsonSaveStore, default_save_dir
from tabletop.app.logs import configure_logging
from tabletop.framework.chance import Pcg32, SeededDice
from tabletop.framework.plugins import load_registry


def _allow_list(value: str | None) -> set[str] | None:
    """TABLETOP_LOAD_PLUGINS=a,b loads only those plugins (empty: none)."""
    if value is None:
        return None
    return {name.strip() for name in value.split(",") if name.strip()}


def default_log_file() -> Path:
    from platformdirs import user_log_path

    return user_log_path("tabletop", appauthor=False) / "tabletop.jsonl"


class Container(containers.DeclarativeContainer):
    config = providers.Configuration()

    registry = providers.Singleton(load_registry, allow=config.allow_plugins)
    rng_factory = providers.Object(Pcg32)
    dice_factory = providers.Object(SeededDice)
    save_store = providers.Singleton(JsonSaveStore, directory=config.save_dir)
    logger = providers.Singleton(
        configure_logging, log_file=config.log_file, console=config.console
    )


def build_container(*, console: bool = True) -> Container:
    """Read settings from the environment and return a wired container."""
    container = Container()
    save_dir = os.environ.get("TABLETOP_SAVE_DIR")
    log_file = os.environ.get("TABLETOP_LOG_FILE")
    container.config.from_dict(
        {
            "save_dir": Path(save_dir) if save_dir else default_save_dir(),
            "log_file": Path(log_file) if log_file else default_log_file(),
            "allow_plugins": _allow_list(os.environ.get("TABLETOP_LOAD_PLUGINS")),
            "console": console,
        }
    )
    return container
