"""The prompt's legal choices as a keyboard-first selectable list."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tabletop.framework.game import Prompt


class ChoiceList(OptionList):
    """Numbered choices of one prompt.

    Every new prompt bumps ``generation`` and the option ids carry it, so a selection
    that arrives after the prompt changed is recognised as stale and ignored.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.generation = 0
        self.prompt: Prompt | None = None

    def show_prompt(self, prompt: Prompt | None, *, enabled: bool) -> None:
        """Show ``prompt``'s choices; disabled (greyed) when it is not a person's to make."""
        if prompt == self.prompt and enabled != self.disabled:
            self.disabled = not enabled
            return
        if prompt == self.prompt:
            return
        self.generation += 1
        self.prompt = prompt
        self.disabled = not enabled
        options = []
        if prompt is not None:
            for index, choice in enumerate(prompt.choices):
                number = f"{index + 1}" if index < 9 else " "
                label = Text.assemble((f"{number} ", "bold"), choice.label)
                options.append(Option(label, id=f"g{self.generation}-{index}"))
        self.set_options(options)
        if options:
            self.highlighted = 0

    def generation_of(self, option_id: str | None) -> int:
        """The prompt generation an option belongs to (-1 when unknown)."""
        if not option_id or not option_id.startswith("g") or "-" not in option_id:
            return -1
        try:
            return int(option_id[1:].split("-", 1)[0])
        except ValueError:
            return -1
