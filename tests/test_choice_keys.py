"""Stable keys and log headings are part of the author API (framework/game.py)."""

from __future__ import annotations

from tabletop.framework import HEADING, NOBODY, PASS_KEY, SUMMARY, Choice, Context, Prompt
from tabletop.framework.chance import SeededDice, rng_factory
from tabletop.framework.soundness import check_prompt


def test_two_choices_with_one_key_are_reported() -> None:
    prompt = Prompt(0, "Bonus?", (Choice("a", "Turncoat", key="t"), Choice("b", "None", key="t")))
    problem = check_prompt(prompt, 2, None)
    assert problem is not None and "same key" in problem


def test_distinct_keys_are_sound() -> None:
    prompt = Prompt(0, "Bonus?", (Choice("a", "Turncoat"), Choice("b", "None", key=PASS_KEY)))
    assert check_prompt(prompt, 2, None) is None


def test_heading_is_a_public_event_about_nobody() -> None:
    rng = rng_factory(1)
    ctx = Context(rng, SeededDice(rng), actor=1)
    ctx.heading("Round 2")
    (event,) = ctx.events
    assert (event.kind, event.text, event.seats, event.about) == (HEADING, "Round 2", None, NOBODY)
    assert event.concerns is None


def test_summary_is_an_event_about_nobody_with_its_lines() -> None:
    rng = rng_factory(1)
    ctx = Context(rng, SeededDice(rng), actor=0)
    lines = ["Taxes: +4 coins", "Upkeep: -2 coins"]
    ctx.summary("Turn 3 ends", lines)
    ctx.summary("Your hand after the deal", ["Thiers"], seats=[1])
    public, private = ctx.events
    assert (public.kind, public.text, public.seats, public.concerns) == (
        SUMMARY,
        "Turn 3 ends",
        None,
        None,
    )
    lines.append("later")  # the event kept its own copy
    assert public.data["lines"] == ["Taxes: +4 coins", "Upkeep: -2 coins"]
    assert private.seats == frozenset({1}) and not private.visible_to(0)
