"""JSON save adapter: round trips, atomic writes, bad files get clear messages."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tabletop.adapters.saves import JsonSaveStore, atomic_write_text
from tabletop.framework.errors import SaveError
from tabletop.framework.record import FORMAT_VERSION, GameRecord
from tabletop.framework.testing import new_engine
from tabletop.games.pig import Pig


@pytest.fixture
def record() -> GameRecord:
    engine = new_engine(Pig(), seed=3, players=3)
    engine.act(0, "roll")
    engine.act(0, "roll")
    return engine.record(seats=["human", "random", "random"])


def test_round_trip(tmp_path: Path, record: GameRecord) -> None:
    store = JsonSaveStore(tmp_path)
    save_id = store.save(record)
    assert store.load(save_id) == record
    [info] = store.list()
    assert (info.save_id, info.game, info.players, info.actions) == (save_id, "pig", 3, 2)
    assert info.seats == ("human", "random", "random") and info.error is None
    store.delete(save_id)
    assert store.list() == []


def test_saving_again_replaces_the_same_file(tmp_path: Path, record: GameRecord) -> None:
    store = JsonSaveStore(tmp_path)
    save_id = store.save(record)
    record.actions.append((0, "hold"))
    assert store.save(record, save_id) == save_id
    assert len(store.load(save_id).actions) == 3
    assert [p.name for p in tmp_path.iterdir()] == [f"{save_id}.json"]


def test_a_failed_write_keeps_the_old_save_and_leaves_no_temp_file(
    tmp_path: Path, record: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = JsonSaveStore(tmp_path)
    save_id = store.save(record)
    before = (tmp_path / f"{save_id}.json").read_bytes()

    def crash(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    record.actions.append((0, "hold"))
    with pytest.raises(SaveError, match="No space left"):
        store.save(record, save_id)
    assert (tmp_path / f"{save_id}.json").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [f"{save_id}.json"]


def test_atomic_write_creates_directories(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "x.json"
    atomic_write_text(target, "{}")
    assert target.read_text() == "{}"


def _write(tmp_path: Path, name: str, text: str | bytes) -> None:
    path = tmp_path / f"{name}.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ('{"format": "tabletop-game-rec', "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"hello": "world"}', "not a Tabletop save"),
        (b"\xff\xfe\x00garbage", "not text"),
    ],
)
def test_bad_files_get_one_line_reasons(tmp_path: Path, content: str | bytes, message: str) -> None:
    _write(tmp_path, "bad", content)
    store = JsonSaveStore(tmp_path)
    with pytest.raises(SaveError, match=message) as info:
        store.load("bad")
    assert "\n" not in str(info.value)
    [listed] = store.list()
    assert listed.error is not None and message in listed.error
    assert (tmp_path / "bad.json").exists()  # listing never deletes anything


def test_newer_format_versions_and_edits_are_detected(tmp_path: Path, record: GameRecord) -> None:
    store = JsonSaveStore(tmp_path)
    save_id = store.save(record)
    path = tmp_path / f"{save_id}.json"
    data = json.loads(path.read_text())
    data["seed"] = 4
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="checksum mismatch"):
        store.load(save_id)
    del data["checksum"]
    data["version"] = FORMAT_VERSION + 1
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="newer than this Tabletop reads"):
        store.load(save_id)


def test_missing_fields_and_bad_names(tmp_path: Path, record: GameRecord) -> None:
    data = record.to_json()
    del data["seed"]
    _write(tmp_path, "noseed", json.dumps(data))
    store = JsonSaveStore(tmp_path)
    with pytest.raises(SaveError, match="missing field 'seed'"):
        store.load("noseed")
    with pytest.raises(SaveError, match="no such save"):
        store.load("absent")
    with pytest.raises(SaveError, match="not a valid save name"):
        store.load("../etc/passwd")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SaveError, match="is a directory"):
        store.load("dir")


def test_listing_sweeps_only_old_orphaned_temp_files(tmp_path: Path, record: GameRecord) -> None:
    store = JsonSaveStore(tmp_path)
    save_id = store.save(record)
    old = tmp_path / f".{save_id}.json.abc.tmp"
    fresh = tmp_path / f".{save_id}.json.def.tmp"
    old.write_text('{"half": ')
    fresh.write_text('{"half": ')
    os.utime(old, (1_000_000, 1_000_000))
    assert [info.save_id for info in store.list()] == [save_id]
    assert not old.exists() and fresh.exists()
    assert store.load(save_id) == record
