"""``tabletop bench --server``: a server process, concurrent bot games over loopback."""

from __future__ import annotations

import json
from typing import Any

from sessions import CliRun


def test_bench_server_reports_moves_latency_and_memory(cli: CliRun) -> None:
    code, out, err = cli("bench", "--server", "pig", "--server-games", "3", "--json")
    assert code == 0, err
    bench = json.loads(out)["server"]
    assert bench["game"] == "pig" and bench["games"] == 3 and bench["players"] == 2
    assert bench["moves"] >= 3 * 2  # each Pig game takes many moves
    assert bench["moves_per_second"] > 0
    assert 0 < bench["p50_ms"] <= bench["p95_ms"] <= bench["max_ms"]
    assert bench["rss_hosted_kib"] >= bench["rss_before_kib"] > 0
    assert bench["refusals"] == 0


def test_bench_server_refuses_an_unknown_game_before_starting(cli: CliRun) -> None:
    code, _, err = cli("bench", "--server", "chess")
    assert code == 2 and "no game 'chess' is installed" in err
    code, _, err = cli("bench", "--server", "pig", "--server-games", "0")
    assert code == 2 and "--server-games must be 1 or more" in err


def test_the_mixed_load_reports_a_person_s_moves_and_the_bot_moves_meanwhile(
    container: Any,
) -> None:
    """``--server-mixed`` on a small load (its figures are the benchmark's, not a test's)."""
    from tabletop.app.bench_server import bench_mixed, format_mixed

    bench = bench_mixed(container.registry(), seconds=2.0, load=(("pig", ["random", "random"], 2),))
    assert bench.load == {"pig": 2} and bench.moves > 0 and bench.refusals == 0
    assert 0 < bench.p50_ms <= bench.p95_ms <= bench.max_ms
    assert set(bench.bot_moves_by_game) == {"pig"} and bench.bot_moves >= 0
    assert "to the acknowledgement" in "\n".join(format_mixed(bench))


def test_the_mixed_load_needs_a_positive_time(cli: CliRun) -> None:
    code, _, err = cli("bench", "--server", "--server-mixed", "--server-seconds", "0")
    assert code == 2 and "--server-seconds must be more than 0" in err
