"""A footer that rebuilds only when the keys it shows change.

Textual's ``Footer`` rebuilds all of its key widgets whenever the screen says its
bindings *may* have changed (focus moved, a dialog closed), which on the game screen is
every move; measured, that was about half of the UI's CPU time per key press. The keys
shown on a game screen rarely change, so this footer compares what it would show with
what it shows and keeps its widgets when nothing differs. It looks and behaves as
Textual's footer does (same keys, same clicks, same command palette key).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class StableFooter(Footer):
    """``Footer`` minus the rebuilds that would draw the same keys again."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None

    def _keys(self, screen: Screen[Any]) -> tuple[Any, ...]:
        """What the footer would draw for ``screen``'s bindings now."""
        return tuple(
            (binding.key, binding.description, binding.action, binding.show, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
        )

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            keys = self._keys(screen)
            if keys == self._shown and self._bindings_ready:
                return
            self._shown = keys
        super().bindings_changed(screen)
