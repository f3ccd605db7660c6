"""A new player plays a whole game of Red Flag Over Paris against the bot from the
screen alone (issue 11): at every one of the person's decisions the test reads only what
the screen offers, as a player would, and checks that it is enough to decide:

- the question and the rule it applies are on screen;
- every option, however long the menu, is on a key;
- moving the highlight to an option shows its full text (a card's event, its
  operations value) in the details pane, and a costly side effect as a warning line,
  before anything is committed;
- the option is then taken by its key (a different option each time, not always the
  first), and the bot answers;
- at the end, the game-over screen says who won and why, and shows the final board and
  the whole log; the game saved by the screen replays headless to the same state.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Static
from tui_support import (
    FrozenStore,
    current,
    engine_of,
    make_app,
    pilot_test,
    press,
    screen_text,
    start_game,
    wait_until,
)

from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import replay

GAME = "red-flag-over-paris"


def flat(text: str) -> str:
    """Screen text with the wrapping and borders taken out, to find a sentence in it."""
    return " ".join(text.replace("│", " ").replace("▏", " ").split())


def moved_on(app: TabletopApp, engine: Engine, before: int) -> Callable[[], bool]:
    """True once the decision was applied (or the game is over)."""
    return lambda: isinstance(current(app), GameOverScreen) or len(engine.log) > before


@pilot_test
async def test_a_new_player_plays_red_flag_against_the_bot_from_the_screen_alone() -> None:
    registry = load_registry()
    store = FrozenStore()
    app = make_app(registry, store, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_game(pilot, GAME, seats=("human", "rfop-greedy"), seed=3)
        decisions = details_seen = warnings_seen = recaps_read = 0
        screen: SeatScreen | None = None

        def ready() -> bool:
            shown = current(app)
            if isinstance(shown, GameOverScreen | SummaryScreen):
                return True
            if not isinstance(shown, SeatScreen):
                return False
            return shown._my_prompt() is not None  # the person's decision is on screen

        while decisions < 200:
            await wait_until(pilot, ready, timeout=30.0)
            await pilot.pause()
            shown = current(app)
            if isinstance(shown, GameOverScreen):
                break
            if isinstance(shown, SummaryScreen):  # a round's end: read, then go on
                assert shown.recaps and shown.recaps[0].text in screen_text(app)
                recaps_read += 1
                await press(pilot, "enter")
                continue
            assert isinstance(shown, SeatScreen)
            screen = shown
            prompt = engine_of(screen).prompt
            assert prompt is not None
            question = screen.query_one("#prompt-text", Static)
            assert str(question.content) == prompt.text and question.display
            if prompt.rule:
                assert f"Rule {prompt.rule}" in str(screen.query_one("#prompt-rule").render())
            choices = screen.query_one("#choices", ChoiceList)
            assert len(choices.keys) == len(prompt.choices)
            assert all(choices.keys), f"an option without a key in {prompt.text!r}"
            index = (decisions * 7 + 3) % len(prompt.choices)
            choice = prompt.choices[index]
            choices.highlighted = index
            await pilot.pause()
            if choice.detail:
                assert choices.explanation.detail_text == choice.detail
                details_seen += 1
            if choice.consequence:
                assert choice.consequence in choices.explanation.consequence_text
                warnings_seen += 1
            before = len(engine_of(screen).log)
            await pilot.press(choices.keys[index])
            await wait_until(pilot, moved_on(app, engine_of(screen), before))
            assert engine_of(screen).log[before].action == choice.action
            decisions += 1
        over = current(app)
        assert isinstance(over, GameOverScreen), f"no end after {decisions} decisions"
        assert screen is not None and engine_of(screen).over
        result = engine_of(screen).result
        assert result is not None
        text = flat(screen_text(app))
        assert "over" in text.lower() and flat(result.summary)[:50] in text
        assert details_seen >= 10  # card texts were read before playing them
        assert warnings_seen >= 1  # and at least one side effect announced
        assert recaps_read >= 2  # the game paused at the end of each round played
        await press(pilot, "b")
        assert "Crisis" in screen_text(app)  # the final board
        await press(pilot, "l")
        [record] = store.records.values()
        assert record.finished
        headless = replay(registry.get(GAME).definition, record)
        assert headless.digest() == engine_of(screen).digest()
