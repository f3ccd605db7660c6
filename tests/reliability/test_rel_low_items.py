"""Issue 22, finding 8 (the low items): ``replay --verify`` refuses what the app
refuses, messages name the file (and the plugin), a symlinked save stays a link, and a
save directory that is a file or a dangling link says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakesite import install_games
from relhelp import read, write_signed
from sessions import CliRun, resume_session, start_session
from stuckgames import ViewExplodes

from tabletop.adapters.saves import JsonSaveStore, read_save_file
from tabletop.framework.errors import SaveError
from tabletop.framework.session import GameSession
from tabletop.games.pig import Pig


@pytest.fixture
def pig_file(tmp_path: Path) -> Path:
    """A two-seat Pig save (two people) with a few moves."""
    store = JsonSaveStore(tmp_path / "saves")
    session = start_session(Pig(), ["human", "human"], seed=4, store=store)
    for _ in range(3):
        _move(session)
    assert session.save_id is not None
    return store.path_of(session.save_id)


def _move(session: GameSession) -> None:
    prompt = session.engine.prompt
    assert prompt is not None
    session.act(prompt.seat, prompt.choices[0].action)


def _edited(path: Path, **changes: object) -> Path:
    data = read(path)
    data.update(changes)
    write_signed(path, data)
    return path


def test_verify_refuses_a_seat_kind_the_app_refuses(cli: CliRun, pig_file: Path) -> None:
    code, out, err = cli("replay", str(pig_file), "--verify")
    assert code == 0 and "verified" in out, err
    _edited(pig_file, seats=["human", "skynet"])
    code, _, err = cli("replay", str(pig_file), "--verify")
    assert code == 1 and f"{pig_file.name}: seat 1 is played by 'skynet'" in err
    assert "the app cannot open this save" in err


def test_messages_name_the_save(cli: CliRun, pig_file: Path) -> None:
    _edited(pig_file, options={**read(pig_file)["options"], "target": "7"})
    code, _, err = cli("replay", str(pig_file))
    assert code == 2 and err.startswith(f"tabletop: error: {pig_file.name}: option target")
    _edited(pig_file, options={}, rng="mt19937")
    code, _, err = cli("replay", str(pig_file))
    assert code == 1 and err.startswith(f"tabletop: error: {pig_file.name}: record was made")


def test_a_view_that_raises_is_named_with_the_save_and_plugin(
    cli: CliRun, site: Path, tmp_path: Path
) -> None:
    install_games(site, "exploding", "stuckgames:ViewExplodes")
    store = JsonSaveStore(tmp_path / "saves")
    session = start_session(ViewExplodes(), ["random", "random"], seed=2, store=store)
    session.run(5)
    assert session.save_id is not None
    save = store.path_of(session.save_id)
    code, _, err = cli("replay", str(save), "--to", "3", "--seat", "1")
    assert code == 1 and "a bug" not in err
    assert f"{save.name}: the view for seat 1 failed in plugin 'exploding'" in err
    code, out, _ = cli("replay", str(save), "--to", "3", "--seat", "0")
    assert code == 0 and json.loads(out)["seat"] == 0


def test_a_symlinked_save_stays_a_link_and_its_target_is_saved(
    pig_file: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "kept" / "real.json"
    elsewhere.parent.mkdir()
    pig_file.rename(elsewhere)
    pig_file.symlink_to(elsewhere)
    store = JsonSaveStore(pig_file.parent)
    save_id = pig_file.stem
    session = resume_session(Pig(), store.load(save_id), save_id=save_id, store=store)
    _move(session)
    assert session.last_save_error is None
    assert pig_file.is_symlink() and pig_file.resolve() == elsewhere.resolve()
    assert len(read_save_file(elsewhere)[0].actions) == len(session.engine.log)


def test_a_save_directory_that_is_a_file_or_a_dangling_link_says_so(
    pig_file: Path, tmp_path: Path
) -> None:
    record, _ = read_save_file(pig_file)
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(SaveError, match="is a file, not a directory"):
        JsonSaveStore(a_file).save(record)
    assert a_file.read_text() == "x"
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    for attempt in (JsonSaveStore(dangling).list, lambda: JsonSaveStore(dangling).save(record)):
        with pytest.raises(SaveError, match="a link to something that does not exist"):
            attempt()
    assert not (tmp_path / "nowhere").exists()
