"""``tabletop serve``, ``host``, ``join`` and ``fetch``: networked play (issue 24).

Why a module of its own: the four commands share the server's address handling and
its default database, and import websockets only when they run, so ``tabletop --help``
and the other commands do not pay for it. Added to the parser by ``add_parsers``, as
``commands.py`` is; this module never imports ``cli`` (no import cycle).

Invites and tokens are keys: no command needs one on its command line, where every
local user can read it (``ps``, ``/proc/*/cmdline``). ``join``, ``web --join`` and
``fetch`` read it from a file (``--token-file``, ``-`` for standard input), from the
environment (``TABLETOP_TOKEN``; ``TABLETOP_HOST_TOKEN`` for ``fetch``) or, on a
terminal, from a prompt that does not echo; ``web --join`` hands the seat's secret to
the processes it starts through their environment, never their arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: Makes a sub-parser: (sub-parsers, name, one-line summary, description).
SubParser = Callable[[Any, str, str, str], argparse.ArgumentParser]
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_WEB_PORT = 8000
#: Where join and web --join read an invite or a seat's secret, and fetch the host token.
TOKEN_ENV = "TABLETOP_TOKEN"
HOST_TOKEN_ENV = "TABLETOP_HOST_TOKEN"


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


def read_token(
    given: str | None, file: str | None, env: str, what: str, *, ask: bool = True
) -> str:
    """An invite or token: from ``--token-file`` (``-``: standard input), the command
    line (``given``: works, but other local users can read it in ``ps``), ``$env``, or
    a prompt that does not echo when on a terminal."""
    if file is not None:
        try:
            text = sys.stdin.readline() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise _error(f"cannot read {file}: {exc.strerror or exc}") from None
        token = text.strip()
        if not token or len(token.split()) != 1:
            raise _error(f"{file} should hold {what} alone, on one line")
        return token
    if given:
        return given
    token = os.environ.get(env, "").strip()
    if token:
        return token
    if ask and sys.stdin.isatty():
        import getpass

        try:
            token = getpass.getpass(f"{what[0].upper()}{what[1:]} (not shown): ").strip()
        except (EOFError, KeyboardInterrupt):
            token = ""
        if token:
            return token
    raise _error(f"give {what} in a file (--token-file FILE, - for standard input) or in ${env}")


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
    if args.lease_seconds <= 0:
        raise _error("--lease-seconds must be more than 0")
    config.server_limits.from_value(_limits(args))
    config.lease_seconds.from_value(args.lease_seconds)
    _enough_files(args.connections)
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


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    """The client limits of ``serve``'s command line, checked (``Limits``)."""
    from tabletop.adapters.server.limits import Limits

    chosen = {
        "connections": args.connections,
        "connections_per_client": args.connections_per_client,
        "idle_seconds": args.idle_seconds,
        "hosts_per_client_hour": args.games_per_client_hour,
        "idle_game_seconds": args.idle_game_seconds,
    }
    try:
        Limits(**chosen)
    except ValueError as exc:
        raise _error(str(exc)) from None
    return chosen


def _enough_files(connections: int) -> None:
    """Let the server hold ``connections`` sockets: raise the soft limit on open files
    up to the hard one where it is lower (1,024 by default on Linux, the hard limit
    often far more), so that the limit on connections, not the system's, is what a
    flood of connections meets."""
    import contextlib

    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256  # the store, the log, the workers' pipes
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < wanted:
            print(
                f"tabletop: note: this process may open {target} files, fewer than "
                f"--connections {connections} needs: lower it, or raise ulimit -n",
                file=sys.stderr,
            )


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
    invites: dict[str, str] = hosted.get("invites", {})
    if args.json:
        print(
            json.dumps(
                {
                    "server": url,
                    "game": hosted["game"],
                    "host_token": hosted["host_token"],
                    "invites": invites,
                    "seats": seats,
                    "controllers": controllers,
                },
                indent=2,
            )
        )
        return 0
    print(f"Game {hosted['game']} ({args.game}, {len(seats)} seats) on {url}")
    for seat, name in enumerate(seats):
        invite = invites.get(str(seat))
        if invite is None:
            kind = controllers[seat] if seat < len(controllers) else "bot"
            print(f"  {name}: played on the server by {kind}")
        else:
            print(f"  {name}: invite {invite}")
    print(
        f"Host token (fetches the game; fetching it before its end ends it): {hosted['host_token']}"
    )
    print(
        f"Each player runs: tabletop join {url}  and gives their invite when asked (or in "
        f"a file, --token-file FILE, or in ${TOKEN_ENV})."
    )
    print(
        "Send each player only their own invite. An invite works once: whoever joins "
        "with it first holds the seat."
    )
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
        if not args.token:
            raise _error("--watch needs the game's id (tabletop host prints it)")
        if args.plain or not interactive:
            return _watch_in_words(url, args)
        return _join_on_screen(url, args)
    args.token = read_token(args.token, args.token_file, TOKEN_ENV, "the seat's invite")
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


def _remember(url: str, given: str) -> Callable[[Any], None]:
    """Writes a seat a person joins into the list the home screen shows (its server
    games), with the secret that opens it now (``seat.token``) and the invite's hash
    (``given`` again finds it); a list that cannot be written is said on stderr, with
    the secret when the invite was just used (nothing else can open the seat now)."""
    from tabletop.adapters.server import remembered

    def joined(seat: Any) -> None:
        path = remembered.default_path()
        invite = remembered.invite_hash(given) if seat.token != given else ""
        try:
            remembered.remember(
                path, remembered.from_welcome(url, seat.token, seat.welcome, invite=invite)
            )
        except remembered.RememberedError as exc:
            keep = f"; keep this seat's key to join again: {seat.token}" if invite else ""
            print(
                f"tabletop: note: this seat is not listed on the home screen: {exc}{keep}",
                file=sys.stderr,
            )

    return joined


def _known_secret(url: str, given: str) -> str:
    """The secret this machine bound ``given`` to when it is an invite used here
    before (remembered), else ``given`` itself: joining again with the same invite
    opens the seat, though the invite itself works once."""
    from tabletop.adapters.server import remembered

    try:
        known = remembered.by_invite(remembered.default_path(), url, given)
    except remembered.RememberedError:
        return given
    return given if known is None else known.token


def _join_on_screen(url: str, args: argparse.Namespace) -> int:
    """The seat (or, with ``--watch``, the game as a spectator) on the seat screen every
    front end shares, over a line to the server (the container's ``seat_app``): imports
    Textual, as ``play`` does. The app ends when the person leaves the table or the
    game's end is dismissed, and says how the game stands."""
    container = _container(args)
    if args.watch:
        app = container.seat_app(url=url, watch=args.token)
    else:
        app = container.seat_app(url=url, token=_known_secret(url, args.token))
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
        seat = asyncio.run(
            play_seat(
                url, _known_secret(url, args.token), decide, on_update=told, give_up=args.give_up
            )
        )
    except _Leave:
        print(
            "You left the table; the game waits. Join again the same way (or from "
            "tabletop play's home screen)."
        )
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


def web_command(join: str | None) -> str:
    """The command textual-serve starts for each browser tab: never a token in it (the
    seat's secret reaches the tab's process through its environment, ``TOKEN_ENV``)."""
    import shlex

    base = [sys.executable, "-m", "tabletop"]
    if join:
        return shlex.join([*base, "join", _url(join), "--screen"])
    return shlex.join([*base, "play"])


def _web_seat(url: str, given: str) -> str:
    """The secret every browser tab of ``web --join`` opens the seat with: an invite is
    used once, here, before any tab opens (each tab would otherwise try to use it), and
    the seat is remembered for the home screen as ``join`` would."""
    import asyncio

    from tabletop.adapters.server.client import ClientError, new_secret, peek

    token = _known_secret(url, given)
    secret = new_secret()
    try:
        seat = asyncio.run(peek(url, token, secret=secret, timeout=30.0))
    except ClientError as exc:
        raise _error(str(exc)) from None
    if seat.token == secret:  # just bound: nothing else opens the seat now
        _remember(url, given)(seat)
    return seat.token if seat.token == secret else token


def cmd_web(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server as WebServer
    except ImportError:
        raise _error(
            "tabletop web needs textual-serve: tabletop install 'tabletop-app[web]'"
        ) from None
    join: str | None = None
    if args.join:
        if len(args.join) > 2:
            raise _error("--join takes the server's URL (and, discouraged, a token)")
        join = _url(args.join[0])
        given = read_token(
            args.join[1] if len(args.join) > 1 else None,
            args.token_file,
            TOKEN_ENV,
            "the seat's invite",
        )
        os.environ[TOKEN_ENV] = _web_seat(join, given)  # the tabs' processes inherit it
    command = web_command(join)
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
    token = args.token
    if args.token_file is not None or not token:
        token = os.environ.get(HOST_TOKEN_ENV, "").strip() if args.token_file is None else None
        if args.token_file is not None:
            token = read_token(None, args.token_file, HOST_TOKEN_ENV, "the host token")
    if token:
        message["token"] = token
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
        DEFAULT_CONNECTIONS,
        DEFAULT_CONNECTIONS_PER_CLIENT,
        DEFAULT_HOSTS_PER_CLIENT_HOUR,
        DEFAULT_IDLE_GAME_SECONDS,
        DEFAULT_IDLE_SECONDS,
        LEASE_SECONDS,
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
    serve.add_argument(
        "--connections",
        type=int,
        default=DEFAULT_CONNECTIONS,
        metavar="N",
        help=f"open connections in all (default: {DEFAULT_CONNECTIONS})",
    )
    serve.add_argument(
        "--connections-per-client",
        type=int,
        default=DEFAULT_CONNECTIONS_PER_CLIENT,
        metavar="N",
        help="open connections from one client address; more are refused "
        f"(default: {DEFAULT_CONNECTIONS_PER_CLIENT})",
    )
    serve.add_argument(
        "--idle-seconds",
        type=float,
        default=DEFAULT_IDLE_SECONDS,
        metavar="S",
        help="how long a connection may stay silent before it sits at a table "
        f"(default: {DEFAULT_IDLE_SECONDS:g})",
    )
    serve.add_argument(
        "--games-per-client-hour",
        type=int,
        default=DEFAULT_HOSTS_PER_CLIENT_HOUR,
        metavar="N",
        help=f"games one client address may host in an hour (default: "
        f"{DEFAULT_HOSTS_PER_CLIENT_HOUR})",
    )
    serve.add_argument(
        "--idle-game-seconds",
        type=float,
        default=DEFAULT_IDLE_GAME_SECONDS,
        metavar="S",
        help="how long a game nobody is at stays in memory; the next join replays it "
        f"from the store (default: {DEFAULT_IDLE_GAME_SECONDS:g})",
    )
    serve.add_argument(
        "--lease-seconds",
        type=float,
        default=LEASE_SECONDS,
        metavar="S",
        help="with several servers on one PostgreSQL database: how long a server's claim "
        "on a game's bots lasts unless renewed, the longest a game waits for another "
        f"server to take over its bots when one dies (default: {LEASE_SECONDS:g})",
    )
    serve.set_defaults(func=cmd_serve)

    host = make(
        sub,
        "host",
        "start a game on a server and print the seats' invite tokens",
        "Create a game on a server. Each seat is a person (human: one invite is printed "
        "for it, which works once: the first client to join with it holds the seat) or a "
        "bot kind that plays on the server. The host token fetches the game and plays no "
        "seat; fetching an unfinished game ends it (its seed would tell its secrets).",
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
    join.add_argument(
        "token",
        nargs="?",
        help="with --watch: the game's id. Otherwise the seat's invite (or token), read "
        f"from --token-file or ${TOKEN_ENV}, or asked for, when not given here (given "
        "here, other users of this machine can read it in ps)",
    )
    join.add_argument(
        "--token-file",
        metavar="FILE",
        help="a file holding the seat's invite or token (- for standard input)",
    )
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
        "tabletop play, or with --join URL that server seat's screen (its invite read "
        "as join reads it, never on a command line). Listens on "
        "127.0.0.1 unless told otherwise; put it behind a reverse proxy for TLS.",
    )
    _add_address(web, DEFAULT_WEB_PORT, "port")
    web.add_argument(
        "--join",
        nargs="+",
        metavar="URL",
        help="serve the screen of the server seat whose invite or token is in "
        f"--token-file or ${TOKEN_ENV} (or asked for)",
    )
    web.add_argument(
        "--token-file",
        metavar="FILE",
        help="with --join: a file holding the seat's invite or token (- for standard input)",
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
    fetch.add_argument(
        "--token",
        metavar="T",
        help=f"the host token (unfinished games); better in --token-file or ${HOST_TOKEN_ENV}, "
        "out of other users' sight",
    )
    fetch.add_argument(
        "--token-file", metavar="FILE", help="a file holding the host token (- for standard input)"
    )
    fetch.set_defaults(func=cmd_fetch)
