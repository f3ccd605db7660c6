"""One way to let bots play: the same seed and seats give the same game in
``tabletop simulate``, in the session the terminal UI plays, and in ``tabletop fuzz``.

Before, simulate had a play loop of its own that seeded bots its own way (Pig seed
1234 played 24 actions there and 41 through the session). Now simulate plays each game
through ``GameSession.run`` with the headless UI adapter, the UI's session is the same
class, every bot move comes from ``bot_move``, and fuzz picks its random moves through
``bot_move`` too (tests/tui/test_tui_one_bot_path.py plays the same game in the app).
"""

from __future__ import annotations

from typing import Any

import pytest
from dependency_injector import providers
from memory_store import MemoryStore

from tabletop.adapters.headless import HeadlessUI
from tabletop.framework import fuzz
from tabletop.framework.bots import batch_seed

SEED = 1234
GAMES = 12
SEATS = ["random", "random"]
OPTIONS = {"target": "50", "dice": "one", "banks": "open"}


def test_simulate_the_uis_session_and_fuzz_play_the_same_games(
    container: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore()
    container.save_store.override(providers.Object(store))  # the UI's autosaves
    report = container.simulation().run("pig", games=GAMES, seed=SEED, seats=SEATS, options=OPTIONS)
    assert report.completed == GAMES and report.errors == 0

    fuzzed: list[Any] = []

    class Recorded(fuzz._Game):  # the game fuzz_one builds, kept to read its engine
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            fuzzed.append(self)

    monkeypatch.setattr(fuzz, "_Game", Recorded)
    game = container.registry().get("pig").definition
    starter = container.session_starter()
    lengths = []
    for index in range(GAMES):
        seed = batch_seed(SEED, index)
        ui = HeadlessUI()
        session = starter.start("pig", seed=seed, players=2, options=OPTIONS, seats=SEATS, ui=ui)
        session.run()
        assert session.engine.over and ui.over and ui.thinking == [m.seat for m in ui.moves]

        actions, _, failure = fuzz.fuzz_one(
            game,
            seed=seed,
            players=2,
            options=OPTIONS,
            rng_factory=container.rng_factory(),
            dice_factory=container.dice_factory(),
        )
        assert failure is None
        engine = fuzzed.pop().engine

        assert report.game_digests[index] == session.engine.digest() == engine.digest()
        assert session.engine.log == engine.log and actions == len(session.engine.log)
        assert store.load(session.save_id or "").digest == session.engine.digest()
        lengths.append(actions)
    assert report.actions == sum(lengths)
    # the issue's example: seed 1234's first game is one game, whoever plays it
    assert lengths[0] == len(store.load("pig-1").actions)
