"""The rescue dialog ("Moves not saved") never destroys another file in silence
(issue 22, findings 3 and 7).

Two windows on one save: the second one's autosave is refused, and its rescue must
not write over the save either (the first window's moves are there), even when the
player types that very path. A file that exists is replaced only after a second Enter
on the same name; the proposed path never names an existing file (a second rescue of
the same game keeps the first). Without a home directory the proposal falls back to
the save directory, or the current one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from relhelp import fingerprint
from sessions import DICE_FACTORY, RNG_FACTORY, resume_session, start_session
from textual.widgets import Input, Static
from tui_support import engine_of, game_on, game_screen, pilot_test, press

from tabletop.adapters.saves import JsonSaveStore, read_save_file
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.save_as import SaveAsScreen
from tabletop.adapters.tui.screens.unsaved import (
    FileExists,
    UnsavedScreen,
    rescue_path,
    save_elsewhere,
)
from tabletop.framework.errors import SaveError
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import GameSession, SessionStarter
from tabletop.games.pig import Pig


def _roll(session: GameSession) -> None:
    prompt = session.engine.prompt
    assert prompt is not None
    session.act(prompt.seat, "roll")


def _conflict(directory: Path) -> tuple[GameSession, Path, str]:
    """Two windows on one save: the first moved three times (saved), the second once
    (refused). The second window's session, the save's path and its fingerprint."""
    store = JsonSaveStore(directory)
    first = start_session(Pig(), ["human", "human"], seed=9, store=store)
    assert first.save_id is not None
    save_id = first.save_id
    other = JsonSaveStore(directory)
    second = resume_session(Pig(), other.load(save_id), save_id=save_id, store=other)
    for _ in range(3):
        _roll(first)
    _roll(second)
    assert second.last_save_error is not None and "another window" in second.last_save_error
    path = store.path_of(save_id)
    return second, path, fingerprint(path)


def test_the_rescue_never_writes_over_the_games_own_save(tmp_path: Path) -> None:
    session, path, before = _conflict(tmp_path / "saves")
    for typed in (path, path.with_suffix(""), tmp_path / "saves" / ".." / "saves" / path.name):
        for replace in (False, True):
            with pytest.raises(SaveError, match="this game's own save"):
                save_elsewhere(session, typed, replace=replace)
    assert fingerprint(path) == before and len(read_save_file(path)[0].actions) == 3


def test_an_existing_file_is_replaced_only_when_confirmed(tmp_path: Path) -> None:
    session, _, _ = _conflict(tmp_path / "saves")
    first = tmp_path / "kept.json"
    save_elsewhere(session, first)
    kept = fingerprint(first)
    _roll(session)
    with pytest.raises(FileExists):
        save_elsewhere(session, first)
    assert fingerprint(first) == kept
    save_elsewhere(session, first, replace=True)
    assert len(read_save_file(first)[0].actions) == 2


def test_the_proposed_path_never_names_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    session, _, _ = _conflict(tmp_path / "saves")
    proposed = rescue_path(session)
    save_elsewhere(session, proposed)
    again = rescue_path(session)
    assert again != proposed and not again.exists() and again.parent == proposed.parent


def test_without_a_home_the_rescue_goes_to_the_save_directory_or_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    session, _, _ = _conflict(tmp_path / "saves")
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert rescue_path(session).parent == tmp_path / "saves"
    monkeypatch.setattr("os.access", lambda *args: False)  # an unwritable save dir
    monkeypatch.chdir(tmp_path)
    assert rescue_path(session).parent == tmp_path
    monkeypatch.setattr(Path, "expanduser", lambda path: no_home())
    with pytest.raises(SaveError, match="no home directory"):
        save_elsewhere(session, Path("~/x.json"))


@pilot_test
async def test_the_dialog_asks_before_replacing_and_refuses_the_games_own_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    session, path, before = _conflict(tmp_path / "saves")
    registry = load_registry(use_entry_points=False)
    sessions = SessionStarter(registry, RNG_FACTORY, DICE_FACTORY, session.store)
    app = TabletopApp(sessions, bot_delay=0.0)
    existing = tmp_path / "elsewhere.json"
    existing.write_text("not mine to lose")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(UnsavedScreen(session))
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, UnsavedScreen)
        field = dialog.query_one("#unsaved-path", Input)
        result = dialog.query_one("#unsaved-result", Static)
        field.value = str(path)  # the other window's save
        await press(pilot, "enter")
        await press(pilot, "enter")
        assert "own save" in str(result.render()) and app.screen is dialog
        assert fingerprint(path) == before
        field.value = str(existing)
        await press(pilot, "enter")
        assert "Enter again to replace" in str(result.render()) and app.screen is dialog
        assert existing.read_text() == "not mine to lose"
        await press(pilot, "enter")  # confirmed: replaced, and the dialog is done
        assert app.screen is not dialog
    assert len(read_save_file(existing)[0].actions) == 1


@pilot_test
async def test_a_copy_says_it_holds_only_the_moves_so_far(tmp_path: Path) -> None:
    """Issue 22, finding 5: "Saved a copy" read as if the copy kept the game's moves."""
    store = JsonSaveStore(tmp_path)
    async with game_on("pig", store=store, seats=("human", "human")) as (app, pilot):
        game = game_screen(app)
        await press(pilot, "1")
        await press(pilot, "s")
        assert isinstance(app.screen, SaveAsScreen)
        app.screen.query_one(Input).value = "bcopy"
        await press(pilot, "enter")
        told = [n.message for n in app._notifications if "Saved a copy as bcopy" in n.message]
        assert told and "later moves are not added to it" in told[0]
        while engine_of(game).prompt is not None and len(engine_of(game).log) < 3:
            await press(pilot, "1")
        assert len(store.load("bcopy").actions) == 1 < len(engine_of(game).log)
