"""The prompt's legal choices as a keyboard-first selectable list, explained before use.

Every choice gets a key (``choice_keys``): a game's stable key (``Choice.key``, "0" for
pass / stop / none) when it is free, then 1-9 and the letters for the rest, skipping the
keys the screen itself uses, so every option of a long menu is one key press away and a
recurring choice keeps its key from one prompt to the next.
"""

from __future__ import annotations

import string
from collections.abc import Collection, Sequence

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tabletop.adapters.tui.widgets.steady import SteadyOptionList, hold_height
from tabletop.framework.game import Choice, Prompt

#: Marks, in the list, a choice that has a side effect worth knowing.
WARNING_MARK = "⚠"


#: Shown in place of a key for a choice beyond the keys (a 5-player hint menu has 36):
#: it is reached with the arrows and Enter, as the decision panel says (``NO_KEY_HINT``).
NO_KEY = "·"
NO_KEY_HINT = f"{NO_KEY} no key: ↑↓ then Enter"

#: Keys given to choices without a stable key of their own, in this order.
NUMBERED_KEYS = "123456789" + string.ascii_lowercase


def choice_keys(choices: Sequence[Choice], reserved: Collection[str] = ()) -> list[str]:
    """The key of each choice ("" when none is left: reachable with the arrows only).

    A choice's own ``key`` is used when it is one character the screen does not use and
    no earlier choice took it; every other choice gets the next free key of 1-9, a-z
    (never "0": that is the pass key, free or not, so "0" never means anything else).
    """
    keys = [""] * len(choices)
    taken = set(reserved)
    for index, choice in enumerate(choices):
        key = choice.key.lower() if len(choice.key) == 1 else ""
        if key and key not in taken:
            keys[index] = key
            taken.add(key)
    free = (key for key in NUMBERED_KEYS if key not in taken)
    for index, key in enumerate(keys):
        if not key:
            keys[index] = next(free, "")
    return keys


def choice_prompt(key: str, choice: Choice) -> Content:
    """One entry of the list: its key, the label and, when choosing it has a
    consequence, a warning line under it, so a side effect is visible before the
    choice is even highlighted."""
    parts: list[str | tuple[str, str]] = [(f"{key or NO_KEY} ", "bold"), choice.label]
    if choice.consequence:
        parts.append((f"\n  {WARNING_MARK} {choice.consequence}", "$warning"))
    return Content.assemble(*parts)


class ChoiceExplanation(Vertical):
    """The highlighted choice's ``detail`` and ``consequence``, under the list.

    Hidden for a prompt whose choices carry neither, so a plain prompt (Pig's roll or
    hold) keeps its compact panel. It may fill the screen (a long text on a small one).
    """

    ALLOW_MAXIMIZE = True

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._detail = Static("", markup=False, classes="choice-detail")
        self._consequence = Static("", markup=False, classes="choice-consequence")
        #: What the pane shows now: whether it is shown, detail, plainness, consequence.
        self._shown: tuple[bool, str, bool, str] | None = None
        #: Whether the pane keeps its place and height (``hold``).
        self._held = False

    def compose(self) -> ComposeResult:
        yield self._detail
        yield self._consequence

    def explain(self, choice: Choice | None, *, any_explained: bool) -> None:
        """Show ``choice``'s explanation; hide the pane when the prompt has none."""
        detail = choice.detail if choice is not None else ""
        consequence = choice.consequence if choice is not None else ""
        plain = choice is not None and not detail and not consequence
        if plain and choice is not None:
            detail = f"{choice.label}: nothing more to know."
        warning = f"{WARNING_MARK} {consequence}" if consequence else ""
        self._show(any_explained, detail, plain, warning)

    def show_item(self, text: str) -> None:
        """Show an item's full text (a card the player highlighted) in place of the
        highlighted choice's explanation."""
        self._show(True, text, False, "")

    def _show(self, shown: bool, detail: str, plain: bool, consequence: str) -> None:
        """Put the texts on screen, unless they are there already: each update lays
        the screen out again, and the same choice is explained again when the list
        tells that its highlight moved to it."""
        if (shown, detail, plain, consequence) == self._shown:
            return
        self._shown = (shown, detail, plain, consequence)
        self._place(self, shown)
        self._detail.update(detail)
        self._detail.set_class(plain, "-nothing")
        # (a part's own visibility would override the pane's: a hidden pane hides both)
        self._place(self._detail, shown and bool(detail))
        self._consequence.update(consequence)
        self._place(self._consequence, shown and bool(consequence))

    def _place(self, part: Widget, shown: bool) -> None:
        """Show or hide a part. Held, a part on screen that has nothing to show keeps
        its place, blank (invisible), so that nothing around it moves."""
        if self._held and part.display:
            part.visible = shown
        else:
            part.display = shown
            part.visible = True

    def hold(self, held: bool) -> None:
        """Keep the pane's parts in place and at their heights (the screen holds them
        while a seat makes several decisions in a row), or let them fit again: a part
        left invisible by a held pane is then taken away."""
        self._held = held
        # The texts are held within the pane's room (it scrolls a text taller than its
        # greatest height): a short text after a long one then needs no scrollbar.
        room = max(self.outer_size.height - self.styles.gutter.height, 0)
        for part in (self, self._detail, self._consequence):
            if not held and not part.visible:
                part.display = False
                part.visible = True
            hold_height(part, held, None if part is self else room)
            if part is not self and part.display:
                room -= min(part.outer_size.height, room)

    @property
    def showing(self) -> bool:
        """Whether the pane shows something now (displayed and visible)."""
        return self.display and self.visible

    @staticmethod
    def _text(part: Static) -> str:
        return str(part.content) if part.display and part.visible else ""

    @property
    def detail_text(self) -> str:
        """The detail now shown (for tests)."""
        return self._text(self._detail) if self.showing else ""

    @property
    def consequence_text(self) -> str:
        """The consequence now shown, warning mark included (for tests)."""
        return self._text(self._consequence) if self.showing else ""


class ChoiceList(SteadyOptionList):
    """Numbered choices of one prompt, with the highlighted one explained below.

    Every new prompt bumps ``generation`` and the option ids carry it, so a selection
    that arrives after the prompt changed is recognised as stale and ignored. A key
    always means the same choice while the prompt lasts (``choice_keys``), and nothing
    in the list changes size or order when the highlight moves.

    The list places its explanation pane right after itself when mounted, so every
    screen that asks a person to choose also explains the choices, with no wiring.
    """

    def __init__(self, *, id: str | None = None, reserved: Collection[str] = ()) -> None:
        super().__init__(id=id)
        #: Keys the screen uses for itself: never given to a choice.
        self.reserved = frozenset(reserved)
        #: The key of each choice now shown, and the choice index of each key.
        self.keys: list[str] = []
        self.key_map: dict[str, int] = {}
        self.generation = 0
        self.prompt: Prompt | None = None
        self._moment = -1
        self._hovered: int | None = None
        self.explanation = ChoiceExplanation(id=f"{id}-explanation" if id else None)
        self.explanation.display = False

    def on_mount(self) -> None:
        if isinstance(self.parent, Widget) and self.explanation.parent is None:
            self.parent.mount(self.explanation, after=self)

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
        self._hovered = None
        options = []
        self.keys = choice_keys(prompt.choices, self.reserved) if prompt is not None else []
        self.key_map = {key: index for index, key in enumerate(self.keys) if key}
        if prompt is not None:
            for index, choice in enumerate(prompt.choices):
                options.append(
                    Option(
                        choice_prompt(self.keys[index], choice), id=f"g{self.generation}-{index}"
                    )
                )
        self.set_options(options)
        if options:
            self.highlighted = 0
        self._explain()

    def explained_choice(self) -> Choice | None:
        """The choice being explained: the one under the mouse, else the highlighted one
        (a click commits at once, so pointing is what must explain it first)."""
        if self.prompt is None:
            return None
        index = self._hovered if self._hovered is not None else self.highlighted
        if index is None or not 0 <= index < len(self.prompt.choices):
            return None
        return self.prompt.choices[index]

    def explain_highlighted(self) -> None:
        """Explain the highlighted choice again (after the pane showed something else)."""
        self._explain()

    def _explain(self) -> None:
        choices = self.prompt.choices if self.prompt is not None else ()
        explained = any(choice.detail or choice.consequence for choice in choices)
        self.explanation.explain(self.explained_choice(), any_explained=explained)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self:
            event.stop()  # handled here: no need to travel up the screen at every move
            self._explain()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hovered = event.style.meta.get("option")
        hovered = hovered if isinstance(hovered, int) else None
        if hovered != self._hovered:
            self._hovered = hovered
            self._explain()

    def on_leave(self, event: events.Leave) -> None:
        if self._hovered is not None:
            self._hovered = None
            self._explain()

    def generation_of(self, option_id: str | None) -> int:
        """The prompt generation an option belongs to (-1 when unknown)."""
        if not option_id or not option_id.startswith("g") or "-" not in option_id:
            return -1
        try:
            return int(option_id[1:].split("-", 1)[0])
        except ValueError:
            return -1
