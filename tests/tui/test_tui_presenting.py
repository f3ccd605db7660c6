"""The words and trees the screens show, without running the app."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

from tabletop.adapters.tui.presenting import (
    BOT_SPEEDS,
    event_text,
    next_bot_speed,
    render_view,
    save_row,
    speed_name,
)
from tabletop.framework import Event, SaveInfo

SEATS = ("Red", "Blue")


def plain(renderable: RenderableType) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_view_tree_names_seats_and_marks_hidden_values() -> None:
    text = plain(
        render_view(
            {
                "turn_total": 4,
                "active": 1,
                "banks": [12, None],
                "hand": ["Thiers", "Ferry"],
                "track": {"momentum": 2, "open": True},
                "spaces": [{"name": "Montmartre", "cubes": [1, 0]}],
                "discard": [],
            },
            SEATS,
            viewer=0,
            title="Game",
        )
    )
    assert "Turn total: 4" in text
    assert "Active: Blue" in text
    assert "Red (you): 12" in text and "Blue: —" in text
    assert "Hand: Thiers, Ferry" in text
    assert "Momentum: 2" in text and "Open: yes" in text
    assert "Montmartre" in text and "Red (you): 1" in text
    assert "Discard: none" in text


def test_events_say_who_show_dice_and_mark_private_ones() -> None:
    roll = Event("dice", "rolled 3, 6", {"faces": [3, 6], "sides": 6, "seat": 1})
    assert plain(event_text(roll, SEATS)).strip() == "Blue ⚂ ⚅ rolled 3, 6"
    d20 = Event("dice", "rolled 17", {"faces": [17], "sides": 20, "seat": 0})
    assert "[17]" in plain(event_text(d20, SEATS))
    secret = Event("draw", "draws Thiers", {"seat": 0}, frozenset({0}))
    assert "(private)" in plain(event_text(secret, SEATS))


def test_bot_speed_cycles_from_any_start() -> None:
    names = []
    delay = 0.0
    for _ in range(len(BOT_SPEEDS) + 1):
        name, delay = next_bot_speed(delay)
        names.append(name)
    assert names == ["normal", "slow", "fast", "normal"]
    assert speed_name(0) == "instant"


def test_unreadable_save_row_shows_its_error() -> None:
    info = SaveInfo("x", "?", "2026-01-02T10:30:00Z", 0, (), "", 0, False, error="x.json: bad")
    assert save_row(info, {}) == ("x", "unreadable", "2026-01-02 10:30", "x.json: bad", "")
    done = SaveInfo("y", "pig", "2026-01-02T10:30:00Z", 2, ("human", "random"), "Turn 9", 30,
                    True)
    assert save_row(done, {"pig": "Pig"}) == (
        "y", "Pig", "2026-01-02 10:30", "finished (Turn 9)", "human, random"
    )
