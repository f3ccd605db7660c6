"""Ctrl+C stops a batch run on workers at once, with a partial report, and no worker
outlives the command (issue 22, finding 1).

Each test starts the real command (``python -m tabletop.app.cli``) with 2 workers on a
run far too long to finish, stops it a moment later and checks: exit 130 within 5 s,
a partial report whose digest is that of a run of the games it counts, no traceback,
and no worker process left. On a terminal (a pty: the interrupt character reaches the
whole foreground process group, workers included), by SIGINT or SIGTERM from another
process (the parent alone), and with the parent killed by SIGKILL (the workers notice).
Every process a test starts is killed at its end, whatever happened.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sessions import CliRun

LONG_RUN = ["simulate", "pig", "--games", "2000000", "--workers", "2", "--seed", "4203"]
#: What the command may take, from the signal to its exit.
LIMIT = 5.0


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _gone(pids: list[int], within: float) -> list[int]:
    """Waits up to ``within`` seconds for ``pids`` to end; those still running."""
    deadline = time.monotonic() + within
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


def _workers_of(pid: int, count: int = 2) -> list[int]:
    """The ``count`` worker processes of ``pid``, once started (at most 10 s)."""
    deadline = time.monotonic() + 10
    while len(found := _children(pid)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(found) >= count, f"{pid} started {found}"
    return found


@pytest.fixture
def started(isolated_env: Path) -> Iterator[list[int]]:
    """The pids a test started (commands and workers): each is killed at the end."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _command() -> list[str]:
    return [sys.executable, "-m", "tabletop.app.cli", *LONG_RUN]


def _catches(pid: int, signum: int) -> None:
    """Wait (at most 30 s) until ``pid`` has a handler for ``signum`` (from /proc)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:") and int(line.split()[1], 16) >> (signum - 1) & 1:
                return
        time.sleep(0.05)
    raise AssertionError(f"{pid} never handled signal {signum}")


def _default_sigint() -> None:
    """In a child before it runs the command: Ctrl+C back to its default action. A
    pytest started with SIGINT ignored (nohup, some CI launchers) passes that on, and
    Python installs no handler over an ignored SIGINT (issue 39, D7)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _on_a_terminal(argv: list[str]) -> tuple[int, int]:
    """``argv`` forked onto a new pty as its terminal: (pid, the terminal's fd)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the pty as its terminal
        _default_sigint()
        os.execv(sys.executable, argv)
    return pid, fd


def _reader(fd: int) -> tuple[list[bytes], Any]:
    """What the terminal shows, and a function that reads it until a moment; False
    once the terminal is closed."""
    output: list[bytes] = []

    def read(until: float) -> bool:
        while time.monotonic() < until:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                output.append(data)
        return True

    return output, read


def _digest_of_games(cli: CliRun, games: int) -> str:
    """The digest of a whole run of ``games`` games with the long run's settings."""
    code, out, _ = cli(*LONG_RUN[:2], "--games", str(games), "--seed", "4203", "--json")
    assert code == 0
    digest: str = json.loads(out)["digest"]
    return digest


def test_ctrl_c_on_a_terminal_stops_workers_at_once(started: list[int], cli: CliRun) -> None:
    pid, fd = _on_a_terminal(_command())
    started.append(pid)
    chunks, read = _reader(fd)

    try:
        workers = _workers_of(pid)
        started.extend(workers)
        deadline = time.monotonic() + 15
        while b"/2000000" not in b"".join(chunks) and time.monotonic() < deadline:
            read(time.monotonic() + 0.1)  # the progress bar: games were played
        os.write(fd, b"\x03")  # Ctrl+C, as the terminal's line discipline sends it
        sent = time.monotonic()
        status = None
        while status is None and time.monotonic() - sent < LIMIT:
            read(time.monotonic() + 0.05)
            done, raw = os.waitpid(pid, os.WNOHANG)
            status = raw if done else None
        took = time.monotonic() - sent
        assert status is not None, f"still running {LIMIT} s after Ctrl+C"
        read(time.monotonic() + 0.2)
    finally:
        os.close(fd)
    text = b"".join(chunks).decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 130 and took < LIMIT
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert "(partial)" in text and "interrupted after the first" in text
    assert _gone(workers, 1.0) == []


@pytest.mark.parametrize(
    ("signum", "count"),
    [(signal.SIGINT, 2), (signal.SIGTERM, 2), (signal.SIGTERM, 1)],
    ids=["SIGINT-2-workers", "SIGTERM-2-workers", "SIGTERM-1-process"],
)
def test_a_signal_from_another_process_gives_a_partial_report(
    started: list[int], cli: CliRun, signum: int, count: int
) -> None:
    argv = [*_command(), "--json"]
    argv[argv.index("--workers") + 1] = str(count)
    command = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint
    )
    started.append(command.pid)
    workers = _workers_of(command.pid) if count > 1 else []
    started.extend(workers)
    _catches(command.pid, signal.SIGTERM)  # the run has begun (a loaded machine is slow)
    time.sleep(1.5)  # some games played
    command.send_signal(signum)
    sent = time.monotonic()
    out, err = command.communicate(timeout=LIMIT + 5)
    assert time.monotonic() - sent < LIMIT and command.returncode == 130, err
    assert b"Traceback" not in err and b"interrupted after" in err
    report = json.loads(out)
    assert report["partial"] is True and report["completed"] == report["games_done"] > 0
    assert report["digest"] == _digest_of_games(cli, report["games_done"])
    assert _gone(workers, 1.0) == []


def test_workers_end_when_their_parent_is_killed(started: list[int]) -> None:
    command = subprocess.Popen(
        _command(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_default_sigint,
    )
    started.append(command.pid)
    workers = _workers_of(command.pid)
    started.extend(workers)
    time.sleep(0.5)
    command.kill()
    command.wait()
    assert _gone(workers, 3.0) == []


def test_an_interrupted_run_on_one_process_reports_its_games(
    cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same partial report without workers: Ctrl+C (here raised at game 30)."""
    from tabletop.framework.bots import batch_seed as real

    def interrupted_at_30(seed: int, index: int) -> int:
        if index == 30:
            raise KeyboardInterrupt
        return real(seed, index)

    monkeypatch.setattr("tabletop.app.simulate.batch_seed", interrupted_at_30)
    code, out, err = cli(*LONG_RUN[:4], "--seed", "4203", "--json")
    report = json.loads(out)
    assert code == 130 and report["games_done"] == report["completed"] == 30
    assert "interrupted after 30 of 2000000 games" in err
    monkeypatch.setattr("tabletop.app.simulate.batch_seed", real)
    assert report["digest"] == _digest_of_games(cli, 30)


def test_an_interrupted_tournament_counts_only_whole_games(
    container: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C in the middle of game 3 (here at its tenth bot decision): the report is a
    three-game tournament's, decisions included."""
    from tabletop.app import tournament

    seats = ["mcts-quick", "random"]
    whole = container.tournament().run("pig", games=3, seed=5, seats=seats, options={})
    real = tournament._TimingUI.bot_thinking
    calls: list[int] = []

    def interrupted(self: Any, turn: Any) -> Any:
        if self.report.completed == 3:
            calls.append(1)
            if len(calls) == 10:
                raise KeyboardInterrupt
        return real(self, turn)

    monkeypatch.setattr(tournament._TimingUI, "bot_thinking", interrupted)
    cut = container.tournament().run("pig", games=5, seed=5, seats=seats, options={})
    assert cut.stopped == "interrupted" and cut.done == 3 and cut.completed == 3
    assert {kind: bot.decisions for kind, bot in cut.bots.items()} == {
        kind: bot.decisions for kind, bot in whole.bots.items()
    }
    assert cut.by_seat == whole.by_seat


@pytest.mark.parametrize(
    "argv",
    [
        [*LONG_RUN],
        ["tournament", "pig", "--games", "200000", "--seats", "random,random", "--seed", "3"],
    ],
    ids=["simulate-2-workers", "tournament-1-process"],
)
def test_two_quick_ctrl_c_keep_the_report(started: list[int], argv: list[str]) -> None:
    """A second press 0.05-0.15 s after the first landed in the merge or the printing:
    no report, and a tournament killed by SIGINT (exit -2) (issue 39, D6)."""
    pid, fd = _on_a_terminal([sys.executable, "-m", "tabletop.app.cli", *argv])
    started.append(pid)
    output, read = _reader(fd)
    try:
        deadline = time.monotonic() + 20
        while b"/200" not in b"".join(output) and time.monotonic() < deadline:
            read(time.monotonic() + 0.1)  # the progress line: games were played
        started.extend(_children(pid))
        os.write(fd, b"\x03")
        time.sleep(0.08)
        os.write(fd, b"\x03")
        sent = time.monotonic()
        status = None
        while status is None and time.monotonic() - sent < LIMIT + 5:
            read(time.monotonic() + 0.05)
            done, raw = os.waitpid(pid, os.WNOHANG)
            status = raw if done else None
        assert status is not None, "still running after two Ctrl+C"
        read(time.monotonic() + 0.3)
    finally:
        os.close(fd)
    text = b"".join(output).decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 130, text[-2000:]
    assert "Traceback" not in text
    assert "interrupted after the first" in text  # the partial report was printed
