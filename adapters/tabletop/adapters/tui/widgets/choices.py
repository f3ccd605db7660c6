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
        self._moment = -1

    def show_prompt(self, prompt: Prompt | None, *, moment: int = -1) -> None:
        """Show ``prompt``'s choices (None: nothing to choose now).

        The list is emptied rather than disabled between decisions: disabling it would
        move the focus, and every focus change rebuilds the footer.

        ``moment`` (the number of actions so far) tells two equal prompts in a row apart,
        so a late click on the first cannot answer the second.
        """
        if prompt == self.prompt and moment == self._moment:
            return
        self.generation += 1
        self.prompt = prompt
        self._moment = moment
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
