"""A hint for a server seat: the seat protocol's ``AskHint`` and the remote screen's ``?``.

The server's table thinks the hint out as the local screen does
(``tabletop.adapters.bots.hint``: the seat's information set only, which
``tests/test_bots_hint.py`` shows never depends on hidden cards), on the workers' hint
lane, for the seat whose decision it is, at the current position only. The wire test
(``test_wire.py``) asks it over a seat's connection."""

from __future__ import annotations

from seat_inbox import Inbox
from serverhelp import bind, play_out

from tabletop.adapters.bots.hint import prepare
from tabletop.adapters.server.hall import Hall
from tabletop.framework.ports import Workers
from tabletop.framework.seats import REFUSED, AskHint, HintAnswer
from tabletop.framework.table import QueuedWorkers


def test_the_table_s_hint_is_the_local_hint_of_the_seat_deciding(queued: Hall) -> None:
    hosted = queued.host("liars-dice", seats=["human", "human"])
    table, seat = queued.sit(bind(queued, hosted.invites[0]))
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
        table, _ = queued.sit(bind(queued, hosted.invites[seat]))
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
