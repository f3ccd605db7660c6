"""A question put to one seat and answered with one verb's two words: pin or let move
(9.5.1), fight or hide (9.8), pardon (R.1.4.2), veto (11.1), Thermidor (R.3.8.1), a
referendum (R.6.8.2), a coup's leave and reactions (12.1), an interception (12.3.2), a
Government or Assembly decision (6.2). Each rules module says only its words; the
prompt is built here, so every such question reads and keys the same way."""

from __future__ import annotations

from typing import NamedTuple

from tabletop.framework import PASS_KEY, Choice, Prompt
from tabletop.framework.actions import Verb


class Answer(NamedTuple):
    """One answer: the verb's word (``"yes"``) and what a player reads before choosing."""

    word: str
    label: str
    detail: str = ""
    consequence: str = ""


def question(
    seat: int,
    text: str,
    verb: Verb,
    first: Answer,
    second: Answer,
    *,
    rule: str,
    passing: str | None = None,
) -> Prompt:
    """``seat`` is asked ``text``; the two answers are shown in the order given, each as
    ``verb(word)``. ``passing`` names the answer that leaves things as they are: it gets
    ``PASS_KEY``, so a player finds it under the same key from one question to the next
    (questions without one are numbered by the front end)."""
    if passing is not None and passing not in (first.word, second.word):
        raise ValueError(f"{passing!r} is not an answer to {text!r}")
    return Prompt(
        seat,
        text,
        tuple(
            Choice(
                verb(answer.word),
                answer.label,
                detail=answer.detail,
                consequence=answer.consequence,
                key=PASS_KEY if answer.word == passing else "",
            )
            for answer in (first, second)
        ),
        rule=rule,
    )
