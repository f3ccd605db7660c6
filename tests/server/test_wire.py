"""Raw WebSocket clients against a running server (issues 24 and 35): a client acts only
for its seat, only on the current prompt, in the seat protocol's JSON; a spectator
watches by the game's id; garbage, huge frames, floods and unknown tokens are refused
with a message and change nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from serverhelp import ServerThread
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.protocol import MAX_CLIENT_MESSAGE
from tabletop.adapters.server.server import Server


def ask(ws: ClientConnection, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
    ws.send(message if isinstance(message, str | bytes) else json.dumps(message))
    answer: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return answer


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as connections:
        yield connections


def secret_of(invite: str) -> str:
    """The secret this test's client binds an invite to (one per invite, at least 32
    characters): the same hello sits at the same seat again."""
    return f"secret-of-{invite}"


def sit(stack: ExitStack, url: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection at the invite's seat (closed with ``stack``) and its first update;
    the first such hello binds the seat to ``secret_of(token)``."""
    ws = stack.enter_context(connect(url, compression=None))
    welcome = ask(ws, {"type": "hello", "token": token, "secret": secret_of(token)})
    if welcome["type"] == "bound":
        welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome"
    update: dict[str, Any] = json.loads(ws.recv(timeout=10))
    assert update["type"] == "update"
    return ws, update


def closed_after(ws: ClientConnection) -> int | None:
    """The close code once the server has hung up."""
    with pytest.raises(ConnectionClosed) as caught:
        while True:
            ws.recv(timeout=10)
    return caught.value.rcvd.code if caught.value.rcvd else None


def hosted(url: str, **request: Any) -> dict[str, Any]:
    with connect(url, compression=None) as ws:
        answer = ask(ws, {"type": "host", "game": "liars-dice", **request})
    assert answer["type"] == "hosted", answer
    return answer


def test_a_seat_hears_only_its_seat_and_moves_only_on_its_prompt(
    served: ServerThread, hall: Hall, stack: ExitStack
) -> None:
    game = hosted(served.url, players=2)
    first, mine = sit(stack, served.url, game["invites"]["0"])
    second, theirs = sit(stack, served.url, game["invites"]["1"])
    assert mine["prompt"] is not None and theirs["prompt"] is None
    assert theirs["deciding"] == 0 and (mine["seat"], theirs["seat"]) == (0, 1)
    table, _ = hall.sit(secret_of(game["invites"]["0"]))
    cups = table.engine.state["dice"]
    assert mine["view"]["you"]["dice"] == cups[0] and theirs["view"]["you"]["dice"] == cups[1]
    assert mine["view"] == table.engine.view(0) and theirs["view"] == table.engine.view(1)
    digest = table.engine.digest()
    action = mine["prompt"]["choices"][0]["action"]

    # Player 2 answers Player 1's prompt with its own token: refused, nothing changes.
    answer = ask(second, {"type": "move", "seq": 0, "action": action})
    assert answer == {
        "type": "notice",
        "topic": "refused",
        "text": "it is Player 1's decision, not Player 2's",
        "seq": 0,
        "final": False,
    }
    # A seat is the token's: a message naming another seat is not one of ours.
    forged = ask(second, {"type": "move", "seq": 0, "action": action, "seat": 0})
    assert forged["type"] == "error" and "has no field 'seat'" in forged["reason"]
    assert table.engine.digest() == digest

    # Kept: acknowledged (after the commit), then the update that tells it.
    assert ask(first, {"type": "move", "seq": 0, "action": action}) == {"type": "ack", "seq": 0}
    update = json.loads(first.recv(timeout=10))
    assert update["type"] == "update" and update["seq"] == 1 and update["prompt"] is None
    assert update["log"][0]["text"].startswith("You chose: ")
    # The same move again (a replayed message): stale, refused, nothing changes.
    replay = ask(first, {"type": "move", "seq": 0, "action": action})
    assert replay["topic"] == "refused" and replay["text"].startswith("stale move")
    assert len(table.engine.log) == 1


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("this is not json", "not JSON"),
        (b"\x00\x01binary", "JSON text frames"),
        ("[1, 2, 3]", "a message is a JSON object"),
        ({"type": "shutdown"}, "unknown message type"),
        ({"type": "hello"}, "needs 'token'"),
        ({"type": "hello", "token": 12}, "hello.token has the wrong type"),
        ({"type": "hello", "token": "x" * 500}, "hello.token is too long"),
        ({"type": "hello", "token": "not-a-token"}, "unknown token"),
        ({"type": "watch", "game": "not-a-game"}, "no such game"),
        ({"type": "move", "seq": 0, "action": "bid:1:1"}, "say hello with your seat's token"),
        ({"type": "hint", "token": "x", "seq": 0}, "say hello with your seat's token"),
        pytest.param("[" * 5000 + "]" * 5000, "nested too deeply", id="nested-5000-deep"),
        pytest.param(
            '{"type": "host", "options": ' + "[" * 40 + "]" * 40 + "}",
            "nested too deeply",
            id="nested-40-deep-in-an-object",
        ),
    ],
)
def test_garbage_is_answered_then_disconnected(
    served: ServerThread, message: dict[str, Any] | str | bytes, reason: str
) -> None:
    with connect(served.url, compression=None) as ws:
        answer = ask(ws, message)
        assert answer["type"] == "error" and reason in answer["reason"]
        assert closed_after(ws) == 1008


def test_a_huge_frame_closes_the_connection_and_the_server_serves_on(
    served: ServerThread,
) -> None:
    with connect(served.url, compression=None) as ws:
        ws.send("x" * (MAX_CLIENT_MESSAGE + 1))
        assert closed_after(ws) == 1009  # message too big
    assert hosted(served.url, players=2)["game"]


def test_a_flood_is_cut_off(hall: Hall, stack: ExitStack) -> None:
    with ServerThread(Server(hall, rate=1.0, burst=5)) as served:
        game = hosted(served.url, players=2)
        ws, _ = sit(stack, served.url, game["invites"]["1"])
        answers = [ask(ws, {"type": "move", "seq": 0, "action": "x"}) for _ in range(4)]
        assert all(answer["topic"] == "refused" for answer in answers)
        ws.send(json.dumps({"type": "move", "seq": 0, "action": "x"}))
        last = json.loads(ws.recv(timeout=10))
        assert last == {"type": "error", "reason": "too many messages: slow down"}
        assert closed_after(ws) == 1008


def test_a_connection_that_sits_nowhere_is_closed_once_silent(hall: Hall) -> None:
    """Silent from the start, or after a harmless message (one used to stay open for
    ever after it: about 1,010 of them locked every new player out, issue 36)."""
    with ServerThread(Server(hall, first_message_seconds=0.3)) as served:
        with connect(served.url, compression=None) as ws:
            answer = json.loads(ws.recv(timeout=10))
            assert answer["reason"] == "nothing asked for 0.3 s: say hello or watch"
            assert closed_after(ws) == 1008
        with connect(served.url, compression=None) as ws:
            assert ask(ws, {"type": "fetch", "game": "nope"})["type"] == "refused"
            answer = json.loads(ws.recv(timeout=10))
            assert answer["reason"] == "nothing asked for 0.3 s: say hello or watch"
            assert closed_after(ws) == 1008


def test_a_returning_seat_is_told_only_what_it_missed(
    served: ServerThread, stack: ExitStack
) -> None:
    game = hosted(served.url, players=2)
    first, update = sit(stack, served.url, game["invites"]["0"])
    told = len(update["log"])
    assert (
        ask(first, {"type": "move", "seq": 0, "action": update["prompt"]["choices"][0]["action"]})[
            "type"
        ]
        == "ack"
    )
    moved = json.loads(first.recv(timeout=10))
    first.close()
    with connect(served.url, compression=None) as again:
        hello = {"type": "hello", "token": secret_of(game["invites"]["0"]), "seen": 1}
        assert ask(again, hello)["seat"] == 0
        resumed = json.loads(again.recv(timeout=10))
        assert resumed["seq"] == 1 and resumed["log"] == []
        assert moved["log"] and told


def test_a_client_that_stops_reading_is_cut_off_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from tabletop.adapters.server import server as server_module

    class Stuck:
        """A connection whose send never completes (a client that reads nothing)."""

        def __init__(self) -> None:
            self.aborted = False
            self.transport = self

        async def send(self, text: str) -> None:
            await asyncio.sleep(3600)

        def abort(self) -> None:
            self.aborted = True

    monkeypatch.setattr(server_module, "SEND_SECONDS", 0.05)
    stuck = Stuck()
    sent = asyncio.run(asyncio.wait_for(Server._send(stuck, "update"), 5))  # type: ignore[arg-type]
    assert stuck.aborted and not sent


def test_a_failing_store_is_told_to_the_client_and_the_server_serves_on(
    served: ServerThread, hall: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(hall.store, "create", broken)
    with connect(served.url, compression=None) as ws:
        answer = ask(ws, {"type": "host", "game": "liars-dice", "players": 2})
        assert answer == {"type": "error", "reason": "the server failed on this request (OSError)"}
    monkeypatch.undo()
    assert hosted(served.url, players=2)["game"]


def test_a_spectator_watches_by_the_game_s_id_and_sees_the_public_view_only(
    served: ServerThread, hall: Hall, stack: ExitStack
) -> None:
    game = hosted(served.url, players=2)
    first, mine = sit(stack, served.url, game["invites"]["0"])
    watcher = stack.enter_context(connect(served.url, compression=None))
    welcome = ask(watcher, {"type": "watch", "game": game["game"]})
    assert welcome["type"] == "welcome" and welcome["seat"] is None
    assert welcome["table"] == game["game"] and welcome["game"] == "liars-dice"
    seen = json.loads(watcher.recv(timeout=10))
    table, _ = hall.sit(secret_of(game["invites"]["0"]))
    assert seen["view"] == table.engine.view(None) != mine["view"]
    assert seen["prompt"] is None and not any("secret roll" in line["text"] for line in seen["log"])
    action = mine["prompt"]["choices"][0]["action"]
    assert ask(watcher, {"type": "move", "seq": 0, "action": action})["topic"] == "refused"
    assert ask(first, {"type": "move", "seq": 0, "action": action})["type"] == "ack"
    told = json.loads(watcher.recv(timeout=10))
    assert told["seq"] == 1 and told["log"][0]["text"].startswith("Player 1 ")


def test_a_seat_asks_for_a_hint_and_leaves_on_its_own_connection(
    served: ServerThread, stack: ExitStack
) -> None:
    game = hosted(served.url, players=2)
    first, mine = sit(stack, served.url, game["invites"]["0"])
    hint = ask(first, {"type": "hint", "seq": 0})
    assert hint["type"] == "hint" and hint["seq"] == 0
    assert hint["lines"][0].startswith("Suggested: ")
    assert hint["action"] in [c["action"] for c in mine["prompt"]["choices"]]
    assert ask(first, {"type": "hint", "seq": 0}) == hint  # remembered: asked again, free
    stale = ask(first, {"type": "hint", "seq": 3})
    assert stale["topic"] == "refused" and "stale hint" in stale["text"]
    first.send(json.dumps({"type": "leave"}))
    assert closed_after(first) == 1000


def refusal_of(url: str, address: str) -> str:
    """Why the server refused a connection from ``address`` (its HTTP 503 body)."""
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as caught:
        connect(url, compression=None, source_address=(address, 0))
    assert caught.value.response.status_code == 503
    return (caught.value.response.body or b"").decode()


def test_connections_beyond_the_limits_are_refused_saying_why(
    tmp_path: Path, stack: ExitStack
) -> None:
    """Issue 36: about 1,010 idle connections from one client locked every new player
    out. Now one address holds at most its share, and the server at most its total:
    beyond either, the handshake is answered HTTP 503 with the reason, and a place
    freed is taken again."""
    from serverhelp import make_hall

    from tabletop.adapters.server.limits import Limits
    from tabletop.adapters.workers import ThreadWorkers

    workers = ThreadWorkers()
    hall = make_hall(
        tmp_path / "db", workers=workers, limits=Limits(connections=3, connections_per_client=2)
    )
    try:
        with ServerThread(Server(hall)) as served:

            def hold(address: str) -> ClientConnection:
                ws = connect(served.url, compression=None, source_address=(address, 0))
                return stack.enter_context(ws)

            first = hold("127.0.0.2")
            hold("127.0.0.2")
            said = refusal_of(served.url, "127.0.0.2")
            assert said.startswith("too many connections from your address (at most 2")
            hold("127.0.0.3")  # another address: its own share, the third in all
            assert refusal_of(served.url, "127.0.0.4") == (
                "the server is full: try again in a moment\n"
            )
            first.close()  # a place is free again, for anyone
            deadline = time.monotonic() + 5
            while True:
                try:
                    ws = connect(served.url, compression=None, source_address=("127.0.0.4", 0))
                    break
                except InvalidHandshake:
                    assert time.monotonic() < deadline, "the freed place was not taken again"
                    time.sleep(0.05)
            with ws:
                assert ask(ws, {"type": "fetch", "game": "nope"})["type"] == "refused"
    finally:
        workers.stop()


def test_a_seat_has_one_live_connection_and_the_replaced_one_is_told_why(
    served: ServerThread, stack: ExitStack
) -> None:
    """Issue 36: any number of connections could sit at one seat, and every move built
    an update for each (1,000 of them made moves take 3.4 s). The newest connection
    to a seat is its one live connection; the one it replaces hears why, then closes."""
    from tabletop.adapters.server.server import REPLACED

    game = hosted(served.url, players=2)
    old, update = sit(stack, served.url, game["invites"]["0"])
    new, _ = sit(stack, served.url, game["invites"]["0"])  # the same secret again
    assert json.loads(old.recv(timeout=10)) == {"type": "error", "reason": REPLACED}
    assert closed_after(old) == 1008
    action = update["prompt"]["choices"][0]["action"]
    assert ask(new, {"type": "move", "seq": 0, "action": action}) == {"type": "ack", "seq": 0}
