"""6.2: the event language's arguments, checked: every effect phrase of the event tables
must fit its verb's declaration (``effects.EffectKind.params``), so a misspelt region or
a missing number in events.json is a test failure, not a surprise in the middle of a
game."""

from __future__ import annotations

from collections.abc import Callable

from ..data import ALLIED, CATHOLIC, CURRENTS, PERSONS, REGION_NAMES, SETUP
from ..words import FACTION_NAMES
from .effects import EFFECTS, Effect


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit()


#: What each kind of argument may be (``EffectKind.params``).
ARGUMENTS: dict[str, Callable[[str], bool]] = {
    "int": _is_int,
    "current": lambda word: word in CURRENTS,
    "who": lambda word: word in CURRENTS or word in ("gov", "gov_holder", "not_gov_left"),
    "leader": lambda word: word in CURRENTS or word == "none",
    "track": lambda word: word in SETUP["tracks"],
    "region": lambda word: word in REGION_NAMES,
    "person": lambda word: word in PERSONS,
    "faction": lambda word: word in FACTION_NAMES,
    "allied": lambda word: word in ALLIED,
    "catholic": lambda word: word in CATHOLIC,
    "king": lambda word: word == "king",
    "key": lambda word: bool(word) and word.replace("_", "").isalpha(),
    "effect": lambda text: not check(text),
}


def check(fx: str) -> list[str]:
    """What is wrong with the effect phrase ``fx`` for its verb's declaration (empty
    when nothing): an unknown verb, a missing or extra word, a word of the wrong kind.
    The tests hold every effect of the event tables to it."""
    effect = Effect.read(fx)
    kind = EFFECTS.get(effect.verb)
    if kind is None:
        return [f"{fx!r}: no effect is called {effect.verb!r}"]
    words = list(effect.words)
    problems: list[str] = []
    for param in kind.params:
        base = param.rstrip("?*+")
        if not words:
            if not param.endswith("?"):
                problems.append(f"{fx!r}: {base} is missing")
            continue
        taken = (
            [" ".join(words)]
            if param.endswith("*")
            else words
            if param.endswith("+")
            else words[:1]
        )
        words = [] if param.endswith(("*", "+")) else words[1:]
        problems += [
            f"{fx!r}: {word!r} is not a valid {base}" for word in taken if not ARGUMENTS[base](word)
        ]
    if words:
        problems.append(f"{fx!r}: {' '.join(words)!r} is more than {effect.verb} takes")
    return problems
