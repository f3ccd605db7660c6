"""Issue 24's wire leak test: for every message a client receives in a hidden-information
game, nothing differs between worlds its seat cannot tell apart.

Liar's Dice (tests/liars.py) is played to the end over the wire by three clients that
keep every message. Then, replaying the fetched game:

1. each update a seat received is exactly ``seats.seat_update`` of the game at that
   position (so the wire carries those channels and nothing else);
2. the same update built in a world resampled by ``determinize`` for that seat (its
   view, its prompt, who decides) is the same message;
3. when the update follows one action, that action played in a resampled world before
   it (same chance) gives the seat the same message, unless the action drew chance or
   revealed (which the framework's perturbation check covers);
4. the framework's own leak checks (``LeakChecker``: setup, every position, every
   action) pass on the positions the server went through.

The leaky variants of liars.py fail it, so it can fail.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from liars import DroppedSeatsLiars, LiarsDice, LiveStateLiars
from serverhelp import ServerThread, make_hall

from tabletop.adapters.server.client import bot_decider, play_seat, request
from tabletop.adapters.server.protocol import encode
from tabletop.adapters.server.server import Server
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework import chance
from tabletop.framework.bots import RandomBot
from tabletop.framework.context import Context
from tabletop.framework.engine import Engine
from tabletop.framework.game import GameDefinition, clone
from tabletop.framework.leaks import Leak, LeakChecker
from tabletop.framework.plugins import GameRegistry, InstalledGame
from tabletop.framework.record import GameRecord
from tabletop.framework.seats import Cursor, SeatUpdate, seat_update


def played_over_the_wire(game: GameDefinition, tmp_path: Path) -> tuple[GameRecord, list[Any]]:
    """Three random-bot clients play ``game`` on a server; the record and each seat's
    received messages."""
    registry = GameRegistry(
        games={"liars-dice": InstalledGame(game, "tests", "tests", "1")},
        bots={"random": (lambda game: RandomBot(), "")},
    )
    workers = ThreadWorkers()
    hall = make_hall(tmp_path / "server.sqlite3", registry, workers=workers)
    with ServerThread(Server(hall)) as served:

        async def main() -> tuple[dict[str, Any], list[Any]]:
            hosted = await request(served.url, {"type": "host", "game": "liars-dice", "players": 3})
            seats = await asyncio.gather(
                *(
                    play_seat(
                        served.url,
                        token,
                        bot_decider(game, RandomBot(), 100 + int(seat)),
                        keep_messages=True,
                    )
                    for seat, token in sorted(hosted["invites"].items())
                )
            )
            fetched = await request(served.url, {"type": "fetch", "game": hosted["game"]})
            return fetched["record"], [seat.messages for seat in seats]

        record, messages = asyncio.run(main())
    workers.stop()
    return GameRecord.from_json(record), messages


def replayed(game: GameDefinition, record: GameRecord, upto: int) -> Engine:
    return Engine.from_record(
        game,
        record,
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
        upto=upto,
    )


def wire(engine: Engine, seat: int, actions: int, events: int) -> Any:
    """``seat_update`` for ``seat`` after ``actions`` actions and ``events`` history
    entries told, as the client decodes it off the wire."""
    update: SeatUpdate = seat_update(engine, seat, Cursor(actions, events))
    return json.loads(encode(update))


def resampled(engine: Engine, seat: int, salt: int) -> Engine:
    """The same game (log, history, chance) in a state ``determinize`` resampled for
    ``seat``: a world the seat cannot tell from the real one."""
    rng = chance.rng_factory(salt * 7919 + seat)
    world = Engine.from_record(
        engine.game,
        GameRecord(engine.game.info.id, engine.seed, engine.players, engine.options, []),
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
    )
    world.log, world.history = list(engine.log), list(engine.history)
    world._rng.setstate(engine.rng_state())
    world.state = engine.game.determinize(
        clone(engine.state), seat, Context(rng, chance.dice_factory(rng))
    )
    world._prompt_valid = False
    return world


def check_wire(game: GameDefinition, record: GameRecord, messages: list[Any]) -> int:
    """Raise Leak (or AssertionError) when a received message could tell worlds apart;
    return how many messages were compared."""
    compared = 0
    for seat, received in enumerate(messages):
        actions = events = 0
        for message in received:
            if message["type"] != "update":
                continue
            seq = message["seq"]
            real = replayed(game, record, seq)
            assert message == wire(real, seat, actions, events)
            world = resampled(real, seat, salt=seq)
            other = wire(world, seat, actions, events)
            if other != message:
                raise Leak(
                    f"seat {seat} at position {seq}: its update differs in a resampled world"
                )
            if seq == actions + 1 and not real.log[-1].barrier:
                before = replayed(game, record, seq - 1)
                entry = real.log[-1]
                alt = resampled(before, seat, salt=seq + 1)
                prompt = alt.prompt
                if prompt is not None and entry.action in prompt.actions():
                    alt.act(entry.seat, entry.action)
                    other = wire(alt, seat, actions, events)
                    if other != message:
                        raise Leak(
                            f"seat {seat}: the update after action {seq} ({entry.action!r}) "
                            "differs when that action is played in a world the seat cannot "
                            "tell apart"
                        )
            actions, events = seq, len(real.history)
            compared += 1
    checker = LeakChecker(
        game,
        players=record.players,
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
        seed=record.seed,
    )
    checker.check_setup(dict(record.options))
    engine = replayed(game, record, 0)
    for index, (seat, action) in enumerate(record.actions):
        checker.check_action(engine.state, engine.rng_state(), seat, action, salt=index)
        engine.act(seat, action)
    return compared


def test_every_message_a_seat_receives_is_the_same_in_worlds_it_cannot_tell_apart(
    tmp_path: Path,
) -> None:
    game = LiarsDice()
    record, messages = played_over_the_wire(game, tmp_path)
    assert record.finished
    compared = check_wire(game, record, messages)
    # Every seat heard every action (one update each, plus the first).
    assert compared >= 3 * len(record.actions)
    for received in messages:
        assert all(m["type"] in ("bound", "welcome", "update", "ack") for m in received)
        assert received[0] == {"type": "bound"}  # the invite, bound to the client's secret


@pytest.mark.parametrize("leaky", [LiveStateLiars, DroppedSeatsLiars])
def test_a_leaky_game_fails_the_wire_check(tmp_path: Path, leaky: type[LiarsDice]) -> None:
    game = leaky()
    record, messages = played_over_the_wire(game, tmp_path)
    with pytest.raises(Leak):
        check_wire(game, record, messages)
