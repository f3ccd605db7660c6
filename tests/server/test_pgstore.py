"""The PostgreSQL store (``--db postgresql://...``) against a real PostgreSQL server
that the test starts itself with initdb and pg_ctl, and the SQLite store against the
same contract. Skipped, saying why, where the PostgreSQL server binaries or psycopg are
absent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pghelp import fresh_postgres
from seat_inbox import Inbox
from serverhelp import ServerThread, bind, keys, small_registry

from tabletop.adapters.server.hall import Hall, ServerTable
from tabletop.adapters.server.store import GameStore, SqliteGameStore
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework import chance
from tabletop.framework.ports import Workers
from tabletop.framework.record import GameRecord
from tabletop.framework.seats import REFUSED, Move
from tabletop.framework.session import SessionStarter
from tabletop.framework.table import QueuedWorkers, SeatLink


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], GameStore]:
    """Makes stores on one database: a second call is a restarted server's store."""
    if request.param == "sqlite":
        return lambda: SqliteGameStore(tmp_path / "server.sqlite3")
    dsn = request.getfixturevalue("postgres")
    first = fresh_postgres(dsn)
    made: list[GameStore] = [first]

    def again() -> GameStore:
        if made:
            return made.pop()
        from tabletop.adapters.server.pgstore import PostgresGameStore

        return PostgresGameStore(dsn.rsplit("/", 1)[0] + "/" + first.path.rsplit("/", 1)[1])

    return again


def hall_on(store: GameStore, workers: Workers | None = None) -> Hall:
    sessions = SessionStarter(small_registry(), chance.rng_factory, chance.dice_factory)
    return Hall(store, sessions, workers or QueuedWorkers())


def seat_at(hall: Hall, token: str) -> tuple[SeatLink, Inbox]:
    """The token's seat joined with an inbox; an invite is bound first (to a secret
    that the seat's ``table``... keeps no more of: tests that rejoin use ``bind``)."""
    if hall.store.invited(token) is not None:
        token = bind(hall, token)
    table, seat = hall.sit(token)
    inbox = Inbox()
    return table.join(seat, inbox), inbox


def move_first(link: SeatLink) -> bool:
    """The deciding seat's first choice, through ``link`` (which must be that seat's)."""
    engine = link.table.engine
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == link.seat
    return link.send(Move(len(engine.log), prompt.choices[0].action))


def test_a_store_keeps_games_tokens_and_every_action(make_store: Callable[[], GameStore]) -> None:
    store = make_store()
    record = GameRecord(
        "liars-dice", 7, 2, {}, [(0, "bid:1:1")], digest="a" * 64, seats=["human"] * 2
    )
    store.create("g1", record, {"tok-0": 0, "tok-host": None})
    store.append("g1", 2, 1, "challenge", digest="b" * 64, progress="Round 2", finished=False)
    with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error
        store.append("g1", 2, 0, "again", digest="c" * 64, progress="", finished=False)
    assert store.owner("tok-0") == ("g1", 0)
    assert store.owner("tok-host") == ("g1", None)
    assert store.owner("tok-1") is None
    store.close()

    again = make_store()
    stored = again.load("g1")
    assert stored is not None and not stored.abandoned
    assert stored.record.actions == [(0, "bid:1:1"), (1, "challenge")]
    assert stored.record.digest == "b" * 64 and stored.record.progress == "Round 2"
    assert again.length("g1") == 2 and again.actions_after("g1", 1) == [(1, "challenge")]
    again.truncate("g1", 1, digest="d" * 64, progress="Round 1", finished=False)  # an undo
    taken = again.load("g1")
    assert taken is not None and taken.record.actions == [(0, "bid:1:1")]
    assert taken.record.digest == "d" * 64 and again.length("g1") == 1
    again.append("g1", 2, 1, "bid:1:2", digest="e" * 64, progress="", finished=False)
    again.abandon("g1")
    loaded = again.load("g1")
    assert loaded is not None and loaded.abandoned
    assert again.load("nope") is None
    again.close()


def test_a_game_on_the_store_plays_on_after_a_restart(make_store: Callable[[], GameStore]) -> None:
    hall = hall_on(make_store())
    hosted = hall.host("liars-dice", players=2)
    secrets = keys(hall, hosted.invites)
    links = dict(enumerate(seat_at(hall, secrets[s])[0] for s in (0, 1)))
    table = links[0].table
    for _ in range(5):
        prompt = table.engine.prompt
        assert prompt is not None
        assert move_first(links[prompt.seat])
    digest = table.engine.digest()
    hall.store.close()

    restarted = hall_on(make_store())
    link, inbox = seat_at(restarted, secrets[1])
    assert link.table.engine.digest() == digest and len(link.table.engine.log) == 5
    assert not link.send(Move(4, "challenge"))
    assert inbox.notices(REFUSED)[-1].text.startswith("stale move")


def test_serve_opens_a_postgres_store_and_names_a_bad_one_without_its_password(
    postgres: str,
) -> None:
    from tabletop.adapters.server.pgstore import PostgresGameStore
    from tabletop.app.container import open_server_store
    from tabletop.framework.errors import TabletopError

    store = open_server_store(postgres)
    assert isinstance(store, PostgresGameStore) and store.path == postgres.split("@")[1]
    store.close()
    with pytest.raises(TabletopError, match="cannot open the PostgreSQL database at 127") as caught:
        open_server_store("postgresql://me:s3cret@127.0.0.1:1/x")
    assert "s3cret" not in str(caught.value)


def test_two_server_processes_on_one_database_share_a_game(postgres: str) -> None:
    """A move kept through one server is refused as stale by the other, which then
    catches up from the database; seats on both servers play one game to its end."""
    import asyncio

    from liars import LiarsDice

    from tabletop.adapters.server.client import bot_decider, play_seat, request
    from tabletop.adapters.server.pgstore import PostgresGameStore
    from tabletop.adapters.server.server import Server
    from tabletop.framework.bots import RandomBot
    from tabletop.framework.engine import Engine

    first = fresh_postgres(postgres)
    dsn = postgres.rsplit("/", 1)[0] + "/" + first.path.rsplit("/", 1)[1]
    workers = ThreadWorkers()
    one, two = hall_on(first, workers), hall_on(PostgresGameStore(dsn), workers)
    hosted = one.host("liars-dice", players=3)
    secrets = keys(one, hosted.invites)
    link_one, _ = seat_at(one, secrets[0])
    link_two, told = seat_at(two, secrets[0])
    table_one, table_two = link_one.table, link_two.table
    assert move_first(link_one)
    # it had not heard: the database refuses, and the game is reloaded from it
    assert not move_first(link_two)
    assert told.notices(REFUSED)[-1].text == "stale move: the game moved on to position 1"
    assert len(table_two.engine.log) == 1
    assert table_two.engine.digest() == table_one.engine.digest()
    nxt = table_two.engine.prompt
    assert nxt is not None
    link, _ = seat_at(two, secrets[nxt.seat])
    assert move_first(link)
    assert isinstance(table_one, ServerTable)
    assert one.catch_up(table_one) == 1 and table_one.engine.digest() == table_two.engine.digest()

    with ServerThread(Server(one)) as a, ServerThread(Server(two)) as b:
        game = LiarsDice()

        async def play() -> list[Any]:
            urls = [a.url, a.url, b.url]  # two seats on one server, one on the other
            return await asyncio.gather(
                *(
                    play_seat(urls[s], secrets[s], bot_decider(game, RandomBot(), s), give_up=20)
                    for s in range(3)
                )
            )

        seats = asyncio.run(asyncio.wait_for(play(), 60))
        assert all(s.over for s in seats) and len({s.seq for s in seats}) == 1
        record = asyncio.run(request(b.url, {"type": "fetch", "game": hosted.game_id}))
    workers.stop()
    saved = GameRecord.from_json(record["record"])
    engine = Engine.from_record(
        game, saved, rng_factory=chance.rng_factory, dice_factory=chance.dice_factory
    )
    assert engine.over and len(saved.actions) == seats[0].seq


def test_an_undo_through_one_server_process_is_caught_up_by_the_other(postgres: str) -> None:
    from toygames import Counter

    from tabletop.adapters.server.pgstore import PostgresGameStore
    from tabletop.framework.plugins import InstalledGame
    from tabletop.framework.seats import Undo

    def counting(store: GameStore) -> Hall:
        registry = small_registry()
        registry.games["counter"] = InstalledGame(Counter(), "tests", "tests", "1")
        return Hall(
            store,
            SessionStarter(registry, chance.rng_factory, chance.dice_factory),
            QueuedWorkers(),
        )

    first = fresh_postgres(postgres)
    dsn = postgres.rsplit("/", 1)[0] + "/" + first.path.rsplit("/", 1)[1]
    one, two = counting(first), counting(PostgresGameStore(dsn))
    hosted = one.host("counter", players=1)
    secret = bind(one, hosted.invites[0])
    link, _ = seat_at(one, secret)
    for _ in range(3):
        assert move_first(link)
    other, told = seat_at(two, secret)
    assert len(other.table.engine.log) == 3
    assert link.send(Undo(3))
    assert one.store.length(hosted.game_id) == 2
    assert other.table.engine.log and len(other.table.engine.log) == 3  # not heard yet
    assert isinstance(other.table, ServerTable)
    assert two.catch_up(other.table) == 0  # nothing newer: fewer, so reloaded
    assert len(other.table.engine.log) == 2
    assert other.table.engine.digest() == link.table.engine.digest()
    assert told.last.seq == 2 and told.story()[-1] == "Counter: counts to 2"


def test_a_store_takes_one_writer_per_game_binds_invites_once_and_leases_bots(
    make_store: Callable[[], GameStore],
) -> None:
    """What several server processes on one database rely on, in both stores."""
    from tabletop.adapters.server.store import GameEnded, StaleWrite

    store = make_store()
    record = GameRecord("liars-dice", 7, 2, {}, [], digest="a" * 64, seats=["human"] * 2)
    store.create("g1", record, {"host": None}, {"invite-0": 0, "invite-1": 1})
    # an invite works once: its seat is opened by the secret from then on
    assert store.invited("invite-0") == ("g1", 0)
    assert store.bind("invite-0", "secret-0") == ("g1", 0)
    assert store.bind("invite-0", "secret-x") is None and store.invited("invite-0") is None
    assert store.owner("secret-0") == ("g1", 0) and store.owner("invite-0") is None
    assert store.owner("secret-x") is None
    # only the next action is kept; after the end by the host, none
    store.append("g1", 1, 0, "bid:1:1", digest="b" * 64, progress="", finished=False)
    with pytest.raises(StaleWrite):
        store.append("g1", 3, 1, "challenge", digest="c" * 64, progress="", finished=False)
    assert store.status("g1") == (1, False)
    store.abandon("g1")
    with pytest.raises(GameEnded):
        store.append("g1", 2, 1, "challenge", digest="c" * 64, progress="", finished=False)
    with pytest.raises(GameEnded):
        store.truncate("g1", 0, digest="a" * 64, progress="", finished=False)
    assert store.status("g1") == (1, True)
    # a finished game's answers
    assert store.result("g1") is None
    store.keep_result("g1", b"\x00answers")
    store.keep_result("g1", b"\x00answers, again")
    assert store.result("g1") == b"\x00answers, again"
    # a lease on a game's bots: held by one owner until it runs out
    assert store.claim("g1", "A", 60.0) and store.claim("g1", "A", 60.0)
    assert not store.claim("g1", "B", 60.0)
    store.drop_lease("g1", "A")
    assert store.claim("g1", "B", 0.01) and not store.claim("g1", "A", 60.0)
    import time

    time.sleep(0.05)  # B stopped renewing: its lease ran out
    assert store.claim("g1", "A", 60.0)
    store.renew("A", ["g1"], 60.0)
    assert not store.claim("g1", "B", 60.0)
    store.close()


def test_a_game_its_host_ended_through_one_server_takes_no_move_through_another(
    postgres: str,
) -> None:
    """Issue 36: the host fetched an unfinished game through server B, which ended it,
    while server A, which had not heard yet, kept accepting moves (6 were stored after
    the end). The database now refuses them, and A tells its seats the game ended."""
    from tabletop.adapters.server.hall import ENDED_BY_HOST
    from tabletop.adapters.server.pgstore import PostgresGameStore
    from tabletop.framework.seats import ENDED

    first = fresh_postgres(postgres)
    dsn = postgres.rsplit("/", 1)[0] + "/" + first.path.rsplit("/", 1)[1]
    one, two = hall_on(first), hall_on(PostgresGameStore(dsn))
    hosted = one.host("liars-dice", players=2)
    secrets = keys(one, hosted.invites)
    links, inboxes = zip(*(seat_at(one, secrets[s]) for s in (0, 1)), strict=True)
    table = links[0].table
    for _ in range(3):
        prompt = table.engine.prompt
        assert prompt is not None
        assert move_first(links[prompt.seat])
    record = GameRecord.from_json(two.fetch(hosted.game_id, hosted.host_token))
    assert len(record.actions) == 3 and not record.finished
    for _ in range(3):  # every later move through A, whoever sends it
        prompt = table.engine.prompt
        if prompt is None:
            break
        assert not move_first(links[prompt.seat])
        assert inboxes[prompt.seat].notices(REFUSED)[-1].text == ENDED_BY_HOST
    assert one.store.status(hosted.game_id) == (3, True)
    for inbox in inboxes:  # every seat on A is told the game ended
        assert [n.text for n in inbox.notices(ENDED)] == [ENDED_BY_HOST]
    stored = one.store.load(hosted.game_id)
    assert stored is not None and stored.record.actions == record.actions


def test_a_game_loaded_while_another_server_appends_is_one_moment_of_it(postgres: str) -> None:
    """A server opening a game read its row and its actions in two statements, and on
    PostgreSQL each statement sees the database as it is then: a move another server
    kept in between gave a digest of n actions with n + 1 actions, and the game could
    not be opened ("replay does not match the saved digest"). Loaded while another
    connection appends, every record is one moment's: its digest is its length's."""
    import hashlib
    import threading

    from tabletop.adapters.server.pgstore import PostgresGameStore

    def digest(count: int) -> str:
        return hashlib.sha256(str(count).encode()).hexdigest()

    reader = fresh_postgres(postgres)
    writer = PostgresGameStore(postgres.rsplit("/", 1)[0] + "/" + reader.path.rsplit("/", 1)[1])
    record = GameRecord("liars-dice", 7, 2, {}, [], digest=digest(0), seats=["human"] * 2)
    reader.create("g1", record, {"host": None})
    appends = 400

    def append() -> None:
        for index in range(1, appends + 1):
            writer.append(
                "g1",
                index,
                index % 2,
                f"a{index}",
                digest=digest(index),
                progress="",
                finished=False,
            )

    thread = threading.Thread(target=append)
    thread.start()
    seen: list[tuple[int, str]] = []
    while thread.is_alive() or not seen:
        stored = reader.load("g1")
        assert stored is not None
        seen.append((len(stored.record.actions), stored.record.digest))
    thread.join()
    torn = [(count, kept) for count, kept in seen if kept != digest(count)]
    assert not torn, f"{len(torn)} of {len(seen)} loads mixed two moments"
    assert len({count for count, _ in seen}) > 1  # it did load while the other wrote
    reader.close()
    writer.close()
