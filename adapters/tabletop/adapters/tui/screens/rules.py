"""The game's rules summary (Markdown) as a reference over the game, opened at the
section the current decision cites.

The summary is cut at its headings (``presenting.rules_sections``) and each section is
drawn once as Rich Markdown in a plain widget: one widget per section rather than one
per paragraph (Textual's Markdown widget took one to two seconds to open a long card
game's summary). The game screen keeps its rules screen and shows it again at the next
cited section (``show_rule``), so only the first opening draws anything.
"""

from __future__ import annotations

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from tabletop.adapters.tui.presenting import cited_section, rules_sections


class RulesScreen(Screen[None]):
    """A screen of its own, with its own footer: the game's keys mean nothing here."""

    BINDINGS = [
        Binding("escape", "close", "Back to the game"),
        Binding("r", "close", "Close", show=False),
        Binding("n", "section(1)", "Next section"),
        Binding("p", "section(-1)", "Previous section"),
        Binding("c", "cited", "Cited section"),
    ]

    def __init__(self, title: str, markdown: str, cited: str | None = None) -> None:
        super().__init__()
        self.rules_title = title
        self.sections = rules_sections(markdown)
        self._drawn = [Markdown(section.markdown) for section in self.sections]
        self.cited: str | None = None
        #: The section the cited rule points at (None: the top).
        self.target: int | None = None
        self._wanted = cited

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="rules-cited", markup=False)
        with VerticalScroll(id="rules-scroll"):
            if not self.sections:
                yield Static("This game has no rules summary.", classes="rules-section")
            for index in range(len(self.sections)):
                yield Static(self._drawn[index], id=f"rules-{index}", classes="rules-section")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Rules of {self.rules_title}"
        self.show_rule(self._wanted)

    def point_at(self, cited: str | None) -> None:
        """Before the screen is shown: the rule to open at."""
        self._wanted = cited

    def show_rule(self, cited: str | None) -> None:
        """Point at the section ``cited`` names (and say which rule the decision
        applies), scrolled to the top of the screen once the layout is known."""
        self.cited = cited
        self.target = cited_section(self.sections, cited)
        line = self.query_one("#rules-cited", Static)
        if not cited:
            line.update("No rule is cited for this decision.")
        elif self.target is None:
            line.update(f"The current decision applies {cited} (not in this summary).")
        else:
            title = self.sections[self.target].title
            line.update(f"The current decision applies {cited}: shown from “{title}”.")
        self.call_after_refresh(self.action_cited)

    def action_cited(self) -> None:
        self._show_section(self.target if self.target is not None else 0)

    def action_section(self, step: int) -> None:
        if not self.sections:
            return
        self._show_section(min(max(self.current_section() + step, 0), len(self.sections) - 1))

    def current_section(self) -> int:
        """The last section whose top is at or above the top of the view."""
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        top = scroll.scroll_y
        current = 0
        for index in range(len(self.sections)):
            widget = self.query_one(f"#rules-{index}")
            if widget.virtual_region.y <= top:
                current = index
        return current

    def _show_section(self, index: int) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        if not self.sections:
            return
        widget = self.query_one(f"#rules-{index}")
        scroll.scroll_to(y=widget.virtual_region.y, animate=False, immediate=True)

    def action_close(self) -> None:
        self.app.pop_screen()
