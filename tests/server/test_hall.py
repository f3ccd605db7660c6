"""The server's games without the network (issues 24 and 35): hosting, seats sitting at
a game's table, moves refused or kept, the store and its shadow check, undo, restarts,
spectators, bot games within the limits, and fetching."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from liars import LiarsDice
from seat_inbox import Inbox
from serverhelp import bind, keys, make_hall, play_out, small_registry
from toygames import Counter, renamed

from tabletop.adapters.server.hall import BOT_GAMES, ENDED_BY_HOST, Hall, Refused, ServerTable
from tabletop.adapters.server.limits import Limits
from tabletop.adapters.server.store import SqliteGameStore, token_hash
from tabletop.framework import State, chance
from tabletop.framework.bots import RandomBot
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import GameRegistry, InstalledGame
from tabletop.framework.ports import Workers
from tabletop.framework.record import GameRecord
from tabletop.framework.seats import ENDED, REFUSED, UNDONE, Move, Undo
from tabletop.framework.table import QueuedWorkers, SeatLink
from tabletop.games.pig import Pig


def sit_all(hall: Hall, tokens: dict[int, str]) -> tuple[dict[int, SeatLink], dict[int, Inbox]]:
    """Every token's seat joined, each with an inbox."""
    links, inboxes = {}, {}
    for seat, token in tokens.items():
        table, sat = hall.sit(token)
        assert sat == seat
        inboxes[seat] = Inbox()
        links[seat] = table.join(seat, inboxes[seat])
    return links, inboxes


def test_host_makes_one_unguessable_invite_per_human_seat(queued: Hall) -> None:
    hosted = queued.host("liars-dice", seats=["human", "random", "human"])
    assert sorted(hosted.invites) == [0, 2]
    tokens = [*hosted.invites.values(), hosted.host_token]
    assert len(set(tokens)) == 3
    assert all(len(token) >= 32 for token in tokens)  # 24 random bytes, base64
    table, seat = queued.sit(bind(queued, hosted.invites[2]))
    assert (table.game_id, seat) == (hosted.game_id, 2)


def test_an_invite_works_once_and_binds_its_seat_to_the_joining_client_s_secret(
    queued: Hall,
) -> None:
    hosted = queued.host("liars-dice", players=2)
    invite = hosted.invites[0]
    with pytest.raises(Refused, match="this is an invite"):  # no secret: nothing is bound
        queued.resolve(invite)
    secret = "s" * 40
    with pytest.raises(Refused, match="at least 32 characters"):
        queued.resolve(invite, "short")
    assert queued.resolve(invite, secret) == (hosted.game_id, 0, True)
    # the secret opens the seat from now on, given either way; the invite opens nothing
    assert queued.resolve(secret) == (hosted.game_id, 0, False)
    assert queued.resolve(invite, secret) == (hosted.game_id, 0, True)
    for attempt in (invite, "t" * 40):
        with pytest.raises(Refused, match="an invite works once"):
            queued.resolve(invite, attempt)
    with pytest.raises(Refused, match="unknown token"):
        queued.resolve(invite)
    # the host saw every invite, and holds no key to any seat
    with pytest.raises(Refused, match="host's token"):
        queued.resolve(hosted.host_token)
    with pytest.raises(Refused, match="host's token"):
        queued.resolve(hosted.host_token, "u" * 40)
    table, seat = queued.sit(bind(queued, hosted.invites[1]))
    assert seat == 1 and table.game_id == hosted.game_id


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
    queued: Hall, kwargs: dict[str, object], words: str
) -> None:
    with pytest.raises(Refused, match=words):
        queued.host("liars-dice", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(Refused, match="no game 'chess'"):
        queued.host("chess")
    store = queued.store
    assert isinstance(store, SqliteGameStore)
    assert store.count() == 0 and queued.open_games() == 0


def test_moves_out_of_turn_stale_or_illegal_are_refused_and_change_nothing(queued: Hall) -> None:
    hosted = queued.host("liars-dice", players=2)
    links, inboxes = sit_all(queued, keys(queued, hosted.invites))
    first, second = links[0], links[1]
    mine, theirs = inboxes[0], inboxes[1]
    table = first.table
    prompt = table.engine.prompt
    assert prompt is not None and prompt.seat == 0
    digest = table.engine.digest()
    action = prompt.choices[0].action
    assert not second.send(Move(0, action))
    assert not first.send(Move(5, action))
    assert not first.send(Move(0, "bid:99:9"))
    assert [n.text for n in theirs.notices(REFUSED)] == [
        "it is Player 1's decision, not Player 2's"
    ]
    assert [n.text for n in mine.notices(REFUSED)] == [
        "stale move: it answers position 5, the game is at 0",
        "'bid:99:9' is not one of your choices now",
    ]
    assert table.engine.digest() == digest and not table.engine.log
    assert first.send(Move(0, action))
    assert not first.send(Move(0, action))  # the same move again: a replay, stale
    assert len(table.engine.log) == 1
    assert queued.store.length(hosted.game_id) == 1


def test_every_move_is_in_the_store_and_a_new_server_replays_it(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", players=3)
    secrets = keys(hall, hosted.invites)
    links, _ = sit_all(hall, secrets)
    play_out(links, moves=7)
    table = links[0].table
    digest, log = table.engine.digest(), list(table.engine.log)
    hall.store.close()

    again = make_hall(path)  # a restarted server: nothing in memory
    links2, inboxes = sit_all(again, secrets)
    table2 = links2[1].table
    assert table2 is not table
    assert table2.engine.digest() == digest
    assert [(e.seat, e.action) for e in table2.engine.log] == [(e.seat, e.action) for e in log]
    assert len(inboxes[1].story()) >= 7  # the log so far, told again
    play_out(links2)
    assert table2.engine.over and again.store.length(hosted.game_id) == len(table2.engine.log)


def test_tokens_are_stored_as_hashes_only(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", players=2)
    secret = bind(hall, hosted.invites[0])
    hall.store.close()
    with sqlite3.connect(path) as db:
        kept = {row[0] for row in db.execute("SELECT hash FROM tokens")}
        invites = {row[0] for row in db.execute("SELECT hash FROM invites")}
    db.close()
    assert kept == {token_hash(secret), token_hash(hosted.host_token)}
    assert invites == {token_hash(hosted.invites[1])}  # the other was used
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    words = [secret, hosted.host_token, *hosted.invites.values()]
    assert not any(word.encode() in raw for word in words)


def test_server_bots_think_on_the_workers_and_move_like_a_seat(queued: Hall) -> None:
    hosted = queued.host("liars-dice", seats=["random", "human", "random"])
    workers = queued.workers
    assert isinstance(workers, QueuedWorkers)
    table, seat = queued.sit(bind(queued, hosted.invites[1]))
    assert not table.engine.log  # the bot before it thinks on a worker, not in the host
    assert [lane for lane, _, _ in workers.queue] == [Workers.BOTS]
    inbox = Inbox()
    link = table.join(seat, inbox)
    workers.drain(1)
    assert table.engine.log and table.engine.log[0].seat == 0
    assert inbox.last.prompt is not None  # now it is the person's decision
    while not table.engine.over:
        play_out({seat: link})
        workers.drain()
    assert queued.store.length(hosted.game_id) == len(table.engine.log)


def test_unknown_and_host_tokens_sit_nowhere(queued: Hall) -> None:
    hosted = queued.host("liars-dice", players=2)
    with pytest.raises(Refused, match="unknown token"):
        queued.sit(hosted.invites[0][:-1] + "x")
    with pytest.raises(Refused, match="this is an invite"):
        queued.sit(hosted.invites[0])
    with pytest.raises(Refused, match="host's token"):
        queued.sit(hosted.host_token)
    with pytest.raises(Refused, match="no such game"):
        queued.watch("not-a-game")


def test_a_spectator_by_game_id_sees_only_the_public_view(queued: Hall) -> None:
    hosted = queued.host("liars-dice", players=2)
    links, players = sit_all(queued, keys(queued, hosted.invites))
    table = queued.watch(hosted.game_id)
    watcher = Inbox()
    spectator = table.join(None, watcher)
    play_out(links, moves=3)
    assert watcher.info.seat is None and watcher.info.table == hosted.game_id
    engine = table.engine
    for update in watcher.updates():
        assert update.prompt is None and update.seat is None
    assert watcher.last.view == engine.view(None)
    assert "dice" not in str(watcher.last.view.get("you", ""))
    for seat in (0, 1):  # each player's secret roll is in its own story, not the watcher's
        secret = [line for line in players[seat].story() if "secret roll" in line]
        assert secret and not set(secret) & set(watcher.story())
    assert not spectator.send(Move(len(engine.log), engine.prompt.choices[0].action))  # type: ignore[union-attr]
    assert "a spectator watches" in watcher.notices(REFUSED)[-1].text


def test_fetch_gives_an_ordinary_save_and_an_unfinished_game_only_to_its_host(
    queued: Hall,
) -> None:
    hosted = queued.host("liars-dice", players=2)
    secrets = keys(queued, hosted.invites)
    links, inboxes = sit_all(queued, secrets)
    play_out(links, moves=3)
    with pytest.raises(Refused, match="only its host"):
        queued.fetch(hosted.game_id, None)
    with pytest.raises(Refused, match="only its host"):
        queued.fetch(hosted.game_id, hosted.invites[0])  # a player would learn the seed
    with pytest.raises(Refused, match="only its host"):
        queued.fetch(hosted.game_id, secrets[0])
    saved = queued.fetch(hosted.game_id, hosted.host_token)
    record = GameRecord.from_json(saved)
    engine = Engine.from_record(
        queued.registry.get("liars-dice").definition,
        record,
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
    )
    assert len(engine.log) == 3 and engine.digest() == record.digest
    table = links[0].table
    assert isinstance(table, ServerTable) and table.abandoned  # its seed is out: nobody plays on
    for inbox in inboxes.values():  # every seat is told, in words, at once
        (ended,) = inbox.notices(ENDED)
        assert ended.text == ENDED_BY_HOST and ended.final
    assert not links[1].send(Move(3, "challenge"))
    assert inboxes[1].notices(REFUSED)[-1].text == ENDED_BY_HOST
    late = Inbox()
    table.join(0, late)  # a seat joining later hears it first thing
    assert late.notices(ENDED) and late.messages.index(late.notices(ENDED)[0]) == 1

    other = queued.host("liars-dice", players=2)
    play_out(sit_all(queued, keys(queued, other.invites))[0])
    finished = GameRecord.from_json(queued.fetch(other.game_id, None))
    assert finished.finished and finished.seats == ["human", "human"]
    with pytest.raises(Refused, match="no such game"):
        queued.fetch("nope", None)


def test_a_finished_game_is_let_go_and_replayed_when_asked_for(queued: Hall) -> None:
    hosted = queued.host("liars-dice", players=2)
    unfinished = queued.host("liars-dice", players=2)
    secrets = keys(queued, hosted.invites)
    links, _ = sit_all(queued, secrets)
    play_out(links)
    assert queued.open_games() == 2
    for link in links.values():  # the last to leave lets it go
        link.table.leave(link)
    queued.release(unfinished.game_id)  # not over: kept
    assert queued.loaded(hosted.game_id) is None and queued.loaded(unfinished.game_id)
    table, _ = queued.sit(secrets[0])  # replayed from the store
    assert table.engine.over and queued.open_games() == 2


def test_a_finished_game_leaves_memory_and_answers_joins_from_the_store_without_a_replay(
    queued: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36: finished games stayed in memory (about 845 KiB each for La
    Révolution), and a former player's join replayed the game each time."""
    from tabletop.adapters.server.hall import StoredLink

    hosted = queued.host("liars-dice", players=2)
    secrets = keys(queued, hosted.invites)
    links, inboxes = sit_all(queued, secrets)
    play_out(links)
    table = links[0].table
    assert table.engine.over
    finals = {seat: inboxes[seat].last for seat in (0, 1)}
    for link in links.values():
        link.table.leave(link)
    queued.workers.drain()  # type: ignore[attr-defined]
    assert queued.loaded(hosted.game_id) is None  # its answers are in the store
    replays: list[str] = []

    def opened(game_id: str) -> Any:  # opening the game would replay it
        replays.append(game_id)
        raise AssertionError("the finished game was opened again")

    monkeypatch.setattr(queued, "table", opened)
    for seat in (0, 1):
        again = Inbox()
        stored = queued.seat(secrets[seat], again)
        assert isinstance(stored, StoredLink)
        assert again.info.seat == seat and again.info.table == hosted.game_id
        assert again.last.over and again.last.seq == finals[seat].seq
        assert again.last.view == finals[seat].view and again.last.result == finals[seat].result
        assert again.story() == inboxes[seat].story()  # the whole log, as it was told
        assert not stored.send(Move(again.last.seq, "challenge"))
        assert again.notices(REFUSED)[-1].text == "the game is over"
    watcher = Inbox()
    queued.spectate(hosted.game_id, watcher)
    assert watcher.last.over and watcher.last.prompt is None
    assert replays == [] and queued.loaded(hosted.game_id) is None


def test_no_token_or_game_id_begins_with_a_dash() -> None:
    """A token is typed as an argument (tabletop join URL TOKEN): a leading dash would
    read as an option. One in 64 random URL-safe words begins with one."""
    from tabletop.adapters.server.hall import GAME_ID_BYTES, new_token

    words = [new_token() for _ in range(2000)] + [new_token(GAME_ID_BYTES) for _ in range(2000)]
    assert not any(word.startswith("-") for word in words)
    assert len(set(words)) == 4000 and {len(word) for word in words} == {32, 16}


# Undo ---------------------------------------------------------------------------------


def counting_registry() -> GameRegistry:
    """Counter (one seat, no chance, nothing hidden: every count can be taken back)."""
    registry = small_registry()
    registry.games["counter"] = InstalledGame(Counter(), "tests", "tests", "1")
    return registry


def test_undo_at_a_server_table_takes_the_action_back_in_the_store_too(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    hall = make_hall(path, counting_registry())
    hosted = hall.host("counter", players=1)
    secret = bind(hall, hosted.invites[0])
    table, seat = hall.sit(secret)
    inbox = Inbox()
    link = table.join(seat, inbox)
    assert inbox.info.undo
    play_out({0: link}, moves=3)
    assert hall.store.length(hosted.game_id) == 3
    assert link.send(Undo(3))
    assert len(table.engine.log) == 2 and hall.store.length(hosted.game_id) == 2
    assert "took back 1 action" in inbox.notices(UNDONE)[0].text
    assert inbox.last.rewind == 2 and inbox.story()[-1] == "Counter: counts to 2"
    play_out({0: link}, moves=1)  # the game goes on from there, stored as it goes
    digest = table.engine.digest()
    hall.store.close()
    again = make_hall(path, counting_registry())
    table2, _ = again.sit(secret)
    assert table2.engine.digest() == digest and len(table2.engine.log) == 3


def test_an_undo_the_rules_refuse_changes_nothing(queued: Hall) -> None:
    hosted = queued.host("liars-dice", players=2)
    links, inboxes = sit_all(queued, keys(queued, hosted.invites))
    play_out(links, moves=1)
    assert not links[1].send(Undo(1))  # Player 1's decision: not Player 2's to take back
    assert "cannot undo" in inboxes[1].notices(REFUSED)[-1].text
    assert queued.store.length(hosted.game_id) == 1 and len(links[0].table.engine.log) == 1


# The shadow check ------------------------------------------------------------------------


class ViewBumps(Pig):
    """Its view adds a point to the first bank once the game has moved: a bug that
    makes the game reach a digest its moves never reach (issue 22, finding 4)."""

    info = renamed(Pig.info, "mut-pig", "Mutating Pig")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if state.get("turn_total", 0):
            state["banks"][0] += 1
        return super().view(state, seat)


def test_an_action_the_shadow_does_not_reach_is_refused_and_the_game_reloaded(
    tmp_path: Path,
) -> None:
    registry = small_registry()
    registry.games["mut-pig"] = InstalledGame(ViewBumps(), "tests", "tests", "1")
    hall = make_hall(tmp_path / "server.sqlite3", registry)
    hosted = hall.host("mut-pig", players=2)
    links, inboxes = sit_all(hall, keys(hall, hosted.invites))
    table = links[0].table
    kept = 0
    for _ in range(20):  # roll until a roll leaves a turn total for the view to see
        prompt = table.engine.prompt
        assert prompt is not None
        if not links[prompt.seat].send(Move(len(table.engine.log), "roll")):
            break
        kept += 1
    refusal = inboxes[table.engine.prompt.seat].notices(REFUSED)[-1]  # type: ignore[union-attr]
    assert "could not be kept" in refusal.text
    assert hall.store.length(hosted.game_id) == kept == len(table.engine.log)
    stored = hall.store.load(hosted.game_id)
    assert stored is not None
    engine = Engine.from_record(
        ViewBumps(), stored.record, rng_factory=chance.rng_factory, dice_factory=chance.dice_factory
    )
    assert engine.digest() == stored.record.digest  # what is stored still loads


# Bot games and their limits ----------------------------------------------------------


def test_games_nobody_plays_are_hosted_within_the_limits(tmp_path: Path) -> None:
    hall = make_hall(tmp_path / "s.sqlite3", limits=Limits(bot_games=2, bot_games_per_client=1))
    bots = ["random", "random"]
    first = hall.host("liars-dice", seats=bots, client="10.0.0.1")
    with pytest.raises(Refused, match="the limit per client"):
        hall.host("liars-dice", seats=bots, client="10.0.0.1")
    hall.host("liars-dice", seats=bots, client="10.0.0.2")
    with pytest.raises(Refused, match="its limit"):
        hall.host("liars-dice", seats=bots, client="10.0.0.3")
    hall.host("liars-dice", seats=["human", "random"], client="10.0.0.1")  # a person plays
    assert hall.bot_games() == 2 and hall.bot_games("10.0.0.1") == 1
    workers = hall.workers
    assert isinstance(workers, QueuedWorkers)
    # bot games think on a lane of their own, never in front of a person's bots
    assert {lane for lane, _, _ in workers.queue} == {BOT_GAMES}
    table = hall.loaded(first.game_id)
    assert table is not None
    while not table.finished:  # it plays at the pace the workers allow
        assert workers.drain(1) == 1
    workers.drain()
    assert hall.loaded(first.game_id) is None  # over and unwatched: it left memory
    assert hall.bot_games() <= 1  # the other may have ended too
    hall.host("liars-dice", seats=bots, client="10.0.0.1")  # room again
    assert hall.store.length(first.game_id) == len(table.engine.log)


def test_a_client_hosts_within_its_games_per_hour(tmp_path: Path) -> None:
    """Each game hosted is kept in the store for good: one address may not fill it."""
    hall = make_hall(tmp_path / "s.sqlite3", limits=Limits(hosts_per_client_hour=2))
    now = [1000.0]
    hall.clock = lambda: now[0]
    for _ in range(2):
        hall.host("liars-dice", players=2, client="10.0.0.1")
    with pytest.raises(Refused, match="hosted 2 games on this server in the last hour"):
        hall.host("liars-dice", players=2, client="10.0.0.1")
    hall.host("liars-dice", players=2, client="10.0.0.2")  # another client: its own count
    now[0] += 3601  # an hour later
    hall.host("liars-dice", players=2, client="10.0.0.1")
    store = hall.store
    assert isinstance(store, SqliteGameStore) and store.count() == 4


def test_a_game_nobody_is_at_leaves_memory_and_comes_back_from_the_store(
    tmp_path: Path,
) -> None:
    hall = make_hall(tmp_path / "s.sqlite3", limits=Limits(idle_game_seconds=60))
    now = [1000.0]
    hall.clock = lambda: now[0]
    hosted = hall.host("liars-dice", players=2)
    secrets = keys(hall, hosted.invites)
    links, _ = sit_all(hall, secrets)
    play_out(links, moves=2)
    hall.tick()
    now[0] += 120
    hall.tick()  # people sit at it: it stays
    assert hall.loaded(hosted.game_id) is not None
    for link in links.values():
        link.table.leave(link)
    hall.tick()  # nobody is at it from now on
    now[0] += 59
    hall.tick()
    assert hall.loaded(hosted.game_id) is not None  # not yet
    now[0] += 2
    hall.tick()
    assert hall.loaded(hosted.game_id) is None  # gone from memory, kept in the store
    table, seat = hall.sit(secrets[0])  # replayed from the store where it stood
    assert seat == 0 and len(table.engine.log) == 2 and not table.engine.over


def test_the_bots_of_a_restored_game_play_on(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", seats=["random", "random"])
    assert isinstance(hall.workers, QueuedWorkers)
    hall.workers.drain(2)  # two moves (no game of Liar's Dice ends in fewer than four)
    hall.store.close()
    again = make_hall(path)  # a restart: the game resumes when someone watches it
    table = again.watch(hosted.game_id)
    assert len(table.engine.log) == 2 and again.bot_games() == 1
    assert isinstance(again.workers, QueuedWorkers)
    again.workers.drain()
    assert table.engine.over and again.store.length(hosted.game_id) == len(table.engine.log)


def test_a_random_bot_game_on_the_server_is_the_same_as_in_one_session(queued: Hall) -> None:
    """Bots on workers, through the table: the same moves ``bot_move`` makes anywhere."""
    from tabletop.framework.session import GameSession

    hosted = queued.host("liars-dice", seats=["random", "random"])
    assert isinstance(queued.workers, QueuedWorkers)
    queued.workers.drain()
    stored = queued.store.load(hosted.game_id)
    assert stored is not None and stored.record.finished
    session = GameSession.resume(
        LiarsDice(),
        GameRecord("liars-dice", stored.record.seed, 2, {}, [], seats=["random", "random"]),
        save_id=None,
        bot_factories={"random": lambda game: RandomBot()},
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
    )
    session.run()
    assert [(e.seat, e.action) for e in session.engine.log] == stored.record.actions


def test_a_join_after_a_restart_leaves_the_bots_catching_up_to_the_workers(
    tmp_path: Path,
) -> None:
    """The bots of a reopened game think on the workers, after the join returned: a
    join never waits for them (it froze a whole server for 5.3 s before issue 35)."""
    path = tmp_path / "s.sqlite3"
    hall = make_hall(path)
    hosted = hall.host("liars-dice", seats=["human", "random", "random"])
    secrets = keys(hall, hosted.invites)
    links, _ = sit_all(hall, secrets)
    play_out(links, moves=1)  # the person moves; the server is killed before its bots do
    hall.store.close()
    again = make_hall(path)
    inbox = Inbox()
    link = again.seat(secrets[0], inbox)
    assert isinstance(link, SeatLink)
    workers = again.workers
    assert isinstance(workers, QueuedWorkers)
    assert len(link.table.engine.log) == 1 and inbox.last.seq == 1  # joined, told, at once
    assert [lane for lane, _, _ in workers.queue] == [Workers.BOTS]  # the bot: on a worker
    workers.drain()
    assert inbox.last.prompt is not None and len(link.table.engine.log) > 1  # bots moved
