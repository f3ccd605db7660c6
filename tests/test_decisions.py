"""The multi-seat decision helpers: sealed answers, ordered votes, agreement."""

from __future__ import annotations

import pytest

from tabletop.framework import Context
from tabletop.framework.chance import LoadedDice, Pcg32
from tabletop.framework.decisions import Agreement, OrderedVote, ResponseWindow, SecretChoices


def _ctx(faces: list[int] | None = None, actor: int | None = None) -> Context:
    return Context(Pcg32(1), LoadedDice(faces or []), actor=actor)


def test_sealed_answers_are_told_only_to_their_seat_until_revealed() -> None:
    data = SecretChoices.new("objective", [2, 0, 1])
    sealed = SecretChoices(data)
    assert sealed.next_seat == 2
    with pytest.raises(ValueError, match="not the one to answer"):
        sealed.choose(0, "north", _ctx())
    ctx = _ctx(actor=2)
    assert not sealed.choose(2, "north", ctx)
    assert [e.visible_to(0) for e in ctx.events] == [True, False]
    assert "north" not in ctx.events[0].text and ctx.events[1].seats == frozenset({2})
    assert sealed.view_for(0) == {
        "topic": "objective",
        "answered": [2],
        "waiting_for": 0,
        "yours": None,
    }
    assert sealed.view_for(2)["yours"] == "north"
    sealed.choose(0, "south", _ctx())
    assert sealed.choose(1, "east", _ctx())
    reveal = _ctx()
    assert sealed.reveal_by_seat(reveal, names=["A", "B", "C"]) == {
        2: "north",
        0: "south",
        1: "east",
    }
    assert reveal.revealed and "C: north" in reveal.events[0].text
    assert data["chosen"] == ["north", "south", "east"]  # plain data in the state


def test_reveal_before_everyone_answered_is_a_bug_in_the_game() -> None:
    sealed = SecretChoices(SecretChoices.new("bid", [0, 1]))
    sealed.choose(0, "3", _ctx())
    with pytest.raises(ValueError, match="not every seat"):
        sealed.reveal_by_seat(_ctx())
    with pytest.raises(ValueError, match="not every seat"):
        sealed.reveal_anonymously(_ctx())


def test_resample_replaces_the_others_answers_and_keeps_the_seats_own() -> None:
    sealed = SecretChoices(SecretChoices.new("bid", [0, 1, 2]))
    for seat in (0, 1, 2):
        sealed.choose(seat, "a", _ctx())
    seen = set()
    for seed in range(30):
        copy = SecretChoices({**sealed.data, "chosen": list(sealed.data["chosen"])})
        copy.resample(1, lambda seat: ["a", "b", "c"], Pcg32(seed))
        assert copy.data["chosen"][1] == "a"
        seen.update(copy.data["chosen"][0] + copy.data["chosen"][2])
    assert seen == {"a", "b", "c"}


def test_ordered_votes_are_public_and_cast_in_order() -> None:
    vote = OrderedVote(OrderedVote.new("law", [1, 2, 0]))
    ctx = _ctx()
    with pytest.raises(ValueError, match="not the one to answer"):
        vote.vote(0, "yes", ctx)
    vote.vote(1, "no", ctx)
    vote.vote(2, "yes", ctx)
    assert vote.view_for(0) == {"topic": "law", "votes": {"1": "no", "2": "yes"}, "waiting_for": 0}
    assert vote.vote(0, "yes", ctx)
    assert vote.tally() == {"yes": 2, "no": 1}
    assert all(event.seats is None for event in ctx.events)
    assert [event.concerns for event in ctx.events] == [1, 2, 0]


def test_agreement_without_a_die_off() -> None:
    pact = Agreement(Agreement.new("government", [0, 1]))
    pact.choose(0, "war", _ctx())
    pact.choose(1, "war", _ctx())
    ctx = _ctx()
    assert pact.settle(ctx) == ("war", None)
    assert not any(event.kind == "dice" for event in ctx.events)


def test_agreement_die_off_rolls_again_on_a_tie() -> None:
    pact = Agreement(Agreement.new("government", [0, 1]))
    pact.choose(0, "war", _ctx())
    pact.choose(1, "peace", _ctx())
    ctx = _ctx(faces=[6, 6, 1, 3])
    assert pact.settle(ctx) == ("peace", 1)
    rolls = [event.data["faces"] for event in ctx.events if event.kind == "dice"]
    assert rolls == [[6], [6], [1], [3]]


def test_response_window_asks_in_order_and_the_first_response_closes_it() -> None:
    data = ResponseWindow.new([2, 3, 0], "challenge", passes=("pass", "allow"))
    window = ResponseWindow(data)
    assert window.next_seat == 2
    with pytest.raises(ValueError, match="not the one to answer"):
        window.answer(3, "challenge")
    assert data["passed"] == []  # a refused answer changes nothing
    ctx = _ctx()
    assert window.answer(2, "pass", ctx) is None
    assert window.answer(3, "allow", ctx, label="lets it happen") is None
    assert window.next_seat == 0 and not window.complete
    assert window.answer(0, "challenge", ctx) == 0
    assert window.complete and not window.all_passed
    assert (window.closed_by, window.response, window.passed) == (0, "challenge", [2, 3])
    assert [event.text for event in ctx.events] == [
        "passes (challenge)",
        "lets it happen (challenge)",
        "challenge (challenge)",
    ]
    assert all(event.seats is None for event in ctx.events)  # answers are public
    assert [event.concerns for event in ctx.events] == [2, 3, 0]
    with pytest.raises(ValueError, match="waiting for None"):
        window.answer(0, "pass")
    assert window.view_for(1) == {
        "topic": "challenge",
        "passed": [2, 3],
        "waiting_for": None,
        "closed_by": 0,
        "response": "challenge",
    }


def test_response_window_stops_early_unlike_an_ordered_vote() -> None:
    window = ResponseWindow(ResponseWindow.new([1, 2, 3], "block"))
    assert window.answer(1, "block:duke") == 1
    assert window.next_seat is None  # seats 2 and 3 are never asked
    assert window.passed == []


def test_response_window_runs_out_when_everyone_passes() -> None:
    window = ResponseWindow(ResponseWindow.new([1, 2], "challenge"))
    window.answer(1, "pass")
    assert window.answer(2, "pass") is None
    assert window.complete and window.all_passed
    assert window.closed_by is None and window.response is None


def test_response_window_drops_a_seat_that_left_before_its_turn() -> None:
    window = ResponseWindow(ResponseWindow.new([1, 2, 3]))
    window.answer(1, "pass")
    window.drop(1)  # already asked: stays in the record
    window.drop(2)
    assert window.seats == [1, 3] and window.next_seat == 3
    assert window.answer(3, "pass") is None and window.all_passed


def test_response_window_refuses_a_seat_twice_and_no_way_to_pass() -> None:
    with pytest.raises(ValueError, match="asked twice"):
        ResponseWindow.new([1, 2, 1])
    with pytest.raises(ValueError, match="at least one answer that passes"):
        ResponseWindow.new([1, 2], passes=())


def test_seat_to_ask_is_the_next_seat_and_refuses_a_finished_decision() -> None:
    vote = OrderedVote(OrderedVote.new("law", [2, 0]))
    assert vote.seat_to_ask == 2
    vote.vote(2, "yes", _ctx())
    vote.vote(0, "no", _ctx())
    with pytest.raises(ValueError, match=r"nobody is left to ask \(law\)"):
        _ = vote.seat_to_ask
    window = ResponseWindow(ResponseWindow.new([1, 2]))
    assert window.seat_to_ask == 1
    window.answer(1, "block")
    with pytest.raises(ValueError, match="a finished decision"):
        _ = window.seat_to_ask


def test_response_window_of_parties_asks_a_seat_once_for_each_of_its_parties() -> None:
    data = ResponseWindow.new([1, 0, 1], "coup", passes=["none"], parties=["A", "B", "C"])
    window = ResponseWindow(data)
    assert (window.parties, window.next_party, window.next_seat) == (["A", "B", "C"], "A", 1)
    with pytest.raises(ValueError, match="B is not the party to answer now"):
        window.answer(1, "none", party="B")
    assert data["passed"] == []  # a refused answer changes nothing
    ctx = _ctx()
    assert window.answer(1, "none", ctx, party="A") is None
    assert window.answer(0, "none", ctx) is None  # the party is inferred: B
    assert (window.next_seat, window.next_party) == (1, "C")  # seat 1 again, for C
    assert window.answer(1, "gov", ctx) == 1
    assert (window.closed_by, window.closed_party, window.response) == (1, "C", "gov")
    assert (window.passed, window.passed_parties) == ([1, 0], ["A", "B"])
    assert [event.concerns for event in ctx.events] == [1, 0, 1]
    assert window.view_for(0)["closed_party"] == "C"


def test_response_window_drops_a_party_found_unable_when_it_is_reached() -> None:
    window = ResponseWindow(ResponseWindow.new([2, 2, 3], parties=["A", "B", "C"]))
    window.drop(party="A")
    assert (window.next_party, window.seats, window.parties) == ("B", [2, 3], ["B", "C"])
    window.answer(2, "pass")
    window.drop(party="B")  # already asked: stays in the record
    window.drop(3)  # a seat that leaves takes its parties with it
    assert window.parties == ["B"] and window.all_passed and window.next_party is None


def test_response_window_of_parties_refuses_bad_lists_and_seats_keep_their_shape() -> None:
    with pytest.raises(ValueError, match="one seat per party: 2 seats for 3 parties"):
        ResponseWindow.new([1, 2], parties=["A", "B", "C"])
    with pytest.raises(ValueError, match="a party is asked twice"):
        ResponseWindow.new([1, 2], parties=["A", "A"])
    plain = ResponseWindow.new([1, 2])
    assert "parties" not in plain and "closed_party" not in plain  # old saves' shape
    assert ResponseWindow(plain).next_party is None
