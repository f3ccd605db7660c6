"""Two writers of one save, and two runs into one directory: nothing lost in silence.

Each ``JsonSaveStore`` stands for one process (one window): it remembers the version of
every file it read or wrote, and refuses to replace a file that changed since.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from pathlib import Path

from relhelp import fingerprint
from sessions import CliRun, resume_session, start_session

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.errors import SaveError
from tabletop.framework.session import GameSession
from tabletop.games.pig import Pig


def _open(store: JsonSaveStore, save_id: str) -> GameSession:
    return resume_session(Pig(), store.load(save_id), save_id=save_id, store=store)


def _new_game(directory: Path) -> str:
    session = start_session(Pig(), ["human", "human"], seed=9, store=JsonSaveStore(directory))
    assert session.save_id is not None
    return session.save_id


def test_two_windows_on_one_save_never_lose_moves_in_silence(tmp_path: Path) -> None:
    save_id = _new_game(tmp_path)
    first, second = JsonSaveStore(tmp_path), JsonSaveStore(tmp_path)
    one, two = _open(first, save_id), _open(second, save_id)
    for _ in range(3):  # the first window plays three moves, each autosaved
        prompt = one.engine.prompt
        assert prompt is not None
        one.act(prompt.seat, "roll")
    assert len(first.load(save_id).actions) == 3 and one.last_save_error is None
    on_disk = fingerprint(first.path_of(save_id))

    prompt = two.engine.prompt
    assert prompt is not None
    two.act(prompt.seat, "roll")  # the second window's move: its autosave must refuse
    assert two.last_save_error is not None
    assert "changed by another window or program" in two.last_save_error
    assert fingerprint(first.path_of(save_id)) == on_disk, "the first window's moves were lost"

    # The refusal is sticky: every later autosave is refused too, nothing is replaced.
    prompt = two.engine.prompt
    assert prompt is not None
    two.act(prompt.seat, prompt.choices[0].action)
    assert two.last_save_error is not None
    assert fingerprint(first.path_of(save_id)) == on_disk

    # The second window's moves are kept under another name.
    copy = second.save(two.record(), "second-window")
    assert second.load(copy).actions == list(two.record().actions)


def test_a_save_rewritten_elsewhere_is_not_overwritten(tmp_path: Path) -> None:
    save_id = _new_game(tmp_path)
    store = JsonSaveStore(tmp_path)
    record = store.load(save_id)
    other = JsonSaveStore(tmp_path)
    other.load(save_id)
    other.save(record, save_id)  # another process rewrote it (same content, new file)
    try:
        store.save(record, save_id)
    except SaveError as exc:
        assert "changed by another window" in str(exc)
    else:
        raise AssertionError("a save changed on disk was overwritten")
    store.forget(save_id)  # the player chose to overwrite it after all
    assert store.save(record, save_id) == save_id


def test_two_simulate_runs_with_other_options_keep_both_runs(cli: CliRun, tmp_path: Path) -> None:
    saves = tmp_path / "runs"
    base = ["simulate", "pig", "--games", "4", "--seed", "1", "--save-dir", str(saves)]
    assert cli(*base, "--option", "target=50")[0] == 0
    first = {path.name: fingerprint(path) for path in saves.glob("*.json")}
    assert len(first) == 4
    assert cli(*base, "--option", "target=100")[0] == 0
    assert cli(*base, "--players", "3")[0] == 0
    after = {path.name: fingerprint(path) for path in saves.glob("*.json")}
    assert len(after) == 12, "a run replaced another run's saves"
    assert all(after[name] == digest for name, digest in first.items())
    targets = {json.loads((saves / name).read_text())["options"]["target"] for name in after}
    assert targets == {"50", "100"}
    # The same settings again rewrite the same games: no pile of duplicates.
    assert cli(*base, "--option", "target=50")[0] == 0
    assert len(list(saves.glob("*.json"))) == 12


def test_writes_wait_for_the_directory_lock(tmp_path: Path) -> None:
    """A writer holding the save directory's lock makes every other writer wait, so
    the compare-before-write and the rename are one step for all of them."""
    save_id = _new_game(tmp_path)
    store = JsonSaveStore(tmp_path)
    record = store.load(save_id)
    done = threading.Event()
    holder = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # another process in the middle of a write

    def write() -> None:
        store.save(record, save_id)
        done.set()

    try:
        writer = threading.Thread(target=write)
        writer.start()
        assert not done.wait(0.3), "the save did not wait for the lock"
    finally:
        os.close(holder)  # releases the lock
    writer.join(5)
    assert done.is_set()


def test_the_conflict_message_says_a_copy_holds_only_the_moves_so_far(tmp_path: Path) -> None:
    """Issue 22, finding 5: the advice promised that a copy keeps "these moves"; a copy
    is a snapshot and the game goes on saving (and failing) to its own save."""
    save_id = _new_game(tmp_path)
    first, second = JsonSaveStore(tmp_path), JsonSaveStore(tmp_path)
    one, two = _open(first, save_id), _open(second, save_id)
    for session in (one, two):
        prompt = session.engine.prompt
        assert prompt is not None
        session.act(prompt.seat, "roll")
    message = two.last_save_error
    assert message is not None and "to keep these moves" not in message
    copy = second.save(two.record(), "bcopy")
    for _ in range(2):
        prompt = two.engine.prompt
        assert prompt is not None
        two.act(prompt.seat, prompt.choices[0].action)
    assert len(second.load(copy).actions) < len(two.engine.log)  # the copy is a snapshot
    assert two.last_save_error is not None  # and the game still fails to save
    assert "a copy saved now holds only the moves made so far" in two.last_save_error
    assert "write the game to another file when you leave it" in two.last_save_error
