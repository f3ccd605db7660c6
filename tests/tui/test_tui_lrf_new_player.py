"""A new player plays the first turn of La Révolution française from the screen alone
(issue 25): the Royaliste at a 4-seat table, the other seats random bots (fast and
deterministic), at 120x40, through the Initial Phase and the Political Phase. Before
each of the person's decisions the test reads only what the screen offers:

- the question and the rule it applies are on screen;
- every option is on a key, and passing is key 0;
- highlighting an option shows what it does in the details pane (a law vote: the
  law's effect; a kept roll: what its letter does; an objective: what it asks), and a
  cost or a risk as a warning line, before anything is committed;
- the recap of the objectives' reveal pauses the game (or, where the pause screen is
  not shown, is in the session's history) and names every objective in words.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from textual.widgets import Static
from tui_support import (
    FrozenStore,
    current,
    engine_of,
    make_app,
    pilot_test,
    screen_text,
    start_game,
    wait_until,
)

from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework import PASS_KEY, SUMMARY, Prompt
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import load_registry
from tabletop.games.la_revolution_francaise.data import LAWS
from tabletop.games.la_revolution_francaise.words import law_effect

GAME = "la-revolution-francaise"
DUMP = os.environ.get("LRF_DUMP")  # a file to write each screen to, for reading by eye


def flat(text: str) -> str:
    """Screen text with the wrapping and borders taken out, to find a sentence in it."""
    return " ".join(re.sub(r"[│▏▕▊▎┃║]", " ", text).split())


def summary_screen(app: TabletopApp) -> Any | None:
    """The recap pause on top, if the UI shows one (another part of issue 25)."""
    try:
        from tabletop.adapters.tui.screens.summary import SummaryScreen
    except ImportError:  # pragma: no cover - the pause screen not in this tree
        return None
    shown = current(app)
    return shown if isinstance(shown, SummaryScreen) else None


def pick(prompt: Prompt, phase: str, decisions: int, plotted: bool) -> int:
    """What the new player chooses: a law when offered one (to meet a vote); in the
    Action Phase one plot paid twice over (to keep one of two rolls), then no action
    (key 0: money kept); otherwise a choice that changes from one decision to the
    next. Negotiations pass, so that the player declares an objective of its own."""
    actions = [c.action for c in prompt.choices]
    laws = [i for i, a in enumerate(actions) if a.startswith("law:")]
    if laws:
        return laws[0]
    if prompt.text.endswith("plot to take a region?") and not plotted and len(actions) > 1:
        return 1
    if prompt.text == "How many times do you pay the cost?":
        return len(actions) - 1
    if prompt.text in ("Which roll do you keep?", "Which Personalities take part?"):
        return 0
    if phase in ("negotiations", "actions"):
        passing = [i for i, c in enumerate(prompt.choices) if c.key == PASS_KEY]
        if passing:
            return passing[0]
    if any(a.startswith("vote:") for a in actions):
        return 1 % len(actions)  # against the law: the player has read what it does
    movable = [i for i, a in enumerate(actions) if a not in ("more", "back", "kind:back")]
    return movable[(decisions * 7 + 3) % len(movable)]


def moved_on(app: TabletopApp, engine: Engine, before: int) -> Callable[[], bool]:
    """True once the decision was applied (or a recap pauses the game)."""
    return lambda: len(engine.log) > before or summary_screen(app) is not None


def past_politics(screen: SeatScreen) -> bool:
    """Turn 1's Political Phase is over (the bots may have played on)."""
    state = engine_of(screen).state
    return bool(state["turn"] > 1 or state["phase"] in ("patriot", "military", "interphase"))


@pilot_test
async def test_a_new_player_plays_the_first_turn_of_la_revolution_from_the_screen() -> None:
    registry = load_registry()
    app = make_app(registry, FrozenStore(), seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await start_game(pilot, GAME, seats=("human", "random", "random", "random"), seed=5)
        seen: dict[str, int] = {
            "decisions": 0,
            "law votes": 0,
            "kept rolls": 0,
            "objectives": 0,
            "warnings": 0,
            "recaps": 0,
            "boards": 0,
            "plots": 0,
        }
        screen: SeatScreen | None = None

        def ready() -> bool:
            if summary_screen(app) is not None:
                return True
            shown = current(app)
            if not isinstance(shown, SeatScreen):
                return False
            return shown._my_prompt() is not None or past_politics(shown)

        while seen["decisions"] < 150:
            await wait_until(pilot, ready, timeout=60.0)
            await pilot.pause()
            pause = summary_screen(app)
            if pause is not None:
                text = flat(pause.text)
                if "the objectives (6.4)" in text:
                    seen["recaps"] += 1
                    assert "Royaliste" in text and "Met: fame +1" in text, text
                await pilot.press("enter")
                continue
            shown = current(app)
            assert isinstance(shown, SeatScreen)
            screen = shown
            engine = engine_of(screen)
            phase = engine.state["phase"]
            if past_politics(screen):
                break
            prompt = engine.explained_prompt
            assert prompt is not None
            text = screen_text(app)
            if DUMP:
                with open(DUMP, "a", encoding="utf-8") as out:
                    out.write(f"\n===== {phase}: {prompt.text}\n{text}")
            board = flat(text)
            assert "Current Fame $ Reg Dep #" in board and "Marais (auto)" in board
            if phase in ("placement", "actions", "political"):
                # the declared objectives stay on the table, in words
                assert "Objectives this turn (6.4):" in board
                seen["boards"] += 1
            question = screen.query_one("#prompt-text", Static)
            assert str(question.content) == prompt.text and question.display
            assert prompt.rule, f"no rule cited for {prompt.text!r}"
            assert f"Rule {prompt.rule}" in str(screen.query_one("#prompt-rule").render())
            choices = screen.query_one("#choices", ChoiceList)
            assert len(choices.keys) == len(prompt.choices) and all(choices.keys)
            for choice, key in zip(prompt.choices, choices.keys, strict=True):
                assert choice.detail or choice.consequence, f"{choice.label!r} unexplained"
                if choice.key == PASS_KEY:
                    assert key == "0"
            index = pick(prompt, phase, seen["decisions"], seen["plots"] > 0)
            if prompt.text.endswith("plot to take a region?") and index:
                seen["plots"] += 1
            choice = prompt.choices[index]
            choices.highlighted = index
            await pilot.pause()
            assert choices.explanation.detail_text == choice.detail
            if DUMP:
                with open(DUMP, "a", encoding="utf-8") as out:
                    out.write(f"\n===== highlighted {choice.label}\n{screen_text(app)}")
            if choice.consequence:
                assert choice.consequence in choices.explanation.consequence_text
                seen["warnings"] += 1
            if prompt.text.startswith("Vote on "):
                law = next(
                    k
                    for k, v in LAWS.items()
                    if prompt.text == f"Vote on {v['name']} with your deputies"
                )
                assert law_effect(law) in choice.detail
                assert f"If it passes: {LAWS[law]['name']}" in flat(screen_text(app))
                seen["law votes"] += 1
            if prompt.text == "Which roll do you keep?":
                assert re.match(r"[ABC]: ", choice.detail)
                seen["kept rolls"] += 1
            if prompt.text.startswith("Declare the") and choice.action.startswith("objective:"):
                assert "Met if" in choice.detail
                seen["objectives"] += 1
            before = len(engine.log)
            await pilot.press(choices.keys[index])
            await wait_until(pilot, moved_on(app, engine, before), timeout=60.0)
            assert engine.log[before].action == choice.action
            seen["decisions"] += 1
        assert screen is not None
        assert seen["objectives"] == 1 and seen["law votes"] >= 1, seen
        assert seen["plots"] == 1 and seen["kept rolls"] == 1, seen
        # The recap of the reveal paused the game; if the UI has no pause screen, it is
        # at least in the history the seat may read, with the turn's others.
        recaps = [e.text for e in engine_of(screen).events_for(0) if e.kind == SUMMARY]
        assert "Turn 1: the objectives (6.4)" in recaps
        assert seen["recaps"] >= 1 or summary_screen(app) is None, seen
        assert seen["boards"] >= 5, seen
