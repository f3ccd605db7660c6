"""What a player reads on the screen (issue 25): every prompt's rule opens its own
section of the rules summary, and the summary names no developer file."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cme_helpers import GAME

from tabletop.adapters.tui.presenting import cited_section, rules_sections
from tabletop.framework import Prompt
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.engine import Engine
from tabletop.framework.testing import new_engine
from tabletop.games.charlemagne_master_of_europe.rules import SIEGE_RULE
from tabletop.games.charlemagne_master_of_europe.tasks import DECISIONS

SEEDS = range(1, 9)


def random_games(seeds: range = SEEDS) -> Iterator[tuple[Engine, Prompt]]:
    """Each prompt a person sees (explained) over random games, with its engine."""
    for seed in seeds:
        engine = new_engine(GAME, seed=seed, players=1, undo=False)
        bot = RandomBot()
        while (prompt := engine.explained_prompt) is not None:
            yield engine, prompt
            engine.act(0, bot_move(engine, bot))


def opens(rule: str) -> str | None:
    """The number of the section the rules screen opens for ``rule`` (None: none)."""
    sections = rules_sections(GAME.rules_summary())
    index = cited_section(sections, rule)
    return None if index is None else sections[index].number


def cited_number(rule: str) -> str:
    found = re.match(r"§(\d+(?:\.\d+)*) ", rule)
    assert found is not None, f"{rule!r} cites no section number"
    return found.group(1)


def test_every_decision_cites_a_section_that_opens() -> None:
    rules = {d.rule for d in DECISIONS.values()} | {SIEGE_RULE}
    for rule in sorted(rules):
        assert opens(rule) == cited_number(rule), rule


def test_every_rule_cited_in_random_play_opens_its_own_section() -> None:
    seen: set[str] = set()
    for _, prompt in random_games():
        assert prompt.rule is not None
        assert opens(prompt.rule) == cited_number(prompt.rule), prompt.rule
        seen.add(prompt.rule)
    print(f"{len(seen)} distinct rules cited, each opens its section")
    assert {"§2.2 Set-up: your first Marquis", "§5 Campaign: Actions"} <= seen
    assert any(rule.startswith("§7.") for rule in seen)  # a battle was fought


def test_the_rules_summary_names_no_developer_file() -> None:
    text = GAME.rules_summary()
    for word in ("ambiguities.md", "reconstructed.md", ".json", ".py", "`"):
        assert word not in text, word
    numbers = [s.number for s in rules_sections(text) if s.number]
    assert len(numbers) == len(set(numbers))  # each section opens alone
    for sub in ("4.1", "4.2", "5.4", "7.3", "7.8", "8.3", "9.5", "10.5", "2.2"):
        assert sub in numbers
