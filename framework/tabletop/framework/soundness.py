"""What makes a game's data sound: plain JSON data, a prompt a front end can show, and
the key paths of a state (to name what a world changed).

Shared by the fuzzer (after every action), the leak checks (for every world a game's
``determinize`` makes) and the conformance kit; a module of its own below all three, so
that none of them imports another for it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from tabletop.framework.game import Prompt, Result, State


def json_problem(data: Any, path: str = "state") -> str | None:
    """Why ``data`` is not plain JSON data (None when it is)."""
    kind = type(data)
    if kind is dict:
        for key, value in data.items():
            if type(key) is not str:
                return f"{path} has a non-string key {key!r}"
            problem = json_problem(value, f"{path}.{key}")
            if problem is not None:
                return problem
        return None
    if kind is list:
        for index, value in enumerate(data):
            problem = json_problem(value, f"{path}[{index}]")
            if problem is not None:
                return problem
        return None
    if kind is float:
        return None if math.isfinite(data) else f"{path} is {data!r}, not JSON"
    if data is None or kind in (str, int, bool):
        return None
    return f"{path} is a {kind.__name__}, not JSON data"


def check_prompt(prompt: Prompt | None, players: int, result: Result | None) -> str | None:
    """What is wrong with a prompt (or with the end of the game); None when sound."""
    if prompt is None:
        if not isinstance(result, Result):
            return "the game is over (no prompt) but result() gave no Result"
        bad = [seat for seat in result.winners if not 0 <= seat < players]
        return f"result names winners outside the seats: {bad}" if bad else None
    if not 0 <= prompt.seat < players:
        return f"prompt is for seat {prompt.seat}, outside 0-{players - 1}"
    actions = prompt.actions()
    if not actions:
        return f"prompt {prompt.text!r} has no legal choice and the game is not over"
    if len(set(actions)) != len(actions):
        return f"prompt {prompt.text!r} offers the same action twice"
    if any(not isinstance(action, str) or not action for action in actions):
        return f"prompt {prompt.text!r} offers an action that is not a non-empty string"
    keys = [choice.key for choice in prompt.choices if choice.key]
    if len(set(keys)) != len(keys):
        return f"prompt {prompt.text!r} gives the same key to two choices"
    return None


def flat(data: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of JSON data by its key path (``hands[1][0]``, ``missions[2].failed``);
    an empty list or dict is a leaf."""
    if isinstance(data, dict) and data:
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(flat(value, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(data, list) and data:
        out = {}
        for index, value in enumerate(data):
            out.update(flat(value, f"{path}[{index}]"))
        return out
    return {path: data}


def forgotten(real: State, world: State, samples: Iterable[State]) -> list[str]:
    """The key paths where ``world`` differs from ``real`` and none of ``samples`` (the
    game's ``determinize`` for the same seat) does: secrets it keeps as they are."""
    mine, theirs = flat(real), flat(world)
    differ = {path for path in mine.keys() | theirs.keys() if mine.get(path) != theirs.get(path)}
    for sample in samples:
        if not differ:
            break
        drawn = flat(sample)
        differ -= {path for path in differ if drawn.get(path) != mine.get(path)}
    return sorted(differ)
