"""The steward's policy and the search bot's hints: legal, and each rule of thumb does
what its docstring says."""

from __future__ import annotations

from cme_helpers import GAME, blank, place

from tabletop.framework import Choice, Context, Prompt, State
from tabletop.framework.bots import bot_move
from tabletop.framework.chance import Pcg32
from tabletop.framework.testing import default_factories, new_engine
from tabletop.games.charlemagne_master_of_europe import CmeHints, StewardBot
from tabletop.games.charlemagne_master_of_europe import bot as steward
from tabletop.games.charlemagne_master_of_europe.rules.common import new_task


def campaign(state: State, *actions: str) -> Prompt:
    state["tasks"] = [new_task("campaign_action")]
    return Prompt(0, "Choose", tuple(Choice(a, a) for a in actions))


def test_the_steward_plays_a_whole_game_with_legal_actions() -> None:
    """Through ``bot_move``, as simulate and the UI ask it; the engine refuses an
    illegal action, so reaching a result proves every move was legal."""
    rng_factory, _ = default_factories()
    engine = new_engine(GAME, seed=3, players=1)
    bot = StewardBot()
    while engine.prompt is not None:
        engine.act(0, bot_move(engine, bot, rng_factory))
    assert GAME.result(engine.state) is not None


def test_a_marquis_goes_only_where_a_church_can_join_him() -> None:
    """Bridges & Roads need a Marquis and a Finished Church in one Region, and the four
    Churches go to the Christian Regions: a Pagan Marquis is a dead end."""
    state = blank()
    state["treasury"] = 12
    prompt = campaign(
        state, "act:charlemagne:carinthia:marquis", "act:charlemagne:reims:marquis", "end"
    )
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "act:charlemagne:reims:marquis"
    pagan_only = campaign(state, "act:charlemagne:carinthia:marquis", "end")
    assert steward.policy(GAME, state, pagan_only, Pcg32(1)) == "end"


def test_no_battle_with_an_army_too_small_to_fill_the_wings() -> None:
    state = blank()
    place(state, "paris", "paris-1", "paris-2")
    state["army"] = state["army"][:5]
    prompt = campaign(state, "act:charlemagne:paris:battle", "end")
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "end"


def test_a_battle_is_played_out_before_it_is_chosen() -> None:
    """With the whole starting army against a small stack the play-outs win; the
    odds and the strength lost come from real battles on copies of the state."""
    state = blank()
    place(state, "paris", "paris-1", "paris-2")
    state["charlemagne"] = "reims"
    state["tasks"] = [new_task("campaign_continue"), new_task("campaign_action")]
    odds, cost = steward.battle_odds(GAME, state, "act:charlemagne:paris:battle", Pcg32(5))
    assert 0.8 <= odds <= 1
    assert cost > 0
    assert state["battle"] is None  # the real state is untouched


class _CountingBattles(type(GAME)):  # type: ignore[misc]
    """The game, counting the battles started (one per play-out of ``battle_odds``)."""

    started = 0

    def apply(self, state: State, seat: int, action: str, ctx: Context) -> None:
        if action.endswith(":battle"):
            _CountingBattles.started += 1
        super().apply(state, seat, action, ctx)


def test_a_battle_that_cannot_be_safe_stops_being_played_out() -> None:
    """A battle is fought only if every play-out wins (``SAFE_BATTLE``): once one is
    lost the rest cannot change the answer, so they are not played (issue 27: the
    play-outs were nearly all of the steward's time)."""
    state = blank()
    place(state, "paris", "paris-1", "paris-2")
    state["army"] = state["army"][:8]
    state["charlemagne"] = "reims"
    state["tasks"] = [new_task("campaign_continue"), new_task("campaign_action")]
    _CountingBattles.started = 0
    odds, _ = steward.battle_odds(
        _CountingBattles(), state, "act:charlemagne:paris:battle", Pcg32(5)
    )
    assert odds < steward.SAFE_BATTLE
    assert 1 <= _CountingBattles.started < steward.BATTLE_RUNS


def test_promotions_keep_the_army_above_its_minimum_strength() -> None:
    """A Level 3 promoted to 4 retires for 1 VP; when the army is near its Minimum
    Army Strength the steward promotes a lower unit instead."""
    state = blank(turn=8)  # minimum 38 on turn 8, the army's strength is 44
    actions = ["promote:infantry:1", "promote:scara:3"]
    prompt = Prompt(0, "Promote", tuple(Choice(a, a) for a in actions))
    state["tasks"] = [new_task("battle_promote", wing="left")]
    assert steward.strength_margin(state) < 4
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "promote:infantry:1"
    state["turn"] = 1  # no minimum for three turns
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "promote:scara:3"


def test_charlemagne_heads_for_rome_once_the_pam_allows_the_coronation() -> None:
    state = blank()
    state["pam"] = 2
    state["charlemagne"] = "lombardy"
    assert steward.goal_box(state) == "rome"
    state["charlemagne"] = "rome"
    prompt = campaign(state, "act:charlemagne:rome:forced_march:lombardy", "end")
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "end"


def test_charlemagne_keeps_out_of_the_next_moors_box() -> None:
    """A Moors piece drawn where Charlemagne stands is an Ambush (Defense Round first)."""
    state = blank()
    state["charlemagne"] = "poitiers"
    assert steward.ambush_risk(state, "spanish_march") > 0
    assert steward.ambush_risk(state, "gascony") == 0
    state["moors"]["spanish_march"] = ["moors-1"]
    assert steward.ambush_risk(state, "gascony") > 0


def test_the_hints_cut_playouts_and_score_the_vp_lead() -> None:
    """The evaluation grows with the lead over the turn's VP threshold and with the
    crowns the win needs; the rollout answers with a legal action."""
    hints = CmeHints()
    assert hints.rollout_depth is not None
    state = blank(turn=5)
    state["vp"] = 20
    even = hints.evaluate(GAME, state)
    state["vp"] = 30
    ahead = hints.evaluate(GAME, state)
    state["iron_crown"] = True
    crowned = hints.evaluate(GAME, state)
    assert even is not None and ahead is not None and crowned is not None
    assert 0 <= even[0] < ahead[0] < crowned[0] <= 1
    prompt = campaign(state, "act:charlemagne:aachen:forced_march:fulda", "end")
    assert hints.rollout(GAME, state, prompt, Pcg32(1)) in prompt.actions()


def test_the_hints_are_registered_for_this_game() -> None:
    from tabletop.games import charlemagne_master_of_europe as plugin

    found: dict[str, object] = {}
    plugin.tabletop_register_bot_hints(lambda game_id, hints: found.update({game_id: hints}))
    assert isinstance(found["charlemagne-master-of-europe"], CmeHints)


def test_vikings_in_the_way_of_bridges_and_roads_are_bought_off() -> None:
    """A Region with its Marquis and a Finished Church builds Bridges & Roads only
    without Vikings: the steward pays even for the fourth; elsewhere it does not."""
    state = blank()
    state["treasury"] = 9
    state["vikings"]["purple"] = ["viking-1", "viking-2", "viking-3", "viking-4"]
    state["tasks"] = [new_task("diplomacy_vikings", used=["purple"])]
    prompt = Prompt(0, "Vikings", (Choice("buy:purple", "Buy"), Choice("done", "Leave")))
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "done"
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    state["churches"]["purple"] = "finished"
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "buy:purple"
