"""Deciding from the screen alone (issue #11): card texts, reasons an event cannot be
played, warnings, stable keys, VP from the viewer's side, the map, headings and an end
that explains itself."""

from __future__ import annotations

from typing import Any

import pytest
from rfop_helpers import (
    GAME,
    C,
    Driver,
    V,
    at_play,
    new_engine,
    play_out,
    turncoat_ready,
)

from tabletop.framework import HEADING, PASS_KEY, Prompt, State
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.games.red_flag_over_paris import board, events
from tabletop.games.red_flag_over_paris.data import (
    CARDS,
    FINAL_CRISIS_CARD,
    FINAL_ZONE,
    HQ,
    OBJECTIVE_IDS,
    POT,
    SPACES,
    STRATEGY_IDS,
)

#: Actions that mean "nothing (more)": they must sit on PASS_KEY in every prompt.
PASSING = {"stop", "pass", "done", "toplace", "decline", "skip"}


def _prompts_of_random_games(seeds: range) -> list[Prompt]:
    """Every prompt met while playing random games to their end."""
    from tabletop.framework.bots import RandomBot
    from tabletop.framework.chance import rng_factory

    prompts: list[Prompt] = []
    for seed in seeds:
        engine = new_engine(seed)
        bot, rng = RandomBot(), rng_factory(seed)
        while not engine.over:
            prompt = engine.prompt
            assert prompt is not None
            prompts.append(prompt)
            engine.act(prompt.seat, bot.choose(GAME, engine.view(prompt.seat), prompt, rng))
    return prompts


# Cards: text everywhere, and why an event is not offered ---------------------------


def test_every_card_is_in_the_rules_screen_with_its_op_and_event() -> None:
    """The rules screen is where a player looks a card up: every card must be there."""
    text = GAME.rules_summary()
    for card in [*STRATEGY_IDS, *FINAL_CRISIS_CARD]:
        c = CARDS[card]
        assert f"**#{card} {c.title}** ({c.ops} OP): {c.event['text']}" in text, card
    for card in OBJECTIVE_IDS:
        c = CARDS[card]
        assert f"**#{card} {c.title}** — {SPACES[c.space or ''].name}:" in text, card
    assert "Versailles HQ holds no pieces" in text and "Prussian Occupied Territory" in text


def test_every_card_choice_of_whole_games_carries_the_cards_text() -> None:
    """Whatever the prompt, a choice that plays, spends, discards or keeps a card shows
    that card's event text (and its OP) before it is committed."""
    seen: set[str] = set()
    for prompt in _prompts_of_random_games(range(6, 10)):
        for choice in prompt.choices:
            verb, _, rest = choice.action.partition(":")
            if verb not in ("ev", "ops", "mom", "fc", "reuse", "drop", "keep"):
                continue
            seen.add(verb)
            card = CARDS[int(rest)]
            if verb == "reuse":  # the text shown is the discarded event's; this one is paid
                assert f"Discards {card.title}." in choice.detail
                continue
            assert card.event["text"] in choice.detail, (prompt.text, choice)
            if card.kind != "objective":
                assert f"{card.ops} OP" in choice.detail
    assert seen >= {"ev", "ops", "mom", "fc", "keep"}


def test_every_rule_a_prompt_cites_is_in_the_rules_screen() -> None:
    """A player follows a prompt's citation to the rules screen: each cited section
    (§7, §7.4, ...) must be there as a heading or a bold item, in whole games."""
    import re

    text = GAME.rules_summary()
    headings = set(re.findall(r"^## (§\d+)\b", text, re.MULTILINE))
    items = set(re.findall(r"\*\*(§\d+\.\d+)\b", text))
    cited = {p.rule for p in _prompts_of_random_games(range(3))}
    assert len(cited) > 12
    for rule in cited:
        assert rule in headings | items, rule


def test_every_conditional_event_states_its_condition() -> None:
    """§7.1: an event is carried out as written, so a condition must be in its text
    (card #7 carried one that its text did not state)."""
    for card, c in CARDS.items():
        stated = c.event.get("text", "").startswith("Only if")
        assert stated == ("requires" in c.event), card


def test_an_event_that_cannot_be_played_says_why_on_its_operations_choice() -> None:
    d = at_play(1, V, [7, 4])  # Général Espivent needs Revolutionary Momentum at 1+
    assert "ev:7" not in d.prompt_actions()
    ops = d.choice("ops:7")
    assert "(event not playable now)" in ops.label
    assert ops.detail.startswith(
        "Event not playable now: it may be played only when Revolutionary Momentum is at 1 "
        "or more (§7.1)."
    )
    assert CARDS[7].event["text"] in ops.detail
    d.state["momentum"][C] = 1
    assert "ev:7" in d.prompt_actions()
    assert "not playable" not in d.choice("ops:7").detail


def test_an_opponents_card_says_whose_event_it_is() -> None:
    d = at_play(1, V, [18, 4])  # Paule Minck is a Commune card
    assert "ev:18" not in d.prompt_actions()
    detail = d.choice("ops:18").detail
    assert "Event not playable now: it is a Commune card: only the Commune" in detail
    assert "(event not playable now)" not in d.choice("ops:18").label  # never playable


def test_the_view_lists_what_the_viewer_may_read_and_nothing_else() -> None:
    """Hand, objectives with their spaces, both face-up Final Crisis cards, the discard
    top; never the opponent's hand."""
    engine = new_engine(3)
    st = engine.state
    for seat in (V, C):
        cards = engine.view(seat)["cards"]
        where = {c["name"].split(" (")[0]: c["where"] for c in cards}
        for card in st["hands"][seat]:
            assert where[CARDS[card].title] == "hand"
        for card in st["obj_hand"][seat]:
            name = f"{CARDS[card].title} ({SPACES[CARDS[card].space or ''].name})"
            assert any(c["name"] == name for c in cards)
        for card in FINAL_CRISIS_CARD:
            assert "Final Crisis card, face up" in where[CARDS[card].title]
        for card in st["hands"][1 - seat]:
            if card not in st["hands"][seat]:
                assert CARDS[card].title not in where
        texts = {c["name"].split(" (")[0]: c["text"] for c in cards}
        assert all(CARDS[c].event["text"] in texts[CARDS[c].title] for c in st["hands"][seat])
    d = at_play(1, V, [4, 5])
    d.act("ops:4")
    tops = [c for c in GAME.view(d.state, C)["cards"] if c["where"].startswith("top of")]
    assert [c["name"] for c in tops] == ["Jules Ferry (1 OP, Versailles)"]


# Warnings ----------------------------------------------------------------------------


@pytest.mark.parametrize("final_zone_next", [True, False])
def test_a_turncoat_that_breaches_your_final_crisis_zone_warns_exactly_then(
    final_zone_next: bool,
) -> None:
    d = turncoat_ready(final_zone_next=final_zone_next)
    st = d.state
    choice = d.choice("turn:butte_aux_cailles")
    warned = "breaches your Final Crisis zone first: -1 Political VP (§8.3)" in choice.consequence
    assert warned == final_zone_next
    assert (board.next_breach(st, C) == FINAL_ZONE) == final_zone_next
    before = board.vp_of(st, C, "political")
    d.act("turn:butte_aux_cailles")
    assert before - board.vp_of(st, C, "political") == (1 if final_zone_next else 0)


@pytest.mark.parametrize(("bonus_action", "verb"), [("deesc", "own"), ("spread", "from")])
def test_taking_a_cube_out_warns_exactly_when_it_ends_your_control(
    bonus_action: str, verb: str
) -> None:
    """De-escalate and Spread Influence move the side's own cubes: a cube that was its
    only lead in a space ends its control there (§3.2), and says so first."""
    cubes = {
        "butte_montmartre": (0, 3),  # the Commune's Pivotal Space: a lead of 3
        "butte_aux_cailles": (1, 2),  # a lead of 1
        "pere_lachaise": (0, 1),  # a lead of 1 in a space it is always present in
    }
    d = at_play(2, V, [4], cubes=cubes)
    st = d.state
    d.act("mom:4", V)
    assert d.seat == C
    d.act(bonus_action)
    prompt = GAME.prompt(st)
    assert prompt is not None
    warned = {
        c.action.split(":")[1] for c in prompt.choices if "ends your control" in c.consequence
    }
    assert warned == {"butte_aux_cailles", "pere_lachaise"}
    assert d.choice(f"{verb}:butte_aux_cailles").consequence.startswith(
        "ends your control of Butte-aux-Cailles (§3.2)"
    )
    d.act(f"{verb}:butte_aux_cailles")
    if verb == "from":
        d.act("to:butte_montmartre")
    assert not board.controls(st, "butte_aux_cailles", C)


def test_finishing_operations_early_warns_of_the_points_lost() -> None:
    d = at_play(1, V, [15, 4])  # Jules Favre: 2 OP
    d.act("ops:15")
    d.act("kind:political")
    d.act("toplace")
    assert d.choice("done").consequence == "2 Operations Point(s) left unspent are lost"


# Stable keys ---------------------------------------------------------------------------


def test_pass_and_stop_keep_their_key_in_every_prompt() -> None:
    """The pass-type choice is always on PASS_KEY and nothing else is, in every prompt of
    whole games (the issue: "No bonus action" moved between 3 and 4 under Turncoat).
    In a bonus prompt De-escalate and Spread Influence come first whenever offered, so
    their numbers do not move either; every other choice stays on a number."""
    prompts = _prompts_of_random_games(range(6))
    bonus = 0
    for prompt in prompts:
        for choice in prompt.choices:
            assert (choice.key == PASS_KEY) == (choice.action in PASSING), (prompt.text, choice)
        keys = [c.key for c in prompt.choices if c.key]
        assert len(keys) == len(set(keys)), prompt.text
        if any(c.action == "pass" for c in prompt.choices):
            bonus += 1
            actions = [c.action for c in prompt.choices]
            first = [a for a in ("deesc", "spread") if a in actions]
            assert actions[: len(first)] == first and actions[-1] == "pass", actions
    assert bonus >= 2  # several bonus prompts were met


# The viewer's side ---------------------------------------------------------------------


def test_vp_and_initiative_levels_are_shown_from_each_sides_own_side() -> None:
    d = Driver(1)
    st = d.state
    st["vp"] = {"political": 2, "military": -3}  # +: toward Versailles on the shared track
    st["momentum"] = [1, 0]
    for seat, political, military in ((V, 2, -3), (C, -2, 3)):
        view = GAME.view(st, seat)
        name = ("Versailles", "Commune")[seat]
        tracks = {t["name"]: t["value"] for t in view["tracks"]}
        assert tracks[f"Political VP ({name})"] == political
        assert tracks[f"Military VP ({name})"] == military
        assert view["vp"][seat] == {"political": political, "military": military}
        assert view["seats"][seat]["fields"]["Political VP"] == political
    assert GAME.view(st, None)["initiative_levels"] == [2 - 1, -2 - 0]  # §6.1
    assert GAME.initiative_leader(st) == V


def test_the_map_in_the_view_follows_the_data_and_the_operations_rule() -> None:
    """Adjacency as printed (directed), HQ and the Prussian zone included, control as
    ``board.controller`` has it, and each space open to exactly the sides
    ``board.eligible`` lets operate there (§7.2), at every 5th position of a game."""
    from tabletop.framework.bots import RandomBot
    from tabletop.framework.chance import rng_factory

    engine = new_engine(2)
    bot, rng = RandomBot(), rng_factory(2)
    checked = 0
    while not engine.over:
        if len(engine.log) % 5 == 0:
            _check_map(engine.state, engine.view(None)["map"])
            checked += 1
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, bot.choose(GAME, engine.view(prompt.seat), prompt, rng))
    assert checked > 10


def _check_map(st: State, view_map: list[dict[str, Any]]) -> None:
    rows = {row["id"]: row for row in view_map}
    assert set(rows) == set(SPACES) and {HQ, POT} <= set(rows)
    for s, row in rows.items():
        ctl = board.controller(st, s)
        assert row["control"] == (None if ctl is None else ("Versailles", "Commune")[ctl])
        assert row["opened_by"] == [SPACES[a].name for a in SPACES[s].adjacent]
        assert row["opens"] == [t.name for t in SPACES.values() if s in t.adjacent]
        for seat, side in ((V, "Versailles"), (C, "Commune")):
            snap = board.snapshot(st, seat)
            may = s in board.eligible(snap, "political") + board.eligible(snap, "military")
            assert (side in row["open_to"]) == may, (s, side)
    assert rows[HQ]["control"] == "Versailles"
    assert rows["royalists"]["opens"] == ["National Assembly", "Catholic Church", "Press"]
    assert "Royalists" not in rows["royalists"]["opened_by"]


# Headings and the end ----------------------------------------------------------------------


def test_a_whole_game_has_headings_and_a_summary_that_adds_up() -> None:
    """Headings mark each round, its end, the Final Crisis and the end; the summary lists
    every VP change, and those changes add up to the final tracks."""
    engine = play_out(new_engine(5), 5)
    headings = [e.text for e in engine.events_for(None) if e.kind == HEADING]
    assert headings[0] == "Round 1 of 3"
    assert "The Final Crisis (§12)" in headings
    assert any(h.startswith("End of Round 1: scoring") for h in headings)
    assert headings[-1].startswith("End of the game")
    st = engine.state
    result = engine.result
    assert result is not None
    for kind in ("political", "military"):
        moved = sum(m if seat == V else -m for _, seat, k, _, m, _ in st["vp_log"] if k == kind)
        assert moved == st["vp"][kind], kind
    lines = result.summary.splitlines()
    assert lines[0] == st["result"]["summary"]
    assert len(lines) == 4 + len(st["vp_log"])
    assert result.scores == (
        board.vp_of(st, V, "military"),
        board.vp_of(st, C, "political"),
    )


def test_unplayable_reason_matches_playable() -> None:
    """The reason shown and the rule applied come from one place: a reason exactly when
    the event is not the seat's to play now."""
    d = at_play(1, V, [7, 4])
    st = d.state
    for momentum in (0, 1):
        st["momentum"][C] = momentum
        for card in STRATEGY_IDS:
            for seat in (V, C):
                mine = CARDS[card].faction in (seat, None)
                ok = mine and events.playable(st, seat, card)
                assert (events.unplayable_reason(st, seat, card) == "") == ok, (card, seat)


def _card_keys(engine: Engine) -> dict[int, str]:
    """Each card's key in the card play now due: its Operations choice's key (every card
    has one), as the player reads it."""
    prompt = engine.prompt
    assert prompt is not None
    return {
        int(c.action.rsplit(":", 1)[1]): c.key
        for c in prompt.choices
        if c.action.startswith("ops:")
    }


def test_a_card_keeps_its_keys_from_one_play_to_the_next() -> None:
    """Issue 37: a card's key moved as the cards before it left the hand (Banque de
    France was 4, then 1); its place in the hand as dealt gives its keys now."""
    engine = new_engine(3)
    seen: dict[tuple[int, int], dict[int, str]] = {}
    checked = 0
    while engine.prompt is not None and engine.state["round"] <= 2:
        prompt = engine.prompt
        if prompt.text.startswith("Round") and "Strategy Card" in prompt.text:
            keys = _card_keys(engine)
            assert keys and all(keys.values()), prompt
            assert len(set(keys.values())) == len(keys)
            earlier = seen.setdefault((engine.state["round"], prompt.seat), {})
            for card, key in keys.items():
                if card in earlier:
                    assert earlier[card] == key, (card, earlier[card], key)
                    checked += 1
                earlier[card] = key
        engine.act(prompt.seat, prompt.choices[-1].action)
    assert checked >= 4


def test_the_solitaire_objective_prompt_says_where_the_other_goes() -> None:
    """§5.2: with two players the objective not kept is removed unseen; in solitaire it
    goes to the solo opponent."""
    for options, words in (({}, "removed unseen"), ({"solo": "versailles"}, "solo opponent")):
        engine = Engine(
            GAME,
            seed=1,
            players=2,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        prompt = engine.prompt
        assert prompt is not None and prompt.text.startswith("Choose the objective to keep")
        assert words in prompt.text
