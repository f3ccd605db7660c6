"""Widgets that keep their size, and what they draw, when nothing calls for a change.

Each change of a widget's size on the game screen costs a second layout of the whole
screen (Textual lays the screen out again when a widget learns its new size), and a
repaint of everything that moved. Within one seat's turn the screen's parts therefore
keep their heights (``hold_height``), and the option lists keep their drawn options
when only their height changes (``SteadyOptionList``).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.css.scalar import Scalar, Unit
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList


def hold_height(widget: Widget, held: bool, most: int | None = None) -> None:
    """Keep ``widget`` at least as tall as it is drawn now (``held``), or let it fit its
    content again. Held, it still grows for a longer content (nothing is ever cut off),
    but a shorter one leaves blank lines under it instead of moving everything below.
    Held, it is kept no taller than ``most`` (the room its container has). Nothing
    is done when the height held does not change."""
    height = widget.outer_size.height if held and widget.display else 0
    if most is not None:
        height = min(height, most)
    wanted = Scalar(float(height), Unit.CELLS, Unit.WIDTH) if height > 0 else None
    rules = widget.styles.inline
    if rules.min_height == wanted:
        return
    if wanted is None:
        rules.clear_rule("min_height")
    else:
        rules.set_rule("min_height", wanted)
    # A layout, not a repaint: what the widget draws does not change with it (setting
    # ``styles.min_height`` would also draw the widget again, a list of cards included).
    widget.refresh(layout=True, repaint=False)


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

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the options at the width they have now. A scrollbar that comes with a
        longer menu narrows the list without resizing it (no Resize event): options
        measured and drawn at the wider width lost their last wrapped line (a
        destination's number, a warning's line) until the next redraw."""
        width = self.scrollable_content_region.width
        if width != self._drawn_width:
            self._drawn_width = width
            self.forget_drawn()
        return super().render_lines(crop)

    def forget_drawn(self) -> None:
        """Forget every option's measured and drawn lines (they are made again, at the
        width the list has now, as they are drawn)."""
        self._option_render_cache.clear()
        self._line_cache.clear()
