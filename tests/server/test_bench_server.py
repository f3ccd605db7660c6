"""``tabletop bench --server``: a server process, concurrent bot games over loopback."""

from __future__ import annotations

import json
from typing import Any

import pytest
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


def test_two_server_processes_on_one_postgresql_database_share_the_games(
    container: Any, postgres: str
) -> None:
    """``--server-processes 2 --server-db postgresql://...`` on a small load: each
    game's seats are spread over both servers, so every move crosses the database."""
    from pghelp import fresh_database

    from tabletop.app.bench_server import bench_server, format_server

    bench = bench_server(
        container.registry(), "pig", games=3, processes=2, db=fresh_database(postgres)
    )
    assert (bench.processes, bench.store, bench.games) == (2, "postgresql", 3)
    assert bench.moves >= 3 * 2 and bench.refusals == 0
    assert 0 < bench.p50_ms <= bench.p95_ms <= bench.max_ms
    assert bench.rss_before_kib > 0  # both servers' resident sets, added up
    assert "2 server processes on one postgresql database" in "\n".join(format_server(bench))


def test_several_server_processes_need_a_postgresql_database(cli: CliRun) -> None:
    code, _, err = cli("bench", "--server", "--server-processes", "2")
    assert code == 2 and "share one PostgreSQL database" in err
    code, _, err = cli("bench", "--server", "--server-processes", "0")
    assert code == 2 and "--server-processes must be 1 or more" in err


def test_idle_connections_from_one_address_leave_room_for_a_new_player(container: Any) -> None:
    """``--server-idle`` on a small crowd: the server, with its default limits, keeps
    no more of one address's connections than its limit per address, refuses the rest,
    and a player from another address joins and moves."""
    from tabletop.adapters.server.limits import DEFAULT_CONNECTIONS_PER_CLIENT
    from tabletop.app.bench_server_limits import bench_idle, format_idle

    bench = bench_idle(container.registry(), count=100, moves=20)
    assert bench.idle == 100 and bench.attempts >= 100
    assert 0 < bench.held <= bench.most_held <= DEFAULT_CONNECTIONS_PER_CLIENT
    assert bench.refused + bench.cut >= 100 - DEFAULT_CONNECTIONS_PER_CLIENT
    assert bench.moves >= 20 and bench.joins >= 1 and not bench.refusals and not bench.errors
    assert 0 < bench.p50_ms <= bench.p95_ms <= bench.max_ms and bench.server_files > 0
    assert "refused (HTTP 503)" in "\n".join(format_idle(bench))


def test_many_connections_on_one_seat_leave_one_live(container: Any) -> None:
    """``--server-one-seat`` on a small crowd: every connection but the newest is told
    it was replaced and closed; the seat is then played to its end from one client."""
    from tabletop.app.bench_server_limits import bench_one_seat, format_one_seat

    bench = bench_one_seat(container.registry(), count=40)
    assert (bench.connections, bench.live, bench.replaced) == (40, 1, 39)
    assert bench.refused == bench.cut == bench.refusals == 0
    assert bench.other_moves > 0 and bench.seat_moves > 0
    assert bench.server_files_after <= bench.server_files_before + 2
    assert "1 live once all had arrived" in "\n".join(format_one_seat(bench))


def test_finished_games_in_the_store_are_not_held_in_memory(container: Any) -> None:
    """``--server-finished`` on a small store: its report's shape (the 2,000-game figure
    is the benchmark's)."""
    from tabletop.app.bench_server_limits import bench_finished, format_finished

    bench = bench_finished(container.registry(), count=2, played=1)
    assert bench.stored == 2 and bench.actions > 100 and bench.played == 1
    assert bench.played_actions > 100
    assert 0 < bench.rss_start_kib <= bench.peak_kib and 0 < bench.rss_end_kib <= bench.peak_kib
    assert bench.rss_end_kib < bench.budget_kib
    assert "none joined" in "\n".join(format_finished(bench))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--server-idle", "0"], "--server-idle must be 1 or more"),
        (["--server-one-seat", "3", "--server-idle", "3"], "give one of --server-idle"),
        (["--server-finished", "1", "--server-played", "-1"], "--server-played must be 0"),
    ],
)
def test_the_limit_benches_refuse_bad_counts(cli: CliRun, argv: list[str], words: str) -> None:
    code, _, err = cli("bench", "--server", *argv)
    assert code == 2 and words in err
