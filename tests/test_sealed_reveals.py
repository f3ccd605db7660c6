"""Opening sealed answers says what it tells whom (issue 38): by seat, or anonymously
(the answers shuffled, no owner named), and the game must choose; the reveal is
credited to nobody."""

from __future__ import annotations

import pytest

from tabletop.framework import Context
from tabletop.framework.chance import LoadedDice, Pcg32
from tabletop.framework.decisions import ANONYMOUS, SecretChoices


def _sealed(values: list[str]) -> SecretChoices:
    sealed = SecretChoices(SecretChoices.new("mission", list(range(len(values)))))
    for seat, value in enumerate(values):
        sealed.choose(seat, value, Context(Pcg32(1), LoadedDice([]), actor=seat))
    return sealed


def _ctx(seed: int = 1, actor: int | None = 4) -> Context:
    return Context(Pcg32(seed), LoadedDice([]), actor=actor)


def test_a_reveal_by_seat_names_each_owner_and_is_credited_to_nobody() -> None:
    sealed = _sealed(["success", "fail", "success"])
    ctx = _ctx()
    assert sealed.reveal_by_seat(ctx, names=["A", "B", "C"]) == {
        0: "success",
        1: "fail",
        2: "success",
    }
    (event,) = ctx.events
    assert "B: fail" in event.text
    assert event.concerns is None  # not the last voter's (actor 4): nobody's
    assert ctx.revealed and ctx.reveals == [(0, None)]


def test_an_anonymous_reveal_tells_the_answers_and_no_owner() -> None:
    sealed = _sealed(["success", "fail", "success", "fail"])
    orders = set()
    for seed in range(12):
        data = {**sealed.data, "chosen": list(sealed.data["chosen"])}
        ctx = _ctx(seed)
        answers = SecretChoices(data).reveal_anonymously(ctx, label=str.capitalize)
        (event,) = ctx.events
        assert event.text == "mission revealed without their owners: 2 Fail, 2 Success"
        assert event.concerns is None and event.seats is None
        assert sorted(answers) == ["fail", "fail", "success", "success"]
        assert event.data == {
            "topic": "mission",
            "answers": answers,
            "counts": {"fail": 2, "success": 2},
        }
        assert data["revealed"] == ANONYMOUS and ctx.barrier
        orders.add(tuple(answers))
    assert len(orders) > 1  # shuffled through the game's random source


def test_the_anonymous_reveal_reads_the_same_whoever_gave_which_answer() -> None:
    """The answers are sorted before the shuffle: two worlds that differ only in the
    owners read the same reveal (so the leak checks can compare them)."""
    texts = set()
    for values in (["fail", "success", "success"], ["success", "success", "fail"]):
        ctx = _ctx(7)
        answers = _sealed(values).reveal_anonymously(ctx)
        texts.add((tuple(answers), ctx.events[0].text))
    assert len(texts) == 1


def test_the_old_reveal_still_reveals_by_seat_with_a_warning() -> None:
    sealed = _sealed(["a", "b"])
    with pytest.warns(DeprecationWarning, match="reveal_by_seat.*reveal_anonymously"):
        assert sealed.reveal(_ctx()) == {0: "a", 1: "b"}


def test_resampling_after_an_anonymous_reveal_deals_the_answers_again() -> None:
    """Who gave which answer stays hidden: ``resample`` moves the other seats' answers
    among them, each to a seat that could have given it, and keeps the multiset."""
    sealed = _sealed(["success", "fail", "success", "success"])
    sealed.reveal_anonymously(_ctx())
    can_fail = {1, 2}  # seats 0 and 3 may only play success (loyal)
    failers = set()
    for seed in range(40):
        copy = SecretChoices({**sealed.data, "chosen": list(sealed.data["chosen"])})
        assert copy.resample(
            2, lambda s: ["success", "fail"] if s in can_fail else ["success"], Pcg32(seed)
        )
        chosen = copy.data["chosen"]
        assert sorted(chosen) == ["fail", "success", "success", "success"]
        assert chosen[2] == "success"  # the observing seat's own answer stays
        failers.add(chosen.index("fail"))
    assert failers == {1}  # only seat 1 (not 2, the observer) could have failed


def test_resampling_says_when_no_deal_of_the_answers_fits() -> None:
    sealed = _sealed(["fail", "fail", "success"])
    sealed.reveal_anonymously(_ctx())
    before = list(sealed.data["chosen"])
    assert not sealed.resample(
        2, lambda s: ["success", "fail"] if s == 0 else ["success"], Pcg32(1)
    )
    assert sealed.data["chosen"] == before


def test_the_guides_anonymous_reveal_names_nobody_and_deals_the_cards_again() -> None:
    """The guide's mission cards (docs/writing-a-game.md, section 15) do what it says."""
    from test_eco_tutorial import DOC, run_units

    sealed_unit = run_units(DOC.read_text(encoding="utf-8"))["sealed"]
    cards = _sealed(["success", "fail", "success"])
    state = {"cards": cards.data}
    ctx = _ctx()
    assert sealed_unit["mission_result"](state, ctx) == 1
    assert ctx.events[0].text == "mission revealed without their owners: 1 Fail, 2 Success"
    roles = ["loyal", "spy", "spy"]
    assert sealed_unit["deal_cards_again"](state, 0, roles, _ctx(3))
    assert sorted(cards.data["chosen"]) == ["fail", "success", "success"]
    assert cards.data["chosen"][0] == "success"  # a loyal seat never holds the Fail
    assert not sealed_unit["deal_cards_again"](state, 0, ["loyal"] * 3, _ctx(3))
