"""A corpus of damaged saves: each gets one clear line, and nothing is lost.

For every kind of damage: ``tabletop replay`` and ``tabletop export`` print one line
and exit 2 without a traceback, ``JsonSaveStore.list()`` lists the file with an
``error``, and the file is left byte-identical (a save is never "repaired" away).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from relhelp import fingerprint, read, write_signed
from sessions import CliRun

from tabletop.adapters.saves import MAX_SAVE_BYTES, JsonSaveStore


def _truncated(path: Path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])


def _bit_flipped(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    at = raw.index(b'"roll"') + 2
    raw[at] ^= 0x01  # "roll" -> "rnll": still JSON, still UTF-8
    path.write_bytes(bytes(raw))


def _high_bit_flipped(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 3] ^= 0x80  # no longer valid UTF-8
    path.write_bytes(bytes(raw))


def _edited(**changes: object) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = read(path)
        for key, value in changes.items():
            if value is None:
                data.pop(key)
            else:
                data[key] = value
        write_signed(path, data)

    return damage


def _huge(path: Path) -> None:
    with path.open("r+b") as handle:  # sparse: big on paper, instant to make
        handle.truncate(MAX_SAVE_BYTES + 1)


def _deeply_nested(depth: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        text = path.read_text()  # edited as text: the JSON codec could not even write it
        nested = "[" * depth + "]" * depth
        path.write_text(text.replace('"meta": {}', f'"meta": {{"x": {nested}}}', 1))

    return damage


def _deeply_nested_action(depth: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = read(path)
        nested: list[object] = []
        for _ in range(depth):
            nested = [nested]
        data["actions"] = [*data["actions"], nested]
        write_signed(path, data)  # well signed: only the shape is wrong

    return damage


def _huge_integer(field: str, digits: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = read(path)
        data[field] = 12345  # a marker, replaced as text below
        body = json.dumps(data, indent=1).replace("12345", "7" * digits, 1)
        path.write_text(body)

    return damage


def _resigned(**changes: object) -> Callable[[Path], None]:
    """Edit and sign again (the checksum is no protection against a forger)."""
    return _edited(**changes)


def _without_checksum(path: Path) -> None:
    data = read(path)
    del data["checksum"]
    path.write_text(json.dumps(data, indent=1))


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "inside.txt").write_text("not a save")


CORPUS: dict[str, tuple[Callable[[Path], object], str]] = {
    "truncated": (_truncated, "not valid JSON"),
    "bit-flipped": (_bit_flipped, "checksum mismatch"),
    "bit-flipped-utf8": (_high_bit_flipped, "not text"),
    "wrong-version": (_edited(version="1"), "no valid format version"),
    "too-old-version": (_edited(version=0), "format version 0 is too old to migrate"),
    "newer-version": (_edited(version=99), "newer than this Tabletop reads"),
    "foreign-json": (lambda p: p.write_text('{"name": "x", "items": [1, 2]}'), "not a Tabletop"),
    "json-array": (lambda p: p.write_text("[1, 2, 3]"), "not a JSON object"),
    "missing-field": (_edited(seed=None), "missing field 'seed'"),
    "bad-action": (_edited(actions=[[0, "roll"], ["x", 3]]), "bad action entry"),
    "bad-type": (_edited(players="two"), "players must be int"),
    "huge": (_huge, "too large for a save"),
    "not-json": (lambda p: p.write_text("hello, I am a shopping list\n"), "not valid JSON"),
    "empty": (lambda p: p.write_bytes(b""), "empty file"),
    "whitespace": (lambda p: p.write_bytes(b"\n  \n"), "empty file"),
    "directory": (_directory, "is a directory"),
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe" * 40), "not text"),
    # Round two: files crafted to break the reader rather than damaged by accident.
    "deep-nesting": (_deeply_nested(1500), "nested"),
    "nesting-over-the-limit": (_deeply_nested(40), "nested deeper than 32 levels"),
    "deep-in-the-log": (_deeply_nested_action(900), "bad action entry"),
    "huge-integer": (_huge_integer("seed", 5000), "integer longer than 40 digits"),
    "long-integer": (_huge_integer("seed", 41), "integer longer than 40 digits"),
    "infinity": (lambda p: p.write_text('{"format": Infinity}'), "Infinity is not JSON"),
    "emptied-digest": (_resigned(digest=""), "digest must be 64 hexadecimal digits"),
    "missing-checksum": (_without_checksum, "no checksum"),
    "finished-as-string": (_resigned(finished="no"), "finished must be bool"),
    "progress-not-text": (_resigned(progress=["x"]), "progress must be str"),
    "seats-for-other-players": (_resigned(seats=["human"] * 3), "3 controllers for 2 players"),
    "seat-out-of-range": (_resigned(actions=[[7, "roll"]]), "seat that does not exist"),
    "players-absurd": (_resigned(players=10**9), "players must be between 1 and 1000"),
}


@pytest.fixture(params=sorted(CORPUS))
def damaged(request: pytest.FixtureRequest, pig_save: Path) -> tuple[Path, str]:
    damage, message = CORPUS[request.param]
    damage(pig_save)
    return pig_save, message


@pytest.mark.parametrize("command", ["replay", "export"])
def test_damaged_saves_get_one_clear_line(
    cli: CliRun, damaged: tuple[Path, str], command: str
) -> None:
    path, message = damaged
    before = fingerprint(path)
    argv = [command, str(path)] + (["--verify"] if command == "replay" else [])
    code, out, err = cli(*argv)
    assert code == 2, err
    assert err.startswith(f"tabletop: error: {path.name}: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err and out == ""
    assert fingerprint(path) == before, "a damaged save was changed"


def test_damaged_saves_are_listed_with_their_error(damaged: tuple[Path, str]) -> None:
    path, message = damaged
    before = fingerprint(path)
    store = JsonSaveStore(path.parent)
    store.path_of("other").write_text("")  # another broken file beside it must not matter
    [info] = [info for info in store.list() if info.save_id == "pig-game"]
    assert info.error is not None and message in info.error and "\n" not in info.error
    assert fingerprint(path) == before
    assert path.exists()


def test_listing_survives_dangling_links_and_temp_files(pig_save: Path) -> None:
    saves = pig_save.parent
    os.symlink(saves / "gone.json", saves / "dangling.json")
    (saves / ".pig-game.json.abc123.tmp").write_text("{half a wr")
    infos = {info.save_id: info for info in JsonSaveStore(saves).list()}
    assert infos["pig-game"].error is None and infos["pig-game"].actions > 0
    assert infos["dangling"].error is not None and "no such save file" in infos["dangling"].error
    assert set(infos) == {"pig-game", "dangling"}


def test_a_new_save_never_replaces_another(pig_save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = JsonSaveStore(pig_save.parent)
    record = store.load("pig-game")
    ids = iter(["pig-game", "pig-game", "fresh"])  # a clash with an existing save first
    monkeypatch.setattr(store, "new_id", lambda record: next(ids))
    before = fingerprint(pig_save)
    assert store.save(record) == "fresh"
    assert fingerprint(pig_save) == before


def test_a_damaged_save_in_a_real_process(isolated_env: Path, pig_save: Path) -> None:
    _bit_flipped(pig_save)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop.app.cli", "replay", str(pig_save)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"tabletop: error: {pig_save.name}: checksum mismatch: " + (
        "the file was changed or damaged\n"
    )


def test_a_fifo_named_like_a_save_is_refused_not_read(cli: CliRun, tmp_path: Path) -> None:
    saves = tmp_path / "fifo-saves"
    saves.mkdir()
    fifo = saves / "stuck.json"
    os.mkfifo(fifo)  # reading it would block forever
    code, _, err = cli("replay", str(fifo))
    assert code == 2 and "stuck.json: not a regular file" in err
    [info] = JsonSaveStore(saves).list()
    assert info.error is not None and "not a regular file" in info.error
