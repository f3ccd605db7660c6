"""The words and trees the screens show, without running the app."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from tabletop.adapters.saves import JsonSaveStore
from tabletop.adapters.tui.presenting import (
    BOT_SPEEDS,
    next_bot_speed,
    render_view,
    save_row,
    speed_name,
    track_bar,
)
from tabletop.adapters.tui.widgets.log import story_entry
from tabletop.app.cli import main
from tabletop.framework import HEADING, NOBODY, Event, views
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine, StoryLine
from tabletop.framework.ports import SaveInfo
from tabletop.games.pig import Pig

SEATS = ("Red", "Blue")


def plain(renderable: RenderableType) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system=None).print(renderable)
    return buffer.getvalue()


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


def test_log_entries_number_choices_and_mark_private_events_and_headings() -> None:
    """The log's words are the engine's (``Engine.story``): one numbered line per
    action, the events under it naming the seat they concern."""
    engine = pig_engine()
    engine.act(0, "roll")
    story = list(engine.story(0))
    entries = [story_entry(line) for line in story]
    assert entries[0].number == 1 and entries[0].plain == "You chose: Roll"
    assert entries[1].number is None and entries[1].plain.startswith("Player 1: rolled")
    other = [story_entry(line).plain for line in engine.story(1)]
    assert other[0] == "Player 1 chose: Roll"  # Pig's banks are open by default
    secret = story_entry(
        StoryLine(3, "Player 1: draws Thiers", Event("draw", "draws Thiers", seats=frozenset({0})))
    )
    assert secret.private and secret.plain.endswith("(private)")
    heading = story_entry(StoryLine(3, "Round 2", Event(HEADING, "Round 2", about=NOBODY)))
    assert heading.heading and heading.number is None and heading.plain == "Round 2"


def test_the_log_and_export_tell_the_same_story(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line of ``tabletop export`` is an entry of a spectator's log, in order."""
    engine = pig_engine(seed=5)
    while len(engine.log) < 40 and engine.prompt is not None:
        prompt = engine.prompt
        engine.act(prompt.seat, "hold" if engine.state["turn_total"] >= 8 else "roll")
    path = isolated_env / "pig.json"
    JsonSaveStore(isolated_env).save(engine.record(["human", "human"]), "pig")
    assert main(["export", str(path), "--log"]) == 0
    out = capsys.readouterr().out.splitlines()
    exported = [line[6:] for line in out[1:] if not line.startswith("Result:")]
    shown = [story_entry(line).plain for line in engine.story(None)]
    assert len(shown) >= 70 and shown == exported
    numbers = [int(line[:4]) for line in out[1:] if line[:4].strip().isdigit()]
    assert numbers == list(range(1, len(engine.log) + 1))  # no repeats, no gaps


def test_bot_speed_cycles_from_any_start() -> None:
    names = []
    delay = 0.0
    for _ in range(len(BOT_SPEEDS) + 1):
        name, delay = next_bot_speed(delay)
        names.append(name)
    assert names == ["slow", "normal", "fast", "slow"]  # from instant: the closest, fast
    assert next_bot_speed(0.4) == ("fast", 0.05)  # the default's first press is faster
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


def test_the_save_list_fits_80_columns_in_its_narrow_form() -> None:
    """Under 100 columns the five columns of a long save's row, with the table's cell
    padding (two cells a column) and the screen's margins, fit in 80 (issue 37)."""
    info = SaveInfo(
        "red-flag-over-paris-2026-12-03-132737-a6ee",
        "red-flag-over-paris",
        "2026-12-03T13:27:37Z",
        2,
        ("human", "mcts", "random"),
        "Round 1, Versailles to play a Strategy card",
        12,
        False,
    )
    titles = {"red-flag-over-paris": "Red Flag Over Paris"}
    narrow = save_row(info, titles, narrow=True)
    assert sum(len(cell) + 2 for cell in narrow) + 4 <= 80
    assert narrow[2] == "12-03 13:27" and narrow[1].startswith("Red Flag")
    wide = save_row(info, titles)
    assert sum(len(cell) + 2 for cell in wide) > 80  # what the wide form needs
