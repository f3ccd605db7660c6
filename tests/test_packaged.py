"""``tabletop.framework.packaged`` reads the files a game ships in its package."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.framework.packaged import package_json, package_text
from tabletop.games import charlemagne_master_of_europe as cme


def test_a_games_json_table_and_rules_summary_are_read_from_its_package() -> None:
    tables = package_json(cme.__name__, "data", "tables.json")
    assert isinstance(tables, dict) and tables
    summary = package_text(cme.__name__, "rules-summary.md")
    assert summary.startswith("#")


def test_a_missing_package_name_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="pass __package__"):
        package_text(None, "rules-summary.md")


def test_a_file_that_holds_no_json_object_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "packaged_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "list.json").write_text("[1, 2]")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert package_text("packaged_probe", "list.json") == "[1, 2]"
    with pytest.raises(ValueError, match=r"list\.json in packaged_probe holds no JSON object"):
        package_json("packaged_probe", "list.json")
