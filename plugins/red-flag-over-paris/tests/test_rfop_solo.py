"""The solitaire mode's solo opponent, step by step (rulebook pp. 8-11 as summarised in
components.md; the selection tables are reconstructed, see reconstructed.md §4)."""

from __future__ import annotations

import pytest
from rfop_helpers import GAME, C, V, clear_board

from tabletop.framework import Context, State
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.game import check_sides
from tabletop.games.red_flag_over_paris import solo, solo_turn
from tabletop.games.red_flag_over_paris.data import (
    CARDS,
    COMMUNE_POOL,
    FINAL_CRISIS_CARD,
    FINAL_ZONE,
    SPACES,
)
from tabletop.games.red_flag_over_paris.rules import final_crisis, scoring, tasks


def _setup(bot: str = "commune", seed: int = 1) -> tuple[State, Context]:
    rng = rng_factory(seed)
    ctx = Context(rng, dice_factory(rng))
    return GAME.setup(2, {"solo": bot}, ctx), ctx


def _turn_state(bot: int, top: int, seed: int = 1) -> tuple[State, Context]:
    """The bot's card play is due, ``top`` on top of the deck."""
    state, ctx = _setup("commune" if bot == C else "versailles", seed)
    state["stack"] = [tasks.end_of_card_play(bot)]
    if top in state["deck"]:
        state["deck"].remove(top)
    state["deck"].append(top)
    ctx.events.clear()
    return state, ctx


def _turn(state: State, ctx: Context, bot: int) -> None:
    solo_turn.turn(state, tasks.card_play(bot), ctx)


def _texts(ctx: Context) -> list[str]:
    return [event.text for event in ctx.events]


# Setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_setup_takes_six_cards_out_and_deals_the_bot_nothing(seed: int) -> None:
    state, _ = _setup("commune", seed)
    assert not set(solo.REMOVED_CARDS) & set(state["deck"])
    assert set(solo.REMOVED_CARDS) <= set(state["removed"])
    assert state["hands"][C] == [] and state["obj_hand"][C] == []
    assert len(state["hands"][V]) == 4
    first, second = (SPACES[CARDS[c].space or ""].dimension for c in state["obj_hand"][V])
    assert first != second  # two of one dimension are redrawn
    assert GAME.seat_names(2, {"solo": "commune"}) == ("Versailles", "Commune (solo opponent)")


def test_the_objective_the_player_does_not_keep_goes_to_the_bot() -> None:
    state, ctx = _setup("commune")
    keep, give = state["obj_hand"][V]
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.seat == V and f"keep:{keep}" in prompt.actions()
    GAME.apply(state, V, f"keep:{keep}", ctx)
    assert state["objective"] == [keep, give]
    assert any("to the solo opponent" in text for text in _texts(ctx))
    row = GAME.view(state, V)["seats"]
    assert "objective" in str(row)


def test_with_the_higher_initiative_the_bot_plays_second() -> None:
    state, ctx = _setup("commune")
    assert solo.decide(state, tasks.initiative_order(C), ["first", "second"], ctx) == "second"


def test_the_bot_never_gets_a_prompt_in_whole_games() -> None:
    for bot, seed in (("commune", 1), ("versailles", 2), ("commune", 3), ("versailles", 4)):
        engine = Engine(
            GAME,
            seed=seed,
            players=2,
            options={"solo": bot},
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        bot_seat = solo.SIDES[bot]
        player = RandomBot()
        while (prompt := engine.prompt) is not None:
            assert prompt.seat != bot_seat
            engine.act(prompt.seat, bot_move(engine, player, rng_factory))
            assert not GAME.invariants(engine.state)
        assert engine.result is not None
        # the solo opponent plays one of the two sides, and a win is that side's
        assert check_sides(GAME, 2, {"solo": bot}, engine.result) is None
        assert engine.result.side in ("Versailles", "Commune")


# (a) The momentum check ----------------------------------------------------------------


def test_commune_raises_momentum_with_fewer_than_two_empty_pool_spaces() -> None:
    state, ctx = _turn_state(C, top=5)
    state["momentum"][C] = 0
    state["pool"][C] = COMMUNE_POOL[0] - 1
    assert solo_turn.needs_momentum(state, C)
    _turn(state, ctx, C)
    assert state["momentum"][C] == 1
    assert any("momentum check" in text for text in _texts(ctx))


def test_commune_keeps_its_momentum_with_room_in_its_pool() -> None:
    state, ctx = _turn_state(C, top=5)
    state["momentum"][C] = 1
    state["pool"][C] = 0
    assert COMMUNE_POOL[1] >= 2 and not solo_turn.needs_momentum(state, C)
    _turn(state, ctx, C)
    assert state["momentum"][C] == 1


def test_versailles_raises_momentum_with_fewer_than_three_available_cubes() -> None:
    state, ctx = _turn_state(V, top=18)
    track = state["track"][V]
    state["out"][V] += state["pool"][V] + sum(track[:FINAL_ZONE]) - 2  # keep the count
    state["pool"][V] = 0
    for zone in range(FINAL_ZONE):
        track[zone] = 0
    track[0] = 2
    assert solo.available(state, V) < 3
    before = state["momentum"][V]
    _turn(state, ctx, V)
    assert state["momentum"][V] == before + 1


# (b) The revealed card, its event or the discarded one; (c) operations ------------------


def test_a_friendly_event_with_an_effect_is_used_then_one_bonus_op() -> None:
    state, ctx = _turn_state(C, top=18)  # Paule Minck: a Commune placement event
    state["momentum"][C] = 2
    _turn(state, ctx, C)
    stack = state["stack"]
    assert stack[-1]["name"] == "event_steps" and stack[-1]["card"] == 18
    assert stack[-2]["name"] == "operations" and stack[-2]["points"] == 1
    assert state["discard"][-1] == [18, C, state["round"]]
    assert any("reveals" in text for text in _texts(ctx))


def test_an_enemy_or_gray_card_is_spent_for_its_operations() -> None:
    for card in (5, 36):  # a Versailles card, a gray card: not Friendly
        state, ctx = _turn_state(C, top=card)
        state["momentum"][C] = 2
        _turn(state, ctx, C)
        assert state["stack"][-1] == tasks.operations(C, CARDS[card].ops)
        assert state["discard"][-1][0] == card


def test_a_friendly_event_without_effect_is_skipped() -> None:
    state, ctx = _turn_state(V, top=7)  # Espivent: only raises the player's momentum
    assert CARDS[7].faction == V
    state["momentum"][C] = 0
    state["momentum"][V] = 2
    assert not solo.event_useful(state, V, 7)
    _turn(state, ctx, V)
    assert (
        state["stack"][-1]["name"] == "operations" and state["stack"][-1]["points"] == CARDS[7].ops
    )


def test_the_discarded_friendly_event_is_used_when_it_costs_no_more_ops() -> None:
    state, ctx = _turn_state(C, top=36)  # gray, 3 OP
    state["momentum"][C] = 2
    state["discard"].append([26, V, state["round"]])  # the player discarded a Commune card
    _turn(state, ctx, C)
    assert state["stack"][-1]["name"] == "event_steps" and state["stack"][-1]["card"] == 26
    assert state["stack"][-2]["points"] == 1


def test_the_discarded_event_is_not_used_when_it_costs_more() -> None:
    state, ctx = _turn_state(C, top=5)  # 1 OP only
    state["momentum"][C] = 2
    state["discard"].append([26, V, state["round"]])  # 2 OP
    _turn(state, ctx, C)
    assert state["stack"][-1]["name"] == "operations" and state["stack"][-1]["points"] == 1


# Placement and removal by the selection tables ------------------------------------------


def test_placement_prefers_gaining_control_and_needs_room() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"press": (0, 2), "catholic_church": (1, 1), "republicans": (2, 2)})
    task = tasks.event_placement(C, 1, 1, [], None)
    actions = ["put:press", "put:catholic_church", "stop"]
    # press is pivotal but the bot already leads by 2 there: no Room
    assert not solo.room(state, "press", C)
    assert solo.decide(state, task, actions, ctx) == "put:catholic_church"
    # among spaces that gain control, the Pivotal Space comes first
    clear_board(state, {"press": (1, 1), "catholic_church": (1, 1)})
    assert solo.decide(state, task, actions, ctx) == "put:press"


def test_the_bot_never_places_without_room_or_available_cubes() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"press": (0, 2), "catholic_church": (0, 1)})
    task = tasks.event_placement(C, 1, 1, [], None)
    assert solo.decide(state, task, ["put:press", "put:catholic_church", "stop"], ctx) == "stop"
    clear_board(state, {"catholic_church": (1, 1)})
    state["pool"][C] = 0
    track = state["track"][C]
    state["out"][C] += sum(track[:FINAL_ZONE])
    for zone in range(FINAL_ZONE):
        track[zone] = 0
    assert solo.available(state, C) == 0 < sum(track)
    assert solo.decide(state, task, ["put:catholic_church", "stop"], ctx) == "stop"


def test_removal_prefers_breaking_the_players_control() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"press": (3, 0), "catholic_church": (2, 1), "republicans": (4, 0)})
    task = tasks.event_removal(C, 1, 1, [])
    actions = ["take:press", "take:catholic_church", "take:republicans", "stop"]
    assert solo.decide(state, task, actions, ctx) == "take:catholic_church"


def test_a_military_attempt_at_value_one_adds_the_extra_op() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"fort_issy": (2, 1), "mont_valerien": (3, 0)})
    from tabletop.games.red_flag_over_paris import board

    assessment = board.snapshot(state, C)
    assessment["eligible"] = ["fort_issy"]
    assert board.military_strength(assessment, "fort_issy", False) == 1
    task = tasks.operations(C, 3, "military")
    task["assessment"] = assessment
    state["pool"][C] = 0  # nothing to place: remove first
    for zone in range(len(state["track"][C])):
        state["out"][C] += state["track"][C][zone]
        state["track"][C][zone] = 0
    answer = solo.decide(state, task, ["rm:fort_issy", "rmx:fort_issy", "toplace"], ctx)
    assert answer == "rmx:fort_issy"


def test_operations_go_to_the_bots_victory_type() -> None:
    state, ctx = _setup("commune")
    task = tasks.operations(C, 2)
    assert solo.decide(state, task, ["kind:political", "kind:military"], ctx) == "kind:political"
    state, ctx = _setup("versailles")
    task = tasks.operations(V, 2)
    assert solo.decide(state, task, ["kind:political", "kind:military"], ctx) == "kind:military"


# Events ----------------------------------------------------------------------------


def test_exclusive_options_take_the_first_that_has_an_effect() -> None:
    state, ctx = _setup("commune")
    card = 31  # Blanquists: a choice
    options = CARDS[card].event["steps"][0]["options"]
    useful = [i for i, o in enumerate(options) if solo.has_effect(state, C, o["steps"])]
    assert useful
    answer = solo.decide(
        state,
        tasks.event_option(C, card, 0),
        [f"opt:{i}" for i in range(len(options))],
        ctx,
    )
    assert answer == f"opt:{useful[0]}"


def test_an_event_that_only_raises_the_players_momentum_has_no_effect() -> None:
    state, _ = _setup("versailles")
    steps = [{"do": "momentum", "who": "opponent", "delta": 1}]
    assert not solo.has_effect(state, V, steps)
    assert solo.has_effect(state, V, [{"do": "momentum", "who": "self", "delta": 1}])


# Bonus actions ---------------------------------------------------------------------


def test_bonus_spreads_to_gain_two_spaces() -> None:
    state, ctx = _setup("commune")
    clear_board(
        state, {"butte_montmartre": (0, 4), "butte_aux_cailles": (1, 1), "pere_lachaise": (1, 1)}
    )
    task = tasks.bonus_action(C, "paris")
    assert solo.decide(state, task, ["deesc", "spread", "pass"], ctx) == "spread"
    assert len(state["solo_plan"]) == 2
    spread = tasks.spread_influence(C, "paris")
    assert (
        solo.decide(state, spread, ["from:butte_montmartre", "stop"], ctx)
        == "from:butte_montmartre"
    )


def test_bonus_turncoat_gains_a_space_when_no_spread_gains_two() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"press": (1, 0), "catholic_church": (2, 2)})
    task = tasks.bonus_action(C, "public_opinion")
    answer = solo.decide(state, task, ["turn:press", "turn:catholic_church", "pass"], ctx)
    assert answer in ("turn:press", "turn:catholic_church")


def test_bonus_deescalates_a_big_lead_and_passes_otherwise() -> None:
    state, ctx = _setup("commune")
    clear_board(state, {"fort_issy": (0, 3), "chateau_vincennes": (2, 2)})
    task = tasks.bonus_action(C, "forts")
    assert solo.decide(state, task, ["deesc", "pass"], ctx) == "deesc"
    deesc = tasks.de_escalate(C, "forts")
    assert (
        solo.decide(state, deesc, ["own:fort_issy", "own:chateau_vincennes", "stop"], ctx)
        == "own:fort_issy"
    )
    clear_board(state, {"fort_issy": (1, 1)})
    assert solo.decide(state, task, ["deesc", "pass"], ctx) == "pass"


# Objectives, Final Crisis, tiebreak --------------------------------------------------


def test_the_bot_scores_either_objective_the_player_only_its_own() -> None:
    state, _ = _setup("commune")
    mine, bots = 44, 48
    state["objective"] = [mine, bots]
    state["revealed"] = [mine, bots]
    clear_board(state, {CARDS[mine].space or "": (0, 2), CARDS[bots].space or "": (2, 0)})
    gains = scoring.objective_gains(state)
    assert gains[C] == [mine] and gains[V] == []
    clear_board(state, {CARDS[mine].space or "": (2, 0), CARDS[bots].space or "": (0, 2)})
    gains = scoring.objective_gains(state)
    assert gains[V] == [mine] and gains[C] == [bots]


def test_final_crisis_reveals_until_a_useful_bot_event_then_its_card_last() -> None:
    state, ctx = _turn_state(C, top=5)
    state["fc"] = True
    state["hands"][C] = [FINAL_CRISIS_CARD[C]]
    state["solo_fc_plays"] = 2
    state["deck"] += [18, 36]  # 36 on top: gray, so it is set aside; then 18 is played
    state["deck"].remove(5)
    state["deck"].insert(0, 5)
    _turn(state, ctx, C)
    assert 36 in state["removed"]
    assert state["stack"][-1]["name"] == "event_steps" and state["stack"][-1]["card"] == 18
    state["stack"] = [tasks.end_of_card_play(C)]
    _turn(state, ctx, C)
    assert state["stack"][-1]["card"] == FINAL_CRISIS_CARD[C]
    assert state["hands"][C] == [] and state["solo_fc_plays"] == 0


def test_a_level_race_goes_to_the_bot_before_any_tiebreak() -> None:
    state, _ = _setup("commune")
    state["vp"] = {"political": 0, "military": 0}
    assert final_crisis.victory(state)[0] == C
    state, _ = _setup("versailles")
    state["vp"] = {"political": 0, "military": 0}
    assert final_crisis.victory(state)[0] == V
    state["vp"] = {"political": -2, "military": 1}  # the Commune's 2 beat Versailles' 1
    assert final_crisis.victory(state)[0] == C
