"""Issue 24's Done-when: a server process, a six-seat La Révolution française game
played by six ``tabletop join --bot random`` processes, fetched and verified with
``tabletop replay --verify``; and the same with the server killed (SIGKILL) halfway and
started again: the clients reconnect, the game finishes, no acknowledged move is lost."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverhelp import process_env, tabletop

GAME = "la-revolution-francaise"
#: Generous: six client processes and a server on a machine shared with other jobs.
DEADLINE_SECONDS = 240


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return process_env(tmp_path, GAME)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    def __init__(self, db: Path, port: int, env: dict[str, str]) -> None:
        self.db, self.port, self.env = db, port, env
        self.url = f"ws://127.0.0.1:{port}"
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            tabletop("serve", "--port", str(self.port), "--db", str(self.db)),
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # blocks until it listens (or dies)
        assert line.startswith(f"tabletop: serving on {self.url}"), line

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # SIGKILL: no clean shutdown, nothing flushed by the server
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def server(tmp_path: Path, env: dict[str, str]) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "server.sqlite3", free_port(), env)
    process.start()
    yield process
    process.stop()


def run(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def committed(db: Path, game: str) -> list[tuple[int, str]]:
    """The actions the store has committed (read beside the server: WAL allows it)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT seat, action FROM actions WHERE game = ? ORDER BY idx", (game,)
        ).fetchall()
    return [(int(seat), str(action)) for seat, action in rows]


def start_clients(
    server: ServerProcess, env: dict[str, str]
) -> tuple[str, list[subprocess.Popen[str]]]:
    hosted = json.loads(
        run(tabletop("host", GAME, "--server", server.url, "--players", "6", "--json"), env)
    )
    assert sorted(hosted["invites"]) == [str(seat) for seat in range(6)]
    clients = [
        subprocess.Popen(  # the invite in the environment: never on a command line
            tabletop("join", server.url, "--bot", "random", "--quiet"),
            env={**env, "TABLETOP_TOKEN": token},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in hosted["invites"].values()
    ]
    return str(hosted["game"]), clients


def finish(clients: list[subprocess.Popen[str]]) -> list[str]:
    """Wait for every client to end the game; a client that fails ends the wait at once
    (the others would wait for its seat forever) with what it said."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while any(client.poll() is None for client in clients):
        failed = [client for client in clients if client.poll() not in (None, 0)]
        if failed or time.monotonic() > deadline:
            for client in clients:
                client.kill()
            said = [client.communicate()[1][-2000:] for client in failed]
            raise AssertionError(f"clients failed: {said}" if failed else "the game stalled")
        time.sleep(0.2)
    outs = []
    for client in clients:
        out, err = client.communicate()
        assert client.returncode == 0, err
        outs.append(out)
    return outs


def fetch_and_verify(
    server: ServerProcess, game: str, out: Path, env: dict[str, str]
) -> dict[str, Any]:
    run(tabletop("fetch", server.url, game, "--out", str(out)), env)
    verified = run(tabletop("replay", str(out), "--verify"), env)
    assert ": verified: " in verified
    saved: dict[str, Any] = json.loads(out.read_text())
    return saved


@pytest.mark.slow
def test_six_bot_clients_play_la_revolution_to_the_end(
    server: ServerProcess, env: dict[str, str], tmp_path: Path
) -> None:
    game, clients = start_clients(server, env)
    outs = finish(clients)
    last_lines = {out.strip().splitlines()[-1] for out in outs}
    assert len(last_lines) == 1 and next(iter(last_lines)).startswith("game over after ")
    saved = fetch_and_verify(server, game, tmp_path / "game.json", env)
    assert saved["finished"] is True and saved["seats"] == ["human"] * 6
    assert [tuple(a) for a in saved["actions"]] == committed(server.db, game)


@pytest.mark.slow
def test_a_server_killed_halfway_loses_nothing_and_the_game_finishes(
    server: ServerProcess, env: dict[str, str], tmp_path: Path
) -> None:
    game, clients = start_clients(server, env)
    deadline = time.monotonic() + DEADLINE_SECONDS
    while len(committed(server.db, game)) < 200:
        assert time.monotonic() < deadline, "the game did not get going"
        assert all(client.poll() is None for client in clients), "a client ended early"
        time.sleep(0.2)
    server.kill()
    before = committed(server.db, game)
    assert all(client.poll() is None for client in clients)  # they wait and retry
    time.sleep(1.0)
    server.start()  # the same port and database
    finish(clients)
    saved = fetch_and_verify(server, game, tmp_path / "game.json", env)
    actions = [tuple(a) for a in saved["actions"]]
    assert saved["finished"] is True
    assert actions[: len(before)] == before  # every committed move survived the kill
    assert len(actions) > len(before)
