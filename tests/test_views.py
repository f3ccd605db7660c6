"""The view schema: helpers build the documented shapes; misuse is named."""

from __future__ import annotations

from typing import Any

from tabletop.framework import views


def test_helpers_build_the_documented_shapes() -> None:
    view: dict[str, Any] = {
        "status": "Round 2",
        "seats": views.seats(["A", "B"], [{"bank": 3}, {"bank": "?"}]),
        "you": {"hand": ["Thiers"]},
        "tracks": [views.track("Momentum", 2, 0, 3)],
        "zones": [views.zone("Bag", counts={"red": 2}), views.zone("Paris", ["cube"])],
        "cards": [views.card("Thiers", "Place two cubes", where="hand")],
    }
    assert views.check_view_schema(view, players=2) is None
    assert view["seats"][1] == {"name": "B", "fields": {"bank": "?"}}
    assert view["zones"][0] == {"name": "Bag", "counts": {"red": 2}}


def test_misuse_is_named() -> None:
    two = views.seats(["A", "B"], [{}, {}])
    assert "one entry per seat (3)" in str(views.check_view_schema({"seats": two}, players=3))
    assert "status" in str(views.check_view_schema({"status": 3}, players=2))
    assert "needs name, value" in str(
        views.check_view_schema({"tracks": [{"name": "VP"}]}, players=2)
    )
    assert "you" in str(views.check_view_schema({"you": ["x"]}, players=2))
    # keys outside the schema are the game's own business
    assert views.check_view_schema({"seat_names": 5, "banks": [1]}, players=2) is None


def test_a_misused_key_is_named_as_reserved() -> None:
    """Issue 38: an author who kept a hand under ``cards`` learns that the key is the
    schema's, and which keys are."""
    problem = str(views.check_view_schema({"cards": {"hand": ["Duke"]}}, players=2))
    assert problem.startswith("view['cards'] must be a list")
    assert "'cards' is one of the view schema's reserved keys" in problem
    assert "status, seats, you, tracks, zones, cards" in problem
