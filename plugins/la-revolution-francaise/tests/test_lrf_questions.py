"""The two-answer questions of ``questions.py`` (issue 26): one builder for every
question put to one seat with one verb's two words, so each reads and keys alike."""

from __future__ import annotations

import pytest
from lrf_helpers import fresh, jail

from tabletop.framework import PASS_KEY
from tabletop.games.la_revolution_francaise.military.vendee import hide_prompt
from tabletop.games.la_revolution_francaise.patriot import king_pardon_prompt
from tabletop.games.la_revolution_francaise.questions import Answer, question
from tabletop.games.la_revolution_francaise.verbs import PIN


def test_the_answers_keep_their_order_and_only_the_passing_one_gets_the_pass_key() -> None:
    asked = question(
        2,
        "Pin them?",
        PIN,
        Answer("no", "Let them move", "They may leave."),
        Answer("yes", "Pin them", consequence="combat follows"),
        rule="9.5.1",
        passing="no",
    )
    assert (asked.seat, asked.text, asked.rule) == (2, "Pin them?", "9.5.1")
    assert [(c.action, c.label, c.key) for c in asked.choices] == [
        ("pin:no", "Let them move", PASS_KEY),
        ("pin:yes", "Pin them", ""),
    ]
    assert (asked.choices[0].detail, asked.choices[1].consequence) == (
        "They may leave.",
        "combat follows",
    )


def test_the_rules_questions_keep_their_keys_hiding_has_no_pass_the_pardon_passes_on_no() -> None:
    s = fresh()
    hide = hide_prompt(s, {"kind": "hide", "region": "Nantes"})
    assert hide is not None
    assert [(c.action, c.key) for c in hide.choices] == [("hide:no", ""), ("hide:yes", "")]
    jail(s, "Barnave")
    pardon = king_pardon_prompt(s, {"kind": "king_pardon", "person": "Barnave"})
    assert pardon is not None
    assert [(c.action, c.key) for c in pardon.choices] == [
        ("pardon:yes", ""),
        ("pardon:no", PASS_KEY),
    ]


def test_a_passing_word_that_is_no_answer_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'stay' is not an answer to 'Pin them\\?'"):
        question(
            0,
            "Pin them?",
            PIN,
            Answer("yes", "Pin them"),
            Answer("no", "Let them move"),
            rule="9.5.1",
            passing="stay",
        )
