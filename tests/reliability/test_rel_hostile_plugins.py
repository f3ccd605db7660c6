"""Plugins that misbehave on purpose: none of them may end the app or take a game.

A plugin that calls ``sys.exit`` (at import, while registering or in a game's
``apply``) is contained like any other error; a plugin that claims a game id or a bot
name already taken is refused and reported (the one installed first stays); a slow
import is reported. Only the user's Ctrl+C (KeyboardInterrupt) is never contained.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from toygames import HighCard

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework import Action, Context, Engine, GameInfo, PluginFault, RandomBot, State
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.session import GameSession


class Exiting(HighCard):
    """High Card whose second 'tap' half-changes the state, then calls sys.exit."""

    info = GameInfo(
        id="exiting", title="Exiting", min_players=2, max_players=2, options=HighCard.info.options
    )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap" and state["taps"] == 1:
            state["taps"] = 99
            sys.exit("the plugin quits")
        super().apply(state, seat, action, ctx)


class Interrupted(HighCard):
    """High Card interrupted by the user (Ctrl+C) on the first 'tap'."""

    info = GameInfo(
        id="interrupted",
        title="Ctrl+C",
        min_players=2,
        max_players=2,
        options=HighCard.info.options,
    )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        raise KeyboardInterrupt


def _engine(game: HighCard) -> Engine:
    return Engine(
        game, seed=3, players=2, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )


def test_sys_exit_in_apply_is_a_plugin_fault_with_the_state_restored() -> None:
    engine = _engine(Exiting())
    engine.act(0, "tap")
    digest = engine.digest()
    with pytest.raises(PluginFault, match="SystemExit: the plugin quits"):
        engine.act(0, "tap")
    assert engine.digest() == digest and engine.state["taps"] == 1
    engine.act(0, "keep")
    assert engine.prompt is not None


def test_a_session_survives_sys_exit_in_apply_and_keeps_the_save(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    session = GameSession.start(
        Exiting(),
        seed=3,
        players=2,
        options={},
        controllers=["human", "human"],
        bot_factories={"random": lambda game: RandomBot()},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        store=store,
    )
    session.act(0, "tap")
    with pytest.raises(PluginFault):
        session.act(0, "tap")
    assert session.save_id is not None
    assert store.load(session.save_id).actions == [(0, "tap")]


def test_ctrl_c_is_never_contained() -> None:
    engine = _engine(Interrupted())
    with pytest.raises(KeyboardInterrupt):
        engine.act(0, "tap")
