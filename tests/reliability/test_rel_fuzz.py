"""The fuzzer: Pig passes it, and each kind of broken game is caught by it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fakesite import install_games
from relhelp import saving_to
from sessions import CHANCE, CliRun
from toygames import HighCard

from tabletop.adapters.saves import JsonSaveStore, read_save_file
from tabletop.framework import Action, Choice, Context, Prompt, State
from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import replay
from tabletop.games.pig import Pig


def test_pig_survives_200_fuzzed_games(cli: CliRun, tmp_path: Path) -> None:
    code, out, err = cli("fuzz", "pig", "--games", "200", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "pig" and data["games"] == 200 and data["completed"] == 200
    assert data["errors"] == 0 and data["failures"] == []
    assert data["actions"] > 10_000 and data["roundtrips"] > data["games"]
    assert data["seconds"] > 0
    assert not (tmp_path / "fuzz-failures").exists()


def test_fuzz_runs_are_reproducible() -> None:
    runs = [fuzz(Pig(), games=5, seed=4, **CHANCE) for _ in range(2)]
    assert runs[0].actions == runs[1].actions > 0
    pinned = fuzz(Pig(), games=5, seed=4, players=3, options={"banks": "secret"}, **CHANCE)
    assert pinned.completed == 5


# Broken games: each breaks one guarantee the fuzzer checks. -------------------------


class BrokenInvariant(Pig):
    def invariants(self, state: State) -> list[str]:
        return ["turn 4 is cursed"] if state["turn"] >= 4 else []


class HiddenCounter(Pig):
    """Keeps state on the definition: replay from the record cannot reproduce it."""

    def __init__(self) -> None:
        self.calls = 0

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        self.calls += 1
        super().apply(state, seat, action, ctx)
        state["calls"] = self.calls


class UsesGlobalRandom(Pig):
    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        state["noise"] = random.random()  # chance that is not the engine's


class TupleState(Pig):
    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        state["last"] = (seat, action)


class NoChoices(Pig):
    def prompt(self, state: State) -> Prompt | None:
        prompt = super().prompt(state)
        if prompt is not None and state["turn"] >= 3:
            return Prompt(prompt.seat, "stuck", ())
        return prompt


class DuplicateChoices(Pig):
    def prompt(self, state: State) -> Prompt | None:
        prompt = super().prompt(state)
        if prompt is None:
            return None
        return Prompt(prompt.seat, prompt.text, (*prompt.choices, Choice("roll", "again")))


class Endless(HighCard):
    """Tapping forever is legal and nothing else is: the game never ends."""

    def prompt(self, state: State) -> Prompt | None:
        return Prompt(state["turn"], "tap", (Choice("tap", "Tap"),))


class ViewChangesState(Pig):
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        state["looked"] = state.get("looked", 0) + 1
        return super().view(state, seat)


class ViewRaises(Pig):
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise KeyError("spectator")
        return super().view(state, seat)


class ViewNotJson(Pig):
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "seen": {seat}}


class WrongWinner(Pig):
    def result(self, state: State) -> Any:
        result = super().result(state)
        return None if result is None else type(result)(winners=(99,))


class TwoSeatsForward(Pig):
    def prompt(self, state: State) -> Prompt | None:
        prompt = super().prompt(state)
        return None if prompt is None else Prompt(7, prompt.text, prompt.choices)


class BadSetup(Pig):
    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        raise RuntimeError("cannot set up")


BROKEN = [
    (BrokenInvariant(), "invariant broken: turn 4 is cursed"),
    (HiddenCounter(), "(gives a different|gave another) state"),
    (UsesGlobalRandom(), "gives a different state"),
    (TupleState(), r"state\.last is a tuple, not JSON data"),
    (NoChoices(), "has no legal choice and the game is not over"),
    (DuplicateChoices(), "offers the same action twice"),
    (Endless(), "no result after 50 actions"),
    (ViewChangesState(), "building a view changed the state"),
    (ViewRaises(), "view for spectator failed: KeyError"),
    (ViewNotJson(), "view for seat 0 failed: TypeError"),
    (WrongWinner(), "winners outside the seats"),
    (BadSetup(), "failed during setup: RuntimeError: cannot set up"),
    (TwoSeatsForward(), "prompt is for seat 7"),
]


@pytest.mark.parametrize(("game", "reason"), BROKEN, ids=[type(g).__name__ for g, _ in BROKEN])
def test_each_broken_guarantee_is_caught(game: Any, reason: str, tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    report = fuzz(game, games=3, seed=2, max_actions=50, on_failure=saving_to(store), **CHANCE)
    assert report.errors >= 1, "the fuzzer missed it"
    failure = report.failures[0]
    assert re.search(reason, failure.reason), failure.reason
    data = report.to_json()["failures"][0]
    assert {"seed", "reason", "save", "log"} <= set(data) and data["save"]
    record, _ = read_save_file(Path(failure.save))  # a failure is a loadable save
    assert record.seed == failure.seed and record.meta["fuzz"]["reason"] == failure.reason
    if isinstance(game, BrokenInvariant):  # and it reproduces the broken state
        engine = replay(BrokenInvariant(), record)
        assert game.invariants(engine.state)


def test_the_command_saves_failures_where_replay_can_open_them(
    cli: CliRun, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_games(site, "cursed", "toygames:Cursed")
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("fuzz", "cursed", "--games", "3", "--seed", "7")
    assert code == 1, err
    assert "cursed: 0/3 games passed, 3 failed" in out
    assert "invariant broken: turn 4 is cursed" in out
    saves = sorted((tmp_path / "fuzz-failures").glob("*.json"))
    assert len(saves) == 3
    assert f"saved: fuzz-failures/{saves[0].name} (tabletop replay fuzz-failures/" in out
    code, out, err = cli("replay", str(saves[0]), "--verify")
    assert code == 0 and "verified" in out, err

    before = saves[0].read_bytes()
    code, out, _ = cli("fuzz", "cursed", "--games", "3", "--seed", "7")
    assert code == 1 and saves[0].read_bytes() == before, "an earlier failure was replaced"
    assert len(list((tmp_path / "fuzz-failures").glob("*.json"))) == 6
    assert f"{saves[0].stem}-2.json" in out

    code, out, _ = cli("fuzz", "cursed", "--games", "2", "--json", "--save-dir", "elsewhere")
    data = json.loads(out)
    assert code == 1 and data["errors"] == 2
    assert all(Path(f["save"]).parent.name == "elsewhere" for f in data["failures"])
