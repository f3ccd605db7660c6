"""A whole game won under the standard rules: the steward's game with seed 100027
(game 24 of ``tabletop simulate charlemagne-master-of-europe --seed 1 --seats
cme-steward``), kept as its record (seed and actions) and replayed here.

It proves that victory is reachable: the engine refuses any illegal action, the
dice and cups come from the seed alone, and the replay must end in the rules'
victory with all five conditions met. If a rules change makes an action of this
line illegal or changes its dice, the replay fails and the line must be played again
(``/tmp``-free: ``StewardBot`` on seed 100027 with ``Engine.record``).
"""

from __future__ import annotations

import json
from pathlib import Path

from cme_helpers import GAME

from tabletop.framework.engine import Engine
from tabletop.framework.record import GameRecord
from tabletop.framework.testing import new_engine, reload, replay
from tabletop.games.charlemagne_master_of_europe import board
from tabletop.games.charlemagne_master_of_europe.data import FINAL_VP_THRESHOLD, LAST_TURN

LINE = Path(__file__).parent / "data" / "steward-victory-seed100027.json"


def test_a_recorded_game_is_won_under_the_standard_rules() -> None:
    record = GameRecord.from_json(json.loads(LINE.read_text(encoding="utf-8")))
    assert record.options == {"mode": "standard"}
    engine = reload(GAME, record, verify=True)  # every action legal, same digest
    state = engine.state
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)
    assert result.outcome == "victory: Master of Europe"
    assert state["turn"] == LAST_TURN
    assert state["vp"] >= FINAL_VP_THRESHOLD
    assert state["iron_crown"] and state["hre"]
    assert board.moors_on_map(state) == 0
    assert len(board.roads_regions(state)) == 4


def test_the_recorded_victory_reaches_every_milestone_fuzz_is_asked_for() -> None:
    """``must_reach`` names what a fuzz run with the steward must get to: this game
    gets to all of them, and to the late titles, read after every action as fuzz does."""
    record = GameRecord.from_json(json.loads(LINE.read_text(encoding="utf-8")))
    engine = new_engine(GAME, seed=record.seed, players=1, options=record.options, undo=False)
    reached = set(GAME.milestones(engine.state))
    for seat, action in record.actions:
        engine.act(seat, action)
        reached |= set(GAME.milestones(engine.state))
    assert set(GAME.must_reach) <= reached
    assert {"victory", "Holy Roman Emperor", "King of the Lombards", "Bridges & Roads"} <= reached
    assert "turn 16 scored" not in GAME.milestones(engine_at(record, 10).state)


def engine_at(record: GameRecord, actions: int) -> Engine:
    """The recorded game after its first ``actions`` actions."""
    return replay(GAME, record, upto=actions)
