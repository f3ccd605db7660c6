"""A rule-of-thumb bot: it scores the prompt's choices only (no search, no view).

It places Marquis, Suppresses where the odds are good, builds whenever it can and
avoids hopeless Sieges and costly conversions. That plays far longer games than random
play, so simulations and the fuzzer reach the later turns, the crowns and the ends a
random player never sees.
"""

from __future__ import annotations

import re
from typing import Any

from tabletop.framework import Action, Bot, Choice, GameDefinition, Prompt, RandomSource

_ABOVE = re.compile(r"[Rr]oll above (-?\d+)")

#: Scores by the start of an action string; the first matching prefix wins.
_PREFERENCES = (
    ("bridges:", 90),
    ("finish:", 80),
    ("start:", 60),
    ("free:", 50),
    ("buy:", 40),
    ("negotiate", 30),
    ("decline", 5),
    ("promote:", 10),
    ("marquis:breton", 10),
    ("unit:scara:3", 9),
    ("unit:infantry:3", 8),
    ("unit:scara:2", 7),
    ("unit:infantry:2", 6),
    ("unit:", 5),
    ("place:", 5),
    ("target:", 5),
    ("flank:", 7),
    ("line:", 6),
    ("stay", 5),
    ("keep", 5),
    ("done", 1),
    ("next", 1),
    ("end", 2),
)


def odds(choice: Choice) -> float:
    """The chance of a roll above the detail's "Roll above N" on a d8 (1.0 if none)."""
    found = _ABOVE.search(choice.detail)
    if found is None:
        return 1.0
    return max(0.0, min(1.0, (8 - int(found.group(1))) / 8))


def score(choice: Choice) -> float:
    action = choice.action
    if action.startswith("act:"):
        verb = action.split(":")[-1] if "forced_march" not in action else "forced_march"
        if "forced_conversion" in action:
            return -50
        if verb == "marquis":
            return 100
        if verb == "suppress":
            return 70 * odds(choice)
        if verb == "siege":
            return 60 * odds(choice) - 10
        if verb == "raid":
            return 25
        if verb == "battle":
            return 15
        if verb == "forced_march":
            return 3
    if action.startswith("target:"):
        return 5 + odds(choice) + (1 if "eliminates" in choice.detail.split(";")[0] else 0)
    if action.startswith("buy:"):
        return 40 if "scara" in action else 35
    for prefix, value in _PREFERENCES:
        if action.startswith(prefix):
            return value
    return 4


class StewardBot(Bot):
    name = "cme-steward"
    reads_view = False

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        scored = [(score(choice), choice.action) for choice in prompt.choices]
        top = max(value for value, _ in scored)
        best = [action for value, action in scored if value == top]
        return best[0] if len(best) == 1 else rng.choice(best)
