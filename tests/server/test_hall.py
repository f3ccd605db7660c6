"""The server's games without the network: hosting, moves refused or kept, the store,
restarts and fetching (issue 24)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from serverhelp import make_hall

from tabletop.adapters.server.hall import Hall, Refused
from tabletop.adapters.server.store import SqliteGameStore, token_hash
from tabletop.framework import chance
from tabletop.framework.engine import Engine
from tabletop.framework.record import GameRecord


def play_random(hall: Hall, tokens: dict[int, str], moves: int | None = None) -> int:
    """Answer every prompt with its first choice, from the seat whose turn it is."""
    made = 0
    tables = {seat: hall.sit(token) for seat, token in tokens.items()}
    while moves is None or made < moves:
        table, _ = next(iter(tables.values()))
        prompt = table.engine.prompt
        if prompt is None:
            break
        table, seat = tables[prompt.seat]
        hall.move(table, seat, len(table.engine.log), prompt.choices[-1].action)
        made += 1
    return made


def test_host_makes_one_unguessable_token_per_human_seat(hall: Hall) -> None:
    hosted = hall.host("liars-dice", seats=["human", "random", "human"])
    assert sorted(hosted.tokens) == [0, 2]
    tokens = [*hosted.tokens.values(), hosted.host_token]
    assert len(set(tokens)) == 3
    assert all(len(token) >= 32 for token in tokens)  # 24 random bytes, base64
    table, seat = hall.sit(hosted.tokens[2])
    assert (table.game_id, seat) == (hosted.game_id, 2)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 9}, "2-3 players"),
        ({"seats": ["human", "nobody"]}, "unknown seat kind 'nobody'"),
        ({"players": 3, "seats": ["human", "human"]}, "3 players but 2 seats"),
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"seats": [1, 2]}, "seats are words"),
    ],
)
def test_a_bad_host_request_is_refused_and_keeps_nothing(
    hall: Hall, kwargs: dict[str, object], words: str, tmp_path: Path
) -> None:
    with pytest.raises(Refused, match=words):
        hall.host("liars-dice", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(Refused, match="no game 'chess'"):
        hall.host("chess")
    store = hall.store
    assert isinstance(store, SqliteGameStore)
    assert store.count() == 0


def test_moves_out_of_turn_stale_or_illegal_are_refused_and_change_nothing(hall: Hall) -> None:
    hosted = hall.host("liars-dice", players=2)
    table, first = hall.sit(hosted.tokens[0])
    _, second = hall.sit(hosted.tokens[1])
    prompt = table.engine.prompt
    assert prompt is not None and prompt.seat == first
    digest = table.engine.digest()
    action = prompt.choices[0].action
    with pytest.raises(Refused, match="it is Player 1's decision, not Player 2's"):
        hall.move(table, second, 0, action)
    with pytest.raises(Refused, match="stale move: it answers position 5, the game is at 0"):
        hall.move(table, first, 5, action)
    with pytest.raises(Refused, match="not one of your choices"):
        hall.move(table, first, 0, "bid:99:9")
    assert table.engine.digest() == digest and not table.engine.log
    hall.move(table, first, 0, action)
    with pytest.raises(Refused, match="stale move"):  # the same move again: a replay
        hall.move(table, first, 0, action)
    assert len(table.engine.log) == 1


def test_every_move_is_in_the_store_and_a_new_server_replays_it(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", players=3)
    play_random(hall, hosted.tokens, moves=7)
    table, _ = hall.sit(hosted.tokens[0])
    digest, log = table.engine.digest(), list(table.engine.log)
    hall.store.close()

    again = make_hall(path)  # a restarted server: nothing in memory
    table2, _ = again.sit(hosted.tokens[1])
    assert table2 is not table
    assert table2.engine.digest() == digest
    assert [(e.seat, e.action) for e in table2.engine.log] == [(e.seat, e.action) for e in log]
    play_random(again, hosted.tokens)
    assert table2.engine.over


def test_tokens_are_stored_as_hashes_only(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", players=2)
    hall.store.close()
    kept = {row[0] for row in sqlite3.connect(path).execute("SELECT hash FROM tokens")}
    assert kept == {token_hash(t) for t in [*hosted.tokens.values(), hosted.host_token]}
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert not any(token.encode() in raw for token in hosted.tokens.values())


def test_server_bots_play_their_seats_on_the_server(hall: Hall) -> None:
    hosted = hall.host("liars-dice", seats=["random", "human", "random"])
    table, seat = hall.sit(hosted.tokens[1])
    prompt = table.engine.prompt
    assert prompt is not None and prompt.seat == seat  # the bot before it has played
    assert table.engine.log and table.engine.log[0].seat == 0
    play_random(hall, hosted.tokens)
    assert table.engine.over


def test_unknown_and_host_tokens_sit_nowhere(hall: Hall) -> None:
    hosted = hall.host("liars-dice", players=2)
    with pytest.raises(Refused, match="unknown token"):
        hall.sit(hosted.tokens[0][:-1] + "x")
    with pytest.raises(Refused, match="host's token"):
        hall.sit(hosted.host_token)


def test_fetch_gives_an_ordinary_save_and_an_unfinished_game_only_to_its_host(
    hall: Hall,
) -> None:
    hosted = hall.host("liars-dice", players=2)
    play_random(hall, hosted.tokens, moves=3)
    with pytest.raises(Refused, match="only its host"):
        hall.fetch(hosted.game_id, None)
    with pytest.raises(Refused, match="only its host"):
        hall.fetch(hosted.game_id, hosted.tokens[0])  # a player would learn the seed
    saved = hall.fetch(hosted.game_id, hosted.host_token)
    record = GameRecord.from_json(saved)
    engine = Engine.from_record(
        hall.registry.get("liars-dice").definition,
        record,
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
    )
    assert len(engine.log) == 3 and engine.digest() == record.digest
    table, seat = hall.sit(hosted.tokens[0])
    assert table.abandoned  # its seed is out: nobody plays on
    with pytest.raises(Refused, match="the host ended this game"):
        hall.move(table, seat, 3, "challenge")

    other = hall.host("liars-dice", players=2)
    play_random(hall, other.tokens)
    finished = GameRecord.from_json(hall.fetch(other.game_id, None))
    assert finished.finished and finished.seats == ["human", "human"]
    with pytest.raises(Refused, match="no such game"):
        hall.fetch("nope", None)


def test_a_finished_game_is_let_go_and_replayed_when_asked_for(hall: Hall) -> None:
    hosted = hall.host("liars-dice", players=2)
    unfinished = hall.host("liars-dice", players=2)
    play_random(hall, hosted.tokens)
    assert hall.open_games() == 2
    hall.release(hosted.game_id)
    hall.release(unfinished.game_id)  # not over: kept
    assert hall.loaded(hosted.game_id) is None and hall.loaded(unfinished.game_id) is not None
    table, _ = hall.sit(hosted.tokens[0])  # replayed from the store
    assert table.engine.over and hall.open_games() == 2


def test_no_token_or_game_id_begins_with_a_dash() -> None:
    """A token is typed as an argument (tabletop join URL TOKEN): a leading dash would
    read as an option. One in 64 random URL-safe words begins with one."""
    from tabletop.adapters.server.hall import GAME_ID_BYTES, new_token

    words = [new_token() for _ in range(2000)] + [new_token(GAME_ID_BYTES) for _ in range(2000)]
    assert not any(word.startswith("-") for word in words)
    assert len(set(words)) == 4000 and {len(word) for word in words} == {32, 16}
