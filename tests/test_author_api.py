"""``tabletop.framework`` exports the author API on one page; engine internals moved to
their submodules and still import from the top, with a warning, for a while."""

from __future__ import annotations

import ast
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from toygames import Recaps

import tabletop.framework as api
from tabletop.framework import engine, record
from tabletop.framework.fuzz import fuzz

REPO = Path(__file__).resolve().parent.parent

#: What an engine or a front end needs, never a game: not part of the author API.
INTERNALS = {"Engine", "LogEntry", "PartialReplay", "replay_partial", "GameRecord"}
INTERNALS |= {"SaveStore", "SaveInfo", "UserInterface", "Dice", "RandomBot", "bot_move"}


def test_every_exported_name_imports_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in api.__all__:
            assert getattr(api, name) is not None, name


def test_the_author_api_holds_no_engine_internal() -> None:
    assert not INTERNALS & set(api.__all__)
    assert set(api.MOVED) >= INTERNALS
    for name in ("GameDefinition", "Context", "ResponseWindow", "Stack", "Verb", "hookimpl"):
        assert name in api.__all__


def test_a_moved_name_still_imports_with_a_warning_naming_its_module() -> None:
    with pytest.warns(DeprecationWarning, match="import Engine from tabletop.framework.engine"):
        moved = api.Engine
    assert moved is engine.Engine
    with pytest.warns(DeprecationWarning, match="tabletop.framework.record"):
        old = api.GameRecord
    assert old is record.GameRecord


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Engin'"):
        api.Engin  # noqa: B018


def _moved_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(REPO)}:{node.lineno}: {alias.name} is in "
        f"tabletop.framework.{api.MOVED[alias.name]}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "tabletop.framework"
        for alias in node.names
        if alias.name in api.MOVED
    ]


def test_the_tree_imports_engine_internals_from_their_modules() -> None:
    """The framework, adapters, app, tests and every game use the new homes (the big
    games' own tests since their rewrite, issue 38)."""
    folders = ["framework", "adapters", "apps", "tests"]
    folders += [f"plugins/{game}" for game in ("pig", "council", "tic-tac-toe")]
    folders += [
        f"plugins/{game}" for game in ("red-flag-over-paris", "charlemagne-master-of-europe")
    ]
    folders += ["plugins/la-revolution-francaise"]
    found = [
        hit
        for folder in folders
        for path in sorted((REPO / folder).rglob("*.py"))
        for hit in _moved_imports(path)
    ]
    assert found == [], "import these from their modules (tabletop.framework.MOVED says which)"


class _Undeclared(Recaps):
    """Hides information with an option, but its GameInfo does not say it can."""

    info = replace(Recaps.info, id="undeclared", hidden_information=False)


def test_hidden_information_is_declared_in_game_info_and_refined_by_options() -> None:
    assert Recaps().hides_information({"secret": "yes"})
    assert not Recaps().hides_information({"secret": "no"})
    secret, open_ = (
        fuzz(_Undeclared(), games=1, seed=1, options={"secret": s}) for s in ("yes", "no")
    )
    assert secret.errors == 1 and open_.errors == 0
    assert "does not declare hidden_information=True" in secret.failures[0].reason


def test_engine_result_reads_like_engine_prompt() -> None:
    from tabletop.framework.testing import new_engine, play_out

    game = new_engine(Recaps(), seed=3)
    assert game.prompt is not None and game.result is None
    finished = play_out(game)
    assert finished.prompt is None and finished.result is not None
    with pytest.warns(DeprecationWarning, match="read engine.result, not engine.result()"):
        called = finished.result()
    assert called == finished.result and called.winners == (0,)
