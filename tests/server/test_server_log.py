"""Server games through the composition root (issue 35): the hall, its sessions and
its workers come from the container; a server game writes the session log (never an
unfinished game's seed), and a game whose rules raise on the server is logged with its
traceback's frames and the game's id while every seat is told in words."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from liars import LiarsDice
from seat_inbox import Inbox
from serverhelp import bind, play_out
from toygames import Exploding

from tabletop.adapters.bots import STRENGTHS
from tabletop.adapters.server.hall import Hall, ServerTable
from tabletop.adapters.server.store import SqliteGameStore
from tabletop.framework import hookimpl
from tabletop.framework.hookspecs import GameRegistrar
from tabletop.framework.plugins import load_registry
from tabletop.framework.seats import FAULT, REFUSED, Move
from tabletop.framework.table import QueuedWorkers


def read_log(directory: Path) -> list[dict[str, Any]]:
    lines = (directory / "tabletop.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _games() -> types.SimpleNamespace:
    @hookimpl
    def tabletop_register_games(register: GameRegistrar) -> None:
        register(LiarsDice())
        register(Exploding())

    return types.SimpleNamespace(tabletop_register_games=tabletop_register_games)


@pytest.fixture
def server_container(container: Any, tmp_path: Path) -> Any:
    """The app's container with two test games, the server's store in a temporary
    file and workers that run when drained."""
    registry = load_registry(plugins=[("toys", _games())], use_entry_points=False)
    container.plugins.override(providers.Object(registry))
    container.server_store.override(providers.Object(SqliteGameStore(tmp_path / "s.sqlite3")))
    container.server_workers.override(providers.Object(QueuedWorkers()))
    return container


def test_a_server_game_writes_the_session_log_without_its_seed_until_the_end(
    server_container: Any, isolated_env: Path
) -> None:
    hall: Hall = server_container.hall()
    assert hall is server_container.game_server().hall  # one hall, from the container
    hosted = hall.host("liars-dice", players=2)
    links, inboxes = {}, {}
    for seat, token in hosted.invites.items():
        inboxes[seat] = Inbox()
        links[seat] = hall.seat(bind(hall, token), inboxes[seat])
    play_out(links)
    table = links[0].table
    seed = table.engine.seed
    assert table.engine.over
    for link in links.values():  # everyone leaves: the finished game leaves memory
        table.leave(link)
    assert hall.loaded(hosted.game_id) is None
    lines = [line for line in read_log(isolated_env) if line.get("save_id") == hosted.game_id]
    events = [line["event"] for line in lines]
    assert events == ["session.start", "game.over", "session.end"]
    start, over, end = lines
    assert start["game"] == "liars-dice" and start["seats"] == ["human", "human"]
    assert "seed" not in start  # while the game goes on its seed tells every die to come
    assert over["seed"] == end["seed"] == seed  # once it is over it tells nothing
    text = json.dumps(lines)
    for inbox in inboxes.values():  # nothing a seat was told in words
        secret = [line for line in inbox.story() if "secret roll" in line]
        assert secret and not any(line in text for line in secret)


def test_a_fault_in_a_game_s_rules_is_logged_with_frames_and_told_to_every_seat(
    server_container: Any, isolated_env: Path
) -> None:
    hall: Hall = server_container.hall()
    hosted = hall.host("exploding", players=2)
    inboxes = {seat: Inbox() for seat in hosted.invites}
    links = {
        seat: hall.seat(bind(hall, token), inboxes[seat]) for seat, token in hosted.invites.items()
    }
    table = links[0].table
    assert isinstance(table, ServerTable)
    assert links[0].send(Move(0, "tap"))
    assert not links[0].send(Move(1, "tap"))  # the second tap raises in the game's apply
    assert len(table.engine.log) == 1 and hall.store.length(hosted.game_id) == 1
    for inbox in inboxes.values():
        (fault,) = inbox.notices(FAULT)
        assert "The game's code failed on Seat 0's move (ZeroDivisionError)" in fault.text
        assert "the server logged it" in fault.text and "boom" not in fault.text
    assert "nothing changed" in inboxes[0].notices(REFUSED)[-1].text
    (logged,) = [line for line in read_log(isolated_env) if line["event"] == "game.fault"]
    assert logged["save_id"] == hosted.game_id and logged["game"] == "exploding"
    assert logged["error"] == "ZeroDivisionError" and logged["action"] == 2
    assert "toygames.py" in logged["frames"] and " in apply" in logged["frames"]
    assert "seed" not in logged and "boom" not in json.dumps(logged)
    assert links[0].send(Move(1, "keep"))  # the game goes on as it was


@pytest.mark.parametrize("kind", ["mcts", "mcts-quick", "mcts-strong"])
def test_the_server_s_search_bots_are_capped_in_wall_clock_time(
    server_container: Any, kind: str
) -> None:
    server_container.config.bot_seconds.from_value(0.5)
    registry = server_container.server_registry()
    bot = registry.bots[kind][0](LiarsDice())
    assert bot.budget.seconds == 0.5
    # a copy: local play's bots keep moves that depend on the seed alone
    assert kind not in server_container.registry().bots
    (strength,) = [strength for strength in STRENGTHS if strength.kind == kind]
    assert strength.budget().seconds is None


def test_serve_s_workers_have_a_lane_for_games_nobody_plays(container: Any) -> None:
    from tabletop.adapters.server.hall import BOT_GAMES, OPENING
    from tabletop.framework.ports import Workers

    workers = container.server_workers()
    try:
        assert set(workers.sizes) >= {Workers.BOTS, BOT_GAMES, Workers.MOVES, OPENING}
        assert workers.sizes[BOT_GAMES] >= 1 and workers.sizes[Workers.MOVES] > 1
    finally:
        workers.stop()


def test_the_app_gets_the_server_games_from_the_container(container: Any) -> None:
    """The home screen's server seats come from the server package, joined to the UI
    by the composition root only (the two packages never import each other)."""
    from tabletop.adapters.server.seats import RememberedServerGames
    from tabletop.adapters.tui.services import ServerGamesError

    games = container.server_games()
    assert isinstance(games, RememberedServerGames) and games.error is ServerGamesError
    assert container.tui().server_games is games
