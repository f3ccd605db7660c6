"""Sessions for tests, wired with the adapters the composition root chooses.

Why one module: the nine-keyword ``GameSession.start`` block and the ``BOTS`` mapping
were written out in a dozen tests; each copy was one more place that could drift from
what the app wires. The random source and dice come from the container's providers
(``apps/tabletop/app/container.py``), so a test plays with what ``tabletop`` plays
with. Engines for framework-level tests come from the conformance kit
(``tabletop.framework.testing.new_engine`` and friends), which the plugins' tests use
too; ``tests/test_session.py`` checks that both use the same adapters.

``CHANCE`` holds the two as keywords (``fuzz(game, games=3, seed=1, **CHANCE)``), for
framework calls that take them: a test that names the factories itself is one more
place for them to drift.

For a game registered in the app (Pig, the bundled games), prefer the container
fixture's ``session_starter``: this module is for toy games the registry does not know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypedDict

from tabletop.app.container import Container
from tabletop.framework import GameDefinition
from tabletop.framework.bots import BotFactory, RandomBot
from tabletop.framework.engine import DiceFactory, RngFactory
from tabletop.framework.ports import SaveStore, SessionObserver, UserInterface
from tabletop.framework.record import GameRecord
from tabletop.framework.session import GameSession

RNG_FACTORY: RngFactory = Container.rng_factory()
"""The random source the app wires (PCG32, the generator saves are made with)."""
DICE_FACTORY: DiceFactory = Container.dice_factory()
"""The dice the app wires (seeded from the random source)."""


class Chance(TypedDict):
    """The keywords by which the framework takes its random source and dice."""

    rng_factory: RngFactory
    dice_factory: DiceFactory


CHANCE = Chance(rng_factory=RNG_FACTORY, dice_factory=DICE_FACTORY)
"""The app's random source and dice, as keywords: ``fuzz(game, ..., **CHANCE)``."""


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
        store=store,
        ui=ui,
        observers=observers,
        **CHANCE,
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
        store=store,
        ui=ui,
        **CHANCE,
    )
