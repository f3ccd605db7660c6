"""Every rule a bundled game cites opens its own section of the game's rules summary.

Why over random play and not over a list: a citation lives in the prompt that makes it,
and the games have hundreds of prompts; playing them is how a player meets them. The
rules screen opens the section whose number is the longest leading part of the cited
number (``cited_section``); a citation that opens nothing, or only a chapter above a
numbered section the summary has, sends the player to the wrong text. The summary is
what players read, so it must not name the developers' files either.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping

import pytest

from tabletop.adapters.tui.presenting import RulesSection, cited_section, rules_sections
from tabletop.framework import GameDefinition
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import new_engine

#: (game, players, options, games played): enough games to meet every kind of prompt.
TABLES: list[tuple[str, int, dict[str, str], int]] = [
    ("pig", 2, {}, 2),
    ("council", 3, {}, 2),
    ("tic-tac-toe", 2, {}, 2),
    ("red-flag-over-paris", 2, {}, 4),
    ("red-flag-over-paris", 2, {"solo": "versailles"}, 2),
    ("charlemagne-master-of-europe", 1, {}, 6),
    ("la-revolution-francaise", 4, {}, 2),
    ("la-revolution-francaise", 6, {}, 1),
]

#: Developer files a player-facing rules summary must not send the reader to.
DEVELOPER_WORDS = re.compile(r"\b[\w-]+\.(?:md|json|py)\b")

REGISTRY = load_registry()


def cited_rules(
    game: GameDefinition, players: int, options: Mapping[str, str], seed: int
) -> Iterator[str]:
    """Every rule the prompts of one random game cite, in order."""
    engine = new_engine(game, seed=seed, players=players, options=options, undo=False)
    pick = random.Random(seed)
    for _ in range(20_000):
        prompt = engine.prompt
        if prompt is None:
            return
        if prompt.rule:
            yield prompt.rule
        engine.act(prompt.seat, pick.choice(prompt.choices).action)


def _number(rule: str) -> list[str]:
    """The cited number's parts, a lettered appendix's prefix kept ("R.7.2": R, 7, 2)."""
    found = re.match(r"^(?:§\s*|([A-Za-z]{1,3})\.)?(\d+(?:\.\d+)*)", rule.strip())
    assert found is not None, f"the rule {rule!r} has no section number to open"
    prefix, number = found.groups()
    return ([prefix.upper()] if prefix else []) + number.split(".")


def _opens(sections: list[RulesSection], rule: str) -> str | None:
    """Why ``rule`` does not open its own section; None when it does."""
    index = cited_section(sections, rule)
    if index is None:
        return f"{rule!r} opens no section"
    cited = _number(rule)
    opened = sections[index].number.split(".")
    if cited[: len(opened)] != opened:
        return f"{rule!r} opens §{sections[index].number}"
    return None


@pytest.mark.parametrize(
    ("game_id", "players", "options", "games"),
    TABLES,
    ids=[f"{t[0]}-{t[1]}{'-' + '-'.join(t[2].values()) if t[2] else ''}" for t in TABLES],
)
def test_every_cited_rule_opens_its_section(
    game_id: str, players: int, options: dict[str, str], games: int
) -> None:
    game = REGISTRY.get(game_id).definition
    sections = rules_sections(game.rules_summary())
    cited: set[str] = set()
    for seed in range(1, games + 1):
        cited.update(cited_rules(game, players, options, seed))
    assert cited, "random play met no cited rule"
    problems = sorted({problem for rule in cited if (problem := _opens(sections, rule))})
    assert not problems, f"{len(problems)} of {len(cited)} citations: {problems[:10]}"


@pytest.mark.parametrize("game_id", sorted({t[0] for t in TABLES}))
def test_rules_summary_names_no_developer_file(game_id: str) -> None:
    text = REGISTRY.get(game_id).definition.rules_summary()
    assert not DEVELOPER_WORDS.findall(text)


def test_a_citation_of_a_missing_section_is_caught() -> None:
    """The check can fail: a summary with §5 and §5.1 does not open §5.2 at §5.2, and a
    summary without §7 opens nothing for §7.1."""
    sections = rules_sections("# Rules\n## §5 Actions\ntext\n### §5.1 Suppress\ntext\n")
    assert _opens(sections, "§5.1") is None
    assert _opens(sections, "§5.2 Battle") is None  # the chapter is what the summary has
    assert _opens(sections, "§7.1") == "'§7.1' opens no section"
    assert DEVELOPER_WORDS.findall("decided in ambiguities.md (A1)") == ["ambiguities.md"]


def test_a_lettered_appendix_is_not_the_chapter_of_the_same_number() -> None:
    """A regime rule R.7.2 opens the regimes' R.7.2, never chapter 7's §7.2, and a plain
    §7.2 never opens R.7.2."""
    sections = rules_sections(
        "# Rules\n## §7 Actions\n### §7.2 Plots\n## R.7 The Directorate\n### R.7.2 Its Government\n"
    )
    numbers = [section.number for section in sections]
    assert numbers == ["", "7", "7.2", "R.7", "R.7.2"]
    assert cited_section(sections, "R.7.2.2") == numbers.index("R.7.2")
    assert cited_section(sections, "r.7.5") == numbers.index("R.7")
    assert cited_section(sections, "7.2.1") == numbers.index("7.2")
    assert _opens(sections, "R.7.2.2") is None
