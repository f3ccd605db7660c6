"""The verbs of ``verbs.py`` are the game's whole action language (issue 26): every
choice offered in random games, in both scenarios, is one of them with its arguments,
and the verbs build the very strings the rules offer."""

from __future__ import annotations

import pytest

from tabletop.framework.engine import Engine
from tabletop.framework.testing import new_engine, play_out
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.verbs import (
    BACK,
    COUP,
    OBJECTIVE,
    PLACEMENT_BACK,
    TRY,
    VERBS,
    VOTE,
)


def offered(players: int, seed: int, **options: str) -> set[str]:
    """Every action offered to a seat in one random game."""
    seen: set[str] = set()

    def note(engine: Engine) -> bool:
        prompt = engine.prompt
        if prompt is not None:
            seen.update(c.action for c in prompt.choices)
        return False

    engine = new_engine(
        LaRevolutionFrancaise(), seed=seed, players=players, options=options, undo=False
    )
    play_out(engine, until=note)
    return seen


@pytest.mark.parametrize(
    ("players", "seed", "scenario"), [(6, 3, "historical"), (5, 4, "open"), (4, 5, "open")]
)
def test_every_offered_action_is_a_verb_with_its_arguments(
    players: int, seed: int, scenario: str
) -> None:
    actions = offered(players, seed, scenario=scenario)
    assert len(actions) > 100
    unknown = []
    for action in sorted(actions):
        if action == PLACEMENT_BACK:
            continue
        try:
            verb, args = VERBS.parse(action)
        except ValueError as error:
            unknown.append(str(error))
            continue
        assert verb(*args) == action  # the verb builds the string back
    assert unknown == []


def test_the_verbs_build_and_read_the_saved_strings() -> None:
    assert VOTE("yes") == "vote:yes"
    assert VOTE.arg("vote:abstain") == "abstain"
    assert TRY.arg("try:raise:Paris") == "raise:Paris"
    assert COUP.arg("coup:convention:Amiens:1") == "convention:Amiens:1"
    assert OBJECTIVE.arg("objective:arrest:Barnave") == "arrest:Barnave"
    assert BACK.arg("back:none") == "none"
    with pytest.raises(ValueError):
        VERBS.parse("charge:Paris")
    with pytest.raises(ValueError):
        VOTE.args("vote:yes:no")
