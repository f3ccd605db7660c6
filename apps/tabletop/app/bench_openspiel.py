"""``tabletop bench --openspiel``: the same games timed as Tabletop games and as
OpenSpiel's, in one run, so the ratio means something on a shared, noisy machine.

Tic-tac-toe is the ``tic-tac-toe`` plugin here and OpenSpiel's ``python_tic_tac_toe``
(Python) and ``tic_tac_toe`` (C++); Pig is the ``pig`` plugin (to 50, one die) and
OpenSpiel's C++ ``pig`` (winscore 50). Each side plays uniformly random games, the way
each is driven in practice: Tabletop through its engine with the random bot (legality
check, events, the bot's own seeded random stream: what ``simulate`` and a search
bot's playouts pay), OpenSpiel through its state API from Python. The figure is
microseconds per decision (a chance node is not a decision, but its time counts).
Rounds alternate between the sides and the median is kept.

OpenSpiel is optional: ``tabletop install 'tabletop-app[openspiel]'``.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from tabletop.framework.bots import RandomBot, batch_seed, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.game import GameDefinition

#: (label, Tabletop game id and options, OpenSpiel Python game, OpenSpiel C++ game)
PAIRS: tuple[tuple[str, str, dict[str, str], str | None, str], ...] = (
    ("tic-tac-toe", "tic-tac-toe", {}, "python_tic_tac_toe", "tic_tac_toe"),
    ("pig", "pig", {"target": "50"}, None, "pig(winscore=50)"),
)
ROUNDS = 3

Playout = Callable[[float], tuple[int, float]]


def tabletop_playouts(game: GameDefinition, options: dict[str, str]) -> Playout:
    """Random games through the engine until ``seconds`` pass: (decisions, seconds)."""
    bot = RandomBot()
    players = game.info.min_players

    def play(seconds: float) -> tuple[int, float]:
        decisions, index = 0, 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            engine = Engine(
                game,
                seed=batch_seed(0, index),
                players=players,
                options=options,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                undo=False,
            )
            while (prompt := engine.prompt) is not None:
                engine.act(prompt.seat, bot_move(engine, bot))
            decisions += len(engine.log)
            index += 1
        return decisions, time.perf_counter() - started

    return play


def openspiel_playouts(game: Any) -> Playout:
    """Random games of an OpenSpiel game until ``seconds`` pass: (decisions, seconds)."""
    rng = random.Random(0)

    def play(seconds: float) -> tuple[int, float]:
        decisions = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return decisions, time.perf_counter() - started

    return play


def bench_side_by_side(registry: Any = None, *, seconds: float = 2.0) -> dict[str, Any]:
    """Every pair in PAIRS, timed in one run; {"error": ...} when OpenSpiel is missing."""
    if importlib.util.find_spec("pyspiel") is None:
        return {"error": "OpenSpiel is not installed: tabletop install 'tabletop-app[openspiel]'"}
    pyspiel: Any = importlib.import_module("pyspiel")
    importlib.import_module("open_spiel.python.games")  # registers the Python games
    if registry is None:
        from tabletop.framework.plugins import load_registry

        registry = load_registry()
    results: dict[str, Any] = {}
    for label, game_id, options, python_name, cpp_name in PAIRS:
        if game_id not in registry.games:
            results[label] = {"error": f"the {game_id} plugin is not installed"}
            continue
        sides: dict[str, Playout] = {
            "tabletop": tabletop_playouts(registry.get(game_id).definition, options),
            "openspiel_cpp": openspiel_playouts(pyspiel.load_game(cpp_name)),
        }
        if python_name is not None:
            sides["openspiel_python"] = openspiel_playouts(pyspiel.load_game(python_name))
        samples: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(ROUNDS):  # interleaved: a burst of load hits every side alike
            for name, play in sides.items():
                decisions, spent = play(seconds / ROUNDS)
                samples[name].append(1e6 * spent / max(decisions, 1))
        row: dict[str, Any] = {
            f"{name}_us": round(statistics.median(values), 3) for name, values in samples.items()
        }
        mine = statistics.median(samples["tabletop"])
        for name in sides:
            if name != "tabletop":
                theirs = statistics.median(samples[name])
                row[f"tabletop_vs_{name}"] = round(mine / theirs, 3)
        results[label] = row
    return results


def format_side_by_side(results: dict[str, Any]) -> list[str]:
    lines = ["Side by side with OpenSpiel, µs per decision in random play (ratio: Tabletop / it):"]
    if "error" in results:
        return [*lines, f"  {results['error']}"]
    for label, row in results.items():
        if "error" in row:
            lines.append(f"  {label}: {row['error']}")
            continue
        parts = [f"Tabletop {row['tabletop_us']:.2f}"]
        if "openspiel_python_us" in row:
            parts.append(
                f"OpenSpiel Python {row['openspiel_python_us']:.2f} "
                f"(x{row['tabletop_vs_openspiel_python']:.2f})"
            )
        parts.append(
            f"OpenSpiel C++ {row['openspiel_cpp_us']:.2f} (x{row['tabletop_vs_openspiel_cpp']:.2f})"
        )
        lines.append(f"  {label:<12} " + ", ".join(parts))
    return lines
