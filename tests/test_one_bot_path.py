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

from dependency_injector import providers
from memory_store import MemoryStore
from sessions import start_session

from tabletop.adapters.headless import HeadlessUI
from tabletop.framework import RandomSource, State, fuzz
from tabletop.framework.bots import RandomBot, batch_seed, bot_move, bot_seed
from tabletop.framework.chance import bot_rng
from tabletop.framework.testing import new_engine
from tabletop.games.pig import Pig

SEED = 1234
GAMES = 12
SEATS = ["random", "random"]
OPTIONS = {"target": "50", "dice": "one", "banks": "open"}


class FlagsTheEnd(Pig):
    """Pig whose invariant fails once the game is won: fuzz then hands back, as its
    failure's record, the whole game it played (its public way to show a game)."""

    def invariants(self, state: State) -> list[str]:
        return ["the game is over"] if state["winner"] is not None else []


def test_simulate_the_uis_session_and_fuzz_play_the_same_games(container: Any) -> None:
    store = MemoryStore()
    container.save_store.override(providers.Object(store))  # the UI's autosaves
    report = container.simulation().run("pig", games=GAMES, seed=SEED, seats=SEATS, options=OPTIONS)
    assert report.completed == GAMES and report.errors == 0

    starter = container.session_starter()
    lengths = []
    for index in range(GAMES):
        seed = batch_seed(SEED, index)
        ui = HeadlessUI()
        session = starter.start("pig", seed=seed, players=2, options=OPTIONS, seats=SEATS, ui=ui)
        session.run()
        assert session.engine.over and ui.over and ui.thinking == [m.seat for m in ui.moves]

        actions, _, failure = fuzz.fuzz_one(
            FlagsTheEnd(),
            seed=seed,
            players=2,
            options=OPTIONS,
            rng_factory=container.rng_factory(),
            dice_factory=container.dice_factory(),
        )
        assert failure is not None and failure.record is not None, "fuzz's game did not end"
        assert "the game is over" in failure.reason
        fuzzed = failure.record

        assert report.game_digests[index] == session.engine.digest() == fuzzed.digest
        assert fuzzed.actions == [(e.seat, e.action) for e in session.engine.log]
        assert actions == len(session.engine.log)
        assert store.load(session.save_id or "").digest == session.engine.digest()
        lengths.append(actions)
    assert report.actions == sum(lengths)
    # the issue's example: seed 1234's first game is one game, whoever plays it
    assert lengths[0] == len(store.load("pig-1").actions)


def test_a_bots_move_draws_from_the_seed_of_its_game_seat_and_move_number() -> None:
    """``bot_move`` seeds the bot's generator with ``bot_seed(game seed, seat)`` plus the
    number of actions so far: a reloaded game plays on as an uninterrupted one."""
    seeds: list[int] = []

    def noting(seed: int) -> RandomSource:
        seeds.append(seed)
        return bot_rng(seed)

    engine = new_engine(Pig(), seed=SEED, options=OPTIONS)
    expected: list[int] = []
    for _ in range(6):
        prompt = engine.prompt
        assert prompt is not None
        expected.append(bot_seed(SEED, prompt.seat) + len(engine.log))
        engine.act(prompt.seat, bot_move(engine, RandomBot(), noting))
    assert seeds == expected and len(set(seeds)) == 6


def test_bots_draw_from_their_own_generator_never_from_the_games() -> None:
    """A session's bots and ``bot_move`` by default play with ``chance.bot_rng``: the same
    moves, and the game's own random stream (which a save replays) is not touched."""
    session = start_session(Pig(), SEATS, seed=SEED, options=OPTIONS)
    assert session.bot_rng is bot_rng
    engine = new_engine(Pig(), seed=SEED, options=OPTIONS)
    for move in session.run(20):
        assert bot_move(engine, RandomBot()) == move.action
        before = engine.rng_state()
        bot_move(engine, RandomBot())  # asking again draws nothing from the game
        assert engine.rng_state() == before
        engine.act(move.seat, move.action)
    assert engine.digest() == session.engine.digest()
