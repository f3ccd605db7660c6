"""The seat's line to a server (issue 35): ``RemoteConnection`` is a ``SeatConnection``
that says when the server is gone and when it is back, reconnects by itself telling the
server what it has seen, and refuses (in words, never silently) a request sent while
the server is unreachable; a spectator's line watches a game to its end."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from liars import LiarsDice
from serverhelp import ServerThread, make_hall

from tabletop.adapters.server.client import (
    AGAIN,
    GONE,
    NOT_SENT,
    RemoteConnection,
    bot_decider,
    gone,
    play_seat,
    request,
)
from tabletop.adapters.server.hall import OPENING
from tabletop.adapters.server.server import Server
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework.bots import RandomBot
from tabletop.framework.ports import Busy, Workers
from tabletop.framework.seats import (
    BACK,
    LOST,
    REFUSED,
    Move,
    Notice,
    SeatMessage,
    SeatUpdate,
    TableInfo,
)

#: What a client that presents an unknown token (with the secret it would bind an
#: invite to) is told.
UNKNOWN = (
    "unknown token, or an invite already used (an invite works once: the seat belongs to "
    "whoever joined with it first)"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("waited in vain")


def test_a_request_sent_while_the_server_is_gone_is_refused_in_words(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "server.sqlite3"
    workers = ThreadWorkers()
    first = ServerThread(Server(make_hall(db, workers=workers)), port=port)

    async def main() -> list[SeatMessage]:
        hosted = await request(first.url, {"type": "host", "game": "liars-dice", "players": 2})
        told: list[SeatMessage] = []
        line = RemoteConnection(first.url, token=hosted["invites"]["0"])
        line.open(told.append)

        def updates() -> list[SeatUpdate]:
            return [m for m in told if isinstance(m, SeatUpdate)]

        def notices(topic: str) -> list[Notice]:
            return [m for m in told if isinstance(m, Notice) and m.topic == topic]

        await until(lambda: bool(updates()) and line.connected)
        prompt = updates()[-1].prompt
        assert prompt is not None and isinstance(line.info, TableInfo)
        await asyncio.to_thread(first.__exit__)  # the server goes away (this loop answers)
        await until(lambda: bool(notices(LOST)))
        assert not line.connected and not notices(LOST)[0].final
        line.send(Move(0, prompt.choices[0].action))  # during the outage
        await until(lambda: bool(notices(REFUSED)))
        (refused,) = notices(REFUSED)
        assert refused.text == NOT_SENT and refused.seq == 0
        again = ServerThread(Server(make_hall(db, workers=workers)), port=port)
        with again:  # back on the same address and database: a restart
            await until(lambda: bool(notices(BACK)))
            await until(lambda: line.connected and len(updates()) >= 2)
            assert len([m for m in told if isinstance(m, TableInfo)]) == 1  # not again
            resumed = updates()[-1]  # the whole story again (it had seen no action), so
            assert resumed.seq == 0 and resumed.rewind == -1  # it forgets the old first
            assert [line.text for line in resumed.log] == [line.text for line in updates()[0].log]
            line.send(Move(0, prompt.choices[0].action))  # the choice, sent again: kept
            await until(lambda: updates()[-1].seq == 1)
            assert len(line.latencies) == 1 and line.reconnects >= 1
            await line.aclose()  # closed with the server, which stops at once
        return told

    first.__enter__()
    try:
        told = asyncio.run(main())
    finally:
        workers.stop()
    kinds = [m.topic if isinstance(m, Notice) else type(m).__name__ for m in told]
    assert kinds.index(LOST) < kinds.index(REFUSED) < kinds.index(BACK)


def test_a_server_that_never_answers_is_given_up_in_words(tmp_path: Path) -> None:
    async def main() -> list[SeatMessage]:
        told: list[SeatMessage] = []
        line = RemoteConnection(f"ws://127.0.0.1:{free_port()}", token="t", give_up=0.3)
        line.open(told.append)
        line.send(Move(0, "x"))
        await until(lambda: any(isinstance(m, Notice) and m.final for m in told))
        line.close()
        return told

    told = asyncio.run(main())
    notices = [m for m in told if isinstance(m, Notice)]
    assert notices[0].topic == REFUSED and {n.topic for n in notices[1:]} == {LOST}
    # said at once, then each failed attempt counted, then given up
    assert notices[1].text == GONE and len(notices) >= 4
    assert [n.text for n in notices[2:-1]] == [gone(k) for k in range(1, len(notices) - 2)]
    assert notices[-1].final and notices[-1].text.startswith("Gave up: lost the server")


def test_an_unknown_token_ends_the_line_with_the_server_s_reason(served: ServerThread) -> None:
    async def main() -> list[SeatMessage]:
        told: list[SeatMessage] = []
        line = RemoteConnection(served.url, token="not-a-token")
        line.open(told.append)
        await until(lambda: line.error is not None)
        line.close()
        return told

    told = asyncio.run(main())
    assert told == [Notice(REFUSED, UNKNOWN, final=True)]


def test_a_spectator_s_line_watches_a_game_to_its_end(served: ServerThread) -> None:
    game = LiarsDice()

    async def main() -> tuple[object, object]:
        hosted = await request(
            served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
        )
        watching = asyncio.create_task(
            play_seat(served.url, hosted["game"], bot_decider(game, RandomBot(), 0), watch=True)
        )
        played = await play_seat(
            served.url, hosted["invites"]["0"], bot_decider(game, RandomBot(), 3)
        )
        return played, await asyncio.wait_for(watching, 30)

    played, watched = asyncio.run(main())
    assert watched.over and watched.seq == played.seq  # type: ignore[attr-defined]
    assert watched.info.seat is None and not watched.latencies  # type: ignore[attr-defined]
    assert not any("secret roll" in line.text for line in watched.log)  # type: ignore[attr-defined]
    assert any("secret roll" in line.text for line in played.log)  # type: ignore[attr-defined]


class BusyAtFirst(Workers):
    """The server's workers, with the lane that seats connections full ``refusals``
    times (a thousand seats reconnecting at once after a restart)."""

    def __init__(self, inner: Workers, refusals: int) -> None:
        self.inner, self.refusals = inner, refusals

    def submit(
        self, lane: str, work: Callable[[], Any], done: Callable[[Any, BaseException | None], None]
    ) -> None:
        if lane == OPENING and self.refusals > 0:
            self.refusals -= 1
            raise Busy("the lane is full")
        self.inner.submit(lane, work, done)


def test_a_seat_turned_away_by_a_busy_server_tries_again_by_itself(tmp_path: Path) -> None:
    """Issue 36: a hello the server had no room to seat was told "the server is busy:
    try again in a moment" as a final error, and its client gave up for good (500
    games of the bench joining at once lost seats so). Now it is told to try again,
    and does, counting its attempts."""
    workers = ThreadWorkers()
    hall = make_hall(tmp_path / "server.sqlite3", workers=workers)
    hosted = hall.host("liars-dice", players=2)
    try:
        with ServerThread(Server(hall, workers=BusyAtFirst(workers, 2))) as served:

            async def main() -> list[SeatMessage]:
                told: list[SeatMessage] = []
                line = RemoteConnection(served.url, token=hosted.invites[0])
                line.open(told.append)
                await until(lambda: any(isinstance(m, SeatUpdate) for m in told))
                await line.aclose()
                return told

            told = asyncio.run(main())
    finally:
        workers.stop()
    notices = [m for m in told if isinstance(m, Notice)]
    busy = "the server is busy: try again in a moment"
    assert [n.text for n in notices] == [
        f"{busy}: trying again...",
        f"{busy}: trying again (attempt 1)...",
        AGAIN,
    ]
    assert not any(n.final for n in notices) and isinstance(told[-2], TableInfo)
