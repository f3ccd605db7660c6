"""The app's log: JSON lines with the game, seed, save id and action number of what
they report (session start and end, faults, bot errors, failed and slow saves, broken
plugins), written by observers the app subscribes; never a seat's hidden information."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from fakesite import install_games
from memory_store import MemoryStore
from sessions import CliRun
from toygames import Crashy, Exploding

from tabletop.adapters.headless import HeadlessUI, ScriptedUI
from tabletop.framework import Action, BotRegistrar, GameRegistrar, Prompt, hookimpl
from tabletop.framework.errors import PluginFault
from tabletop.framework.plugins import PluginFailure, load_registry
from tabletop.games import pig


def read_log(directory: Path) -> list[dict[str, Any]]:
    """Every line of the log file, each parsed as the JSON object it must be."""
    lines = (directory / "tabletop.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _toys() -> types.SimpleNamespace:
    @hookimpl
    def tabletop_register_games(register: GameRegistrar) -> None:
        register(Exploding())

    @hookimpl
    def tabletop_register_bots(register: BotRegistrar) -> None:
        register("crashy", lambda game: Crashy(), "")

    return types.SimpleNamespace(
        tabletop_register_games=tabletop_register_games,
        tabletop_register_bots=tabletop_register_bots,
    )


@pytest.fixture
def toys(container: Any) -> Any:
    """The container with Pig, the Exploding toy game and a crashing bot kind."""
    registry = load_registry(plugins=[("pig", pig), ("toys", _toys())], use_entry_points=False)
    container.plugins.override(providers.Object(registry))
    return container


def test_a_plugin_fault_is_one_json_line_with_the_game_seed_and_action(
    toys: Any, isolated_env: Path
) -> None:
    session = toys.session_starter().start(
        "exploding", seed=11, players=2, options={}, seats=["human", "human"]
    )
    session.attach(ScriptedUI(["tap", "tap"]))
    with pytest.raises(PluginFault):
        session.run()
    session.close()
    lines = read_log(isolated_env)
    [fault] = [line for line in lines if line["event"] == "game.fault"]
    assert fault["game"] == "exploding" and fault["seed"] == 11 and fault["action"] == 2
    assert fault["seat"] == 0 and fault["choice"] == 3 and fault["error"] == "ZeroDivisionError"
    assert fault["save_id"] == session.save_id and fault["level"] == "error"
    assert "toygames.py" in fault["frames"] and " in apply" in fault["frames"]  # where it broke
    assert [line["event"] for line in lines] == ["session.start", "game.fault", "session.end"]
    assert "boom" not in json.dumps(lines)  # a game's error message may quote a secret


def test_the_log_holds_no_hidden_information(toys: Any, isolated_env: Path) -> None:
    class Roller(HeadlessUI):
        """A person who always rolls: their prompts and labels are private to them."""

        def __init__(self) -> None:
            super().__init__()
            self.labels: set[str] = set()

        def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
            self.labels.update(choice.label for choice in prompt.choices)
            self.labels.add(prompt.text)
            return "roll"

    toys.config.slow_save_seconds.from_value(0.0)  # every save is "slow": all logged
    person = Roller()
    session = toys.session_starter().start(
        "pig",
        seed=5,
        players=3,
        options={"banks": "secret"},
        seats=["human", "random", "random"],
        ui=person,
    )
    session.run()
    session.close()
    assert session.engine.over
    secrets = {event.text for _, event in session.engine.history if event.private}
    assert any(text.startswith("you bank") for text in secrets)
    text = (isolated_env / "tabletop.jsonl").read_text(encoding="utf-8")
    lines = read_log(isolated_env)
    assert sum(line["event"] == "save.slow" for line in lines) == len(session.engine.log) + 1
    assert [line["event"] for line in lines if line["event"] != "save.slow"] == [
        "session.start",
        "game.over",
        "session.end",
    ]
    for secret in secrets | person.labels:
        assert secret not in text, secret
    assert all(line["game"] == "pig" and line["seed"] == 5 for line in lines)


def test_bot_errors_and_failed_saves_are_logged(toys: Any, isolated_env: Path) -> None:
    toys.save_store.override(providers.Object(MemoryStore(fail=True)))
    ui = HeadlessUI()
    session = toys.session_starter().start(
        "pig", seed=3, players=2, options={}, seats=["crashy", "random"], ui=ui
    )
    with pytest.raises(ValueError, match="marbles"):
        session.run()
    assert ui.save_failures and ui.bot_errors  # told through the port as well
    lines = read_log(isolated_env)
    [save] = [line for line in lines if line["event"] == "save.failed"]
    assert save["game"] == "pig" and save["seed"] == 3 and save["action"] == 0
    assert "No space left on device" in save["error"]
    [bot] = [line for line in lines if line["event"] == "bot.failed"]
    assert bot["seat"] == 0 and bot["bot"] == "crashy" and bot["error"] == "ValueError"
    assert bot["action"] == 1 and bot["seed"] == 3
    assert "SECRET-CARD-7" not in json.dumps(lines)


def test_plugins_that_fail_to_load_are_logged(container: Any, isolated_env: Path) -> None:
    registry = load_registry(plugins=[("pig", pig)], use_entry_points=False)
    registry.failures.append(PluginFailure("broken", "failed to import: ImportError: no"))
    container.plugins.override(providers.Object(registry))
    assert container.registry() is registry
    [line] = read_log(isolated_env)
    assert line["event"] == "plugin.failed" and line["plugin"] == "broken"
    assert line["reason"] == "failed to import: ImportError: no"


def test_simulate_logs_each_faulty_game_but_not_every_game(
    cli: CliRun, isolated_env: Path, site: Path
) -> None:
    install_games(site, "flaky", "toygames:SometimesFlaky")
    code, out, _ = cli("simulate", "sometimes-flaky-pig", "--games", "4", "--seed", "1", "--json")
    assert code == 1
    report = json.loads(out)
    lines = read_log(isolated_env)
    faults = [line for line in lines if line["event"] == "game.fault"]
    assert len(faults) == report["errors"] and 0 < report["errors"] < 4
    assert {line["seed"] for line in faults} == {f["seed"] for f in report["failures"]}
    assert [line["event"] for line in lines if line["event"] != "game.fault"] == ["simulate"]


def test_the_console_gets_warnings_only_when_asked(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop.app.container import build_container

    registry = load_registry(plugins=[("pig", pig)], use_entry_points=False)
    registry.failures.append(PluginFailure("broken", "failed to import: ImportError: no"))
    for flag, console, shown in (("", True, False), ("1", True, True), ("1", False, False)):
        monkeypatch.setenv("TABLETOP_LOG_CONSOLE", flag)
        container = build_container(console=console)  # console=False: `tabletop play`
        container.plugins.override(providers.Object(registry))
        container.registry()
        assert ("plugin.failed" in capsys.readouterr().err) is shown, (flag, console)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_logging_set_up_again_after_a_full_device_does_not_raise(isolated_env: Path) -> None:
    """A program that runs several commands in one process (tests, a launcher) sets
    logging up more than once; the old file's last flush failing must not stop it."""
    from tabletop.app.logs import configure_logging

    full = configure_logging(Path("/dev/full"))
    full.info("written.nowhere")  # left in the buffer: the next flush fails too
    log_file = isolated_env / "again.log"
    logger = configure_logging(log_file)
    logger.info("written.here")
    configure_logging(None)  # closes it: the line is flushed
    assert "written.here" in log_file.read_text(encoding="utf-8")
