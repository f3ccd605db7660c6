"""A pause at the end of a turn, round or phase: the game's recap, until the player
has read it.

The automatic steps of a turn end (scoring, upkeep, the next deal) run in one key
press; without a pause they scroll past in the log. A game says what is worth a pause
with ``Context.summary`` (an event of kind ``SUMMARY``); the game screen gathers the
recaps the seat on screen may see and shows them here, all of them at once, one after
the other, and no bot moves while this screen is up.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from tabletop.framework.game import Event

#: The recap's keys, said under it.
KEYS = "Enter, Space or Escape: go on  ·  n: don't pause again"
#: What the screen is dismissed with: go on, or go on and pause no more in this run.
GO_ON = "go-on"
NO_MORE = "no-more"


def recap_text(recaps: Sequence[Event]) -> Text:
    """The recaps as one text: each title in bold, then its lines, a blank line
    between two recaps."""
    text = Text()
    for index, recap in enumerate(recaps):
        if index:
            text.append("\n\n")
        text.append(recap.text, style="bold")
        lines = recap.data.get("lines", ())
        for line in lines if isinstance(lines, list) else ():
            text.append(f"\n  {line}")
    return text


class SummaryScreen(ModalScreen[str]):
    """The recaps of the last moves, dismissed with Enter, Space or Escape; ``n``
    dismisses it and turns the pauses off for the rest of the app's run."""

    BINDINGS = [
        Binding("enter", "go_on", "Go on"),
        Binding("space", "go_on", "Go on", show=False),
        Binding("escape", "go_on", "Go on", show=False),
        Binding("n", "no_more", "Don't pause again"),
    ]

    def __init__(self, recaps: Sequence[Event]) -> None:
        super().__init__()
        self.recaps = list(recaps)

    def compose(self) -> ComposeResult:
        count = len(self.recaps)
        title = "What just happened" if count == 1 else f"What just happened ({count} recaps)"
        with Vertical(id="summary-dialog", classes="dialog"):
            yield Label(title, classes="dialog-title", markup=False)
            with VerticalScroll(id="summary-scroll"):
                yield Static(recap_text(self.recaps), id="summary-text", markup=False)
            yield Static(KEYS, id="summary-keys", markup=False)
        yield Footer()  # this screen's keys, not the game's under it

    def on_mount(self) -> None:
        scroll = self.query_one("#summary-scroll", VerticalScroll)
        scroll.focus()  # the arrows and Page keys scroll it
        self.watch(scroll, "scroll_y", self._say_more, init=False)
        self.call_after_refresh(self._say_more)

    def _say_more(self, _: float | None = None) -> None:
        """The keys line says when the recaps go on below the window (a small terminal),
        until the reader has scrolled to their end."""
        scroll = self.query_one("#summary-scroll", VerticalScroll)
        more = scroll.max_scroll_y > 0 and scroll.scroll_y < scroll.max_scroll_y
        keys = KEYS if not more else f"↓ More below: PageDown  ·  {KEYS}"
        self.query_one("#summary-keys", Static).update(keys)

    @property
    def text(self) -> str:
        """The recaps as shown (for tests)."""
        return recap_text(self.recaps).plain

    def action_go_on(self) -> None:
        self.dismiss(GO_ON)

    def action_no_more(self) -> None:
        self.dismiss(NO_MORE)
