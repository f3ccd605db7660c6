"""CLI conventions of issue 23: -V, help without arguments, ``tabletop paths`` and shell
completion (bash run for real; zsh and fish checked as text, or run when installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sessions import CliRun

from tabletop.app import completion
from tabletop.app.cli import build_parser


def test_short_version_flag_is_the_long_one(cli: CliRun) -> None:
    code, out, _ = cli("-V")
    assert code == 0 and out.startswith("tabletop (tabletop-app ")
    assert cli("--version")[1] == out


def test_no_arguments_prints_the_help_and_succeeds(cli: CliRun) -> None:
    code, out, err = cli()
    assert code == 0 and err == ""
    assert out.startswith("usage: tabletop")
    for command in ("play", "simulate", "install", "new-game", "paths", "completion"):
        assert f"\n    {command} " in out


def test_paths_follow_the_environment(cli: CliRun, isolated_env: Path) -> None:
    code, out, _ = cli("paths", "--json")
    found = json.loads(out)
    assert code == 0
    assert found["saves"] == str(isolated_env / "saves")
    assert found["log"] == str(isolated_env / "tabletop.jsonl")
    assert found["cache"].startswith(str(isolated_env / "games-cache-"))
    assert found["server-games"] and found["server-db"]
    code, out, _ = cli("paths")
    assert f"saves        {isolated_env / 'saves'}  (TABLETOP_SAVE_DIR)" in out
    assert not (isolated_env / "saves").exists()  # asking creates nothing


def test_paths_default_to_the_user_directories(
    cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletop.adapters.saves import default_save_dir
    from tabletop.app.catalogue import default_log_file

    monkeypatch.delenv("TABLETOP_SAVE_DIR")
    monkeypatch.delenv("TABLETOP_LOG_FILE")
    found = json.loads(cli("paths", "--json")[1])
    assert found["saves"] == str(default_save_dir())
    assert found["log"] == str(default_log_file())


def test_completion_refuses_an_unknown_shell(cli: CliRun) -> None:
    code, out, err = cli("completion", "tcsh")
    assert code == 2 and out == "" and "invalid choice: 'tcsh'" in err


def _bash_complete(script: str, line: str, tmp_path: Path) -> list[str]:
    """What the bash completion offers for ``line`` (the word under the cursor last)."""
    words = line.split(" ")
    (tmp_path / "complete.bash").write_text(script)
    program = (
        f"source {tmp_path / 'complete.bash'}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        "_tabletop; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    # `tabletop` itself is not on PATH in the test: game ids come from a stand-in.
    (tmp_path / "bin").mkdir(exist_ok=True)
    stub = tmp_path / "bin" / "tabletop"
    stub.write_text("#!/bin/sh\necho 'pig     Pig  2-6 players'\necho '! plugin x failed'\n")
    stub.chmod(0o755)
    done = subprocess.run(
        ["bash", "--norc", "-c", program],
        capture_output=True,
        text=True,
        env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"},
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.splitlines() if word]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_options_and_games(cli: CliRun, tmp_path: Path) -> None:
    code, script, _ = cli("completion", "bash")
    assert code == 0
    assert _bash_complete(script, "tabletop si", tmp_path) == ["simulate"]
    assert set(_bash_complete(script, "tabletop ", tmp_path)) >= {"play", "install", "-V"}
    assert _bash_complete(script, "tabletop simulate --se", tmp_path) == ["--seed", "--seats"]
    assert _bash_complete(script, "tabletop simulate ", tmp_path) == ["pig"]
    assert _bash_complete(script, "tabletop uninstall p", tmp_path) == ["pig"]
    assert _bash_complete(script, "tabletop completion f", tmp_path) == ["fish"]
    # The value of an option is left to the shell (file names), not completed as a flag.
    assert _bash_complete(script, "tabletop simulate pig --save-dir ", tmp_path) == []


def test_every_sub_command_and_flag_is_in_each_script() -> None:
    parser = build_parser()
    _, subs = completion.commands(parser)
    names = {command.name for command in subs}
    assert {"simulate", "install", "uninstall", "new-game", "paths", "completion"} <= names
    fish = completion.script(parser, "fish")
    zsh = completion.script(parser, "zsh")
    for command in subs:
        assert f"-a {command.name} -d " in fish
        assert f"        {command.name}) opts=" in zsh
    assert "-n '__fish_seen_subcommand_from simulate' -l seed -r -F" in fish
    assert "-n __fish_use_subcommand -s V -l version" in fish
    assert zsh.startswith("# zsh completion for tabletop: source <(tabletop completion zsh)")
    assert "bashcompinit" in zsh and zsh.endswith("complete -o default -F _tabletop tabletop\n")
    # compinit only where the user's own set-up has not run it (issue 39)
    assert "\nautoload -U +X compinit && compinit\n" not in zsh
    assert "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }" in zsh


@pytest.mark.parametrize(
    ("shell", "name", "check"),
    [("fish", "tabletop.fish", "--no-execute"), ("zsh", "_tabletop", "-n")],
)
def test_the_shell_accepts_its_script(tmp_path: Path, shell: str, name: str, check: str) -> None:
    if shutil.which(shell) is None:  # pragma: no cover - the shell is not installed here
        pytest.skip(f"{shell} is not installed")
    path = tmp_path / name
    path.write_text(completion.script(build_parser(), shell))
    done = subprocess.run([shell, check, str(path)], capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_help_imports_no_network_ui_or_logging_library() -> None:
    """``tabletop --help`` loaded asyncio through the networked play's module (165
    modules, 88 before it; issue 39): what only some commands need is imported when
    they run."""
    probe = (
        "import contextlib, io, sys\n"
        "from tabletop.app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
    )
    check = (
        "\nheavy = ['asyncio', 'websockets', 'textual', 'structlog', 'dependency_injector',"
        " 'pluggy', 'platformdirs', 'sqlite3']\n"
        "print(','.join(name for name in heavy if name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"try:\n    exec({probe!r})\nexcept SystemExit:\n    pass{check}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"--help imported {done.stdout.strip()}"
