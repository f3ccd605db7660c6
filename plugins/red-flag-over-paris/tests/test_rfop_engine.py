"""Whole games through the engine: random play, determinism, hidden information,
determinization, every card's event, registration and the board widget."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from rfop_helpers import (
    GAME,
    C,
    Driver,
    V,
    at_final_crisis_play,
    at_play,
    new_engine,
    play_out,
    to_objective_event,
)

from tabletop.framework import Bot, Context, GameDefinition
from tabletop.framework.bots import RandomBot
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine, replay_partial
from tabletop.framework.errors import ReplayMismatch
from tabletop.framework.game import check_sides
from tabletop.framework.record import GameRecord
from tabletop.games.red_flag_over_paris import GreedyBot
from tabletop.games.red_flag_over_paris.data import CARDS, OBJECTIVE_IDS, STRATEGY_IDS
from tabletop.games.red_flag_over_paris.render import render_board


def test_two_hundred_random_games() -> None:
    """Random play reaches a sound end every time (invariants checked after each action)
    and both sides win some: neither side is favoured so far that random play cannot win.
    The result names the winning side, the side the game declares for the winner's seat."""
    wins = [0, 0]
    for seed in range(200):
        result = play_out(new_engine(seed), seed).result
        assert result is not None and len(result.winners) == 1
        assert check_sides(GAME, 2, {}, result) is None
        assert result.side == ("Versailles", "Commune")[result.winners[0]]
        wins[result.winners[0]] += 1
    assert wins[V] > 10 and wins[C] > 10, wins


def test_greedy_bot_beats_random_play_with_seats_rotated() -> None:
    """A measured result, not a count: over 20 games, the greedy bot playing each side
    half the time wins at least 14 (random play against random play wins 10 on average;
    14 or more happens about 6% of the time between equals)."""
    greedy_wins = 0
    for seed in range(20):
        engine = new_engine(seed)
        greedy_seat = seed % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[greedy_seat] = GreedyBot()
        play_out(engine, seed, (bots[0], bots[1]))
        result = engine.result
        assert result is not None
        greedy_wins += greedy_seat in result.winners
    assert greedy_wins >= 14


def test_views_hide_hands_and_objectives() -> None:
    engine = new_engine(9)
    st = engine.state
    v, c, spectator = engine.view(V), engine.view(C), engine.view(None)
    assert v["hand"] == st["hands"][V] and c["hand"] == st["hands"][C]
    assert spectator["hand"] is None and spectator["objective_choices"] is None
    for view in (v, c, spectator):
        text = repr({k: val for k, val in view.items() if k not in ("cards", "card_names")})
        assert "'deck': [" not in text
    assert set(v["objective_choices"]).isdisjoint(st["obj_hand"][C])
    assert v["hand_sizes"] == [4, 4]
    # after both choices, each side sees only its own kept objective
    for seat in (V, C):
        prompt = engine.prompt
        assert prompt is not None
        engine.act(seat, prompt.actions()[0])
    assert engine.view(V)["objective"] == st["objective"][V]
    assert engine.view(C)["objective"] == st["objective"][C]
    assert engine.view(None)["objective"] is None
    assert GAME.info.hidden_information is True


def test_determinize_resamples_only_the_unseen() -> None:
    engine = new_engine(12)
    prompt = engine.prompt
    assert prompt is not None
    engine.act(V, prompt.actions()[0])
    st = engine.state
    ctx = Context(rng_factory(5), dice_factory(rng_factory(5)))
    sample = GAME.determinize(st, V, ctx)
    assert sample["hands"][V] == st["hands"][V]
    assert sample["objective"][V] == st["objective"][V]
    assert sample["obj_discarded"][V] == st["obj_discarded"][V]
    assert len(sample["hands"][C]) == len(st["hands"][C])
    assert len(sample["obj_hand"][C]) == 2
    assert GAME.invariants(sample) == []
    assert sample["hands"][C] != st["hands"][C] or sample["deck"] != st["deck"]
    assert st == engine.state  # the real state is untouched


def test_every_event_runs() -> None:
    """Each strategy, Final Crisis and objective event, played through the game's own
    prompts with random choices, stays sound."""
    for card in [*STRATEGY_IDS, 17, 34, *OBJECTIVE_IDS]:
        faction = CARDS[card].faction
        seat = faction if faction is not None else V
        spare = next(c for c in STRATEGY_IDS if c != card and CARDS[c].faction == seat)
        if CARDS[card].kind == "strategy":
            d = at_play(card, seat, [card, spare])
            d.state["momentum"][1 - seat] = 1
            for space in ("press", "butte_montmartre"):
                d.state["prussian"][2] -= 1  # spare Versailles cubes, kept counted
                d.state["track"][C][0] -= 1
                d.state["cubes"][space] = [
                    d.state["cubes"][space][V] + 1,
                    d.state["cubes"][space][C] + 1,
                ]
            before = len(d.events)
            d.act(f"ev:{card}")  # every event's condition holds here
        elif CARDS[card].kind == "final_crisis":
            d = at_final_crisis_play(card, seat, card)
            before = len(d.events)
            d.act(f"ev:{card}")
        else:
            d = to_objective_event(card, seat, card)
            before = len(d.events)
            d.act("perform")
            assert d.texts()[before].startswith("fulfils"), card
        rng = rng_factory(card)
        while GAME.prompt(d.state) is not None and d.state["stack"][-1]["name"] != "card_play":
            d.act(rng.choice(d.prompt_actions()))
        assert GAME.invariants(d.state) == []
        # The play itself is told by its public choice line, not by an event (issue 26).
        played = [entry[0] for entry in d.state["discard"]] + d.state["removed"]
        assert card in OBJECTIVE_IDS or card in played, card


def test_describe_and_rules_summary() -> None:
    d = Driver()
    assert GAME.describe(d.state) == "Round 1, Versailles to play"
    assert "§13.2" in GAME.rules_summary()
    engine = new_engine(3)
    play_out(engine, 3)
    assert GAME.describe(engine.state).startswith("Game over")


def test_plugin_registration_hooks() -> None:
    from tabletop.games import red_flag_over_paris as plugin

    games: list[object] = []
    plugin.tabletop_register_games(games.append)
    assert games and isinstance(games[0], GameDefinition)
    assert games[0].info.id == "red-flag-over-paris"
    bots: list[tuple[str, object, str]] = []
    plugin.tabletop_register_bots(lambda *args: bots.append(args))
    assert bots[0][0] == "rfop-greedy" and bots[0][2] == "red-flag-over-paris"
    assert plugin.tabletop_board_widget("pig") is None


def test_board_widget_renders_a_real_view() -> None:
    from textual.app import App, ComposeResult

    from tabletop.games import red_flag_over_paris as plugin

    engine = new_engine(4)
    view = engine.view(V)
    widget_class = plugin.tabletop_board_widget("red-flag-over-paris")

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield widget_class(view=view)

    async def run() -> str:
        app = Host()
        async with app.run_test() as pilot:
            await pilot.pause()
            board = app.query_one(widget_class)
            first = str(board.render())
            play_out(engine, 4)
            board.update_view(engine.view(V))
            await pilot.pause()
            return first + "\n" + str(board.render())

    text = asyncio.run(run())
    assert "Butte Montmartre" in text and "Institutional" in text
    assert "Crisis Tracks" in text and "Revolutionary Momentum" in text
    assert "Versailles HQ (controlled by Versailles) opens Mont-Valérien" in text
    assert "Round 1/3" in text and "Final Crisis" in text


def test_render_board_lists_every_dimension() -> None:
    text = render_board(new_engine(1).view(None))
    for name in ("Institutional", "Public Opinion", "Paris", "Forts", "Initiative"):
        assert name in text


def test_the_boards_rows_fit_half_a_100_column_screen_and_read_from_the_viewers_side() -> None:
    """The board's table rows stay within 42 columns (the widget's half of a 100-column
    terminal), so they never wrap; the lists of card names and the adjacency may wrap.
    The VP rows put the viewer first, with its own signs."""
    engine = play_out(new_engine(6), 6)
    engine.state["vp"] = {"political": 2, "military": -1}  # +: toward Versailles
    for seat in (V, C, None):
        text = render_board(engine.view(seat))
        rows = text.split("\nAdjacency")[0].splitlines()
        lists = ("Your hand", "Your objective")
        table = [r for r in rows if not r.startswith(lists) and "(§" not in r.split(":")[0]]
        assert table and all(len(r) <= 42 for r in table), [r for r in table if len(r) > 42]
    commune = render_board(engine.view(C)).splitlines()
    assert commune[3].split() == ["Commune", "(you)", "-2", "+1"]
    assert commune[4].split() == ["Versailles", "+2", "-1"]


def test_coverage_table_names_only_tests_that_exist() -> None:
    """The coverage table is how a reader finds a rule's test: a renamed test must not
    leave it pointing at nothing."""
    docs = Path(__file__).resolve().parents[3] / "docs/games/red-flag-over-paris"
    coverage = (docs / "rules-coverage.md").read_text(encoding="utf-8")
    tests_text = "".join(
        p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_rfop_*.py")
    )
    for name in set(re.findall(r"`(test_[a-z0-9_]+)`", coverage)):
        assert f"def {name}(" in tests_text, name


def test_coverage_table_names_only_code_that_exists() -> None:
    """Likewise for where a rule is implemented: a moved function or module must not
    leave the table pointing at nothing (``module.py:name``, defined at a line's start)."""
    root = Path(__file__).resolve().parents[3]
    coverage = (root / "docs/games/red-flag-over-paris/rules-coverage.md").read_text("utf-8")
    package = root / "plugins/red-flag-over-paris/src/tabletop/games/red_flag_over_paris"
    places = set(re.findall(r"`([a-z_/]+\.py):([A-Za-z_]+)`", coverage))
    assert len(places) > 40, places
    for module, name in places:
        source = (package / module).read_text(encoding="utf-8")
        defined = rf"^(def |class )?{name}\b( =|:|\(|\[)"
        assert re.search(defined, source, re.MULTILINE), f"{module}:{name}"


def test_a_save_from_version_1_1_replays_and_its_digest_mismatch_names_both_versions() -> None:
    """3.0 changed the state's shape, not the actions: a save made by 1.1.0 (the file
    was written by that version) replays to its last action for reading, and the
    refused digest says which versions differ rather than calling the save damaged."""
    text = (Path(__file__).parent / "data" / "rfop-1.1.0-save.json").read_text(encoding="utf-8")
    record = GameRecord.from_json(json.loads(text))
    assert record.game_version == "1.1.0"
    versions = (
        "saved with red-flag-over-paris 1.1.0, "
        f"installed red-flag-over-paris is {GAME.info.version}"
    )
    with pytest.raises(ReplayMismatch, match=re.escape(versions)):
        Engine.from_record(GAME, record, rng_factory=rng_factory, dice_factory=dice_factory)
    partial = replay_partial(GAME, record, rng_factory=rng_factory, dice_factory=dice_factory)
    assert partial.replayed == partial.total == len(record.actions) == 60
    assert partial.problem is not None and versions in partial.problem
