"""A new player plays a whole turn of Charlemagne, Master of Europe from the screen
alone (issue 25), at 120x40, and then reaches the next turn's Levy.

Before each choice the test reads what a player reads: the question, the rule line
(which must cite a numbered section of the rules summary, and ``r`` must open it), and
the highlighted option's details and warning in the details pane. It places the first
Marquis, takes one Action in the Campaign, ends the campaign early (key 0), passes
through the Build Phase, and at the Turn End reads the recap on the pause screen ("Turn
1 ends": taxes, VP earned, the threshold, what the next turn needs), dismisses it and
finds the next turn's Levy question with its cited rule and details.
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

from tabletop.adapters.tui.presenting import cited_section, rules_sections
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework import PASS_KEY, SUMMARY, Prompt
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import load_registry

GAME = "charlemagne-master-of-europe"
SIZE = (120, 40)


def flat(text: str) -> str:
    """Screen text without borders and wrapping, to find a sentence in it."""
    return " ".join(text.replace("│", " ").replace("▏", " ").replace("▊", " ").split())


def applied(engine: Engine, before: int) -> Callable[[], bool]:
    """True once the decision was applied (or the game is over)."""
    return lambda: len(engine.log) > before or engine.over


def pick(prompt: Prompt, actions_taken: int) -> int:
    """The option a new player would take here: the Marquis in the Breton March, one
    Suppress (or any Action) in the Campaign, then end it early; nothing built; the
    first option of anything else (a battle's deployment, a target)."""
    actions = [c.action for c in prompt.choices]
    if prompt.rule and prompt.rule.startswith("§5 "):
        if actions_taken == 0:
            for verb in (":suppress", ":raid", ":forced_march"):
                found = [i for i, a in enumerate(actions) if verb in a]
                if found:
                    return found[0]
        return actions.index("end")
    passes = [i for i, c in enumerate(prompt.choices) if c.key == PASS_KEY]
    if prompt.rule and prompt.rule.startswith(("§8", "§10")) and passes:
        return passes[0]
    return 0


@pilot_test
async def test_a_new_player_plays_a_whole_charlemagne_turn_from_the_screen() -> None:
    registry = load_registry()
    game = registry.get(GAME).definition
    sections = rules_sections(game.rules_summary())
    app = make_app(registry, FrozenStore(), seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, GAME, seed=2)
        actions_taken = decisions = details = warnings = 0
        recap_seen = False
        while decisions < 80:
            await wait_until(
                pilot,
                lambda: isinstance(current(app), (SeatScreen, SummaryScreen)),
                timeout=10.0,
            )
            await pilot.pause()
            shown = current(app)
            if isinstance(shown, SummaryScreen):
                text = flat(screen_text(app))
                assert "Turn 1 ends" in text
                for words in ("Taxes: +", "VP earned: +", "VP threshold 3: met", "Turn 2 needs"):
                    assert words in text, words
                recap_seen = True
                await press(pilot, "enter")
                continue
            assert isinstance(shown, SeatScreen)
            engine = engine_of(shown)
            prompt = engine.explained_prompt
            assert prompt is not None, "the game ended before turn 2"
            # The question and the rule it applies, as the player reads them.
            question = shown.query_one("#prompt-text", Static)
            assert str(question.content) == prompt.text and question.display
            assert prompt.rule is not None and prompt.rule.startswith("§")
            assert f"Rule {prompt.rule}" in str(shown.query_one("#prompt-rule").render())
            index = cited_section(sections, prompt.rule)
            assert index is not None
            assert prompt.rule[1:].startswith(sections[index].number + " ")
            # The highlighted option's details and warning, before anything is pressed.
            choices = shown.query_one("#choices", ChoiceList)
            assert len(choices.keys) == len(prompt.choices) and all(choices.keys)
            chosen = pick(prompt, actions_taken)
            choice = prompt.choices[chosen]
            choices.highlighted = chosen
            await pilot.pause()
            assert choice.detail or choice.consequence, f"{choice.label!r} says nothing"
            if choice.detail:
                assert choices.explanation.detail_text == choice.detail
                details += 1
            if choice.consequence:
                assert choice.consequence in choices.explanation.consequence_text
                warnings += 1
            if recap_seen:  # the next turn has begun: its Levy is asked, explained
                assert engine.state["turn"] == 2 and prompt.text.startswith("Recruit:")
                assert prompt.rule == "§4.1 Levy: recruiting"
                assert "Level" in choice.label and "Army Strength" in choice.detail
                await press(pilot, "r")
                opened = flat(screen_text(app))
                assert sections[index].title in opened and "not in this summary" not in opened
                break
            if choice.action == "end":
                assert choices.keys[chosen] == "0"
            before = len(engine.log)
            await pilot.press(choices.keys[chosen])
            await wait_until(pilot, applied(engine, before))
            assert engine.log[before].action == choice.action
            if prompt.rule.startswith("§5 ") and choice.action != "end":
                actions_taken += 1
            decisions += 1
        print(f"{decisions} decisions, {details} details and {warnings} warnings read")
        assert recap_seen, "no pause on the turn's recap"
        assert actions_taken == 1 and details >= 3 and warnings >= 2
        recaps = [e for _, e in engine.history if e.kind == SUMMARY]
        assert [e.text for e in recaps if e.text.startswith("Turn ")] == ["Turn 1 ends"]
