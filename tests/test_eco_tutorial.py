"""Every code block of docs/writing-a-game.md runs (issue 23).

The Python blocks are put together as the page says: blocks belong to the unit named by
the last ``<!-- unit: NAME -->`` comment (``game`` before any), a unit's blocks are one
module (an indented block continues the class above it), and every unit after ``game``
starts from the game's names. The game is then played against the scaffold's, fuzzed,
and its variants checked. The shell blocks run in order in a throw-away environment
(slow); the TOML block and the file tree must match what ``tabletop new-game`` writes.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from eco_support import make_venv

from tabletop.app import scaffold
from tabletop.framework import Context, GameDefinition, chance
from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import new_engine

DOC = Path(__file__).resolve().parents[1] / "docs" / "writing-a-game.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
UNIT = re.compile(r"^<!-- unit: ([\w-]+) -->$", re.MULTILINE)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, unit, code) of every fenced block, in page order."""
    units = [(m.start(), m.group(1)) for m in UNIT.finditer(text)]
    found = []
    for match in FENCE.finditer(text):
        unit = "game"
        for start, name in units:
            if start < match.start():
                unit = name
        found.append((match.group(1), unit, match.group(2)))
    return found


def run_units(text: str) -> dict[str, dict[str, Any]]:
    """Execute each unit's Python; its names by unit."""
    sources: dict[str, list[str]] = {}
    for language, unit, code in blocks(text):
        if language == "python":
            sources.setdefault(unit, []).append(code)
    spaces: dict[str, dict[str, Any]] = {}
    for unit, codes in sources.items():
        space: dict[str, Any] = {"__name__": f"tutorial_{unit}"}
        if unit != "game":
            space.update(spaces["game"])
        exec(compile("\n".join(codes), f"{DOC.name}:{unit}", "exec"), space)
        spaces[unit] = space
    return spaces


@pytest.fixture(scope="module")
def units() -> dict[str, dict[str, Any]]:
    return run_units(DOC.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scaffold.create("my-race", tmp_path_factory.mktemp("tutorial"))


def _load(folder: Path) -> ModuleType:
    """The scaffold's game module, loaded from its folder."""
    init = folder / "src/tabletop/games/my_race/__init__.py"
    spec = importlib.util.spec_from_file_location("tutorial_scaffold_my_race", init)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _digests(game: GameDefinition, seed: int, players: int) -> list[str]:
    """Digests after each action of a game played by a seeded chooser."""
    engine = new_engine(game, seed=seed, players=players)
    chooser = chance.rng_factory(seed + 1)
    found = [engine.digest()]
    while (prompt := engine.prompt) is not None:
        engine.act(prompt.seat, chooser.choice([c.action for c in prompt.choices]))
        found.append(engine.digest())
    return found


def test_every_block_is_one_the_test_knows() -> None:
    languages = {language for language, _, _ in blocks(DOC.read_text(encoding="utf-8"))}
    assert languages == {"python", "sh", "toml", ""}


def test_the_pages_game_is_the_scaffolds(
    units: dict[str, dict[str, Any]], scaffolded: Path
) -> None:
    page = units["game"]["MyRace"]()
    made = _load(scaffolded).MyRace()
    assert page.info == made.info
    assert page.rules_summary() == made.rules_summary()
    for seed, players in ((1, 2), (2, 4), (3, 3)):
        assert _digests(page, seed, players) == _digests(made, seed, players)


@pytest.mark.parametrize(
    ("unit", "name"), [("game", "MyRace"), ("explained", "ExplainedRace"), ("secret", "SecretRace")]
)
def test_the_pages_games_pass_the_fuzzer(
    units: dict[str, dict[str, Any]], unit: str, name: str
) -> None:
    game = units[unit][name]()
    report = fuzz(
        game,
        games=15,
        seed=3,
    )
    assert report.errors == 0, report.failures[:1]


def test_the_secret_variant_hides_other_positions(units: dict[str, dict[str, Any]]) -> None:
    game = units["secret"]["SecretRace"]()
    assert game.hides_information({})
    engine = new_engine(game, seed=1, players=2)
    engine.act(0, "roll")
    assert engine.view(1)["positions"][0] is None and engine.view(0)["positions"][0] > -1
    assert any("in secret" in engine.event_line(e) for e in engine.events_for(1))


def test_the_pages_other_pieces_work(units: dict[str, dict[str, Any]]) -> None:
    game = units["game"]["MyRace"]()
    engine = new_engine(game, seed=1, players=2)
    prompt = engine.prompt
    assert prompt is not None
    bot = units["bots"]["Cautious"]()
    assert bot.choose(game, engine.view(0), prompt, chance.rng_factory(1)) == "walk"
    board = units["widget"]["tabletop_board_widget"]("my-race")
    assert board is units["widget"]["RaceBoard"]
    assert units["widget"]["tabletop_board_widget"]("pig") is None
    drawn = board.draw(engine.view(0))
    assert drawn.splitlines()[1].startswith("|@....")
    table: dict[str, Any] = {"deck": ["Thiers", "Varlin"], "hands": [[], []]}
    rng = chance.rng_factory(1)
    ctx = Context(rng, chance.dice_factory(rng), actor=1)
    units["draw"]["draw_private"](table, 1, ctx)
    assert table == {"deck": ["Thiers"], "hands": [[], ["Varlin"]]}
    assert ctx.revealed and ctx.barrier  # an undo barrier: no drawing again
    private, public = ctx.events
    assert private.text == "you draw Varlin" and private.seats == frozenset({1})
    assert public.text == "draws a card" and public.seats is None
    sealed = units["sealed"]["SealedOrders"]()
    state: dict[str, Any] = {}
    sealed.start(state)
    for seat, order in ((0, "advance"), (1, "hold"), (2, "advance")):
        assert sealed.prompt(state).seat == seat
        assert sealed.view(state, 2)["orders"]["yours"] is None  # seat 2: not yet
        sealed.apply(state, seat, order, Context(rng, chance.dice_factory(rng), actor=seat))
    assert state["advancing"] == [0, 2] and sealed.prompt(state) is None
    assert sealed.view(state, 1)["orders"]["yours"] == "hold"


def test_the_toml_and_the_tree_are_what_new_game_writes(scaffolded: Path) -> None:
    pyproject = (scaffolded / "pyproject.toml").read_text().splitlines()
    found = blocks(DOC.read_text())
    [toml] = [code for language, _, code in found if language == "toml"]
    [tree] = [code for language, _, code in found if language == ""]
    for line in toml.splitlines():
        assert not line or line in pyproject, line
    files = [line.strip() for line in tree.splitlines()[1:]]
    assert files and all((scaffolded / name).is_file() for name in files), files
    written = {str(p.relative_to(scaffolded)) for p in scaffolded.rglob("*") if p.is_file()}
    assert written == set(files)


@pytest.mark.slow
def test_the_shell_blocks_run_in_order(tmp_path: Path) -> None:
    """The reader's session: new-game, install, tests, simulate, fuzz, uninstall,
    tabletop install, mypy; offline, in a throw-away environment."""
    venv = make_venv(tmp_path / "venv", tmp_path / "home")
    script = "\n".join(code for language, _, code in blocks(DOC.read_text()) if language == "sh")
    work = tmp_path / "work"
    work.mkdir()
    framework = Path(__file__).resolve().parents[1] / "framework"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=work,
        capture_output=True,
        text=True,
        env={**venv.env, "MYPYPATH": str(framework)},
        timeout=600,
    )
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    assert "my-race" in done.stdout
    assert "Success: no issues found" in done.stdout  # mypy
