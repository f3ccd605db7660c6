"""The words and trees the screens show, without running the app."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from tabletop.adapters.saves import JsonSaveStore
from tabletop.adapters.tui.presenting import (
    BOT_SPEEDS,
    DIE_FACES,
    event_text,
    next_bot_speed,
    render_view,
    save_row,
    speed_name,
    track_bar,
)
from tabletop.app.cli import main
from tabletop.framework import Event, SaveInfo, views
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.games.pig import Pig

SEATS = ("Red", "Blue")


def plain(renderable: RenderableType) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_schema_sections_are_drawn_each_in_its_own_way() -> None:
    text = plain(
        render_view(
            {
                "status": "Round 2, Blue to play",
                "seats": views.seats(SEATS, [{"VP": 3, "Hand": 4}, {"VP": "?"}]),
                "you": {"Objective": "Hold Montmartre", "Hand": ["Thiers", "Ferry"]},
                "tracks": [views.track("Final Crisis", 4, 0, 8), {"name": "Fame", "value": 7}],
                "zones": [views.zone("Pool", ["cube", "cube"]), views.zone("Paris", [])],
                "cards": [views.card("Thiers", "Place 2 cubes.", where="hand")],
                "deck": 17,
            },
            SEATS,
            viewer=0,
            title="Game",
        )
    )
    lines = text.splitlines()
    assert lines[0] == "Round 2, Blue to play"
    header = next(line for line in lines if line.startswith("Seat"))
    assert header.split() == ["Seat", "VP", "Hand"]
    assert next(line for line in lines if "Red" in line).split() == ["Red", "(you)", "3", "4"]
    assert next(line for line in lines if line.startswith("Blue")).split() == ["Blue", "?"]
    assert "─ You ─" in text and "Hand:      Thiers, Ferry" in text
    assert "Final Crisis ████░░░░ 4 (0 to 8)" in text
    assert "Fame         7" in text  # no bounds: no bar
    assert "Pool:  cube, cube" in text and "Paris: empty" in text
    assert "Thiers (hand)" in text and "  Place 2 cubes." in text
    assert "More" in text and "Deck: 17" in text


def test_nothing_is_guessed_from_key_names_or_list_lengths() -> None:
    text = plain(
        render_view(
            {"active": 1, "banks": [12, None], "hand": ["Thiers", "Ferry"], "open": True},
            SEATS,
            viewer=0,
            title="Game",
        )
    )
    assert text.splitlines()[0] == "Game"
    assert "Active: 1" in text  # an int is an int, whatever the key is called
    assert "Banks: 12, —" in text and "Red" not in text  # two entries are not two seats
    assert "Hand: Thiers, Ferry" in text and "Open: yes" in text


def test_a_schema_key_of_the_wrong_shape_is_still_shown_as_a_tree() -> None:
    text = plain(
        render_view(
            {"zones": ["Paris", "Versailles"], "cards": {"12": "Thiers"}, "seats": [1]},
            SEATS,
            viewer=None,
            title="Game",
        )
    )
    assert "Zones: Paris, Versailles" in text
    assert "Cards" in text and "12: Thiers" in text
    assert "Seats: 1" in text


def test_track_bars_fit_and_clamp() -> None:
    assert track_bar(3, 0, 8).plain == "███░░░░░"
    assert len(track_bar(50, 0, 100).plain) == 20  # long tracks are scaled down
    assert track_bar(12, 0, 8).plain == "████████"  # beyond the end: full, not longer
    assert track_bar(1, -3, 3).plain == "████░░"


def pig_engine(seed: int = 3) -> Engine:
    return Engine(
        Pig(),
        seed=seed,
        players=2,
        options=None,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )


def test_events_name_the_seat_they_concern_show_dice_and_mark_private_ones() -> None:
    engine = pig_engine()
    roll = Event("dice", "rolled 3, 6", {"faces": [3, 6], "sides": 6}, actor=1)
    assert plain(event_text(roll, engine)).strip() == "Player 2: ⚂ ⚅ rolled 3, 6"
    d20 = Event("dice", "rolled 17", {"faces": [17], "sides": 20}, actor=0)
    assert "[17]" in plain(event_text(d20, engine))
    # ``about`` wins over the actor; a "seat" in the data means nothing any more.
    loss = Event("loss", "loses a cube", {"seat": 0}, actor=0, about=1)
    assert plain(event_text(loss, engine)).strip() == "Player 2: loses a cube"
    setup = Event("deal", "cards are dealt", {"seat": 1})
    assert plain(event_text(setup, engine)).strip() == "cards are dealt"
    secret = Event("draw", "draws Thiers", {}, frozenset({0}), actor=0)
    assert "(private)" in plain(event_text(secret, engine))


def without_dice(line: str) -> str:
    """A log line less the die faces drawn before a roll's words."""
    for face in DIE_FACES:
        line = line.replace(f"{face} ", "")
    return line.strip()


def test_the_log_and_export_print_the_same_line_for_every_event(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = pig_engine(seed=5)
    while len(engine.log) < 40 and engine.prompt is not None:
        prompt = engine.prompt
        engine.act(prompt.seat, "hold" if engine.state["turn_total"] >= 8 else "roll")
    path = isolated_env / "pig.json"
    JsonSaveStore(isolated_env).save(engine.record(["human", "human"]), "pig")
    assert main(["export", str(path), "--log"]) == 0
    out = capsys.readouterr().out.splitlines()
    exported = [line[6:] for line in out if line[:4].strip().isdigit()]  # "  12  words"
    shown = [
        without_dice(plain(event_text(event, engine)))
        for _, event in engine.history
        if event.visible_to(None)
    ]
    assert len(shown) >= 30 and shown == exported
    assert {line.split(":")[0] for line in shown} == {"Player 1", "Player 2"}


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
    done = SaveInfo("y", "pig", "2026-01-02T10:30:00Z", 2, ("human", "random"), "Turn 9", 30, True)
    assert save_row(done, {"pig": "Pig"}) == (
        "y",
        "Pig",
        "2026-01-02 10:30",
        "finished (Turn 9)",
        "human, random",
    )
