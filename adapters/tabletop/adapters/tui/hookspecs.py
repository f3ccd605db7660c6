"""The Textual UI's own plugin hook: a game may draw its board with its own widget.

It lives here, not in ``tabletop.framework.hookspecs``, because only this front end
knows what a Textual widget is; the core and the headless commands never hear of it.
The UI adds this spec to the registry's plugin manager the first time it asks for a
board, so a plugin registers its implementation exactly as it does the core hooks
(marker ``tabletop.framework.hookimpl``, entry-point group ``tabletop``).
"""

from __future__ import annotations

import sys
from typing import Any, Protocol, runtime_checkable

import pluggy

from tabletop.framework.hookspecs import PROJECT
from tabletop.framework.plugins import GameRegistry

hookspec = pluggy.HookspecMarker(PROJECT)


@runtime_checkable
class BoardWidget(Protocol):
    """What the game screen needs from a board widget class.

    The class must also be a ``textual.widget.Widget``. It is built once per game
    screen as ``cls(view=view)`` and then given every new view with
    ``update_view(view)``: the view the seat on screen may see, never the state. A
    protocol rather than a base class, so a plugin's widget needs no import from the
    UI adapter (it may import it for type checking).
    """

    def __init__(self, *, view: dict[str, Any]) -> None: ...

    def update_view(self, view: dict[str, Any]) -> None:
        """Redraw from ``view`` (a new dict each time; keep it if you need it later)."""


@hookspec(firstresult=True)
def tabletop_board_widget(game_id: str) -> type[BoardWidget] | None:
    """Return the widget class that draws ``game_id``'s board, or None for another game.

    Import Textual and the widget module inside the hook, so that loading the plugin
    for a headless command (simulate, replay, export) never imports Textual.
    """


def board_widget_class(registry: GameRegistry, game_id: str) -> type[BoardWidget] | None:
    """The board widget class a plugin provides for ``game_id`` (None: the generic screen).

    Raises whatever the plugin's hook raises, or pluggy's validation error for a hook
    implementation whose arguments do not match; the caller falls back to the generic
    screen.
    """
    manager = registry.manager
    if manager is None:
        return None
    caller = getattr(manager.hook, "tabletop_board_widget", None)
    if caller is None or not caller.has_spec():
        # Idempotent: a plugin that implements the hook made an unspecified caller,
        # which add_hookspecs completes (and checks the implementations against).
        manager.add_hookspecs(sys.modules[__name__])
    found: type[BoardWidget] | None = manager.hook.tabletop_board_widget(game_id=game_id)
    return found
