"""Explanations on demand (``GameDefinition.explain``): a person sees each choice's
detail and consequence, bots and batch play never pay for them, and a game whose
explanations are wrong (another decision, a crash, a changed state, a secret) is caught
by the fuzzer while a player still gets a prompt to choose from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from liars import LiarsDice
from sessions import start_session
from toygames import Counter

from tabletop.adapters.headless import HeadlessUI
from tabletop.framework import Action, Choice, Prompt, State
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.fuzz import fuzz
from tabletop.framework.game import explained_prompt, same_decision
from tabletop.framework.testing import new_engine


class LazyCounter(Counter):
    """Counter whose choice is explained only on demand; counts the explanations."""

    def __init__(self) -> None:
        self.explained = 0

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        self.explained += 1
        detail = f"from {state['n']} to {state['n'] + 1}"
        return replace(prompt, choices=tuple(replace(c, detail=detail) for c in prompt.choices))


class AskedUI(HeadlessUI):
    """Records the prompts a person is asked with, and answers the first choice."""

    def __init__(self) -> None:
        super().__init__()
        self.prompts: list[Prompt] = []

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        self.prompts.append(prompt)
        return prompt.choices[0].action


def test_the_engine_explains_a_prompt_only_when_asked_and_once() -> None:
    game = LazyCounter()
    engine = new_engine(game, players=1)
    plain = engine.prompt
    assert plain is not None and plain.choices[0].detail == ""
    assert game.explained == 0
    shown = engine.explained_prompt
    assert shown is not None and shown.choices[0].detail == "from 0 to 1"
    assert engine.explained_prompt is shown and game.explained == 1  # cached
    engine.act(0, "tick")
    again = engine.explained_prompt
    assert again is not None and again.choices[0].detail == "from 1 to 2"
    assert game.explained == 2


def test_a_person_is_asked_with_the_explained_prompt() -> None:
    game = LazyCounter()
    ui = AskedUI()
    start_session(game, ["human"], ui=ui).run()
    assert [p.choices[0].detail for p in ui.prompts] == [
        f"from {n} to {n + 1}" for n in range(game.limit)
    ]


def test_bots_play_a_whole_game_without_one_explanation() -> None:
    game = LazyCounter()
    session = start_session(game, ["random"])
    session.run()
    assert session.engine.over
    assert game.explained == 0


class OtherDecision(LazyCounter):
    def explain(self, state: State, prompt: Prompt) -> Prompt:
        return replace(prompt, choices=(*prompt.choices, Choice("cheat", "Jump to the end")))


class Relabelled(LazyCounter):
    def explain(self, state: State, prompt: Prompt) -> Prompt:
        return replace(prompt, choices=tuple(replace(c, label="?") for c in prompt.choices))


class Crashing(LazyCounter):
    def explain(self, state: State, prompt: Prompt) -> Prompt:
        raise RuntimeError("no words")


class Meddling(LazyCounter):
    def explain(self, state: State, prompt: Prompt) -> Prompt:
        state["n"] += 1
        return prompt


@pytest.mark.parametrize(
    ("game", "reason"),
    [
        (OtherDecision(), "explain() changed the choices"),
        (Relabelled(), "explain() changed the choices"),
        (Crashing(), "explain() failed: RuntimeError: no words"),
        (Meddling(), "explain() changed the state"),
    ],
    ids=["other-decision", "relabelled", "crashing", "meddling"],
)
def test_a_wrong_explanation_fails_fuzz_and_the_person_gets_the_plain_prompt(
    game: LazyCounter, reason: str
) -> None:
    report = fuzz(game, games=1, seed=0, rng_factory=rng_factory, dice_factory=dice_factory)
    assert report.errors == 1
    assert reason in report.failures[0].reason
    if not isinstance(game, Meddling):  # a meddling explain is not run on a live game
        engine = new_engine(game, players=1)
        assert engine.explained_prompt is engine.prompt


def test_same_decision_names_what_changed() -> None:
    plain = Prompt(0, "Count on", (Choice("tick", "Count", key="1"),), "§1")
    worded = replace(plain, choices=(Choice("tick", "Count", "why", "costs 1", key="1"),))
    assert same_decision(plain, worded) is None  # words added: the same decision
    assert same_decision(plain, plain) is None
    assert "rule" in (same_decision(plain, replace(plain, rule="§2")) or "")
    assert "text" in (same_decision(plain, replace(plain, text="Stop")) or "")
    rekeyed = replace(plain, choices=(Choice("tick", "Count", key="2"),))
    assert "choices" in (same_decision(plain, rekeyed) or "")


class ExplainsOwnCup(LiarsDice):
    """Explains a challenge with the challenger's own dice: known to the seat."""

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        cup = state["dice"][prompt.seat]
        return replace(
            prompt,
            choices=tuple(
                replace(c, detail=f"your cup: {cup}") if c.action == "challenge" else c
                for c in prompt.choices
            ),
        )


class ExplainsEveryCup(LiarsDice):
    """Explains a challenge with every cup: the other seats' dice are secret."""

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        cups = state["dice"]
        return replace(
            prompt,
            choices=tuple(
                replace(c, detail=f"cups: {cups}") if c.action == "challenge" else c
                for c in prompt.choices
            ),
        )


def test_explanations_are_checked_for_leaks_like_the_prompt_itself() -> None:
    honest = fuzz(
        ExplainsOwnCup(), games=6, seed=3, rng_factory=rng_factory, dice_factory=dice_factory
    )
    assert honest.errors == 0, [f.reason for f in honest.failures]
    leaky = fuzz(
        ExplainsEveryCup(), games=6, seed=3, rng_factory=rng_factory, dice_factory=dice_factory
    )
    assert leaky.errors > 0
    assert all("prompt" in f.reason and "leak" in f.reason for f in leaky.failures), [
        f.reason for f in leaky.failures
    ]


def test_explained_prompt_is_none_when_the_game_is_over() -> None:
    game = LazyCounter()
    engine = new_engine(game, players=1)
    for _ in range(game.limit):
        engine.act(0, "tick")
    assert engine.explained_prompt is None
    assert explained_prompt(game, engine.state) is None


class ClaimsItsOnlySeat(Counter):
    """Says it plays its only seat itself (``automated_seats``), then prompts it."""

    def automated_seats(self, players: int, options: Any) -> frozenset[int]:
        return frozenset({0})


def test_a_prompt_for_a_seat_the_game_plays_itself_fails_fuzz() -> None:
    """A seat a game plays by its own procedure has no person or bot behind it: a
    prompt for it would leave a session with nobody to ask, so the fuzzer names it."""
    report = fuzz(
        ClaimsItsOnlySeat(), games=1, seed=0, rng_factory=rng_factory, dice_factory=dice_factory
    )
    assert report.errors == 1
    assert "which the game plays itself (automated_seats)" in report.failures[0].reason
    sound = fuzz(Counter(), games=1, seed=0, rng_factory=rng_factory, dice_factory=dice_factory)
    assert sound.errors == 0
