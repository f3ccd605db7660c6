"""Plugins that misbehave on purpose: none of them may end the app or take a game.

A plugin that calls ``sys.exit`` (at import, while registering or in a game's
``apply``) is contained like any other error; a plugin that claims a game id or a bot
name already taken is refused and reported (it goes to the plugin it belongs to, in no
order a plugin can change: issue 22, finding 2); a slow import is reported. Only the
user's Ctrl+C (KeyboardInterrupt) is never contained.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from fakesite import install
from sessions import CliRun, start_session
from toygames import HighCard, renamed

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework import Action, Context, State, plugins
from tabletop.framework.bots import RandomBot
from tabletop.framework.engine import Engine
from tabletop.framework.errors import PluginFault
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import new_engine


class Exiting(HighCard):
    """High Card whose second 'tap' half-changes the state, then calls sys.exit."""

    info = renamed(HighCard.info, "exiting", "Exiting", max_players=2)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap" and state["taps"] == 1:
            state["taps"] = 99
            sys.exit("the plugin quits")
        super().apply(state, seat, action, ctx)


class Interrupted(HighCard):
    """High Card interrupted by the user (Ctrl+C) on the first 'tap'."""

    info = renamed(HighCard.info, "interrupted", "Ctrl+C", max_players=2)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        raise KeyboardInterrupt


def _engine(game: HighCard) -> Engine:
    return new_engine(game, seed=3)


def test_sys_exit_in_apply_is_a_plugin_fault_with_the_state_restored() -> None:
    engine = _engine(Exiting())
    engine.act(0, "tap")
    digest = engine.digest()
    with pytest.raises(PluginFault, match="SystemExit: the plugin quits"):
        engine.act(0, "tap")
    assert engine.digest() == digest and engine.state["taps"] == 1
    engine.act(0, "keep")
    assert engine.prompt is not None


def test_a_session_survives_sys_exit_in_apply_and_keeps_the_save(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    session = start_session(Exiting(), ["human", "human"], store=store)
    session.act(0, "tap")
    with pytest.raises(PluginFault):
        session.act(0, "tap")
    assert session.save_id is not None
    assert store.load(session.save_id).actions == [(0, "tap")]


def test_ctrl_c_is_never_contained() -> None:
    engine = _engine(Interrupted())
    with pytest.raises(KeyboardInterrupt):
        engine.act(0, "tap")


# Plugin loading ------------------------------------------------------------------------


def test_sys_exit_at_import_is_a_failure_not_an_exit(site: Path, cli: CliRun) -> None:
    install(site, "quitter", "import sys\nsys.exit('bye from the plugin')\n")
    registry = load_registry()
    assert "pig" in registry.games
    [failure] = [f for f in registry.failures if f.plugin == "quitter"]
    assert failure.reason == "failed to import: SystemExit: bye from the plugin"
    code, out, err = cli("games")
    assert code == 0 and "pig" in out, err
    assert "! plugin quitter failed to load: failed to import: SystemExit" in out


def test_a_plugin_cannot_take_over_an_installed_game_id(site: Path) -> None:
    install(  # named to sort before "pig": the order of names must not matter
        site,
        "aaa-impostor",
        "from tabletop.framework import hookimpl\n"
        "from tabletop.games.pig import Pig\n"
        "class Impostor(Pig):\n"
        "    pass\n"
        "@hookimpl\n"
        "def tabletop_register_games(register):\n"
        "    register(Impostor())\n",
    )
    registry = load_registry()
    assert (
        registry.get("pig").plugin == "pig" and registry.get("pig").distribution == "tabletop-pig"
    )
    assert type(registry.get("pig").definition).__name__ == "Pig"
    [failure] = [f for f in registry.failures if f.plugin == "aaa-impostor"]
    assert "game id 'pig' is already provided by plugin 'pig'" in failure.reason
    assert not any(f.plugin == "pig" for f in registry.failures), "the genuine plugin is blamed"


#: A plugin that claims Pig's game id and Red Flag's bot kind, with pluggy's trylast
#: (which puts its hooks first in pluggy's list), as issue 22 found.
TRYLAST_IMPOSTOR = """
from tabletop.framework import hookimpl, GameInfo
from tabletop.framework.bots import RandomBot
from tabletop.games.pig import Pig
class FakePig(Pig):
    info = GameInfo(id="pig", title="Trylast Pig (impostor)", min_players=2, max_players=6,
                    description="x", version="6.6.6", options=(), hidden_information=True)
@hookimpl(trylast=True)
def tabletop_register_games(register):
    register(FakePig())
@hookimpl(trylast=True)
def tabletop_register_bots(register):
    register("rfop-greedy", lambda game: RandomBot(), "red-flag-over-paris")
    register("zzz-own", lambda game: RandomBot(), "")
"""

RFOP_RUN = ["simulate", "red-flag-over-paris", "--games", "2", "--seed", "1"]


def _genuine(registry: plugins.GameRegistry, impostor: str) -> None:
    """Pig and Red Flag's bot are the genuine ones; only ``impostor`` is blamed."""
    assert registry.get("pig").plugin == "pig"
    assert type(registry.get("pig").definition).__name__ == "Pig"
    assert registry.bot_owners["rfop-greedy"] == "red-flag-over-paris"
    assert {f.plugin for f in registry.failures} == {impostor}
    reasons = sorted(f.reason for f in registry.failures)
    assert reasons == [
        "bot kind 'rfop-greedy' is already provided by plugin 'red-flag-over-paris'; "
        "this plugin's was not loaded",
        "game id 'pig' is already provided by plugin 'pig'; this plugin's was not loaded",
    ]


def test_trylast_does_not_let_a_plugin_take_a_game_or_a_bot(site: Path, cli: CliRun) -> None:
    code, before, _ = cli(*RFOP_RUN, "--seats", "rfop-greedy,random", "--json")
    assert code == 0
    install(site, "zzz-trylast", TRYLAST_IMPOSTOR)
    registry = load_registry()
    _genuine(registry, "zzz-trylast")
    assert "zzz-own" in registry.bots  # a name of its own is its own
    code, after, err = cli(*RFOP_RUN, "--seats", "rfop-greedy,random", "--json")
    assert code == 0, err
    assert json.loads(after)["digest"] == json.loads(before)["digest"]


def test_an_older_impostor_does_not_take_a_reinstalled_game(site: Path) -> None:
    """Reinstalling or upgrading Pig makes its dist-info newer than the impostor's: the
    impostor's is made the oldest of all here, which won under "first installed"."""
    install(site, "aaa-impostor", TRYLAST_IMPOSTOR.replace("(trylast=True)", ""))
    for path in (site / "aaa-impostor-1.0.dist-info").iterdir():
        os.utime(path, (0, 0))
    os.utime(site / "aaa-impostor-1.0.dist-info", (0, 0))
    _genuine(load_registry(), "aaa-impostor")


def test_a_name_claimed_by_two_plugins_it_does_not_belong_to_is_refused_for_both(
    site: Path,
) -> None:
    for name in ("aaa-one", "bbb-two"):
        install(
            site,
            name,
            "from tabletop.framework import hookimpl\n"
            "from tabletop.framework.bots import RandomBot\n"
            "@hookimpl\n"
            "def tabletop_register_bots(register):\n"
            "    register('shared-bot', lambda game: RandomBot(), '')\n",
        )
    registry = load_registry()
    assert "shared-bot" not in registry.bots
    reasons = {f.plugin: f.reason for f in registry.failures}
    assert set(reasons) == {"aaa-one", "bbb-two"}
    assert all("'aaa-one' and 'bbb-two'" in reason for reason in reasons.values())


def test_a_plugin_cannot_replace_the_random_bot(site: Path) -> None:
    install(
        site,
        "aaa-bots",
        "from tabletop.framework import hookimpl\n"
        "from tabletop.framework.bots import RandomBot\n"
        "class Loaded(RandomBot):\n"
        "    pass\n"
        "@hookimpl\n"
        "def tabletop_register_bots(register):\n"
        "    register('random', lambda game: Loaded(), '')\n"
        "    register('aaa-own', lambda game: Loaded(), '')\n",
    )
    registry = load_registry()
    factory, _ = registry.bots["random"]
    assert type(factory(registry.get("pig").definition)) is RandomBot
    assert registry.bot_owners["random"] == "tabletop" and "aaa-own" in registry.bots
    [failure] = [f for f in registry.failures if f.plugin == "aaa-bots"]
    assert "bot kind 'random' is already provided by 'tabletop'" in failure.reason


def test_a_slow_import_is_reported(
    site: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plugins, "SLOW_IMPORT_SECONDS", 0.05)
    install(site, "sluggish", "import time\ntime.sleep(0.2)\n")
    code, out, err = cli("games", "--json")
    assert code == 0 and "note: plugin sluggish took" in err and "to import" in err
    assert [s["plugin"] for s in json.loads(out)["slow"]] == ["sluggish"]
    monkeypatch.delitem(sys.modules, "sluggish_plugin")  # imported afresh below
    registry = load_registry()
    assert [name for name, seconds in registry.slow if seconds >= 0.2] == ["sluggish"]


# Round four (issue 39, D3): hints, bot kinds and game ids --------------------------------

HINTS_THIEF = """
from tabletop.framework import hookimpl
from tabletop.framework.search import BotHints
class LosingHints(BotHints):
    pass
@hookimpl(tryfirst=True)
def tabletop_register_bot_hints(register):
    register("red-flag-over-paris", LosingHints())
"""


def test_a_plugin_cannot_replace_another_games_bot_hints(site: Path, cli: CliRun) -> None:
    """A tryfirst hook's hints replaced Red Flag's own, and changed every search bot's
    play in silence: the game's owner keeps its hints, the other is reported."""
    genuine = type(load_registry().hints_for("red-flag-over-paris"))
    assert genuine.__name__ != "BotHints"  # Red Flag gives hints of its own
    install(site, "aaa-hints", HINTS_THIEF)
    registry = load_registry()
    assert type(registry.hints_for("red-flag-over-paris")) is genuine
    [failure] = [f for f in registry.failures if f.plugin == "aaa-hints"]
    assert "bot hints for 'red-flag-over-paris' is already provided by plugin" in failure.reason
    code, out, _ = cli("games")
    assert code == 0 and "! plugin aaa-hints failed to load: bot hints for" in out


GARBAGE_BOTS = """
from tabletop.framework import hookimpl
from tabletop.framework.bots import RandomBot
@hookimpl
def tabletop_register_bots(register):
    register("garbage-bot", 42, "pig")
    register("none-bot", None, "")
    register(7, 8, 9)
    register("", lambda game: RandomBot(), "")
    register("esc\\x1b[31mbot", lambda game: RandomBot(), "")
    register("fine-bot", lambda game: RandomBot(), "pig")
"""


def test_bot_kinds_that_are_not_names_or_factories_are_refused(site: Path, cli: CliRun) -> None:
    """`register("garbage-bot", 42, "pig")` was accepted, listed as a known kind, and
    failed every game it sat in with "'int' object is not callable"."""
    install(site, "garbage", GARBAGE_BOTS)
    registry = load_registry()
    kinds = registry.bot_kinds("pig")
    assert "fine-bot" in kinds
    assert not {"garbage-bot", "none-bot", 7, "", "esc\x1b[31mbot"} & set(kinds)
    reasons = [f.reason for f in registry.failures if f.plugin == "garbage"]
    assert len(reasons) == 5, reasons
    assert any("'garbage-bot': its factory is a int, not callable" in r for r in reasons)
    assert all("\x1b" not in reason for reason in reasons)
    code, _, err = cli("simulate", "pig", "--games", "1", "--seats", "garbage-bot,random")
    assert code == 2 and "unknown bot kind 'garbage-bot'" in err
    assert "garbage-bot" not in err.split("known:")[1]


ODD_ID = """
from tabletop.framework import hookimpl
from tabletop.games.pig import Pig
from dataclasses import replace
class Odd(Pig):
    info = replace(Pig.info, id="weird/../id \\x1b[31mred", title="Odd \\x1b[31mred")
@hookimpl
def tabletop_register_games(register):
    register(Odd())
"""


def test_a_game_id_that_is_not_a_name_is_refused_and_never_printed_raw(
    site: Path, cli: CliRun
) -> None:
    """`weird/../id <ESC>[31mred` was accepted, and `tabletop games` printed the raw
    escape sequence to the terminal."""
    install(site, "odd", ODD_ID)
    registry = load_registry()
    assert not any("weird" in game_id for game_id in registry.games)
    [failure] = [f for f in registry.failures if f.plugin == "odd"]
    assert "is not one: lower case letters, digits and dashes" in failure.reason
    code, out, err = cli("games")
    assert code == 0 and "\x1b" not in out + err
    assert "! plugin odd failed to load: Odd: the game id" in out


ESCAPING_TITLE = """
from tabletop.framework import hookimpl
from tabletop.games.pig import Pig
from dataclasses import replace
class Loud(Pig):
    info = replace(Pig.info, id="loud", title="Loud \\x1b[2J\\x1b[31mred")
@hookimpl
def tabletop_register_games(register):
    register(Loud())
"""


def test_game_rows_are_printed_without_escape_sequences(site: Path, cli: CliRun) -> None:
    install(site, "loud", ESCAPING_TITLE)
    for _ in range(2):  # from the plugins, then from the cache
        code, out, err = cli("games")
        assert code == 0 and "loud" in out and "\x1b" not in out, err
