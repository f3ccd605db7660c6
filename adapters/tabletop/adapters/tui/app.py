"""The Textual application: wires the registry, the save store and the screens.

The app holds the services screens share (starting and loading games, bot speed) so
that screens stay about presentation; the game rules live in the framework.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tabletop.adapters.tui.presenting import NewGameSpec, next_bot_speed, speed_name
from tabletop.framework.bots import BotFactory
from tabletop.framework.engine import DiceFactory, RngFactory
from tabletop.framework.errors import TabletopError
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveStore
from tabletop.framework.session import GameSession


def random_seed() -> int:
    """A fresh seed from the OS (not Python's global RNG, which tests may pin)."""
    return secrets.randbelow(2**31)


class TabletopApp(App[None]):
    """Play any installed game in the terminal."""

    TITLE = "Tabletop"
    CSS_PATH = "tabletop.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(
        self,
        registry: GameRegistry,
        store: SaveStore,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        *,
        bot_delay: float = 0.4,
        new_seed: Callable[[], int] = random_seed,
    ) -> None:
        super().__init__()
        self.registry = registry
        self.store = store
        self.rng_factory = rng_factory
        self.dice_factory = dice_factory
        self.bot_delay = bot_delay
        self.new_seed = new_seed

    def get_default_screen(self) -> Screen[Any]:
        from tabletop.adapters.tui.screens.home import HomeScreen

        return HomeScreen()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every screen action is also a palette command (Ctrl+P)."""
        yield from super().get_system_commands(screen)
        commands = getattr(screen, "palette_commands", None)
        if callable(commands):
            yield from commands()

    # Services used by the screens -----------------------------------------------------

    def bot_factories(self, game_id: str) -> dict[str, BotFactory]:
        return {name: self.registry.bots[name][0] for name in self.registry.bot_kinds(game_id)}

    def start_game(self, spec: NewGameSpec) -> GameSession | None:
        """Start a game (autosaved at once); on failure tell the player and return None."""
        try:
            installed = self.registry.get(spec.game_id)
            session = GameSession.start(
                installed.definition,
                seed=spec.seed,
                players=spec.players,
                options=dict(spec.options),
                controllers=list(spec.controllers),
                bot_factories=self.bot_factories(spec.game_id),
                rng_factory=self.rng_factory,
                dice_factory=self.dice_factory,
                store=self.store,
            )
        except TabletopError as exc:
            self.show_error("Cannot start the game", str(exc))
            return None
        except Exception as exc:  # a plugin's setup or bot factory crashed
            self.show_error("Cannot start the game", f"{type(exc).__name__}: {exc}")
            return None
        if session.last_save_error:
            self.notify(session.last_save_error, severity="warning")
        return session

    def load_game(self, save_id: str) -> GameSession | None:
        """Resume a save by replaying it; a bad or mismatching file is reported and kept."""
        try:
            record = self.store.load(save_id)
            installed = self.registry.get(record.game)
            return GameSession.resume(
                installed.definition,
                record,
                save_id=save_id,
                bot_factories=self.bot_factories(record.game),
                rng_factory=self.rng_factory,
                dice_factory=self.dice_factory,
                store=self.store,
            )
        except TabletopError as exc:
            message = str(exc)
        except Exception as exc:  # a plugin crashed while replaying
            message = f"{type(exc).__name__}: {exc}"
        self.show_error(
            f"Cannot load {save_id}", f"{message}\n\nThe save file was kept as it is."
        )
        return None

    def open_game(self, session: GameSession, *, replace: bool = False) -> None:
        from tabletop.adapters.tui.screens.game import GameScreen

        screen = GameScreen(session)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def go_home(self) -> None:
        """Back to the home screen from anywhere (the game is already saved)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def show_error(self, title: str, message: str) -> None:
        from tabletop.adapters.tui.screens.error import ErrorScreen

        self.push_screen(ErrorScreen(title, message))

    def cycle_bot_speed(self) -> str:
        name, self.bot_delay = next_bot_speed(self.bot_delay)
        self.notify(f"Bot speed: {name} ({self.bot_delay:g} s a move)")
        return name

    @property
    def bot_speed_name(self) -> str:
        return speed_name(self.bot_delay)
