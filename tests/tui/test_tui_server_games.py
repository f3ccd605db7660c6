"""Snapshot of the home screen with server games listed (issue 24): one whose turn
it is, one waiting for another seat, one whose server does not answer. The servers'
answers are stood in for (``client.peek``), so the picture is the same on every run;
tests/server/test_server_games.py asks a real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable
from tui_support import snapshot_of, wait_until

from tabletop.adapters.server import client, remembered
from tabletop.adapters.server.client import ClientError, Seat
from tabletop.adapters.server.remembered import ServerGame
from tabletop.adapters.tui.screens.home import HomeScreen


async def fake_peek(url: str, token: str, *, timeout: float = 3.0) -> Seat:
    if "unreachable" in url:
        raise ClientError("server unreachable (timed out)")
    seat = Seat(url, token)
    seat.welcome = {"seat": 0, "seats": ["Versailles", "Commune"]}
    seat.deciding = 0 if token == "mine" else 1
    seat.prompt = {"text": "?"} if token == "mine" else None
    return seat


def test_home_with_server_games(
    snap_compare: Any, monkeypatch: pytest.MonkeyPatch, no_server_games: Path
) -> None:
    monkeypatch.setattr(client, "peek", fake_peek)
    rows = [
        ("ws://friends.example:8765", "mine", "Versailles"),
        ("ws://friends.example:8765", "theirs", "Versailles"),
        ("ws://unreachable.example:8765", "gone", "Commune"),
    ]
    for number, (url, token, name) in enumerate(rows):
        remembered.remember(
            no_server_games,
            ServerGame(url, token, f"g{number}", "rfop", "Red Flag Over Paris", 0, name),
        )

    async def answered(pilot: Any) -> None:
        await wait_until(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, HomeScreen)
                and bool(pilot.app.screen.query("#server-games"))
            ),
        )
        table = pilot.app.screen.query_one("#server-games", DataTable)
        await wait_until(
            pilot,
            lambda: all(
                "asking" not in str(table.get_row_at(i)[3]) for i in range(table.row_count)
            ),
        )

    assert snapshot_of(snap_compare, (80, 24), answered)
