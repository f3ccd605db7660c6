"""Crafted saves: whatever the save directory holds, the app starts and shows text as
text; every command that reads a save fails in one line (exit 2) or, for a well-formed
save with an edited summary, catches the edit (exit 1); no file is ever changed.

The damaged-save corpus (test_rel_damaged_saves.CORPUS) covers files that are not valid
saves (deep nesting, huge integers, an emptied digest, a missing checksum...). This file
covers well-formed, correctly signed saves whose *text* is hostile (Rich markup, ANSI
escape sequences, forged metadata) and unusual file names.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from relhelp import fingerprint, read, write_signed
from sessions import DICE_FACTORY, RNG_FACTORY, CliRun
from textual.widgets import DataTable
from tui_support import wait_until

from tabletop.adapters.saves import JsonSaveStore, printable
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import SessionStarter
from tabletop.games import pig

ESC = "\x1b"
MARKUP = "[/oops] [bold red]shout[/] [link=https://example.com]x[/link]"
ANSI = f"{ESC}[2J{ESC}]0;pwned{ESC}\\{ESC}[31mred"


def _hostile(path: Path, **changes: object) -> None:
    data = read(path)
    data.update(changes)
    write_signed(path, data)


def _app(directory: Path) -> TabletopApp:
    registry = load_registry(plugins=[("pig", pig)], use_entry_points=False)
    sessions = SessionStarter(registry, RNG_FACTORY, DICE_FACTORY, JsonSaveStore(directory))
    return TabletopApp(sessions, bot_delay=0.0, new_seed=lambda: 7)


def _home_cells(app: TabletopApp) -> list[str]:
    table = app.screen.query_one("#saves", DataTable)
    return [str(cell) for row in range(table.row_count) for cell in table.get_row_at(row)]


def _start_and_list(directory: Path) -> list[str]:
    """Start the real app on ``directory``; return the text of the saves table."""
    cells: list[str] = []

    async def main() -> None:
        app = _app(directory)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            cells.extend(_home_cells(app))
            await pilot.press("ctrl+q")
        assert app.return_code in (None, 0)

    asyncio.run(main())
    return cells


def test_markup_and_escapes_in_a_save_are_shown_as_text(pig_save: Path) -> None:
    # the list's columns are narrow (cut with "…"): each kind comes first somewhere
    _hostile(pig_save, progress=ANSI + MARKUP, seats=[MARKUP, ANSI], game_version=ANSI)
    (pig_save.parent / "[bold]x[oops.json").write_text("not a save")  # markup in a name
    before = fingerprint(pig_save)
    cells = _start_and_list(pig_save.parent)
    text = "\n".join(cells)
    assert "[/oops]" in text, "markup must be shown literally"
    assert ESC not in text and "\ufffd" in text, "escape sequences must be neutralised"
    assert fingerprint(pig_save) == before


def test_the_app_starts_whatever_the_save_directory_holds(pig_save: Path) -> None:
    """Every file of the damaged-save corpus, side by side in one save directory."""
    from test_rel_damaged_saves import CORPUS

    original = pig_save.read_bytes()
    before: dict[str, str] = {}
    for name, (damage, _) in CORPUS.items():
        path = pig_save.with_name(f"{name}.json")
        path.write_bytes(original)
        damage(path)
        before[name] = fingerprint(path)
    cells = _start_and_list(pig_save.parent)
    rows = {cells[i]: cells[i + 1] for i in range(0, len(cells), 5)}  # name -> game
    assert all(rows[name] == "unreadable" for name in CORPUS), rows
    assert rows["pig-game"] != "unreadable"
    assert all(fingerprint(pig_save.with_name(f"{n}.json")) == before[n] for n in CORPUS)


def test_replay_and_export_print_no_escape_sequences(cli: CliRun, pig_save: Path) -> None:
    _hostile(pig_save, game_version=f"0.1{ANSI}", progress=ANSI)
    for argv in (["replay", str(pig_save)], ["export", str(pig_save)]):
        code, out, err = cli(*argv)
        assert code == 0, err
        assert ESC not in out and ESC not in err
        assert "saved with pig 0.1\ufffd" in err  # the note names the version, defused


@pytest.mark.parametrize(
    ("changes", "claim"),
    [({"finished": False}, "unfinished"), ({"progress": "Player 1 won by a mile"}, "progress")],
)
def test_verify_catches_a_forged_summary(
    cli: CliRun, pig_save: Path, changes: dict[str, object], claim: str
) -> None:
    _hostile(pig_save, **changes)
    before = fingerprint(pig_save)
    code, out, err = cli("replay", str(pig_save), "--verify")
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert claim in err and "kept unchanged" in err
    assert fingerprint(pig_save) == before


@pytest.mark.parametrize("name", ["my game", "café au lait", "-leading-dash", "Ünïcödé 2"])
def test_unusual_file_names_are_listed_and_open(pig_save: Path, name: str) -> None:
    renamed = pig_save.with_name(f"{name}.json")
    pig_save.rename(renamed)
    store = JsonSaveStore(renamed.parent)
    [info] = store.list()
    assert info.save_id == name and info.error is None
    assert store.load(name).actions
    opened: list[int] = []

    async def main() -> None:
        app = _app(renamed.parent)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            home.action_load_game(name)
            await pilot.pause()
            opened.append(len(app.screen_stack))
            # the game the app opened: a finished one, so its end is on screen
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            assert isinstance(over, GameOverScreen) and over.info.table == name
            await pilot.press("ctrl+q")

    asyncio.run(main())
    assert opened == [2]


def test_names_a_store_will_not_open(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    for bad in ["", ".hidden", "a/b", "x\x1b[2J", "n" * 300]:
        with pytest.raises(Exception, match="not a valid save name"):
            store.path_of(bad)


def test_printable_defuses_control_characters() -> None:
    assert printable("a\x1b[31mb\rc\nd\u202ee") == "a\ufffd[31mb\ufffdc\ufffdd\ufffde"
    assert printable("x" * 20, 5) == "xxxxx…"


def test_replay_to_shows_a_view_unless_full_state(cli: CliRun, pig_save: Path) -> None:
    code, out, _ = cli("replay", str(pig_save), "--to", "3")
    shown = json.loads(out)
    assert code == 0 and "view" in shown and "state" not in shown and shown["seat"] is None
    code, out, _ = cli("replay", str(pig_save), "--to", "3", "--seat", "1")
    assert code == 0 and json.loads(out)["seat"] == 1
    code, out, _ = cli("replay", str(pig_save), "--to", "3", "--full-state")
    assert code == 0 and "state" in json.loads(out)
    code, _, err = cli("replay", str(pig_save), "--to", "3", "--seat", "5")
    assert code == 2 and "--seat must be between 0 and 1" in err


def test_the_writer_refuses_what_the_reader_would_refuse(
    pig_save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletop.adapters import saves
    from tabletop.framework.errors import SaveError

    store = JsonSaveStore(pig_save.parent)
    record = store.load("pig-game")
    before = fingerprint(pig_save)
    nested: list[object] = []
    for _ in range(40):
        nested = [nested]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"meta": {"deep": nested}}, "nested deeper than 32 levels"),
        ({"seed": 10**45}, "integer longer than 40 digits"),
        ({"meta": {"x": float("nan")}}, "not finite"),
        ({"meta": {"x": {1, 2}}}, "not JSON data"),
        ({"digest": ""}, "digest must be 64 hexadecimal digits"),
        ({"seats": ["human"]}, "1 controllers for 2 players"),
    ]
    for changes, message in bad:
        edited = dataclasses.replace(record, **changes)
        with pytest.raises(SaveError, match=message):
            store.save(edited, "pig-game")
        assert fingerprint(pig_save) == before
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 1000)  # as if the log had outgrown it
    with pytest.raises(SaveError, match="over the save limit of 1000"):
        store.save(record, "pig-game")
    assert fingerprint(pig_save) == before


def test_verify_refuses_a_save_without_a_digest(cli: CliRun, pig_save: Path) -> None:
    _hostile(pig_save, actions=[], digest="", finished=False)  # as a failed setup leaves it
    code, out, err = cli("replay", str(pig_save), "--verify")
    assert code == 1 and out == "" and "no digest to verify against" in err
    code, out, _ = cli("replay", str(pig_save))  # replaying it is fine
    assert code == 0 and "0 actions" in out
