"""Every choice reachable (issue 25): a prompt with more choices than the screen has
keys (a 5-player Hanabi hint prompt has 36; the screen has 27 keys) gives each of
the rest a mark instead of a key, says on screen that they are reached with the arrows
and Enter, and scrolls to each of them. Tested at 80x24 on a toy prompt of 40 choices,
each reached and chosen."""

from __future__ import annotations

from typing import Any

import pytest
from toygames import MANY, ManyChoices
from tui_support import engine_of, game_on, game_screen, pilot_test, press, screen_text

from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.adapters.tui.widgets.choices import NO_KEY, NO_KEY_HINT
from tabletop.framework import hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry


class ManyPlugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(ManyChoices())


def registry() -> GameRegistry:
    return load_registry(plugins=[("many", ManyPlugin())], use_entry_points=False)


def opened() -> Any:
    return game_on("many", registry=registry(), size=(80, 24))


def in_sight(choices: ChoiceList, index: int) -> bool:
    """Whether option ``index`` is within the list's window (scrolled to)."""
    top = int(choices.scroll_y)
    return top <= index < top + choices.scrollable_content_region.height


@pilot_test
async def test_the_arrows_scroll_to_every_choice_at_80x24() -> None:
    async with opened() as (app, pilot):
        choices = game_screen(app).query_one("#choices", ChoiceList)
        assert len(choices.options) == MANY
        assert choices.scrollable_content_region.height < MANY  # it has to scroll
        for index in range(1, MANY):
            await press(pilot, "down")
            assert choices.highlighted == index
            assert in_sight(choices, index), (index, choices.scroll_y)
        assert f"{NO_KEY} Choice number {MANY - 1}" in screen_text(app)


@pytest.mark.slow  # 40 moves through the screen: about 10 s on a loaded machine
@pilot_test
async def test_each_of_40_choices_is_reached_and_chosen_at_80x24() -> None:
    """The keyed choices by their keys, the rest by the arrows and Enter, as the
    screen says; each pick is the choice the player aimed at."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        keyless = [index for index, key in enumerate(choices.keys) if not key]
        assert keyless and len(keyless) == MANY - len(choices.key_map)
        assert NO_KEY_HINT in screen_text(app)
        for index in range(MANY):
            key = choices.keys[index]
            if key:
                await press(pilot, key)
            else:
                # Up from the first choice wraps to the last one: the shortest way.
                await press(pilot, *["up"] * (MANY - index))
                assert choices.highlighted == index
                assert in_sight(choices, index)
                line = f"{NO_KEY} Choice number {index}"
                assert line in screen_text(app), line
                await press(pilot, "enter")
            assert engine_of(game).state["picks"][-1] == index
        assert engine_of(game).state["picks"] == list(range(MANY))
