"""A game whose ``view`` or ``prompt`` changes its state (issue 22, finding 4).

Such a change is not in the log, so the save's digest is one its moves never reach:
the save would never open again. The fuzzer and the conformance kit name it; the app
refuses to write such a save (``ReplayCheckedStore``, wired by the container) and
says so at once, keeping the last save that loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from sessions import CHANCE, DICE_FACTORY, RNG_FACTORY, start_session
from toygames import renamed

from tabletop.adapters.saves import JsonSaveStore, ReplayCheckedStore
from tabletop.framework import Prompt, State, hookimpl
from tabletop.framework.engine import Engine
from tabletop.framework.fuzz import fuzz
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import GameSession
from tabletop.framework.testing import GameConformance, conformance_kit
from tabletop.games.pig import Pig


class ViewBumps(Pig):
    """Its view adds a point to the first bank: the finding's game."""

    info = renamed(Pig.info, "mut-pig", "Mutating Pig")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        state["banks"][0] += 1
        return super().view(state, seat)


class PromptBumps(Pig):
    """Its prompt counts how often it was asked, in the state."""

    def prompt(self, state: State) -> Prompt | None:
        state["asked"] = state.get("asked", 0) + 1
        return super().prompt(state)


def _move(session: GameSession) -> None:
    prompt = session.engine.prompt
    assert prompt is not None
    session.act(prompt.seat, prompt.choices[0].action)


def _checked(directory: Path, game: Pig) -> ReplayCheckedStore:
    return ReplayCheckedStore(JsonSaveStore(directory), lambda _: game, RNG_FACTORY, DICE_FACTORY)


def _loads(directory: Path, save_id: str, game: Pig) -> int:
    """How many actions the save holds, after replaying it verified (as opening does)."""
    record = JsonSaveStore(directory).load(save_id)
    Engine.from_record(game, record, verify=True, **CHANCE)
    return len(record.actions)


def test_a_save_that_would_not_load_is_refused_at_once(tmp_path: Path) -> None:
    game = ViewBumps()
    session = start_session(game, ["human", "human"], store=_checked(tmp_path, game))
    _move(session)
    assert session.last_save_error is None
    session.engine.view(0)  # the screen shows the table: the state changes
    _move(session)
    assert session.last_save_error is not None
    assert "would not load back" in session.last_save_error
    assert session.save_id is not None
    assert _loads(tmp_path, session.save_id, game) == 1  # the last good save is kept


def test_a_sound_game_is_never_refused_with_undo_and_reopening(tmp_path: Path) -> None:
    store = _checked(tmp_path, Pig())
    session = start_session(Pig(), ["human", "human"], store=store)
    for step in range(40):
        if session.engine.prompt is None:
            break
        _move(session)
        session.engine.view(step % 2)
        if step % 7 == 3 and session.engine.can_undo():
            session.undo()
        assert session.last_save_error is None, session.last_save_error
    assert session.save_id is not None
    assert _loads(tmp_path, session.save_id, Pig()) == len(session.engine.log) > 10


def test_the_apps_sessions_save_through_the_check(container: Any) -> None:
    class Plugin:
        @hookimpl
        def tabletop_register_games(self, register: Any) -> None:
            register(ViewBumps())

    registry = load_registry(plugins=[("mut", Plugin())], use_entry_points=False)
    container.registry.override(providers.Object(registry))
    session = container.session_starter().start(
        "mut-pig", seed=1, players=2, options={}, seats=["human", "human"]
    )
    _move(session)
    session.engine.view(1)
    _move(session)
    assert session.last_save_error is not None
    assert "would not load back" in session.last_save_error


def test_the_fuzzer_names_a_prompt_that_changes_the_state() -> None:
    report = fuzz(PromptBumps(), games=1, seed=2, max_actions=50, **CHANCE)
    assert report.errors == 1 and "prompt() changed the state" in report.failures[0].reason


class Kit(GameConformance):
    seeds = (1,)
    players = (2,)


def test_the_kit_names_a_view_or_prompt_that_changes_the_state() -> None:
    with pytest.raises(AssertionError, match=r"the view for seat 0 changed the state"):
        conformance_kit(ViewBumps(), Kit).test_views_are_json_and_leave_the_state_alone()
    with pytest.raises(AssertionError, match=r"prompt\(\) changed the state"):
        conformance_kit(PromptBumps(), Kit).test_prompt_leaves_the_state_alone()
    conformance_kit(Pig(), Kit).test_prompt_leaves_the_state_alone()  # Pig passes
