"""An option list that keeps its drawn options when only its height changes."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import OptionList


class SteadyOptionList(OptionList):
    """``OptionList`` minus the redrawing of every option at each resize.

    Textual's option list forgets its drawn options whenever its size changes, but they
    depend on its width only. On the game screen the decision panel's height changes at
    most moves (longer or shorter menus), which resized both lists below it and had
    every option drawn twice per key press. Here a change of height keeps them; a change
    of width (a scrollbar shown, the terminal resized) draws them again, as before."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drawn_width = -1

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width == self._drawn_width:
            event.prevent_default()  # OptionList's own handler: forget every option
        self._drawn_width = width
