"""The Government's treasury in the search bot's hints (issue 27): a law the Government
cannot pay for bankrupts it and costs its Current 5 fame (10.2.2.1), so a Current never
proposes one against its own Government, votes it down, and lets a rival's Government
pay the price."""

from __future__ import annotations

from lrf_helpers import engine_at, fame_vote_task, fresh, law_vote_task, seat

from tabletop.framework import State
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_treasury import ruinous
from tabletop.games.la_revolution_francaise.words import law_price

GAME = LaRevolutionFrancaise()


def test_10_2_2_1_a_law_the_treasury_cannot_pay_is_ruinous_the_trial_never() -> None:
    state = fresh()
    state["gov"]["money"] = 2000
    assert not ruinous(state, "maximum")
    state["gov"]["money"] = 10
    assert ruinous(state, "maximum")
    assert not ruinous(state, "trial")
    state["bankrupt_turn"] = state["turn"]  # one bankruptcy a turn: the next costs nothing
    assert not ruinous(state, "maximum")


def test_9_4_a_law_that_leaves_the_regular_armies_unpaid_is_ruinous() -> None:
    """Paid for, the law would leave less than the regular armies' upkeep (100 each,
    9.4): one of them would be disbanded in the Military Phase, a bankruptcy. A
    treasury already short of the upkeep goes bankrupt anyway: the law adds nothing."""
    state = fresh()
    regulars = sum(1 for a in state["armies"] if a["side"] == "rev" and a["kind"] == "regular")
    assert regulars > 0
    upkeep = 100 * regulars
    state["gov"]["money"] = upkeep + law_price(state, "maximum")
    assert not ruinous(state, "maximum")
    state["gov"]["money"] -= 1
    assert ruinous(state, "maximum")
    state["gov"]["money"] = upkeep - 1
    assert law_price(state, "civic") <= upkeep - 1
    assert not ruinous(state, "civic")


def test_a_current_does_not_propose_a_law_that_would_bankrupt_its_own_government() -> None:
    """The Feuillant governs at the start (R.1.2): with 10 assignats in the treasury it
    proposes no law that costs more; the same laws stay open to the Gironde, whose
    rival would pay."""
    hints = RevolutionHints()
    state = fresh_poor()
    assert state["gov"]["controller"] == "F"
    engine = engine_at(state, [{"kind": "propose", "actor": "F"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "F")
    offered = [a for a in prompt.actions() if a.startswith("law:")]
    assert "law:maximum" in offered  # the rules allow it ...
    chosen = hints.candidates(GAME, engine.state, prompt)
    assert "law:maximum" not in chosen  # ... the hints never make it
    assert all(not ruinous(engine.state, a.split(":", 1)[1]) for a in chosen if a != "done")
    engine = engine_at(fresh_poor(), [{"kind": "propose", "actor": "G"}])
    prompt = engine.prompt
    assert prompt is not None
    assert "law:maximum" in hints.candidates(GAME, engine.state, prompt)


def fresh_poor() -> State:
    """A new game at the Political Phase's laws (7.5.2.3) with 10 assignats in the
    Government's treasury and 500 for each Current."""
    state = fresh()
    state.update(proposed=[], levee_this_turn=False, gov_laws_proposed=0)
    state["gov"]["money"] = 10
    for current in state["currents"].values():
        current["money"] = 500
    return state


def test_a_ruinous_law_is_voted_down_by_the_government_and_through_by_its_rival() -> None:
    """A deputies' vote (R.1.3) on a law the treasury cannot pay: the Feuillant, which
    governs, votes no; the Gironde votes yes. Each is the only choice the search
    weighs."""
    hints = RevolutionHints()
    state = fresh()
    state["gov"]["money"] = 10
    f, g = seat(state, "F"), seat(state, "G")
    engine = engine_at(state, [law_vote_task("maximum", "M", [f, g])])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == f
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["vote:no"]
    engine.act(f, "vote:no")
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["vote:yes"]


def test_a_ruinous_law_gets_the_lowest_modifier_from_the_government() -> None:
    """A fame vote (R.2.3, Convention): the Gironde governs and gives the lowest
    modifier to a law its treasury cannot pay; with money in the treasury it is the
    search's choice again."""
    hints = RevolutionHints()
    state = fresh()
    state["regime"] = "convention"
    state["gov"]["controller"] = "G"
    state["gov"]["money"] = 10
    g, m = seat(state, "G"), seat(state, "MT")
    engine = engine_at(state, [fame_vote_task("maximum", "MT", {g: 1, m: 1})])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["mod:-1"]
    rich = fresh()
    rich["regime"] = "convention"
    rich["gov"]["controller"] = "G"
    rich["gov"]["money"] = 5000
    engine = engine_at(rich, [fame_vote_task("maximum", "MT", {g: 1, m: 1})])
    prompt = engine.prompt
    assert prompt is not None
    assert len(hints.candidates(GAME, engine.state, prompt)) == 3
