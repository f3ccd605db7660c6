"""The Government's objective and spending in the search bot's hints (issue 27): it
declares the burning revolt it can put down (7.4.3, 6.4.1), tries it with every roll
the upkeep leaves (9.4, 10.2.2.1), and spends nothing that would bankrupt it."""

from __future__ import annotations

from lrf_helpers import engine_at, fresh, hinted_declaration

from tabletop.framework import State
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_government import (
    government_rolls,
    suppress_chance,
    suppress_price,
    suppression_plan,
)
from tabletop.games.la_revolution_francaise.bot_plan import (
    SHARED_SUPPRESSION,
    own_plan,
    shared_plan,
)
from tabletop.games.la_revolution_francaise.bot_treasury import upkeep

GAME = LaRevolutionFrancaise()


def burning(state: State, region: str = "Angers") -> State:
    """``state`` with a revolt in ``region`` and no army there."""
    state["regions"][region]["revolt"] = True
    state["armies"] = [a for a in state["armies"] if a["where"] != region]
    return state


def test_6_4_1_the_government_declares_the_revolt_it_can_put_down() -> None:
    """The Feuillant governs (R.1.2): with a revolt burning in Angers and money to
    spare, the Government's objective is to suppress it, kind then region."""
    state = burning(fresh(4))
    state["gov"]["money"] = upkeep(state) + 3 * suppress_price(state)
    assert suppression_plan(state) == "Angers"
    assert hinted_declaration(state, "gov") == (["kind:suppress"], ["objective:suppress:Angers"])


def test_no_suppression_is_planned_that_the_treasury_cannot_pay() -> None:
    """One roll that would leave less than the regular armies' upkeep would bankrupt
    the Government (9.4, 10.2.2.1): no plan, and no target offered to the search."""
    state = burning(fresh(4))
    state["gov"]["money"] = upkeep(state) + suppress_price(state) - 1
    assert government_rolls(state) == 0
    assert suppression_plan(state) is None
    engine = engine_at(state, [{"kind": "act", "segment": "suppress", "actor": "gov"}])
    prompt = engine.prompt
    assert prompt is not None and "try:Angers" in prompt.actions()
    assert "try:Angers" not in RevolutionHints().candidates(GAME, engine.state, prompt)
    state["gov"]["money"] = upkeep(state) + 2 * suppress_price(state)
    assert government_rolls(state) == 2 and suppression_plan(state) == "Angers"


def test_the_government_tries_its_declared_suppression_with_the_rolls_it_can_spare() -> None:
    hints = RevolutionHints()
    state = burning(fresh(4))
    state["gov"]["money"] = upkeep(state) + 2 * suppress_price(state)
    state["declared"] = {"gov": "suppress:Angers"}
    engine = engine_at(state, [{"kind": "act", "segment": "suppress", "actor": "gov"}])
    prompt = engine.prompt
    assert prompt is not None and len(prompt.actions()) > 1
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["try:Angers"]
    engine.act(prompt.seat, "try:Angers")
    prompt = engine.prompt
    assert prompt is not None
    assert {"rolls:1", "rolls:2", "rolls:3"} <= set(prompt.actions())
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["rolls:2"]


def test_a_current_with_no_plan_shares_its_governments_likely_suppression() -> None:
    """Anyone's suppression meets a suppression objective (6.4), the Government's too:
    the Feuillant, governing and with no plan of its own (no money for a roll),
    declares the revolt its Government will likely put down, and not one its
    Government is unlikely to (a met objective is +1 fame, a missed one -1, 10.3); the
    Gironde, not governing, does not."""
    state = burning(fresh(4))
    state["gov"]["money"] = upkeep(state) + 3 * suppress_price(state)
    state["currents"]["F"]["money"] = 0
    assert own_plan(state, "F") is None
    chance = suppress_chance(state, "Angers", government_rolls(state))
    assert chance >= SHARED_SUPPRESSION
    assert shared_plan(state, "F") == ("suppress", "Angers")
    assert hinted_declaration(state, "F") == (["kind:suppress"], ["objective:suppress:Angers"])
    state["currents"]["G"]["money"] = 0
    assert shared_plan(state, "G") is None

    state["gov"]["fame"] = 1  # one roll on a low fame: now unlikely to succeed
    state["gov"]["money"] = upkeep(state) + suppress_price(state)
    assert suppress_chance(state, "Angers", government_rolls(state)) < SHARED_SUPPRESSION
    assert shared_plan(state, "F") is None
