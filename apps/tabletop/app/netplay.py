"""``tabletop serve``, ``host``, ``join`` and ``fetch``: networked play (issue 24).

Why a module of its own: the four commands share the server's address handling and
its default database, and import websockets only when they run, so ``tabletop --help``
and the other commands do not pay for it. Added to the parser by ``add_parsers``, as
``commands.py`` is; this module never imports ``cli`` (no import cycle).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: Makes a sub-parser: (sub-parsers, name, one-line summary, description).
SubParser = Callable[[Any, str, str, str], argparse.ArgumentParser]
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_WEB_PORT = 8000


def _error(message: str) -> Exception:
    from tabletop.framework.errors import TabletopError

    return TabletopError(message)


def _container(args: argparse.Namespace) -> Any:
    container = getattr(args, "container", None)
    if container is not None:
        return container
    from tabletop.app.container import build_container

    return build_container()


def default_db() -> Path:
    """The server's games by default: beside the saves in the user data directory."""
    from tabletop.app.container import default_server_db

    return default_server_db()


def _url(text: str) -> str:
    """ws://host:port from what a person types (host:port, or a ws/wss URL)."""
    if "://" not in text:
        text = f"ws://{text}"
    if not text.startswith(("ws://", "wss://")):
        raise _error(f"{text[:80]!r} is not a server address (ws://HOST:PORT or wss://...)")
    return text


# serve ----------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve games: the store, the workers, the hall and the server all come from the
    container (``--db`` and the limits are its configuration)."""
    import asyncio  # here, not at the top: --help must not pay for it
    import contextlib
    import signal

    from tabletop.adapters.server.server import run

    container = _container(args)
    config = container.config
    config.server_db.from_value(args.db)
    config.bot_games.from_value(args.bot_games)
    config.bot_games_per_client.from_value(args.bot_games_per_client)
    config.bot_seconds.from_value(args.bot_seconds)
    if args.bot_games < 0 or args.bot_games_per_client < 0:
        raise _error("--bot-games and --bot-games-per-client are 0 or more")
    if args.bot_seconds <= 0:
        raise _error("--bot-seconds must be more than 0")
    store = container.server_store()
    server = container.game_server()

    def ready(url: str) -> None:
        print(f"tabletop: serving on {url} (games kept in {store.path}); Ctrl+C stops", flush=True)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop: asyncio.Future[None] = loop.create_future()

        def stopping() -> None:
            if not stop.done():
                stop.set_result(None)

        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows, a thread
                loop.add_signal_handler(signum, stopping)
        await run(server, args.host, args.port, ready=ready, stop=stop)

    try:
        asyncio.run(main())
    except OSError as exc:
        raise _error(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}") from None
    finally:
        container.server_workers().stop()
        store.close()
    print("tabletop: server stopped; every acknowledged move is kept", flush=True)
    return 0


# host -----------------------------------------------------------------------------


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option k=v`` pairs as a dict; one parser for ``host`` and for ``cli``'s
    play, simulate and the like (``cli._parse_options`` is this function)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _error(f"option {pair!r} is not in the form key=value")
        options[key] = value
    return options


def _ask(url: str, message: dict[str, Any]) -> dict[str, Any]:
    import asyncio

    from tabletop.adapters.server.client import ClientError, request

    try:
        return asyncio.run(request(url, message))
    except ClientError as exc:
        raise _error(str(exc)) from None


def cmd_host(args: argparse.Namespace) -> int:
    url = _url(args.server)
    message: dict[str, Any] = {"type": "host", "game": args.game}
    if args.players is not None:
        message["players"] = args.players
    if args.seats:
        message["seats"] = [part.strip() for part in args.seats.split(",")]
    if args.option:
        message["options"] = parse_options(args.option)
    hosted = _ask(url, message)
    seats: list[str] = hosted.get("seats", [])
    controllers: list[str] = hosted.get("controllers", [])
    if args.json:
        print(
            json.dumps(
                {
                    "server": url,
                    "game": hosted["game"],
                    "host_token": hosted["host_token"],
                    "tokens": hosted["tokens"],
                    "seats": seats,
                    "controllers": controllers,
                },
                indent=2,
            )
        )
        return 0
    print(f"Game {hosted['game']} ({args.game}, {len(seats)} seats) on {url}")
    for seat, name in enumerate(seats):
        token = hosted["tokens"].get(str(seat))
        if token is None:
            kind = controllers[seat] if seat < len(controllers) else "bot"
            print(f"  {name}: played on the server by {kind}")
        else:
            print(f"  {name}: tabletop join {url} {token}")
    print(
        f"Host token (fetches the game; fetching it before its end ends it): {hosted['host_token']}"
    )
    print("Give each player only their own line: a token is that seat's key.")
    return 0


# join -----------------------------------------------------------------------------


def cmd_join(args: argparse.Namespace) -> int:
    import asyncio
    import secrets

    from tabletop.adapters.saves import printable
    from tabletop.adapters.server.client import ClientError, Seat, bot_decider, play_seat
    from tabletop.framework.bots import SampledPolicyBot, SearchBot

    url = _url(args.url)
    interactive = args.screen or (sys.stdin.isatty() and sys.stdout.isatty())
    if args.watch:
        if args.bot is not None:
            raise _error("--watch and --bot: a spectator plays no seat")
        if args.plain or not interactive:
            return _watch_in_words(url, args)
        return _join_on_screen(url, args)
    if args.bot is None:
        if args.plain or not interactive:
            return _join_in_words(url, args)
        return _join_on_screen(url, args)
    registry = _container(args).registry()
    if args.bot not in registry.bots:
        raise _error(f"no bot kind {args.bot!r} is installed (known: {', '.join(registry.bots)})")
    chosen: dict[str, Any] = {}

    def decide(seat: Seat) -> str | None:
        if "decide" not in chosen:
            game_id = seat.info.game if seat.info is not None else ""
            if game_id not in registry.games:
                raise ClientError(f"the game {game_id!r} is not installed here")
            if args.bot not in registry.bot_kinds(game_id):
                raise ClientError(f"the bot kind {args.bot!r} does not play {game_id}")
            game = registry.get(game_id).definition
            bot = registry.bots[args.bot][0](game)
            if isinstance(bot, SearchBot | SampledPolicyBot):
                raise ClientError(
                    f"the {args.bot} bot reads the game's possible states, which only "
                    "the server holds: seat it on the server (tabletop host --seats)"
                )
            chosen["decide"] = bot_decider(game, bot, secrets.randbits(62))
        answer: str | None = chosen["decide"](seat)
        return answer

    shown = [0]  # log lines printed so far

    def told(seat: Seat) -> None:
        if not args.quiet:
            for line in seat.log[shown[0] :]:
                print(f"  {printable(line.text, 500)}", flush=True)
        shown[0] = len(seat.log)

    try:
        seat = asyncio.run(play_seat(url, args.token, decide, on_update=told, give_up=args.give_up))
    except ClientError as exc:
        raise _error(str(exc)) from None
    return _ending(seat)


def _remember(url: str, token: str) -> Callable[[Any], None]:
    """Writes a seat a person joins into the list the home screen shows (its server
    games); a list that cannot be written is said on stderr and the game goes on."""
    from tabletop.adapters.server import remembered

    def joined(seat: Any) -> None:
        path = remembered.default_path()
        try:
            remembered.remember(path, remembered.from_welcome(url, token, seat.welcome))
        except remembered.RememberedError as exc:
            print(
                f"tabletop: note: this seat is not listed on the home screen: {exc}",
                file=sys.stderr,
            )

    return joined


def _join_on_screen(url: str, args: argparse.Namespace) -> int:
    """The seat (or, with ``--watch``, the game as a spectator) on the seat screen every
    front end shares, over a line to the server (the container's ``seat_app``): imports
    Textual, as ``play`` does. The app ends when the person leaves the table or the
    game's end is dismissed, and says how the game stands."""
    container = _container(args)
    if args.watch:
        app = container.seat_app(url=url, watch=args.token)
    else:
        app = container.seat_app(url=url, token=args.token)
    app.run()
    ending = str(app.ending)
    if ending:
        print(ending)
    return 1 if ending.startswith("tabletop: error:") else 0


class _Leave(Exception):
    """The person left the table (q, or the end of the input): the game waits."""


def _join_in_words(url: str, args: argparse.Namespace) -> int:
    """A person plays the seat in plain lines: the log as it grows, whose turn it is,
    and on the seat's turn a bell, the prompt and its numbered choices (with each
    choice's detail and consequence), answered by number. ``v`` shows the seat's view,
    ``q`` leaves (the game waits; join again with the same token). What a terminal that
    is not interactive gets (or ``--plain``); an interactive one gets the seat screen."""
    import asyncio

    from tabletop.adapters.saves import printable
    from tabletop.adapters.server.client import ClientError, Seat, play_seat

    loop_state = {"shown": 0, "waiting": None}
    bell = "\a" if sys.stdout.isatty() else ""
    joined = [_remember(url, args.token)]  # told once, at the first update

    def told(seat: Seat) -> None:
        while joined:
            joined.pop()(seat)
        _print_log(seat, loop_state)
        if seat.prompt is None and not seat.over and seat.deciding != loop_state["waiting"]:
            loop_state["waiting"] = seat.deciding
            print(f"Waiting for {_name(seat, seat.deciding)}.", flush=True)

    async def decide(seat: Seat) -> str:
        assert seat.prompt is not None
        loop_state["waiting"] = None
        prompt = seat.prompt
        rule = f" ({prompt.rule})" if prompt.rule else ""
        print(f"{bell}Your decision{rule}: {printable(prompt.text, 2000)}", flush=True)
        choices = prompt.choices
        for number, choice in enumerate(choices, start=1):
            print(f"  {number}. {printable(choice.label, 500)}")
            if choice.consequence:
                print(f"       ! {printable(choice.consequence, 500)}")
            if choice.detail:
                print(f"       {printable(choice.detail, 2000)}")
        while True:
            print(f"Choose 1-{len(choices)} (v: your view, q: leave): ", end="", flush=True)
            answer = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            if not answer:
                raise _Leave
            answer = answer.strip().lower()
            if answer == "q":
                raise _Leave
            if answer == "v":
                print(json.dumps(seat.view, indent=2, ensure_ascii=False))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                return choices[int(answer) - 1].action
            print(f"  {printable(answer, 40)!r} is not one of the numbers.")

    try:
        seat = asyncio.run(play_seat(url, args.token, decide, on_update=told, give_up=args.give_up))
    except _Leave:
        print("You left the table; the game waits. Join again with the same token.")
        return 0
    except ClientError as exc:
        raise _error(str(exc)) from None
    return _ending(seat)


def _name(seat: Any, who: int | None) -> str:
    """A seat's name as the table's welcome gave it, safe to print."""
    from tabletop.adapters.saves import printable

    names = seat.names
    name = names[who] if isinstance(who, int) and 0 <= who < len(names) else "another seat"
    return printable(name, 80)


def _print_log(seat: Any, state: dict[str, Any]) -> None:
    """Print the seat's log lines not printed yet (after an undo: from where it went
    back, said so)."""
    from tabletop.adapters.saves import printable

    shown = min(state["shown"], len(seat.log))
    if shown < state["shown"]:
        print("  (actions were taken back: the log goes on from there)", flush=True)
    for line in seat.log[shown:]:
        print(f"  {printable(line.text, 500)}", flush=True)
    state["shown"] = len(seat.log)


def _watch_in_words(url: str, args: argparse.Namespace) -> int:
    """A spectator in plain lines: the game's public log as it grows and whose turn it
    is, to the end (Ctrl+C leaves). ``token`` is the game's id here: a spectator
    needs no token, and sees only what every seat may see."""
    import asyncio

    from tabletop.adapters.server.client import ClientError, Seat, play_seat

    state: dict[str, Any] = {"shown": 0, "waiting": None}

    def told(seat: Seat) -> None:
        _print_log(seat, state)
        if not seat.over and seat.deciding != state["waiting"]:
            state["waiting"] = seat.deciding
            print(f"{_name(seat, seat.deciding)} decides.", flush=True)

    def nobody(seat: Seat) -> None:
        return None

    try:
        seat = asyncio.run(
            play_seat(url, args.token, nobody, on_update=told, give_up=args.give_up, watch=True)
        )
    except KeyboardInterrupt:
        print("You stopped watching.")
        return 0
    except ClientError as exc:
        raise _error(str(exc)) from None
    return _ending(seat)


def _ending(seat: Any) -> int:
    """Say how the game ended for a seat's client; exit 1 when its host ended it."""
    from tabletop.adapters.saves import printable

    if seat.ended and not seat.over:
        print("tabletop: the host ended this game before its end")
        return 1
    result = seat.result
    winners = [] if result is None else [_name(seat, w) for w in result.winners]
    won = f"{', '.join(winners)} won" if winners else "nobody won"
    lines = ("" if result is None else result.summary).splitlines()
    summary = f" ({lines[0]})" if lines else ""  # the first line: the rest is in the log
    print(printable(f"game over after {seat.seq} actions: {won}{summary}", 2000))
    return 0


# web ------------------------------------------------------------------------------


def web_command(join: list[str] | None) -> str:
    """The command textual-serve starts for each browser tab."""
    import shlex

    base = [sys.executable, "-m", "tabletop"]
    if join:
        url, token = join
        return shlex.join([*base, "join", _url(url), token, "--screen"])
    return shlex.join([*base, "play"])


def cmd_web(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server as WebServer
    except ImportError:
        raise _error(
            "tabletop web needs textual-serve: tabletop install 'tabletop-app[web]'"
        ) from None
    command = web_command(args.join)
    title = "Tabletop" if not args.join else "Tabletop: a server seat"
    print(f"tabletop: the UI on http://{args.host}:{args.port} (Ctrl+C stops)", flush=True)
    WebServer(command, host=args.host, port=args.port, title=title).serve()
    return 0


# fetch ----------------------------------------------------------------------------


def cmd_fetch(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from tabletop.adapters.saves import atomic_write_text, encode_record
    from tabletop.framework.errors import SaveError
    from tabletop.framework.record import GameRecord

    url = _url(args.url)
    message: dict[str, Any] = {"type": "fetch", "game": args.game}
    if args.token:
        message["token"] = args.token
    answer = _ask(url, message)
    try:
        record = GameRecord.from_json(answer.get("record"))
        text = encode_record(record, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    except SaveError as exc:
        raise _error(f"the server sent a record that is not a save: {exc}") from None
    out = Path(args.out)
    try:
        atomic_write_text(out, text)
    except OSError as exc:
        raise _error(f"cannot write {out}: {exc.strerror or exc}") from None
    state = "finished" if record.finished else "ended by its host"
    print(f"{out}: {record.game}, {len(record.actions)} actions, {state}")
    return 0


def _add_address(parser: Any, port: int, port_help: str) -> None:
    """--host and --port of a command that listens (serve, web): loopback by default."""
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address (default: {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=port, help=f"{port_help} (default: {port})")


def add_parsers(sub: Any, make: SubParser) -> None:
    """Add serve, host, join and fetch to the ``tabletop`` parser."""
    from tabletop.adapters.server.limits import (
        BOT_SECONDS,
        DEFAULT_BOT_GAMES,
        DEFAULT_BOT_GAMES_PER_CLIENT,
    )

    serve = make(
        sub,
        "serve",
        "hold games for players at other terminals",
        "Run a game server: it holds every game's state, runs the engine and the bots "
        "seated on it, and sends each seat only its view, its prompt and the events it "
        "may see. Games are kept in a SQLite file (default: server.sqlite3 in the user "
        "data directory); a move is acknowledged once it is written, so a killed server "
        "loses none. Listens on 127.0.0.1 unless told otherwise; for TLS put it behind "
        "a reverse proxy (docs/networked-play.md).",
    )
    _add_address(serve, DEFAULT_PORT, "port, 0 for any")
    serve.add_argument(
        "--db",
        metavar="PATH",
        help="the SQLite file of the games, or postgresql://USER@HOST/DB",
    )
    serve.add_argument(
        "--bot-games",
        type=int,
        default=DEFAULT_BOT_GAMES,
        metavar="N",
        help="games with no person at them (every seat a bot) the server plays at once "
        f"(default: {DEFAULT_BOT_GAMES})",
    )
    serve.add_argument(
        "--bot-games-per-client",
        type=int,
        default=DEFAULT_BOT_GAMES_PER_CLIENT,
        metavar="N",
        help="of those, how many one client address may host "
        f"(default: {DEFAULT_BOT_GAMES_PER_CLIENT})",
    )
    serve.add_argument(
        "--bot-seconds",
        type=float,
        default=BOT_SECONDS,
        metavar="S",
        help="the longest a search bot (mcts) thinks about one decision, in seconds "
        f"(default: {BOT_SECONDS:g})",
    )
    serve.set_defaults(func=cmd_serve)

    host = make(
        sub,
        "host",
        "start a game on a server and print the seats' invite tokens",
        "Create a game on a server. Each seat is a person (human: one invite token is "
        "printed for it) or a bot kind that plays on the server. The host token fetches "
        "the game; fetching an unfinished game ends it (its seed would tell its secrets).",
    )
    host.add_argument("game", help="game id (see tabletop games)")
    host.add_argument("--server", required=True, metavar="URL", help="ws://HOST:PORT")
    host.add_argument("--players", type=int, metavar="N", help="number of seats")
    host.add_argument(
        "--seats", metavar="KINDS", help="comma list, one per seat: human or a bot kind"
    )
    host.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    host.add_argument("--json", action="store_true", help="print JSON (default: words)")
    host.set_defaults(func=cmd_host)

    join = make(
        sub,
        "join",
        "play a seat of a server game",
        "Sit at the seat of TOKEN and play it to the game's end; reconnects by itself "
        "when the server goes away. Without --bot a person plays it in a Textual screen "
        "(the board, the log, the choices with their keys and warnings; a bell on your "
        "turn; q leaves and the game waits), or with --plain in plain lines. --bot plays "
        "the seat headless with that bot kind (a bot that searches, mcts, sits on the "
        "server instead).",
    )
    join.add_argument("url", help="the server, ws://HOST:PORT")
    join.add_argument("token", help="the seat's invite token (with --watch: the game's id)")
    join.add_argument(
        "--watch",
        action="store_true",
        help="watch the game whose id is given, as a spectator: its public view and log "
        "only (tabletop host prints the id)",
    )
    join.add_argument("--bot", metavar="KIND", help="play the seat with this bot kind")
    join.add_argument("--quiet", action="store_true", help="with --bot: do not print the log")
    join.add_argument(
        "--plain",
        action="store_true",
        help="a person plays in plain lines, not the Textual screen (the default when "
        "the terminal is not interactive)",
    )
    join.add_argument(
        "--give-up",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds to keep reconnecting to a lost server (default: 300)",
    )
    join.add_argument(
        "--screen",
        action="store_true",
        help="the Textual screen even when the terminal does not look interactive (the "
        "browser of tabletop web)",
    )
    join.set_defaults(func=cmd_join)

    web = make(
        sub,
        "web",
        "the terminal UI in a web browser",
        "Serve the terminal UI to web browsers with textual-serve (tabletop install "
        "'tabletop-app[web]'): each browser tab that opens the page runs its own "
        "tabletop play, or with --join URL TOKEN that server seat's screen. Listens on "
        "127.0.0.1 unless told otherwise; put it behind a reverse proxy for TLS.",
    )
    _add_address(web, DEFAULT_WEB_PORT, "port")
    web.add_argument(
        "--join", nargs=2, metavar=("URL", "TOKEN"), help="serve this server seat's screen"
    )
    web.set_defaults(func=cmd_web)

    fetch = make(
        sub,
        "fetch",
        "save a server game to a file",
        "Save a server game as an ordinary save file (tabletop replay --verify reads "
        "it). A finished game: anyone with its id. An unfinished one: only with the "
        "host token, and that ends the game.",
    )
    fetch.add_argument("url", help="the server, ws://HOST:PORT")
    fetch.add_argument("game", help="the game's id (tabletop host prints it)")
    fetch.add_argument("--out", required=True, metavar="FILE", help="where to write it")
    fetch.add_argument("--token", metavar="T", help="the host token (unfinished games)")
    fetch.set_defaults(func=cmd_fetch)
