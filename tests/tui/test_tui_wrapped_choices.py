"""A wrapped choice keeps every line (issue 37): a longer menu brings a scrollbar,
which narrows the list without resizing it; choices measured at the wider width used
to lose their last line on the first draw ("... to Left wing space" without the
number, a warning's second line)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from tui_support import pilot_test, screen_text

from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework.game import Choice, Prompt


class OneList(App[None]):
    CSS = "ChoiceList { height: 6; width: 34; }"

    def compose(self) -> ComposeResult:
        yield ChoiceList(id="choices")


@pilot_test
async def test_a_longer_menu_with_a_scrollbar_shows_every_line_of_every_choice() -> None:
    app = OneList()
    async with app.run_test(size=(40, 12)) as pilot:
        choices = app.query_one(ChoiceList)
        choices.show_prompt(Prompt(0, "First", (Choice("one", "One"), Choice("two", "Two"))))
        await pilot.pause()
        # labels that fit the list's width without a scrollbar, and wrap with one
        long = tuple(
            Choice(f"move{n}", f"{'Scara to Left wing space':.25} {n}{n}") for n in range(1, 9)
        )
        choices.show_prompt(Prompt(0, "Maneuver", long), moment=1)
        await pilot.pause()
        for index in range(len(long)):
            choices.highlighted = index
            await pilot.pause()
            text = screen_text(app)
            number = f"{index + 1}" * 2
            assert f" {number}" in text, f"choice {index + 1} lost its last line"
