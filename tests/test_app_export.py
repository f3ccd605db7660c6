"""``tabletop export --log | --json``: each flag chooses its form, ``--log`` is the
default spelled out, and the two cannot be combined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sessions import CliRun


@pytest.fixture
def save(isolated_env: Path, cli: CliRun) -> Path:
    saves = isolated_env / "sim"
    code, _, err = cli("simulate", "pig", "--games", "1", "--seed", "2", "--save-dir", str(saves))
    assert code == 0, err
    [path] = saves.glob("*.json")
    return path


def test_log_is_the_words_form_and_the_default(save: Path, cli: CliRun) -> None:
    code, words, _ = cli("export", str(save), "--log")
    assert code == 0 and words.startswith("# Pig, seed") and "Result: " in words
    assert cli("export", str(save)) == (0, words, "")


def test_json_is_the_other_form(save: Path, cli: CliRun) -> None:
    code, out, _ = cli("export", str(save), "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "pig" and data["events"] and data["result"]


def test_the_two_forms_exclude_each_other(save: Path, cli: CliRun) -> None:
    code, out, err = cli("export", str(save), "--log", "--json")
    assert code == 2 and out == ""
    assert "not allowed with argument" in err
