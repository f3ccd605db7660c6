"""Errors the framework raises; each carries a message fit to show a person."""

from __future__ import annotations

#: What the framework contains when a game's or plugin's code raises it: every error,
#: and also ``SystemExit`` (a stray ``sys.exit``) and ``GeneratorExit``, which would
#: otherwise end the app without a word. Never ``KeyboardInterrupt``: that is the user.
PLUGIN_ESCAPES: tuple[type[BaseException], ...] = (Exception, SystemExit, GeneratorExit)


class TabletopError(Exception):
    """Base of every error the framework means to show to a user."""


class IllegalAction(TabletopError):
    """An action that is not legal now. Raised before anything changes."""


class GameOver(IllegalAction):
    """An action after the game has ended."""


class UndoRefused(TabletopError):
    """Undo would cross randomness or a reveal of hidden information."""


class PluginFault(TabletopError):
    """A game's own code raised; the state was restored to before the action.

    Carries what reproduces it: the game, seed, options and the action log.
    """

    def __init__(self, message: str, *, game: str, seed: int, actions: list[list[object]]) -> None:
        super().__init__(message)
        self.game = game
        self.seed = seed
        self.actions = actions


class SaveError(TabletopError):
    """A save that cannot be read or written (missing, corrupt, foreign, wrong version)."""


class ReplayMismatch(TabletopError):
    """Replaying a record did not give the recorded digest."""


class Unsupported(TabletopError):
    """An optional game capability the game does not provide."""


class UnknownGame(TabletopError):
    """No installed plugin provides this game id."""
