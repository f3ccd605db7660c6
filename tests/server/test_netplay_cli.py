"""``tabletop host``, ``join`` and ``fetch`` against a server on a thread (issue 24)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from serverhelp import ServerThread, small_registry
from sessions import CliRun

from tabletop.adapters.saves import read_save_file
from tabletop.adapters.server import remembered
from tabletop.framework.record import GameRecord


def test_host_prints_one_invite_per_person_and_bots_sit_on_the_server(
    served: ServerThread, cli: CliRun
) -> None:
    code, out, err = cli("host", "liars-dice", "--server", served.url, "--seats", "human,random")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Game ") and "(liars-dice, 2 seats)" in lines[0]
    assert lines[1].startswith("  Player 1: invite ") and len(lines[1].split()[-1]) == 32
    assert lines[2] == "  Player 2: played on the server by random"
    assert "Host token" in lines[3]
    assert f"tabletop join {served.url}  and gives their invite when asked" in lines[4]
    assert "An invite works once" in out and lines[1].split()[-1] not in lines[4]

    code, out, _ = cli("host", "liars-dice", "--server", served.url, "--players", "3", "--json")
    hosted = json.loads(out)
    assert sorted(hosted["invites"]) == ["0", "1", "2"]
    assert hosted["seats"] == ["Player 1", "Player 2", "Player 3"]


def test_host_refusals_are_one_line(served: ServerThread, cli: CliRun) -> None:
    code, _, err = cli("host", "liars-dice", "--server", served.url, "--players", "7")
    assert code == 2 and err == "tabletop: error: liars-dice takes 2-3 players\n"
    code, _, err = cli("host", "liars-dice", "--server", "http://x", "--players", "2")
    assert code == 2 and "is not a server address" in err
    code, _, err = cli("host", "liars-dice", "--server", "ws://127.0.0.1:1")
    assert code == 2 and "cannot reach the server at ws://127.0.0.1:1" in err


def test_fetch_writes_a_save_and_refuses_an_unfinished_game_without_the_host_token(
    served: ServerThread, cli: CliRun, tmp_path: Path
) -> None:
    _, out, _ = cli("host", "liars-dice", "--server", served.url, "--players", "2", "--json")
    hosted = json.loads(out)
    out_file = tmp_path / "fetched.json"
    code, _, err = cli("fetch", served.url, hosted["game"], "--out", str(out_file))
    assert code == 2 and "only its host may fetch it" in err
    assert not out_file.exists()
    code, out, err = cli(
        "fetch", served.url, hosted["game"], "--out", str(out_file), "--token", hosted["host_token"]
    )
    assert code == 0, err
    assert out == f"{out_file}: liars-dice, 0 actions, ended by its host\n"
    record, _ = read_save_file(out_file)
    assert isinstance(record, GameRecord) and record.game == "liars-dice"
    assert record.seats == ["human", "human"] and record.digest


def test_join_plays_a_seat_with_a_bot_to_the_end(
    served: ServerThread, cli: CliRun, container: Any, no_server_games: Path
) -> None:
    container.registry.override(providers.Object(small_registry()))
    _, out, _ = cli("host", "liars-dice", "--server", served.url, "--seats", "random,human,random")
    token = out.splitlines()[2].split()[-1]
    code, out, err = cli("join", served.url, token, "--bot", "random", container=container)
    assert code == 0, err
    assert out.splitlines()[-1].startswith("game over after ") and " won" in out
    assert "  Player 2: secret roll: " in out  # its own secret dice, in its log
    assert "Player 1: secret roll" not in out and "Player 3: secret roll" not in out
    assert not no_server_games.exists()  # a bot's seat is not listed on the home screen


def test_join_refuses_what_it_cannot_do(served: ServerThread, cli: CliRun) -> None:
    code, _, err = cli("join", served.url, "sometoken", "--bot", "nobody")
    assert code == 2 and "no bot kind 'nobody'" in err
    code, _, err = cli("join", served.url, "sometoken", "--bot", "random")
    assert code == 2 and err.startswith("tabletop: error: unknown token, or an invite already used")


def test_a_person_plays_a_seat_in_plain_lines(
    served: ServerThread, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = cli("host", "liars-dice", "--server", served.url, "--seats", "human,random")
    token = out.splitlines()[1].split()[-1]
    # Nonsense, a look at the view, a number out of range, then always the first choice
    # (the lowest raise, until only the challenge is left: the game ends in a few rounds).
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\nv\n99\n" + "1\n" * 300))
    code, out, err = cli("join", served.url, token)
    assert code == 0, err
    assert "Your decision (§2): Raise the bid or challenge" in out and "  1. Bid 1 x 1" in out
    assert "Challenge the last bid\n       ! a die is lost" in out
    assert "'x' is not one of the numbers." in out and "'99' is not one of the numbers." in out
    assert '"you": {' in out  # the view, shown by v
    assert "  Player 1: secret roll: " in out and "Player 2: secret roll" not in out
    assert out.splitlines()[-1].startswith("game over after ")


def test_a_person_who_leaves_can_come_back(
    served: ServerThread, cli: CliRun, monkeypatch: pytest.MonkeyPatch, no_server_games: Path
) -> None:
    _, out, _ = cli("host", "liars-dice", "--server", served.url, "--seats", "human,random")
    token = out.splitlines()[1].split()[-1]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    code, out, _ = cli("join", served.url, token)
    assert code == 0
    assert out.endswith(
        "You left the table; the game waits. Join again the same way (or from tabletop "
        "play's home screen).\n"
    )
    # remembered for the home screen's server games with the secret the invite was
    # bound to (the invite itself opens nothing now), readable by its owner only
    (game,) = remembered.load(no_server_games)
    assert (game.url, game.seat_name, game.title) == (served.url, "Player 1", "Liar's Dice")
    assert game.token != token and game.invite == remembered.invite_hash(token)
    assert no_server_games.stat().st_mode & 0o077 == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the end of the input: leaves too
    code, again, _ = cli("join", served.url, token)  # the same invite, on this machine
    assert code == 0 and "You chose: Bid 1 x 1" in again  # the log so far, from the server
    assert len(remembered.load(no_server_games)) == 1  # the same seat: one row


def test_an_invite_works_once_and_tokens_need_no_command_line(
    served: ServerThread,
    cli: CliRun,
    container: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    container.registry.override(providers.Object(small_registry()))

    def invite() -> str:
        _, out, _ = cli("host", "liars-dice", "--server", served.url, "--seats", "human,random")
        return out.splitlines()[1].split()[-1]

    hosted = json.loads(
        cli("host", "liars-dice", "--server", served.url, "--players", "2", "--json")[1]
    )
    first, second = invite(), invite()
    monkeypatch.setenv("TABLETOP_TOKEN", first)  # from the environment
    code, out, err = cli("join", served.url, "--bot", "random", "--quiet", container=container)
    assert code == 0, err
    invite_file = tmp_path / "invite"
    invite_file.write_text(f"{second}\n")  # from a file
    code, out, err = cli(
        "join", served.url, "--token-file", str(invite_file), "--bot", "random", container=container
    )
    assert code == 0, err
    assert out.splitlines()[-1].startswith("game over after ")
    # each invite was used: a second client (a bot keeps no list) is turned away
    code, _, err = cli("join", served.url, first, "--bot", "random", container=container)
    assert code == 2 and "an invite works once" in err
    monkeypatch.delenv("TABLETOP_TOKEN")
    code, _, err = cli("join", served.url, "--bot", "random", container=container)
    assert code == 2 and "--token-file FILE" in err and "$TABLETOP_TOKEN" in err
    # the host token fetches (from the environment, or a file) and plays no seat
    out_file = tmp_path / "fetched.json"
    monkeypatch.setenv("TABLETOP_HOST_TOKEN", hosted["host_token"])
    code, out, err = cli("fetch", served.url, hosted["game"], "--out", str(out_file))
    assert code == 0, err
    assert out.endswith("ended by its host\n")
    monkeypatch.delenv("TABLETOP_HOST_TOKEN")
    host_file = tmp_path / "host-token"
    host_file.write_text(hosted["host_token"])
    code, out, err = cli(
        "fetch", served.url, hosted["game"], "--out", str(out_file), "--token-file", str(host_file)
    )
    assert code == 0, err
    monkeypatch.setenv("TABLETOP_TOKEN", hosted["host_token"])
    code, _, err = cli("join", served.url, "--bot", "random", container=container)
    assert code == 2 and "the host's token, not a seat's" in err


def test_join_watch_follows_a_game_as_a_spectator_in_plain_lines(
    served: ServerThread, cli: CliRun, container: Any
) -> None:
    _, out, _ = cli("host", "liars-dice", "--server", served.url, "--seats", "random,random")
    game = out.splitlines()[0].split()[1]
    code, out, err = cli("join", served.url, game, "--watch")
    assert code == 0, err
    assert "Player 1: rolled 2d6 in secret (cup)" in out and "secret roll" not in out
    assert out.splitlines()[-1].startswith("game over after ")
    code, _, err = cli("join", served.url, game, "--watch", "--bot", "random")
    assert code == 2 and "a spectator plays no seat" in err
    code, _, err = cli("join", served.url, "no-such-game", "--watch")
    assert code == 2 and err == "tabletop: error: no such game on this server\n"
