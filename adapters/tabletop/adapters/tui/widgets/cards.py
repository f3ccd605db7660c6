"""The cards the viewer can see (the view schema's ``cards``) as a list to read: the
highlighted card's full text goes to the details pane, so a card's event is readable
before it is played, whatever the board shows of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets.option_list import Option

from tabletop.adapters.tui.widgets.steady import SteadyOptionList


def card_line(card: Mapping[str, Any]) -> Text:
    """A card's name, and where it is, on one line of the list."""
    line = Text(str(card.get("name", "?")), style="bold")
    if card.get("where"):
        line.append(f" ({card['where']})", style="dim")
    return line


def card_details(card: Mapping[str, Any]) -> str:
    """Everything the view says of a card, as the details pane shows it."""
    head = str(card.get("name", "?"))
    if card.get("where"):
        head += f" ({card['where']})"
    text = str(card.get("text") or "")
    return f"{head}\n{text}" if text else f"{head}: nothing more to know."


class CardList(SteadyOptionList):
    """One line per visible card; the screen shows the highlighted one's text."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[dict[str, Any]] = []

    def show_cards(self, cards: Sequence[Mapping[str, Any]]) -> None:
        """Show ``cards`` (hidden when there are none); the highlight stays on the same
        position when the list is redrawn with the same length."""
        fresh = [dict(card) for card in cards if isinstance(card, Mapping)]
        if fresh == self.cards:
            return
        keep = self.highlighted if len(fresh) == len(self.cards) else None
        self.cards = fresh
        self.set_options(Option(card_line(card)) for card in fresh)
        self.display = bool(fresh)
        if fresh:
            self.highlighted = keep if keep is not None else 0

    def highlighted_card(self) -> dict[str, Any] | None:
        index = self.highlighted
        if index is None or not 0 <= index < len(self.cards):
            return None
        return self.cards[index]
