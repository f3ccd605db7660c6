"""Joint objectives in the search bot's hints (issue 27): the first of two allied
Currents in the turn order declares their shared objective (6.4), and the turn order
ranks fame plus regions (6.3), so a Current enters only the pacts it will declare."""

from __future__ import annotations

from lrf_helpers import engine_at, fresh, seat

from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_pacts import leads, order_score

GAME = LaRevolutionFrancaise()


def test_6_3_the_current_with_more_fame_and_regions_declares() -> None:
    state = fresh()
    state["currents"]["F"]["fame"] = 15
    state["currents"]["G"]["fame"] = 3
    assert order_score(state, "F") > order_score(state, "G")
    assert leads(state, "F", "G") and not leads(state, "G", "F")
    state["currents"]["G"]["fame"] = state["currents"]["F"]["fame"]
    for region in state["regions"].values():  # the same regions: a tie, left to dice
        if region["control"] in ("F", "G"):
            region["control"] = None
    assert not leads(state, "F", "G") and not leads(state, "G", "F")


def test_a_pact_is_accepted_only_where_the_answering_current_declares() -> None:
    """The Gironde proposes a pact to the Feuillant: a Feuillant ahead in the turn
    order accepts (it will declare), one behind refuses (its fame would ride on the
    Gironde's choice). The answer is the only one the search weighs."""
    hints = RevolutionHints()
    for f_fame, answer in ((15, "accept"), (2, "refuse")):
        state = fresh()
        state["currents"]["F"]["fame"] = f_fame
        state["currents"]["G"]["fame"] = 8
        offer = {"kind": "offer_answer", "giver": "G", "taker": "F", "amount": 0, "pact": True}
        engine = engine_at(state, [offer])
        prompt = engine.prompt
        assert prompt is not None and prompt.seat == seat(state, "F")
        assert set(prompt.actions()) == {"accept", "refuse"}
        assert list(hints.candidates(GAME, engine.state, prompt)) == [answer]


def test_a_current_proposes_no_pact_that_another_would_declare() -> None:
    """In the negotiations (6.1) the Gironde, far behind in the turn order, may propose
    pacts to everyone; the hints keep only those where it is ahead."""
    hints = RevolutionHints()
    state = fresh()
    state["currents"]["G"]["fame"] = 9
    state["currents"]["F"]["fame"] = 20
    state["currents"]["R"]["fame"] = 1
    g = seat(state, "G")
    engine = engine_at(state, [{"kind": "negotiate", "seats": [g], "index": 0}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g
    offered = [a for a in prompt.actions() if a.startswith("pact:")]
    assert "pact:G:F" in offered and "pact:G:R" in offered
    chosen = list(hints.candidates(GAME, engine.state, prompt))
    assert "pact:G:F" not in chosen
    assert "pact:G:R" in chosen
    assert all(leads(engine.state, *a.split(":")[1:]) for a in chosen if a.startswith("pact:"))
