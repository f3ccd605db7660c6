"""A hint for a server seat: the ``hint`` message and the remote screen's ``?`` key.

The server thinks the hint out as the local screen does (``tabletop.adapters.bots.hint``:
the seat's information set only, which ``tests/test_bots_hint.py`` shows never depends
on hidden cards), for the seat whose decision it is, at the current position only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from serverhelp import ServerThread
from textual.widgets import Static
from tui_support import pilot_test
from websockets.sync.client import connect

from tabletop.adapters.bots.hint import prepare
from tabletop.adapters.server.client import request
from tabletop.adapters.server.hall import Hall, Refused
from tabletop.adapters.server.remote_tui import YOUR_TURN, RemoteSeatApp, RemoteSeatScreen
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.widgets import ChoiceList


def test_the_hall_s_hint_is_the_local_hint_of_the_seat_deciding(hall: Hall) -> None:
    hosted = hall.host("liars-dice", seats=["human", "human"])
    table, seat = hall.sit(hosted.tokens[0])
    engine = table.engine
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat
    given = hall.hint(table, seat, len(engine.log))()
    local = prepare(engine, hall.registry.hints_for("liars-dice"))()
    assert given.lines() == local.lines() and given.action == local.action
    assert given.action in prompt.actions() and given.lines()[0].startswith("Suggested: ")


def test_a_hint_is_refused_off_turn_stale_or_after_the_end(hall: Hall) -> None:
    hosted = hall.host("liars-dice", seats=["human", "human"])
    table, _ = hall.sit(hosted.tokens[0])
    other, now = 1, len(table.engine.log)
    with pytest.raises(Refused, match="decision, not"):
        hall.hint(table, other, now)
    with pytest.raises(Refused, match="stale hint"):
        hall.hint(table, 0, now + 1)
    while table.engine.prompt is not None:  # play it out, each seat its last choice
        prompt = table.engine.prompt
        hall.move(table, prompt.seat, len(table.engine.log), prompt.choices[-1].action)
    with pytest.raises(Refused, match="game is over") as refused:
        hall.hint(table, 0, len(table.engine.log))
    assert refused.value.final


def ask(url: str, message: dict[str, Any]) -> dict[str, Any]:
    with connect(url, compression=None) as ws:
        ws.send(json.dumps(message))
        answer: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return answer


def test_the_hint_message_answers_the_seat_and_refuses_others(
    served: ServerThread, hall: Hall
) -> None:
    hosted = hall.host("liars-dice", seats=["human", "human"])
    token = hosted.tokens[0]
    answer = ask(served.url, {"type": "hint", "token": token, "seq": 0})
    assert answer["type"] == "hint" and answer["seq"] == 0
    assert answer["lines"][0].startswith("Suggested: ")
    table, _ = hall.sit(token)
    prompt = table.engine.prompt
    assert prompt is not None and answer["action"] in prompt.actions()
    assert ask(served.url, {"type": "hint", "token": token, "seq": 0}) == answer  # kept
    for message, words in [
        ({"token": hosted.tokens[1], "seq": 0}, "decision, not"),
        ({"token": token, "seq": 5}, "stale hint"),
        ({"token": "x" * 32, "seq": 0}, "unknown token"),
        ({"token": hosted.host_token, "seq": 0}, "host's token"),
    ]:
        refused = ask(served.url, {"type": "hint", **message})
        assert refused["type"] == "refused" and words in refused["reason"], refused
    assert len(table.engine.log) == 0  # nothing moved


@pilot_test
async def test_the_remote_screen_s_question_mark_shows_the_server_s_hint(
    served: ServerThread,
) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
    )
    screen = RemoteSeatScreen(served.url, hosted["tokens"]["0"])
    app = RemoteSeatApp(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if str(app.query_one("#status", Static).render()) == YOUR_TURN:
                break
        assert app.active_bindings["question_mark"].enabled
        await pilot.press("question_mark")
        for _ in range(300):
            await pilot.pause(0.02)
            if isinstance(app.screen, HintScreen):
                break
        assert isinstance(app.screen, HintScreen)
        text = str(app.screen.query_one("#hint-text", Static).render())
        assert text.startswith("Suggested: ") and "from what you can see only" in text
        await pilot.press("escape")
        await pilot.pause()
        choices = app.query_one("#choices", ChoiceList)
        assert choices.prompt is not None and choices.highlighted is not None
        suggested = choices.prompt.choices[choices.highlighted].label
        assert text.splitlines()[0] == f"Suggested: {suggested}"
        assert str(app.query_one("#status", Static).render()) == YOUR_TURN
        await pilot.press("q")
