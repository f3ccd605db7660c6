"""Scoped reveals, visibility and public decisions (issue 26): the leak checks exempt
only what an action reveals, to whom, and keep checking everything else; a draw may be
private or hidden from some seats; a decision may be public. Hidden Cards
(``tests/hiddencards.py``) is the game the checks were not written against."""

from __future__ import annotations

from typing import Any

import pytest
from hiddencards import (
    BlindCards,
    HandDrawnCards,
    HiddenCards,
    KeepsCards,
    OpenHandCards,
    PeekCards,
    PublicCards,
    SortedCards,
    TellingLabelCards,
    UntoldDrawCards,
    WhisperCards,
)

from tabletop.framework import Context, GameDefinition
from tabletop.framework.chance import Pcg32, SeededDice, dice_factory, rng_factory
from tabletop.framework.fuzz import FuzzReport, fuzz
from tabletop.framework.leaks import Leak, LeakChecker, first_difference
from tabletop.framework.testing import GameConformance, conformance_kit, new_engine


class TestHiddenCardsConformance(GameConformance):
    """The correct game passes the whole kit: private draws need no reveal."""

    game = HiddenCards()
    fuzz_games = 12


def _fuzz(game: GameDefinition, games: int = 12) -> FuzzReport:
    return fuzz(game, games=games, seed=5, rng_factory=rng_factory, dice_factory=dice_factory)


def _kit_failure(game: GameDefinition) -> str:
    with pytest.raises(AssertionError, match="a leak") as failure:
        conformance_kit(game, seeds=(1, 2, 3)).test_nothing_a_seat_receives_leaks()
    return str(failure.value)


# The blind spot of the all-or-nothing reveal --------------------------------------------


def test_a_show_that_names_the_other_hidden_card_fails_fuzz() -> None:
    report = _fuzz(KeepsCards())
    assert report.errors >= 10, [f.reason for f in report.failures]  # a few games end fast
    reasons = [f.reason for f in report.failures]
    assert all("leak" in r and "event 'keep'" in r and "'show:" in r for r in reasons), reasons


def test_a_show_that_names_the_other_hidden_card_fails_the_kit() -> None:
    message = _kit_failure(KeepsCards())
    assert "through its events" in message and "event 'keep' ('keeps " in message


@pytest.mark.parametrize(
    "game", [HiddenCards(), HandDrawnCards(), BlindCards(), PublicCards(), SortedCards()]
)
def test_the_games_written_correctly_pass_fuzz_and_the_kit(game: GameDefinition) -> None:
    report = _fuzz(game)
    assert report.errors == 0, [f.reason for f in report.failures]
    assert report.completed == 12
    conformance_kit(game, seeds=(1, 2, 3)).test_nothing_a_seat_receives_leaks()


def test_a_bare_reveal_does_not_cover_a_public_event() -> None:
    """The older idiom (a private event and ``reveal()``) still covers the private
    event; a public event of the same action naming a hidden card fails."""
    report = _fuzz(PeekCards())
    assert report.errors >= 10  # the games that never draw have nothing to catch
    assert all("event 'peek'" in f.reason for f in report.failures)


# Private draws --------------------------------------------------------------------------


def test_a_private_draw_is_known_to_its_seat_without_a_reveal() -> None:
    engine = new_engine(HiddenCards(), seed=3)
    engine.act(0, "draw")
    drawn = engine.state["hands"][0][-1]
    mine = [e.text for e in engine.events_for(0)[-2:]]
    theirs = [e.text for e in engine.events_for(1)[-1:]]
    assert mine == ["drew 1 in secret (draw)", f"secret draw: {drawn} (draw)"]
    assert theirs == ["drew 1 in secret (draw)"]
    assert not engine.can_undo()  # chance: a barrier all the same


def test_a_private_event_told_without_a_reveal_names_no_seats_advice() -> None:
    """The event already has seats containing the observer: the message says so and
    does not tell the author to add ``seats=`` (the Coup author's D1)."""
    message = _kit_failure(UntoldDrawCards())
    assert "event 'draw' ('you draw " in message
    assert "already private to seats" in message and "mark the event seats=" not in message


def test_a_private_result_hidden_from_its_seats_view_names_no_seats_advice() -> None:
    report = _fuzz(WhisperCards(), games=6)
    assert report.errors >= 5, [f.reason for f in report.failures]
    for failure in report.failures:
        assert "event 'whisper'" in failure.reason and "random draw" in failure.reason
        assert "already private to seats" in failure.reason
        assert "(private chance)" not in failure.reason


# Hidden from the drawer -----------------------------------------------------------------


def test_a_draw_hidden_from_the_drawer_reads_right_for_everyone() -> None:
    engine = new_engine(BlindCards(), seed=3, players=3)
    before = len(engine.history)
    engine.act(0, "draw")
    [card] = engine.state["blind"][0]
    new = [event for _, event in engine.history[before:]]
    drawer = [engine.event_line(e) for e in new if e.visible_to(0)]
    other = [engine.event_line(e) for e in new if e.visible_to(2)]
    assert drawer == ["Player 1: drew a card (hidden from you) (draw)"]
    assert other == [f"Player 1: drew {card} (draw)"]
    assert not any("secret" in line or "private" in line for line in drawer + other)
    assert engine.view(0)["blind"][0] == 1 and engine.view(1)["blind"][0] == [card]


def test_hidden_from_and_seats_together_are_refused_before_any_draw() -> None:
    rng = Pcg32(1)
    ctx = Context(rng, SeededDice(rng), actor=0, players=3)
    bag = ["a", "b"]
    with pytest.raises(ValueError, match="not both"):
        ctx.draw(bag, seats=[1], hidden_from=[0])
    assert bag == ["a", "b"] and not ctx.events and not ctx.barrier


def test_a_context_without_a_player_count_shows_a_hidden_from_draw_to_nobody() -> None:
    """Bots' playouts make contexts without a player count: never too many seats."""
    rng = Pcg32(1)
    ctx = Context(rng, SeededDice(rng), actor=0)
    ctx.roll(2, hidden_from=[0])
    assert [e.seats for e in ctx.events] == [frozenset(), frozenset({0})]


# Scoped reveals in the context ----------------------------------------------------------


def test_reveals_record_what_became_known_to_whom() -> None:
    rng = Pcg32(1)
    ctx = Context(rng, SeededDice(rng), actor=0, players=3)
    ctx.emit("note", "public note")
    ctx.reveal("shows Duke to seat 1", seats=[1], card="Duke")
    ctx.draw(["x", "y"], 1, seats=[2])
    assert ctx.reveals == [(1, frozenset({1})), (3, frozenset({2}))]
    assert [ctx.revealed_to(s) for s in (0, 1, 2, None)] == [False, True, True, False]
    assert ctx.events[1].seats == frozenset({1}) and ctx.events[1].kind == "reveal"
    assert ctx.barrier and ctx.revealed


def test_a_reveal_without_words_still_marks_a_barrier_and_its_audience() -> None:
    rng = Pcg32(1)
    ctx = Context(rng, SeededDice(rng), actor=0)
    ctx.reveal(seats=[2])
    assert ctx.barrier and ctx.revealed and not ctx.events
    assert ctx.reveals == [(None, frozenset({2}))] and ctx.revealed_to(2)
    assert not ctx.revealed_to(0)


def test_shuffle_is_a_public_barrier_that_shows_no_order() -> None:
    rng = Pcg32(4)
    ctx = Context(rng, SeededDice(rng), actor=1)
    deck = list(range(10))
    ctx.shuffle(deck, reason="new round")
    assert sorted(deck) == list(range(10)) and deck != list(range(10))
    [event] = ctx.events
    assert (event.kind, event.text, event.seats) == ("shuffle", "shuffled (new round)", None)
    assert event.data == {"count": 10, "reason": "new round"} and ctx.barrier


# Public decisions -----------------------------------------------------------------------


def test_a_public_decision_logs_its_label_to_the_other_seats() -> None:
    for game, line in ((PublicCards(), "Player 1 chose: Draw a card"), (HiddenCards(), None)):
        engine = new_engine(game, seed=3)
        engine.act(0, "draw")
        told = [story.text for story in engine.story(1) if story.event is None]
        assert told == [line or "Player 1 decided."]
        assert [story.text for story in engine.story(None) if story.event is None] == told


def test_a_public_choice_whose_label_names_a_hidden_card_fails() -> None:
    report = _fuzz(TellingLabelCards(), games=6)
    assert report.errors == 6
    assert all("through the choice line" in f.reason for f in report.failures)
    assert "'draw' by seat" in report.failures[0].reason
    message = _kit_failure(TellingLabelCards())
    assert "public decision whose words read 'Draw a card (holding " in message


# Messages name the field ----------------------------------------------------------------


def test_a_view_leak_names_the_field_path() -> None:
    checker = LeakChecker(
        OpenHandCards(), players=2, rng_factory=rng_factory, dice_factory=dice_factory
    )
    engine = new_engine(OpenHandCards(), seed=2)
    with pytest.raises(Leak, match=r"seat \d, through its view: .* at field hands\[\d\]\[\d\] \("):
        checker.check_position(engine.state)
    with pytest.raises(
        AssertionError, match=r"seat \d, through its view: .* field hands\[\d\]\[\d\] \("
    ):
        conformance_kit(OpenHandCards(), seeds=(1,)).test_views_hide_hidden_information()


def test_first_difference_finds_the_first_differing_key_path() -> None:
    real = {"hands": [["Duke"], ["Captain", "Duke"]], "seats": {"2": {"coins": 3}}}
    assert first_difference(real, real) is None
    other = {"hands": [["Duke"], ["Captain", "Contessa"]], "seats": {"2": {"coins": 3}}}
    assert first_difference(real, other) == ("hands[1][1]", "Duke", "Contessa")
    other = {"hands": real["hands"], "seats": {"2": {"coins": 4}}}
    assert first_difference(real, other) == ("seats.2.coins", 3, 4)
    assert first_difference([1, 2], [1]) == ("(top) (length)", 2, 1)


# The author guide's snippet ---------------------------------------------------------------


def test_the_guides_visibility_snippet_reads_as_it_says() -> None:
    from test_eco_tutorial import DOC, run_units  # the guide's units, put together

    unit = run_units(DOC.read_text())["visibility"]
    rng = Pcg32(2)
    ctx = Context(rng, SeededDice(rng), actor=1, players=3)
    state: dict[str, list[Any]] = {"deck": ["Red 3", "Blue 1"], "hands": [[], [], []]}
    unit["draw_for_the_others"](state, 1, ctx)
    [card] = state["hands"][1]
    assert [(e.text, e.seats) for e in ctx.events] == [
        (f"drew {card}", frozenset({0, 2})),
        ("drew a card (hidden from you)", frozenset({1})),
    ]
    prompt = unit["hint_prompt"](1, ["red", "blue"])
    assert prompt.public and [c.label for c in prompt.choices] == ["Hint red", "Hint blue"]
