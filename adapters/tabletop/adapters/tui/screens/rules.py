"""The game's rules summary (Markdown) as a reference over the game, opened at the
section the current decision cites.

The summary is cut at its headings (``presenting.rules_sections``) and the screen shows
one section at a time (n / p step through them): only the section on screen is drawn,
as Rich Markdown in a plain widget, and each drawing is kept. Drawing a whole long
summary at the first opening took half a second on a loaded machine (and Textual's
Markdown widget one to two seconds); one section costs a few milliseconds. The game
screen keeps its rules screen and shows it again at the next cited section
(``show_rule``).
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
        #: Sections drawn so far, by index (drawn when first shown).
        self._drawn: dict[int, Markdown] = {}
        self._current = 0
        self.cited: str | None = None
        #: The section the cited rule points at (None: the top).
        self.target: int | None = None
        self._wanted = cited

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="rules-cited", markup=False)
        with VerticalScroll(id="rules-scroll"):
            empty = "" if self.sections else "This game has no rules summary."
            yield Static(empty, id="rules-section", classes="rules-section")
        yield Static("", id="rules-where", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Rules of {self.rules_title}"
        self.show_rule(self._wanted)

    def point_at(self, cited: str | None) -> None:
        """Before the screen is shown: the rule to open at."""
        self._wanted = cited

    def show_rule(self, cited: str | None) -> None:
        """Point at the section ``cited`` names (and say which rule the decision
        applies), drawn at once: one section needs no layout to be known first."""
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
        self.action_cited()

    def action_cited(self) -> None:
        self._show_section(self.target if self.target is not None else 0)

    def action_section(self, step: int) -> None:
        if not self.sections:
            return
        self._show_section(min(max(self.current_section() + step, 0), len(self.sections) - 1))

    def current_section(self) -> int:
        """The index of the section on screen."""
        return self._current

    def _show_section(self, index: int) -> None:
        if not self.sections:
            return
        self._current = index
        drawn = self._drawn.get(index)
        if drawn is None:
            drawn = self._drawn[index] = Markdown(self.sections[index].markdown)
        self.query_one("#rules-section", Static).update(drawn)
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)
        where = f"Section {index + 1} of {len(self.sections)}"
        steps = [
            step
            for step, ok in (
                ("n: next", index + 1 < len(self.sections)),
                ("p: previous", index > 0),
            )
            if ok
        ]
        self.query_one("#rules-where", Static).update(" · ".join([where, *steps]))

    def action_close(self) -> None:
        self.app.pop_screen()
