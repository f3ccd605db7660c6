"""The table and its seat protocol (``framework/table.py``, ``framework/seats.py``).

What a seat's front end receives is only messages: these tests sit seats at tables
(people, spectators, bots on workers) and check what each is told and what each
request does, including the refusals, undo's rewind, a bot's answer that comes after
an undo, hints, faults, and the JSON form every message has on the wire.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from seat_inbox import Inbox
from sessions import BOTS, start_session
from toygames import Counter, Crashy, Exploding, HighCard, OpenHighCard

from tabletop.framework.bots import SearchBot
from tabletop.framework.engine import Engine
from tabletop.framework.errors import IllegalAction
from tabletop.framework.game import Event, GameDefinition, Prompt
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import InformationSet
from tabletop.framework.seats import (
    BOT_FAILED,
    ENDED,
    FAULT,
    REFUSED,
    UNDONE,
    AskHint,
    BadMessage,
    HintAnswer,
    LogLine,
    Move,
    Retry,
    SeatMessage,
    TableInfo,
    Undo,
    message_from_json,
    request_from_json,
    request_to_json,
    seat_update,
)
from tabletop.framework.seats import Cursor as SeatCursor
from tabletop.framework.session import GameSession
from tabletop.framework.table import HURRIED_SECONDS, LocalConnection, QueuedWorkers, Table


def table_of(session: GameSession, **kwargs: Any) -> tuple[Table, QueuedWorkers]:
    workers = QueuedWorkers()
    return Table(session, workers=workers, **kwargs), workers


def test_a_seat_is_told_the_table_then_its_view_prompt_and_log() -> None:
    table, _ = table_of(start_session(HighCard(), ["human", "human"]))
    north, south = Inbox(), Inbox()
    table.join(0, north)
    table.join(1, south)
    info = north.messages[0]
    assert isinstance(info, TableInfo)
    assert (info.game, info.seat, info.seat_names) == ("highcard", 0, ("Seat 0", "Seat 1"))
    assert info.controllers == ("human", "human") and info.hidden_information
    mine, theirs = north.last, south.last
    assert mine.prompt is not None and mine.deciding == 0
    assert theirs.prompt is None and theirs.deciding == 0  # who decides: never a secret
    card = table.engine.state["cards"][0]
    assert mine.view["held"][0] == card and theirs.view["held"][0] is None
    assert f"you hold {card}" in north.story() and f"you hold {card}" not in south.story()


def test_every_update_is_what_seat_update_builds_for_that_seat() -> None:
    """The one builder: a seat's update equals ``seat_update`` at the same position."""
    session = start_session(HighCard(), ["human", "human"])
    table, _ = table_of(session)
    inbox = Inbox()
    link = table.join(1, inbox)
    link.send(Move(0, "tap"))  # not seat 1's decision: refused
    other = table.join(0, Inbox())
    other.send(Move(0, "keep"))
    fresh = seat_update(table.engine, 1, SeatCursor())
    assert inbox.last.view == fresh.view and inbox.last.prompt == fresh.prompt
    assert inbox.story() == [line.text for line in fresh.log]


def test_a_move_is_checked_against_the_position_the_seat_and_the_choices() -> None:
    table, _ = table_of(start_session(HighCard(), ["human", "human"]))
    north, south = Inbox(), Inbox()
    n = table.join(0, north)
    s = table.join(1, south)
    s.send(Move(0, "keep"))
    n.send(Move(5, "keep"))
    n.send(Move(0, "cheat"))
    assert len(table.engine.log) == 0
    refusals = [notice.text for notice in south.notices(REFUSED) + north.notices(REFUSED)]
    assert "Seat 0's decision, not Seat 1's" in refusals[0]
    assert "stale move" in refusals[1] and "'cheat' is not one of your choices" in refusals[2]
    n.send(Move(0, "keep"))
    assert len(table.engine.log) == 1 and south.last.seq == 1 and south.last.deciding == 1


def test_a_spectator_sees_the_public_view_and_cannot_move() -> None:
    table, _ = table_of(start_session(HighCard(), ["human", "human"]))
    watcher = Inbox()
    link = table.join(None, watcher)
    assert watcher.last.view["held"] == [None, None] and watcher.last.prompt is None
    assert not any("you hold" in text for text in watcher.story())
    link.send(Move(0, "keep"))
    assert "spectator" in watcher.notices(REFUSED)[0].text
    assert len(table.engine.log) == 0


def test_bots_think_on_the_workers_and_move_like_any_seat() -> None:
    session = start_session(OpenHighCard(), ["human", "random", "random"])
    table, workers = table_of(session)
    me = Inbox()
    link = table.join(0, me)
    link.send(Move(0, "keep"))
    assert len(table.engine.log) == 1  # the bots have not moved: they think on workers
    assert workers.queue and me.last.deciding == 1
    workers.drain()
    assert table.engine.over and me.last.over and me.last.result is not None
    assert me.last.seed == session.engine.seed  # told once the game is over
    # one update per move: the front end can show each bot move on its own
    seqs = [u.seq for u in me.updates()]
    assert seqs == list(range(len(table.engine.log) + 1))


def test_the_same_game_as_a_session_playing_its_bots_itself() -> None:
    """Bots on workers make exactly the moves ``bot_move`` makes in ``GameSession.run``:
    a table plays the game ``tabletop simulate`` plays for the same seed."""
    direct = start_session(Counter(), ["random"], seed=9)
    direct.run()
    table, workers = table_of(start_session(Counter(), ["random"], seed=9))
    table.start()
    workers.drain()
    assert table.engine.digest() == direct.engine.digest()
    high = start_session(HighCard(), ["random", "random", "random"], seed=4)
    high.run()
    table, workers = table_of(start_session(HighCard(), ["random", "random", "random"], seed=4))
    table.start()
    workers.drain()
    assert [e.action for e in table.engine.log] == [e.action for e in high.engine.log]


def test_an_undo_rewinds_every_seats_log_and_drops_a_stale_bot_answer() -> None:
    session = start_session(OpenHighCard(), ["human", "random", "human"])
    table, workers = table_of(session)
    me, watcher = Inbox(), Inbox()
    link = table.join(0, me)
    table.join(None, watcher)
    link.send(Move(0, "tap"))
    assert me.story()[-2:] == ["You chose: Tap the table", "Seat 0: taps the table"]
    link.send(Move(1, "keep"))  # the bot is now due: its answer waits on the workers
    assert workers.queue
    link.send(Undo(2))
    workers.drain()  # the bot's answer is for position 2, which is gone
    assert len(table.engine.log) == 1
    assert me.last.rewind == 1 and watcher.last.rewind == 1
    assert me.story()[-1] == "Seat 0: taps the table"
    assert "Seat 0 took back 1 action." in [n.text for n in me.notices(UNDONE)]
    assert me.last.deciding == 0 and me.last.prompt is not None


def test_undo_refusals_say_why_and_change_nothing() -> None:
    table, workers = table_of(start_session(HighCard(), ["human", "random"]))
    me = Inbox()
    link = table.join(0, me)
    link.send(Move(0, "tap"))
    link.send(Move(1, "keep"))
    workers.drain()  # the bot answered from its hidden card
    link.send(Undo(me.last.seq))
    refused = me.notices(REFUSED)[-1].text
    assert refused.startswith("cannot undo:") and "another seat's decision" in refused
    watcher = table.join(None, Inbox())
    watcher.send(Undo(0))
    assert table.engine.log and me.last.rewind is None


def test_a_hint_is_thought_on_the_workers_and_told_to_its_seat_only() -> None:
    asked: list[int] = []

    def hinter(engine: Engine) -> Any:
        seq = len(engine.log)
        asked.append(seq)
        return lambda: HintAnswer(seq, "keep", ("Suggested: Keep",))

    table, workers = table_of(start_session(HighCard(), ["human", "human"]), hinter=hinter)
    north, south = Inbox(), Inbox()
    n = table.join(0, north)
    s = table.join(1, south)
    s.send(AskHint(0))  # not South's decision
    n.send(AskHint(0))
    n.send(AskHint(0))  # the same question while it is thought about: one search
    workers.drain()
    n.send(AskHint(0))  # asked again: remembered
    hints = [m for m in north.messages if isinstance(m, HintAnswer)]
    assert asked == [0] and len(hints) == 2 and hints[0].lines == ("Suggested: Keep",)
    assert not any(isinstance(m, HintAnswer) for m in south.messages)
    assert "Seat 0's decision" in south.notices(REFUSED)[0].text


def test_a_fault_is_told_to_every_seat_in_words_and_changes_nothing() -> None:
    table, _ = table_of(start_session(Exploding(), ["human", "human"]))
    north, south = Inbox(), Inbox()
    n = table.join(0, north)
    table.join(1, south)
    n.send(Move(0, "tap"))
    n.send(Move(1, "tap"))  # the game's code raises
    assert len(table.engine.log) == 1 and table.engine.state["taps"] == 1
    for inbox in (north, south):
        words = inbox.notices(FAULT)[0].text
        assert "ZeroDivisionError" in words and "kept as it was" in words
    assert "nothing changed" in north.notices(REFUSED)[0].text


def test_a_failed_bot_is_told_and_retried_on_request() -> None:
    bots = {**BOTS, "crashy": lambda game: Crashy()}
    session = start_session(HighCard(), ["human", "crashy"], bots=bots)
    table, workers = table_of(session)
    me = Inbox()
    link = table.join(0, me)
    link.send(Move(0, "keep"))
    workers.drain()
    failed = me.notices(BOT_FAILED)
    assert len(failed) == 1 and "ValueError" in failed[0].text
    assert "SECRET" not in failed[0].text  # the bot's message quotes a hidden card
    workers.drain()
    assert not workers.queue  # not retried by itself
    link.send(Retry())
    workers.drain()
    assert len(me.notices(BOT_FAILED)) == 2


def test_an_ended_table_refuses_moves_for_good() -> None:
    table, _ = table_of(start_session(HighCard(), ["human", "human"]))
    me = Inbox()
    link = table.join(0, me)
    table.end("the host ended this game")
    link.send(Move(0, "keep"))
    assert me.notices(ENDED)[0].final and me.notices(REFUSED)[0].final
    assert not table.engine.log
    late = Inbox()
    table.join(1, late)  # a seat that comes back is told at once
    assert late.notices(ENDED)


def test_a_seat_that_comes_back_is_told_only_what_it_missed() -> None:
    table, _ = table_of(start_session(OpenHighCard(), ["human", "human"]))
    first = Inbox()
    link = table.join(0, first)
    link.send(Move(0, "tap"))
    table.leave(link)
    again, anew = Inbox(), Inbox()
    table.join(0, again, seen=1)
    table.join(0, anew)
    assert again.last.log == () and again.last.prompt is not None
    assert anew.story() == first.story()
    with pytest.raises(IllegalAction):
        table.join(5, Inbox())


def test_a_local_connection_sends_on_the_moves_lane_in_order() -> None:
    table, workers = table_of(start_session(Counter(), ["human"]))
    received: list[SeatMessage] = []
    connection = LocalConnection(table, 0)
    connection.open(received.append)
    assert isinstance(connection.info, TableInfo)
    connection.send(Move(0, "tick"))
    connection.send(Move(1, "tick"))
    assert len(table.engine.log) == 0  # sent, not yet run
    workers.drain()
    assert len(table.engine.log) == 2
    connection.close()
    connection.send(Move(2, "tick"))
    workers.drain()
    assert len(table.engine.log) == 2


def test_requests_and_messages_have_a_checked_json_form() -> None:
    for request in (Move(3, "keep"), AskHint(2), Undo(4), Retry()):
        assert request_from_json(request_to_json(request)) == request
    for bad, why in (
        ({"type": "move", "seq": 1}, "needs 'action'"),
        ({"type": "move", "seq": True, "action": "x"}, "wrong type"),
        ({"type": "move", "seq": 1, "action": "x" * 500}, "too long"),
        ({"type": "move", "seq": 1, "action": "x", "extra": 1}, "no field 'extra'"),
        ({"type": "teleport"}, "unknown request"),
        ([1, 2], "JSON object"),
    ):
        with pytest.raises(BadMessage, match=why):
            request_from_json(bad)
    with pytest.raises(BadMessage):
        message_from_json({"type": "update", "seq": "x"})
    line = LogLine(2, "Seat 1: swaps a card", Event("swap", "swaps a card", {"n": 1}, [1], 1))
    assert LogLine.from_json(json.loads(json.dumps(line.to_json()))) == line


class Timed(SearchBot):
    """A search bot that notes the time it is given and plays the first choice."""

    def __init__(self) -> None:
        self.given: list[float | None] = []

    def hurried(self, seconds: float) -> SearchBot:
        self.given.append(seconds)
        return self

    def search(
        self,
        game: GameDefinition,
        view: dict[str, Any],
        prompt: Prompt,
        rng: RandomSource,
        information: InformationSet,
    ) -> str:
        return prompt.choices[0].action


def test_a_person_waiting_hurries_the_search_bots_within_the_tables_patience() -> None:
    """With ``patience``, the bots' thinking between a person's move and their next
    decision is held to it: each search bot is given what is left (never less than a
    floor); without a person at the table, or without patience, nobody is hurried."""
    timed = Timed()
    bots = {**BOTS, "timed": lambda game: timed}
    session = start_session(OpenHighCard(), ["human", "timed", "timed"], bots=bots)
    table, workers = table_of(session, patience=1.0)
    link = table.join(0, Inbox())
    table._waiting_since -= 0.4  # the person has waited 0.4 s already
    link.send(Move(0, "keep"))  # the person moves: the wait starts again
    table._waiting_since -= 5.0  # ... and the first bot then thinks for 5 s
    workers.drain()
    first, second = timed.given
    assert first is not None and 0.9 < first <= 1.0  # the whole patience, nearly
    assert second == HURRIED_SECONDS  # the patience is spent: the floor
    alone = Timed()
    nobody = start_session(
        OpenHighCard(), ["timed", "timed"], bots={**BOTS, "timed": lambda game: alone}
    )
    quiet, quiet_workers = table_of(nobody, patience=1.0)
    quiet.start()
    quiet_workers.drain()
    assert alone.given == []  # only bots: nobody waits, nobody is hurried
