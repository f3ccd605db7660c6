"""A hint for a server seat: the seat protocol's ``AskHint`` and the remote screen's ``?``.

The server's table thinks the hint out as the local screen does
(``tabletop.adapters.bots.hint``: the seat's information set only, which
``tests/test_bots_hint.py`` shows never depends on hidden cards), on the workers' hint
lane, for the seat whose decision it is, at the current position only. The wire test
(``test_wire.py``) asks it over a seat's connection."""

from __future__ import annotations

from serverhelp import Inbox, ServerThread, play_out
from textual.widgets import Static
from tui_support import pilot_test

from tabletop.adapters.bots.hint import prepare
from tabletop.adapters.server.client import request
from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.remote_tui import YOUR_TURN, RemoteSeatApp, RemoteSeatScreen
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework.ports import Workers
from tabletop.framework.seats import REFUSED, AskHint, HintAnswer
from tabletop.framework.table import QueuedWorkers


def test_the_table_s_hint_is_the_local_hint_of_the_seat_deciding(queued: Hall) -> None:
    hosted = queued.host("liars-dice", seats=["human", "human"])
    table, seat = queued.sit(hosted.tokens[0])
    inbox = Inbox()
    link = table.join(seat, inbox)
    engine = table.engine
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat
    local = prepare(engine, queued.registry.hints_for("liars-dice"))()
    assert link.send(AskHint(0))
    workers = queued.workers
    assert isinstance(workers, QueuedWorkers)
    assert [lane for lane, _, _ in workers.queue] == [Workers.HINTS]  # thought on a worker
    workers.drain()
    (given,) = [m for m in inbox.messages if isinstance(m, HintAnswer)]
    assert list(given.lines) == local.lines() and given.action == local.action
    assert given.action in prompt.actions() and given.lines[0].startswith("Suggested: ")


def test_a_hint_is_refused_off_turn_stale_or_after_the_end(queued: Hall) -> None:
    hosted = queued.host("liars-dice", seats=["human", "human"])
    links, inboxes = {}, {}
    for seat in (0, 1):
        table, _ = queued.sit(hosted.tokens[seat])
        inboxes[seat] = Inbox()
        links[seat] = table.join(seat, inboxes[seat])
    assert not links[1].send(AskHint(0))
    assert not links[0].send(AskHint(1))
    assert "decision, not" in inboxes[1].notices(REFUSED)[-1].text
    assert "stale hint" in inboxes[0].notices(REFUSED)[-1].text
    play_out(links)
    assert not links[0].send(AskHint(len(table.engine.log)))
    refused = inboxes[0].notices(REFUSED)[-1]
    assert "game is over" in refused.text and refused.final


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
