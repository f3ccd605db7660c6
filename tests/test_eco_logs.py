"""Issue 23's last items: progress with rate, elapsed time and ETA; a rotated log; an
unexpected error's traceback kept in the log and named in the one-line message."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from dependency_injector import providers
from sessions import CliRun

from tabletop.app import logs, progress


def test_the_progress_line_has_rate_elapsed_and_eta() -> None:
    assert progress.line("simulating pig", 0, 20, 0.0) == (
        "simulating pig [------------------------] 0/20 0:00 ETA -"
    )
    assert progress.line("x", 5, 20, 90.0) == (
        "x [######------------------] 5/20 0.0556/s 1:30 ETA 4:30"
    )
    assert progress.line("x", 20, 20, 3725.0).endswith("20/20 0.00537/s 1:02:05")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_draws_on_a_terminal_only() -> None:
    assert progress.bar("x", stream=io.StringIO()) is None
    out = _Terminal()
    times = iter([100.0, 102.0, 110.0])
    show = progress.bar("x", stream=out, now=lambda: next(times))
    assert show is not None
    show(1, 4)
    show(4, 4)
    first, second = out.getvalue().split("\r")[1:]
    assert first.startswith("x [######") and "1/4 0.5/s 0:02 ETA 0:06" in first
    assert second.rstrip(" \n").endswith("4/4 0.4/s 0:10") and second.endswith("\n")


def test_the_line_fits_the_terminal_and_shrinks_its_bar_then_its_label() -> None:
    label = "fuzzing charlemagne-master-of-europe"  # 96 characters once, at 80 columns
    for columns in (200, 100, 80, 60, 40, 20, 5):
        text = progress.line(label, 1234, 20000, 61.0, columns)
        assert len(text) <= columns - 1, (columns, text)
    assert progress.line(label, 1234, 20000, 61.0, 200).startswith(label + " [")
    assert progress.line(label, 1234, 20000, 61.0, 85) == (
        f"{label} [------------] 1234/20000 20.2/s 1:01 ETA 15:27"
    )
    assert progress.line(label, 1234, 20000, 61.0, 80) == (
        f"{label} 1234/20000 20.2/s 1:01 ETA 15:27"
    )
    assert progress.line(label, 1234, 20000, 61.0, 60) == (
        "fuzzing charlemagne-maste… 1234/20000 20.2/s 1:01 ETA 15:27"
    )


def test_the_bar_draws_at_most_ten_frames_a_second_and_always_the_last() -> None:
    out = _Terminal()
    clock = [0.0]
    show = progress.bar("x", stream=out, now=lambda: clock[0], columns=lambda: 80)
    assert show is not None
    for done in range(1, 1001):  # 1,000 games in 2 s: 500 a second
        clock[0] = done / 500
        show(done, 1000)
    frames = out.getvalue().split("\r")[1:]
    assert len(frames) <= 2 * progress.RATE + 2
    assert frames[-1].rstrip(" \n").endswith("1000/1000 500/s 0:02")
    assert all(len(frame.rstrip("\n")) <= 79 for frame in frames)


def test_a_large_log_is_rotated_when_logging_starts(tmp_path: Path) -> None:
    log = tmp_path / "tabletop.jsonl"
    log.write_text("old\n")
    (tmp_path / "tabletop.jsonl.1").write_text("older\n")
    logs.rotate(log, max_bytes=100)
    assert log.read_text() == "old\n"  # small: left alone
    log.write_text("x" * 101)
    logs.rotate(log, max_bytes=100, keep=2)
    assert not log.exists()
    assert (tmp_path / "tabletop.jsonl.1").read_text() == "x" * 101
    assert (tmp_path / "tabletop.jsonl.2").read_text() == "older\n"
    log.write_text("y" * 101)
    logs.rotate(log, max_bytes=100, keep=2)  # the oldest (.2) is dropped
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tabletop.jsonl.1", "tabletop.jsonl.2"]
    assert (tmp_path / "tabletop.jsonl.2").read_text() == "x" * 101


def test_configure_logging_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "tabletop.jsonl"
    log.write_text("z" * 200)
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 100)
    logger = logs.configure_logging(log)
    logger.info("fresh")
    assert (tmp_path / "tabletop.jsonl.1").read_text() == "z" * 200
    assert json.loads(log.read_text().splitlines()[0])["event"] == "fresh"
    logs.configure_logging(None)  # close the file


def test_an_unexpected_error_leaves_its_traceback_in_the_log(
    cli: CliRun, container: object, isolated_env: Path
) -> None:
    def broken() -> object:
        raise ZeroDivisionError("boom")

    container.registry.override(providers.Callable(broken))  # type: ignore[attr-defined]
    code, out, err = cli("simulate", "pig", "--games", "1", container=container)  # type: ignore[arg-type]
    log = isolated_env / "tabletop.jsonl"
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "unexpected ZeroDivisionError: boom (a bug: please report it at https://" in err
    assert f"with the traceback logged in {log})" in err
    crash = [json.loads(line) for line in log.read_text().splitlines()][-1]
    assert crash["event"] == "crash" and crash["level"] == "error"
    assert crash["exception"].startswith("Traceback (most recent call last):")
    assert "in broken" in crash["exception"] and "ZeroDivisionError: boom" in crash["exception"]


def test_without_a_log_the_message_still_says_where_to_report() -> None:
    message = logs.crash_report(ValueError("x"), Path("/proc/no/such/dir/log.jsonl"))
    assert message == f"a bug: please report it at {logs.issues_url()}"
    assert logs.issues_url() == "https://github.com/tabletop-games/tabletop/issues"
