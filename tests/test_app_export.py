"""``tabletop export --log | --json``: each flag chooses its form, ``--log`` is the
default spelled out, and the two cannot be combined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.app.cli import main


@pytest.fixture
def save(isolated_env: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    saves = isolated_env / "sim"
    assert main(["simulate", "pig", "--games", "1", "--seed", "2", "--save-dir", str(saves)]) == 0
    capsys.readouterr()
    [path] = saves.glob("*.json")
    return path


def _export(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["export", *argv]) == 0
    return capsys.readouterr().out


def test_log_is_the_words_form_and_the_default(
    save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = _export(capsys, str(save), "--log")
    assert words.startswith("# Pig, seed") and "Result: " in words
    assert _export(capsys, str(save)) == words


def test_json_is_the_other_form(save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_export(capsys, str(save), "--json"))
    assert data["game"] == "pig" and data["events"] and data["result"]


def test_the_two_forms_exclude_each_other(save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["export", str(save), "--log", "--json"])
    assert done.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
