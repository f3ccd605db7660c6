"""Sessions for tests, wired with the adapters the composition root chooses.

Why one module: the nine-keyword ``GameSession.start`` block and the ``BOTS`` mapping
were written out in a dozen tests; each copy was one more place that could drift from
what the app wires. The random source and dice come from the container's providers
(``apps/tabletop/app/container.py``), so a test plays with what ``tabletop`` plays
with. Engines for framework-level tests come from the conformance kit
(``tabletop.framework.testing.new_engine`` and friends), which the plugins' tests use
too; ``tests/test_session.py`` checks that both use the same adapters.

``fuzz_game`` fuzzes a game with the same random source and dice, as ``tabletop fuzz``
does; a test that passes the factories itself is one more place for them to drift.

For a game registered in the app (Pig, the bundled games), prefer the container
fixture's ``session_starter``: this module is for toy games the registry does not know.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from tabletop.app.container import Container
from tabletop.framework import GameDefinition, GameRecord, RandomBot, SaveStore
from tabletop.framework.bots import BotFactory
from tabletop.framework.engine import DiceFactory, RngFactory
from tabletop.framework.fuzz import MAX_ACTIONS, FuzzFailure, FuzzReport, fuzz
from tabletop.framework.ports import SessionObserver, UserInterface
from tabletop.framework.session import GameSession

RNG_FACTORY: RngFactory = Container.rng_factory()
"""The random source the app wires (PCG32, the generator saves are made with)."""
DICE_FACTORY: DiceFactory = Container.dice_factory()
"""The dice the app wires (seeded from the random source)."""


class CliRun(Protocol):
    """The ``cli`` fixture (tests/conftest.py): ``cli("replay", path)`` -> (exit code,
    stdout, stderr), argparse's exits included; ``container=`` wires the command."""

    def __call__(self, *argv: str, container: Container | None = None) -> tuple[int, str, str]:
        """Run ``tabletop *argv``."""
        ...


BOTS: dict[str, BotFactory] = {"random": lambda game: RandomBot()}
"""The bot kinds every game has, for sessions built outside the registry."""


def start_session(
    game: GameDefinition,
    controllers: list[str],
    *,
    seed: int = 3,
    options: dict[str, str] | None = None,
    store: SaveStore | None = None,
    ui: UserInterface | None = None,
    bots: dict[str, BotFactory] | None = None,
    observers: Iterable[SessionObserver] = (),
) -> GameSession:
    """A new game of ``game`` with one controller (``"human"`` or a bot kind) per seat."""
    return GameSession.start(
        game,
        seed=seed,
        players=len(controllers),
        options=options or {},
        controllers=controllers,
        bot_factories=BOTS if bots is None else bots,
        rng_factory=RNG_FACTORY,
        dice_factory=DICE_FACTORY,
        store=store,
        ui=ui,
        observers=observers,
    )


def resume_session(
    game: GameDefinition,
    record: GameRecord,
    *,
    save_id: str | None,
    store: SaveStore | None = None,
    ui: UserInterface | None = None,
) -> GameSession:
    """A saved game replayed and verified, as the app resumes it."""
    return GameSession.resume(
        game,
        record,
        save_id=save_id,
        bot_factories=BOTS,
        rng_factory=RNG_FACTORY,
        dice_factory=DICE_FACTORY,
        store=store,
        ui=ui,
    )


def fuzz_game(
    game: GameDefinition,
    *,
    games: int,
    seed: int,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    max_actions: int = MAX_ACTIONS,
    on_failure: Callable[[FuzzFailure], str] | None = None,
) -> FuzzReport:
    """``fuzz`` over ``games`` games of ``game`` with the app's random source and dice."""
    return fuzz(
        game,
        games=games,
        seed=seed,
        players=players,
        options=options,
        max_actions=max_actions,
        on_failure=on_failure,
        rng_factory=RNG_FACTORY,
        dice_factory=DICE_FACTORY,
    )
