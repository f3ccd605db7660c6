"""GameSession: bots, autosave after every action, undo back to a person, and the UI
port it asks for people's decisions and tells every change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from memory_store import MemoryStore
from sessions import BOTS, DICE_FACTORY, RNG_FACTORY, resume_session, start_session
from toygames import Counter, Crashy, Exploding, HighCard, OpenHighCard

from tabletop.adapters.headless import HeadlessUI, ScriptedUI
from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework import GameDefinition, Prompt, Result, TabletopError, testing
from tabletop.framework.errors import PluginFault, UndoRefused
from tabletop.framework.ports import SaveStore
from tabletop.framework.session import BotTurn, GameSession, Move
from tabletop.games.pig import Pig


def _start(
    game: GameDefinition,
    controllers: list[str],
    store: SaveStore | None = None,
    seed: int = 3,
) -> GameSession:
    return start_session(game, controllers, seed=seed, store=store)


def test_every_action_is_autosaved_and_resumes(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    session = _start(Pig(), ["human", "random"], store)
    assert session.save_id is not None
    session.act(0, "roll")
    assert len(store.load(session.save_id).actions) == 1
    session.play_bots()
    record = store.load(session.save_id)
    assert len(record.actions) == len(session.engine.log)
    resumed = resume_session(Pig(), record, save_id=session.save_id, store=store)
    assert resumed.engine.digest() == session.engine.digest()
    assert resumed.controllers == ["human", "random"]


def test_bots_play_until_a_person_must_decide() -> None:
    session = _start(HighCard(), ["random", "human"])
    moves = session.play_bots()
    assert [m.seat for m in moves] == [0] * len(moves) and moves
    assert session.engine.prompt is not None and session.engine.prompt.seat == 1
    assert not session.waiting_for_bot


def test_bot_games_are_reproducible() -> None:
    one = _start(Pig(), ["random", "random", "random"], seed=8)
    two = _start(Pig(), ["random", "random", "random"], seed=8)
    one.play_bots()
    two.play_bots()
    assert one.engine.over and one.engine.digest() == two.engine.digest()


def test_undo_goes_back_to_the_persons_last_decision() -> None:
    session = _start(HighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "tap")
    assert session.undo() == 1
    assert [e.action for e in session.engine.log] == ["tap"]
    bots_only = _start(HighCard(), ["random", "random"])
    with pytest.raises(UndoRefused, match="no person"):
        bots_only.undo()


def test_unknown_seat_kinds_are_refused() -> None:
    with pytest.raises(TabletopError, match="unknown seat kind 'genius'"):
        _start(Pig(), ["human", "genius"])


def test_open_information_undo_takes_back_bot_moves_with_the_persons_decision() -> None:
    session = _start(OpenHighCard(), ["human", "random"], seed=4)
    session.act(0, "tap")
    session.act(0, "keep")  # seat 1, a bot, is now due
    session.engine.act(1, "tap")  # a bot move that used no chance
    assert session.undo() == 2
    assert [(e.seat, e.action) for e in session.engine.log] == [(0, "tap")]


def test_hidden_information_undo_never_reaches_back_over_a_bot_decision() -> None:
    """A person must not act, see how the bot answers from its hidden hand, and retry."""
    session = _start(HighCard(), ["human", "random"], seed=4)
    session.act(0, "tap")
    session.act(0, "keep")  # seat 1, a bot, is now due
    session.engine.act(1, "tap")  # the bot answers, using no chance
    assert not session.can_undo() and not session.can_undo(by=0)
    with pytest.raises(UndoRefused, match="another seat's decision"):
        session.undo(by=0)
    assert [(e.seat, e.action) for e in session.engine.log] == [(0, "tap"), (0, "keep"), (1, "tap")]
    # before the bot has answered, the person may still take back their own decision
    again = _start(HighCard(), ["human", "random"], seed=4)
    again.act(0, "tap")
    assert again.undo(by=0) == 1 and again.engine.log == []


def test_with_several_people_only_the_decider_may_take_back() -> None:
    session = _start(HighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "keep")
    with pytest.raises(UndoRefused, match="the last decision was Seat 0's"):
        session.undo(by=1)
    assert not session.can_undo(by=1) and session.can_undo(by=0)
    assert len(session.engine.log) == 2  # a refused undo changes nothing
    assert session.undo(by=0) == 1


def test_undo_is_refused_when_chance_came_after_the_decision() -> None:
    session = _start(HighCard(), ["human", "human"])
    with pytest.raises(UndoRefused, match="nothing to take back"):
        session.undo()
    session.act(0, "swap")  # a random draw
    with pytest.raises(UndoRefused, match="chance or a reveal"):
        session.undo()


# The UI port -------------------------------------------------------------------------


class Recorder(HeadlessUI):
    """A headless UI that also notes every call in order, by name."""

    def __init__(self, script: list[str] | None = None) -> None:
        super().__init__()
        self.script = list(script or [])
        self.calls: list[str] = []

    def attached(self, session: GameSession) -> None:
        super().attached(session)
        self.calls.append("attached")

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> str | None:
        self.calls.append(f"ask {seat}")
        return self.script.pop(0) if self.script else None

    def bot_thinking(self, turn: BotTurn) -> str | None:
        self.calls.append(f"think {turn.seat}")
        return super().bot_thinking(turn)

    def moved(self, move: Move) -> None:
        super().moved(move)
        self.calls.append(f"moved {move.seat} {move.action}")

    def undone(self, steps: int) -> None:
        self.calls.append(f"undone {steps}")

    def saved(self, save_id: str) -> None:
        self.calls.append("saved")

    def save_failed(self, message: str) -> None:
        super().save_failed(message)
        self.calls.append("save_failed")

    def game_over(self, result: Result | None) -> None:
        super().game_over(result)
        self.calls.append("game_over")

    def closed(self) -> None:
        self.calls.append("closed")


def test_a_script_plays_people_through_the_port() -> None:
    ui = ScriptedUI(["tap", "keep", "keep"])
    session = _start(OpenHighCard(), ["human", "human"], seed=4)
    session.attach(ui)
    moves = session.run()
    assert [(m.seat, m.action) for m in moves] == [(0, "tap"), (0, "keep"), (1, "keep")]
    assert ui.asked == [(0, "Keep, swap or tap?")] * 2 + [(1, "Keep, swap or tap?")]
    assert ui.over and ui.result == session.engine.result and not ui.script


def test_the_ui_is_told_every_change_in_order() -> None:
    store = MemoryStore()
    ui = Recorder(["tap"])
    session = start_session(OpenHighCard(), ["human", "random"], seed=4, store=store, ui=ui)
    assert ui.calls == ["attached"]  # the first autosave came before: nothing to tell
    session.run()  # the script taps, then the person's next decision stays pending
    assert ui.calls[1:4] == ["ask 0", "saved", "moved 0 tap"]
    assert ui.calls[4:] == ["ask 0"]
    session.undo()
    assert ui.calls[-2:] == ["saved", "undone 1"]
    ui.script = ["keep"]
    session.run()  # the person keeps; the bot (seat 1) plays to the end
    assert ui.calls[-1] == "game_over" and "think 1" in ui.calls
    assert ui.thinking == [1] * ui.thinking.count(1) and ui.thinking
    session.close()
    session.close()
    assert ui.calls.count("closed") == 1 and ui.calls.count("game_over") == 1
    assert store.load(session.save_id or "").digest == session.engine.digest()


def test_save_failures_reach_the_ui_through_the_port_until_saving_works() -> None:
    store = MemoryStore(fail=True)
    session = _start(HighCard(), ["human", "human"], store=store)
    assert session.save_id is None and session.last_save_error is not None
    ui = Recorder()
    session.attach(ui)  # a UI attached later learns of the problem at once
    assert ui.calls == ["attached", "save_failed"]
    session.act(0, "tap")  # the game goes on in memory
    assert ui.save_failures == [session.last_save_error] * 2
    assert "No space left on device" in ui.save_failures[0]
    store.fail = False
    session.act(0, "tap")
    assert ui.calls[-2:] == ["saved", "moved 0 tap"] and session.last_save_error is None
    assert len(store.load(session.save_id or "").actions) == 2


def test_a_ui_attached_to_a_finished_game_is_told_it_is_over() -> None:
    session = _start(Pig(), ["random", "random"], seed=8)
    session.run()  # no UI: the bots play to the end
    ui = Recorder()
    session.attach(ui)
    session.run()
    session.run()
    assert ui.calls == ["attached", "game_over"]


def test_a_bots_late_answer_to_an_undone_decision_is_dropped() -> None:
    class ThinksLater(Recorder):
        """Like the Textual app: the bot's turn is kept, to be answered later."""

        def __init__(self, script: list[str]) -> None:
            super().__init__(script)
            self.turns: list[BotTurn] = []

        def bot_thinking(self, turn: BotTurn) -> str | None:
            self.turns.append(turn)
            return None

    ui = ThinksLater(["tap"])
    session = _start(OpenHighCard(), ["human", "random"], seed=4)
    session.attach(ui)
    session.act(0, "keep")  # the bot (seat 1) is due
    session.run()
    [turn] = ui.turns
    action = turn.think()  # elsewhere (a worker thread, in the app)
    session.undo()  # ... while the person takes their decision back
    assert not turn.current and turn.play(action) is None
    turn.failed(RuntimeError("too late"))  # a stale failure is not reported either
    assert session.engine.log == [] and ui.bot_errors == []
    session.act(0, "keep")
    session.run()
    fresh = ui.turns[-1]
    move = fresh.play(fresh.think())
    assert move is not None and move.seat == 1 and fresh.kind == "random"


def test_a_failing_bot_and_a_game_fault_are_told_then_raised() -> None:
    ui = Recorder()
    session = start_session(
        Pig(), ["crashy", "random"], seed=1, ui=ui, bots={**BOTS, "crashy": lambda game: Crashy()}
    )
    with pytest.raises(ValueError, match="marbles"):
        session.run()
    assert [(seat, type(error)) for seat, error in ui.bot_errors] == [(0, ValueError)]

    faulty = ScriptedUI(["tap", "tap"])
    exploding = _start(Exploding(), ["human", "human"], seed=11)
    exploding.attach(faulty)
    with pytest.raises(PluginFault):
        exploding.run()
    assert len(faulty.faults) == 1 and len(faulty.moves) == 1
    assert exploding.engine.state["taps"] == 1  # kept as it was before the fault


def test_a_broken_view_does_not_stop_a_person_deciding() -> None:
    class BlindHighCard(OpenHighCard):
        def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
            raise KeyError("cards")

    views: list[dict[str, Any]] = []

    class Looks(ScriptedUI):
        def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> str | None:
            views.append(view)
            return super().ask(seat, view, prompt)

    session = _start(BlindHighCard(), ["human", "human"], seed=2)
    session.attach(Looks(["keep"]))
    assert len(session.run()) == 1
    assert "could not show its table: KeyError" in views[0]["error"]


def test_play_bot_is_one_step_of_run() -> None:
    session = _start(HighCard(), ["random", "human"], seed=5)
    while session.waiting_for_bot:
        move = session.play_bot()
        assert move is not None and move.seat == 0
    assert session.play_bot() is None  # a person is due: nothing happens


def test_the_kit_and_the_app_wire_the_same_chance() -> None:
    """Framework tests build engines with the kit's adapters, app tests with the
    container's: they must be the ones saves are made with, or the two kinds of test
    would be testing different games."""
    assert testing.default_factories() == (RNG_FACTORY, DICE_FACTORY)


# Undo in an open game: the newest decision of a person, and whose it is -------------


def test_open_information_undo_takes_back_the_newest_decision_alone() -> None:
    session = _start(OpenHighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "tap")
    assert session.undo() == 1 and len(session.engine.log) == 1


def test_open_information_undo_with_several_people_is_the_deciders_alone() -> None:
    session = _start(OpenHighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "keep")  # seat 1 is due now, and may not take seat 0's move back
    assert not session.can_undo(by=1) and session.can_undo(by=0) and session.can_undo()
    with pytest.raises(UndoRefused, match="the last decision was Seat 0's: only they"):
        session.undo(by=1)
    assert len(session.engine.log) == 2  # a refused undo changes nothing
    assert session.undo(by=0) == 1


def test_open_information_undo_with_one_person_is_theirs_whoever_asks() -> None:
    """With one person at the table there is nobody else to protect: ``by`` (the seat
    a front end says is asking) does not matter."""
    session = _start(OpenHighCard(), ["human", "random"])
    session.act(0, "tap")
    assert session.can_undo(by=1)
    assert session.undo(by=1) == 1 and session.engine.log == []


def test_open_information_undo_stops_at_chance_after_the_decision() -> None:
    session = _start(OpenHighCard(), ["human", "human"])
    session.act(0, "swap")  # a random draw: a barrier
    assert not session.can_undo()
    with pytest.raises(UndoRefused, match="chance or a reveal came after"):
        session.undo()
    assert len(session.engine.log) == 1


def test_a_game_ended_again_after_an_undo_is_told_again() -> None:
    """Undoing the winning move reopens the game; ending it again must be told again
    (the UI shows the result screen, the log records the end) and asked once more."""
    ui = Recorder()
    session = start_session(Counter(), ["human"], ui=ui)
    for _ in range(Counter.limit):
        session.act(0, "tick")
    assert ui.calls.count("game_over") == 1 and session.engine.over
    assert session.can_undo() is True
    assert session.undo() == 1 and not session.engine.over
    session.act(0, "tick")
    assert ui.calls.count("game_over") == 2


def test_can_undo_answers_a_bool() -> None:
    session = _start(HighCard(), ["human", "human"])
    assert session.can_undo() is False
    session.act(0, "tap")
    assert session.can_undo() is True
