"""Typed access from a screen to the app's services."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

if TYPE_CHECKING:
    from tabletop.adapters.tui.app import TabletopApp


def tabletop(node: DOMNode) -> TabletopApp:
    """The running TabletopApp (``node.app`` is typed as a plain App)."""
    return cast("TabletopApp", node.app)
