"""The typed actions (verbs.py) and the decision stack's table (rules/table.py): every
action whole games offer is one of the game's verbs and is rebuilt to the same string
(so saves keep their format), and every task kind has a rule in the table."""

from __future__ import annotations

from typing import get_args, get_type_hints

import pytest
from rfop_helpers import GAME, Driver

from tabletop.framework.bots import RandomBot
from tabletop.framework.chance import rng_factory
from tabletop.framework.stack import Decision, Step
from tabletop.games.red_flag_over_paris import verbs
from tabletop.games.red_flag_over_paris.rules import table, tasks
from tabletop.games.red_flag_over_paris.verbs import PLAY_FIRST, SCORE_FIRST, VERBS


def _rebuilt(action: str) -> str:
    """``action`` read by the game's verbs and built again from its parts."""
    if PLAY_FIRST.matches(action):
        return PLAY_FIRST()
    verb, args = VERBS.parse(action)
    return verb(*args)


@pytest.mark.parametrize("option", ["off", "versailles"])
def test_every_offered_action_is_a_verb_and_rebuilds_to_the_same_string(option: str) -> None:
    seen: set[str] = set()
    for seed in range(6):
        driver = Driver(seed)
        if option != "off":
            driver.state = GAME.setup(2, {"solo": option}, driver.ctx())
        bot, rng = RandomBot(), rng_factory(seed)
        while (prompt := GAME.prompt(driver.state)) is not None:
            for action in prompt.actions():
                assert _rebuilt(action) == action
                seen.add(VERBS.verb_of(action).name)
            driver.act(bot.choose(GAME, {}, prompt, rng))
    # Whole games reach the common verbs of every family of decisions.
    assert {"keep", "first", "ev", "ops", "pl", "kind", "stop", "pivot"} <= seen, seen


def test_the_verbs_refuse_an_action_of_another_shape() -> None:
    with pytest.raises(ValueError, match="is not a 'first' action"):
        SCORE_FIRST.args("first")
    with pytest.raises(ValueError, match="no verb"):
        VERBS.verb_of("attack:press")
    assert verbs.MOVE_DISC("a", "b") == "move:a:b"


def test_every_task_kind_has_its_rule_and_every_rule_a_task_kind() -> None:
    kinds = {get_args(get_type_hints(kind)["name"])[0] for kind in get_args(tasks.Task)}
    assert kinds == set(table.RULES.rules)
    steps = {name for name, rule in table.RULES.rules.items() if isinstance(rule, Step)}
    assert steps == {"end_of_card_play", "end_of_bonus_action", "event_steps"}
    assert all(isinstance(table.RULES.rules[k], Decision) for k in kinds - steps)
