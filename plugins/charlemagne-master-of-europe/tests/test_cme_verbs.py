"""The game's actions are its verbs (issue 26): every choice offered in play is read by
the verbs of the decision that offers it, and built again gives the same string, so
the rules, the steward and the saves agree on one format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cme_helpers import GAME

from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.stack import Decision
from tabletop.framework.testing import new_engine
from tabletop.games.charlemagne_master_of_europe.rules import table as rules_table
from tabletop.games.charlemagne_master_of_europe.rules.table import RULES
from tabletop.games.charlemagne_master_of_europe.verbs import (
    ACT,
    DECISION_VERBS,
    Order,
    act,
    maneuver,
    maneuver_of,
    order_of,
)


def test_every_decision_has_its_verbs_and_every_verb_list_its_decision() -> None:
    decisions = {name for name, rule in RULES.rules.items() if isinstance(rule, Decision)}
    assert decisions == set(DECISION_VERBS)


def test_every_action_offered_in_random_play_is_one_of_its_decisions_verbs() -> None:
    seen: set[str] = set()
    for seed in range(1, 9):
        engine = new_engine(GAME, seed=seed, players=1, undo=False)
        bot = RandomBot()
        while (prompt := engine.prompt) is not None:
            kind = engine.state["tasks"][-1]["kind"]
            verbs = DECISION_VERBS[kind]
            for choice in prompt.choices:
                if kind == "battle_maneuver" and ">" in choice.action:
                    origin, dest = maneuver_of(choice.action)
                    assert maneuver(origin, dest) == choice.action
                    seen.add("maneuver")
                    continue
                verb, args = verbs.parse(choice.action)
                assert verb(*args) == choice.action, choice.action
                if verb is ACT:
                    assert act(*order_of(choice.action)) == choice.action
                seen.add(verb.name)
            engine.act(0, bot_move(engine, bot))
    print(sorted(seen))
    assert {"marquis", "act", "end", "unit", "target", "buy", "done", "promote", "place"} <= seen


def test_orders_and_maneuvers_read_back_to_their_parts() -> None:
    assert act("charlemagne", "saxons_1", "battle") == "act:charlemagne:saxons_1:battle"
    marquis = "act:marquis:blue:bavaria:forced_march:swabia"
    assert order_of(marquis) == Order("marquis:blue", "bavaria", "forced_march", "swabia")
    assert order_of("act:charlemagne:rome:suppress").extra is None
    assert maneuver_of("line:left:2>flank:right:3") == (["line", "left", 2], ["flank", "right", 3])
    with pytest.raises(ValueError, match="not a 'act' action"):
        order_of("end")
    with pytest.raises(ValueError, match="no verb 'rear'"):
        maneuver_of("rear:left:2>line:left:1")


#: A task named in a rules module: ``new_task("x"``, a battle's ``ask(state, "x"``, or a
#: typed task's ``"kind": "x"``.
PUSHED = r'(?:\b(?:new_task|ask)\(\s*(?:state,\s*)?|"kind": )"(\w+)"'


def test_every_task_the_rules_push_is_in_the_table() -> None:
    """The rules modules push tasks by name without importing the table (no cycle);
    a misspelt name would only fail when that task reaches the top, so every name
    they write is checked here against the table."""
    folder = Path(rules_table.__file__).parent
    pushed = {name for path in folder.glob("*.py") for name in re.findall(PUSHED, path.read_text())}
    assert {"turn_start", "battle_deploy", "hostile_reaction", "cup_adjustment"} <= pushed
    assert pushed <= set(RULES.rules), pushed - set(RULES.rules)
