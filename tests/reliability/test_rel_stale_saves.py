"""Saves the installed code can no longer fully play: reported clearly, kept, readable.

A save whose plugin is missing, whose plugin version changed, or whose log no longer
replays is never overwritten or deleted; it can be opened read-only as far as it
replays and its log exported. Also: an old record format migrates on load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from relhelp import fingerprint, read, write_signed
from sessions import DICE_FACTORY, RNG_FACTORY, CliRun, resume_session

from tabletop.adapters.saves import JsonSaveStore, read_save_file
from tabletop.framework import record
from tabletop.framework.engine import replay_partial
from tabletop.framework.errors import ReplayMismatch
from tabletop.framework.testing import replay
from tabletop.games.pig import Pig


def _break_action(path: Path, version: str = "0.9.0") -> int:
    """Make one action illegal, as a rules change would; return its 1-based number."""
    data = read(path)
    index = next(i for i, (_, action) in enumerate(data["actions"]) if action == "hold")
    data["actions"][index][1] = "fold"
    data["game_version"] = version
    write_signed(path, data)
    return index + 1


def test_a_save_for_a_missing_plugin(cli: CliRun, pig_save: Path) -> None:
    data = read(pig_save)
    data["game"] = "chess"
    write_signed(pig_save, data)
    before = fingerprint(pig_save)
    for argv in (["replay", str(pig_save), "--verify"], ["export", str(pig_save)]):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        assert "for the game 'chess', which is not installed" in err
        assert "kept unchanged" in err and err.count("\n") == 1
    [info] = JsonSaveStore(pig_save.parent).list()
    assert info.error is None and info.game == "chess"  # listed, so the player sees it
    assert fingerprint(pig_save) == before


def test_a_new_plugin_version_that_still_replays_is_only_noted(cli: CliRun, pig_save: Path) -> None:
    data = read(pig_save)
    data["game_version"] = "0.9.0"
    write_signed(pig_save, data)
    code, out, err = cli("replay", str(pig_save), "--verify")
    assert code == 0 and "verified" in out
    assert err == "tabletop: note: saved with pig 0.9.0, installed pig is 1.1.0\n"


def test_a_save_that_no_longer_replays_is_reported_and_kept(cli: CliRun, pig_save: Path) -> None:
    bad = _break_action(pig_save)
    before = fingerprint(pig_save)
    code, out, err = cli("replay", str(pig_save), "--verify")
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == "tabletop: note: saved with pig 0.9.0, installed pig is 1.1.0"
    assert f"action {bad} ('fold' by seat" in lines[1] and "does not replay" in lines[1]
    assert "saved with pig 0.9.0" in lines[1] and "kept unchanged" in lines[1]
    assert len(lines) == 2 and "Traceback" not in err
    assert fingerprint(pig_save) == before


def test_export_reads_it_as_far_as_it_replays(cli: CliRun, pig_save: Path) -> None:
    total = len(read(pig_save)["actions"])
    bad = _break_action(pig_save)
    before = fingerprint(pig_save)
    code, out, err = cli("export", str(pig_save))
    assert code == 1
    words = [line.split() for line in out.splitlines()[1:]]
    numbers = [int(line[0]) for line in words if line and line[0].isdigit()]  # action lines
    assert numbers and max(numbers) == bad - 1, "the log stops before the broken action"
    assert f"exported {bad - 1} of {total} actions" in err and "kept unchanged" in err
    assert fingerprint(pig_save) == before


def test_partial_replay_says_how_far_it_got(pig_save: Path) -> None:
    total = len(read(pig_save)["actions"])
    bad = _break_action(pig_save)
    saved, _ = read_save_file(pig_save)
    partial = replay_partial(Pig(), saved, rng_factory=RNG_FACTORY, dice_factory=DICE_FACTORY)
    assert not partial.complete and partial.replayed == bad - 1 and partial.total == total
    assert partial.problem is not None and "does not replay" in partial.problem
    assert len(partial.engine.log) == bad - 1

    saved.actions = saved.actions[: bad - 1]  # every action legal, but another digest
    partial = replay_partial(Pig(), saved, rng_factory=RNG_FACTORY, dice_factory=DICE_FACTORY)
    assert partial.replayed == partial.total == bad - 1
    assert partial.problem is not None and "final state differs" in partial.problem

    good = replay(Pig(), saved, verify=False)
    saved.digest = good.digest()
    partial = replay_partial(Pig(), saved, rng_factory=RNG_FACTORY, dice_factory=DICE_FACTORY)
    assert partial.complete and partial.replayed == bad - 1


def test_resuming_a_stale_save_fails_without_touching_it(pig_save: Path) -> None:
    _break_action(pig_save)
    store = JsonSaveStore(pig_save.parent)
    before = fingerprint(pig_save)
    with pytest.raises(ReplayMismatch, match=r"saved with pig 0\.9\.0"):
        resume_session(Pig(), store.load("pig-game"), save_id="pig-game", store=store)
    assert fingerprint(pig_save) == before


def _format_0(data: dict[str, Any]) -> dict[str, Any]:
    """What an imagined format 0 looked like: 'moves' of objects, no seats/meta."""
    old = {key: value for key, value in data.items() if key not in ("actions", "seats", "meta")}
    old["version"] = 0
    old["moves"] = [{"seat": seat, "do": action} for seat, action in data["actions"]]
    return old


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    data["actions"] = [[move["seat"], move["do"]] for move in data.pop("moves")]
    data["version"] = 1
    return data


def test_an_old_format_migrates_on_load(pig_save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    current = read(pig_save)
    write_signed(pig_save, _format_0(current))
    with pytest.raises(Exception, match="format version 0 is too old to migrate"):
        read_save_file(pig_save)

    monkeypatch.setitem(record.MIGRATIONS, 0, _migrate_0_to_1)
    before = fingerprint(pig_save)
    migrated, _ = read_save_file(pig_save)
    assert migrated.actions == [tuple(entry) for entry in current["actions"]]
    engine = replay(Pig(), migrated)
    assert engine.digest() == current["digest"]
    assert fingerprint(pig_save) == before, "loading must not rewrite the old file"

    store = JsonSaveStore(pig_save.parent)  # the next save writes the current format
    store.save(migrated, "pig-game")
    assert json.loads(pig_save.read_text())["version"] == record.FORMAT_VERSION


def test_migrations_chain_across_versions(pig_save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    current = read(pig_save)
    write_signed(pig_save, _format_0(current))
    steps: list[int] = []

    def one_to_two(data: dict[str, Any]) -> dict[str, Any]:
        steps.append(1)
        data["version"] = 2
        return data

    def zero_to_one(data: dict[str, Any]) -> dict[str, Any]:
        steps.append(0)
        return _migrate_0_to_1(data)

    monkeypatch.setattr(record, "FORMAT_VERSION", 2)
    monkeypatch.setitem(record.MIGRATIONS, 0, zero_to_one)
    monkeypatch.setitem(record.MIGRATIONS, 1, one_to_two)
    migrated, _ = read_save_file(pig_save)
    assert steps == [0, 1] and len(migrated.actions) == len(current["actions"])
