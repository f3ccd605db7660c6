"""The Feuillant's plan (issue 27): under the Legislative it wins only with the
Marais's VP or more (14.3.1), so a region counts by how it moves that gap."""

from __future__ import annotations

from lrf_helpers import fresh

from tabletop.games.la_revolution_francaise.bot_plan import worth
from tabletop.games.la_revolution_francaise.core import controller


def test_a_marais_region_and_a_neutral_one_move_the_gap_more() -> None:
    """At equal odds a region of the Marais (it loses a VP and a deputy, R.1.6) is worth
    more to the Feuillant than a neutral one (the Marais's deputy for it, R.1.6), and
    that more than another Current's; not to the Royalist, nor outside the
    Legislative (the deputies then follow other formulas, R.2.6)."""
    state = fresh(4)
    assert controller(state, "Lyon") == "M" and controller(state, "Brest") is None
    other = next(r for r in state["regions"] if controller(state, r) == "R" and r != "Paris")
    lyon, brest, theirs = (worth(state, "F", r, 0.5) for r in ("Lyon", "Brest", other))
    assert lyon > brest > theirs == 0.5
    assert worth(state, "R", "Lyon", 0.5) == worth(state, "R", "Brest", 0.5) == 0.5
    state["regime"] = "convention"
    assert worth(state, "F", "Lyon", 0.5) == worth(state, "F", other, 0.5)
