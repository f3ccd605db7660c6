"""The ``tabletop`` command.

Headless commands (games, simulate, fuzz, replay, export) never import Textual, which
costs a few hundred milliseconds; only ``tabletop play`` does. User errors print one
line and exit 2; nothing here lets a traceback reach a player.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypedDict

from tabletop.app import netplay

if TYPE_CHECKING:
    from tabletop.app.container import Container
    from tabletop.framework.errors import ReplayMismatch, TabletopError

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_USAGE = 2
#: Where ``tabletop fuzz`` saves failing games unless told otherwise.
DEFAULT_FUZZ_DIR = "fuzz-failures"
#: The distributions ``--version`` reports: the app (this command) and the core.
DISTRIBUTIONS = ("tabletop-app", "tabletop-framework")


class _KeepTables(argparse.HelpFormatter):
    """Wraps a paragraph as argparse does, but keeps a text of several lines (the exit
    status table) as it is written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"tabletop: error: {message} (see --help)\n")


def _container(args: argparse.Namespace, *, console: bool = True) -> Any:
    """The composition root the command runs with: every adapter it uses comes from
    here. The one given to ``main``, else one configured from the environment, built
    only when a command needs it (so ``--help`` and ``games`` from its cache stay lean)."""
    if args.container is not None:
        return args.container
    from tabletop.app.container import build_container

    return build_container(console=console)


def versions() -> list[tuple[str, str]]:
    """(distribution, version) for the app and the framework; "unknown" when the
    metadata is missing (running from a source tree that was never installed)."""
    from importlib import metadata

    found = []
    for name in DISTRIBUTIONS:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            found.append((name, "unknown"))
    return found


class _Version(argparse.Action):
    """``--version``, looked up only when asked for (metadata lookups cost time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        line = ", ".join(f"{name} {version}" for name, version in versions())
        print(f"tabletop ({line})")
        parser.exit(EXIT_OK)


#: Exit status of an unexpected error (a bug), told in one line like any other.
EXIT_INTERNAL = 3
#: Exit status of a command stopped by Ctrl+C or SIGTERM.
EXIT_INTERRUPTED = 130
#: The end of ``tabletop --help``: every exit status in one table, and where to read on.
EPILOG = """exit status (every command):
  0    success
  1    a game failed or a save did not verify (simulate, fuzz, tournament, replay)
  2    a usage error or a refused request, told in one line (nothing was changed)
  3    an unexpected error: a bug, told in one line; its traceback is in the log
  130  interrupted (Ctrl+C, SIGTERM): batch commands report the games played so far
  install and uninstall pass pip's own status through.

docs: https://github.com/tabletop-games/tabletop/tree/main/docs
bugs: https://github.com/tabletop-games/tabletop/issues"""
#: Bounds of numeric arguments, checked while parsing, before anything is allocated.
MAX_COUNT = 10**9
MAX_SEED = 10**30


def _shown(text: str) -> str:
    """Text that may come from a file, safe for the terminal (no escape sequences)."""
    from tabletop.adapters.saves import printable

    return printable(text, 2000)


def _error(message: str) -> TabletopError:
    """A user error (one line, exit 2). The framework is imported when one is made, not
    when the command starts: ``tabletop games`` may not need it at all."""
    from tabletop.framework.errors import TabletopError

    return TabletopError(message)


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"tabletop: error: {_shown(message)}", file=sys.stderr)
    return code


def _bounded(limit: int) -> Callable[[str], int]:
    """An argparse type: an int no larger than ``limit`` in size, refused in one line
    before any command could allocate by it (``--players 100000000``)."""

    def parse(text: str) -> int:
        value = int(text) if len(text) <= 64 else None  # ValueError: "invalid int value"
        if value is None or not -limit <= value <= limit:
            raise argparse.ArgumentTypeError(
                f"{text[:40]!r} is out of range (at most {limit:,} in size)"
            )
        return value

    parse.__name__ = "int"  # argparse says "invalid int value: 'x'" for a ValueError
    return parse


def _players(text: str) -> int:
    """An argparse type for a number of players or a seat: the record's bound, looked up
    only when the argument is given."""
    from tabletop.framework.record import MAX_PLAYERS

    return _bounded(MAX_PLAYERS)(text)


_players.__name__ = "int"


def _progress(label: str) -> Callable[[int, int], None] | None:
    """A counter with rate, elapsed time and ETA on stderr when it is a terminal;
    silent in pipes and CI logs (``tabletop.app.progress``)."""
    from tabletop.app.progress import bar

    return bar(label)


#: ``--option k=v`` pairs as a dict: the one parser ``host`` uses too.
_parse_options = netplay.parse_options


# Commands -------------------------------------------------------------------------------


def _registry(container: Any) -> Any:
    """The container's registry, with a note on stderr for each plugin whose import
    was slow (once per command): otherwise a 10 s import just makes every command slow."""
    registry = container.registry()
    global _slow_noted
    if not _slow_noted:
        _slow_noted = True
        for plugin, seconds in registry.slow:
            print(
                f"tabletop: note: plugin {_shown(plugin)} took {seconds} s to import "
                "(every command waits for it; TABLETOP_LOAD_PLUGINS=... skips plugins)",
                file=sys.stderr,
            )
    return registry


_slow_noted = False


def cmd_games(args: argparse.Namespace) -> int:
    """The installed games: from the cache of the last listing while no plugin was
    installed, removed or changed (``tabletop.app.catalogue``), else from the plugins."""
    from tabletop.app import catalogue

    try:
        cache: Path | None = catalogue.cache_file()
    except RuntimeError:  # no home directory for the cache: list without one
        cache = None
    games = None if cache is None else catalogue.read(cache)
    failures: list[dict[str, str]] = []
    slow: list[dict[str, Any]] = []
    if games is None:
        registry = _registry(_container(args))
        games = catalogue.listing(registry)
        failures = [{"plugin": f.plugin, "reason": f.reason} for f in registry.failures]
        slow = [{"plugin": name, "seconds": seconds} for name, seconds in registry.slow]
        if not failures and cache is not None:  # a failure is reported afresh every time
            catalogue.write(cache, games, catalogue.sources(registry))
    if args.json:
        print(json.dumps({"games": games, "failures": failures, "slow": slow}, indent=2))
        return EXIT_OK
    if not games:
        print("No games installed. Install one with: tabletop install <game plugin>")
    for game in games:
        low, high = game["players"]
        players = f"{low}" if low == high else f"{low}-{high}"
        dist = f"{game['distribution']} {game['version']}".strip()
        # the plugin's own words: never an escape sequence on the terminal
        print(_shown(f"{game['id']:<28} {game['title']:<36} {players:>5} players  {dist}"))
    for failure in failures:
        print(_shown(f"! plugin {failure['plugin']} failed to load: {failure['reason']}"))
    return EXIT_OK


def _seats_for(args: argparse.Namespace, registry: Any, game_id: str) -> list[str]:
    info = registry.get(game_id).info
    if args.seats:
        seats = [part.strip() for part in args.seats.split(",")]
        if any(not seat for seat in seats):
            raise _error(f"bad seat list {args.seats!r}: empty entry")
        if args.players is not None and args.players != len(seats):
            raise _error(f"--players {args.players} but {len(seats)} seats given")
    else:
        players = args.players if args.players is not None else info.min_players
        info.check_players(players)  # before allocating a list of that length
        seats = ["random"] * players
    info.check_players(len(seats))
    kinds = registry.bot_kinds(game_id)
    for seat in seats:
        if seat not in kinds:
            raise _error(f"unknown bot kind {seat!r} for {game_id} (known: {', '.join(kinds)})")
    return seats


class _Batch(TypedDict):
    """What ``simulate`` and ``tournament`` pass alike to a run, here or on workers."""

    games: int
    seed: int
    seats: list[str]
    progress: Callable[[int, int], None] | None
    action_seconds: float | None


def _batch(args: argparse.Namespace, seats: list[str], label: str) -> _Batch:
    return _Batch(
        games=args.games,
        seed=args.seed,
        seats=seats,
        progress=_progress(label),
        action_seconds=args.action_seconds,
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 0:
        raise _error("--games must be 0 or more")
    container = _container(args)
    log = container.logger()
    seats = _seats_for(args, _registry(container), args.game)
    store = None
    if args.save_dir:
        _check_writable_dir(Path(args.save_dir))
        store = container.store_in(directory=Path(args.save_dir))
    batch = _batch(args, seats, f"simulating {args.game}")
    where = _where(args)
    if where is None:
        from tabletop.framework.fuzz import terminate_as_interrupt

        with terminate_as_interrupt():
            report = container.simulation().run(
                args.game, options=_parse_options(args.option), store=store, **batch
            )
    else:  # the same games on other processes or Ray, put back in order
        from tabletop.app import parallel
        from tabletop.framework.engine import resolve_options

        game = container.registry().get(args.game).definition
        options = resolve_options(game, _parse_options(args.option))
        save_dir = args.save_dir or None
        report = parallel.simulate(
            args.game, options=options, save_dir=save_dir, where=where, **batch
        )
    _end_progress(report)
    log.info("simulate", **{k: v for k, v in report.to_json().items() if k != "failures"})
    data = report.to_json()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(
            f"{data['game']}: {data['completed']}/{data['games']} completed, "
            f"{data['errors']} errors, {data['actions']} actions in {data['seconds']} s "
            f"({data['actions_per_second']} actions/s)"
        )
        for outcome, count in data["outcomes"].items():
            print(f"  {outcome}: {count}")
        for line in report.score_lines():  # mean scores, or a cooperative game's team
            print(line)
        for line in _failure_lines(data["failures"]):
            print(_shown(line))
        print(f"  digest {data['digest']}" + (" (partial)" if report.stopped else ""))
        if report.stopped:
            print(f"  {report.partial_note()}")
    return _batch_exit(report)


def _failure_lines(failures: list[dict[str, Any]]) -> list[str]:
    """A simulation's failures in words, one game a line; games that failed only to be
    saved, for the same reason (a folder that became read-only, a full disk), are one
    line with their count and first seed: 300,000 lines said one thing."""
    import re

    lines: list[str] = []
    unsaved: dict[str, list[int]] = {}
    for failure in failures:
        error = str(failure["error"])
        if error.startswith("not saved: ") and not failure.get("save_error"):
            reason = re.sub(r"seed\d+", "seed…", error)  # the save's name, without its seed
            if reason not in unsaved:
                lines.append(reason)  # its place among the failures: where it first came
            unsaved.setdefault(reason, []).append(int(failure["seed"]))
            continue
        lines.append(f"  error with seed {failure['seed']}: {error}")
        if failure.get("save_error"):
            lines.append(f"    {failure['save_error']}")
    shown: list[str] = []
    for line in lines:
        seeds = unsaved.get(line)
        if seeds is None:
            shown.append(line)
        elif len(seeds) == 1:
            shown.append(f"  error with seed {seeds[0]}: {line}")
        else:
            shown.append(f"  {len(seeds)} games {line} (first seed {seeds[0]})")
    return shown


def _end_progress(report: Any) -> None:
    """End the progress bar's line when a run stopped before filling it."""
    if report.stopped and sys.stderr.isatty():
        print(file=sys.stderr, flush=True)


def _batch_exit(report: Any) -> int:
    """A batch command's exit status: 130 when interrupted, 1 when it stopped for
    another reason (a worker that died: said on stderr) or a game failed, else 0."""
    from tabletop.framework.fuzz import INTERRUPTED

    sys.stdout.flush()
    if report.stopped == INTERRUPTED:
        return _fail(f"interrupted after {report.done} of {report.games} games", EXIT_INTERRUPTED)
    if report.stopped:
        return _fail(f"{report.stopped}; the report covers the first {report.done} games", 1)
    return EXIT_OK if report.errors == 0 else EXIT_MISMATCH


def _check_writable_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise _error(f"{path} is not a directory") from None
    except OSError as exc:
        raise _error(f"cannot use {path} for saves: {exc.strerror}") from None
    if not path.is_dir():
        raise _error(f"{path} is not a directory")
    if not os.access(path, os.W_OK | os.X_OK):
        raise _error(f"cannot use {path} for saves: permission denied")


def _load_save(args: argparse.Namespace) -> tuple[Any, Any]:
    """Read the save ``args.save`` by path (or by id in the save directory) and find its
    game."""
    from tabletop.framework.errors import UnknownGame

    path_text: str = args.save
    container = _container(args)
    path = Path(path_text)
    if not path.exists() and "/" not in path_text and not path_text.endswith(".json"):
        directory = container.config.save_dir()  # None: no home, so no save directory
        if directory is None:
            from tabletop.app.container import NO_HOME

            raise _error(f"{path_text}: no such save file, and {NO_HOME}")
        candidate = Path(directory) / f"{path_text}.json"
        if candidate.exists():
            path = candidate
    record, _ = container.save_file_reader()(path)
    registry = _registry(container)
    if record.game not in registry.games:
        known = ", ".join(sorted(registry.games)) or "none"
        raise UnknownGame(
            f"{path.name}: this save is for the game {record.game!r}, which is not installed "
            f"(installed: {known}); the save is kept unchanged"
        )
    return container, (record, registry.get(record.game))


def _note_version(record: Any, installed: Any) -> None:
    """Say so when the save was made by another version of the game's plugin."""
    from tabletop.framework.engine import version_note

    note = version_note(record, installed.info.version)
    if note:
        print(f"tabletop: note: {_shown(note.strip(' ()'))}", file=sys.stderr)


def _kept(exc: ReplayMismatch, save: str) -> ReplayMismatch:
    from tabletop.framework.errors import ReplayMismatch

    return ReplayMismatch(
        f"{_named(str(exc), save)}; the save is kept unchanged (`tabletop export {save}` "
        "shows its log as far as it replays)"
    )


def _named(message: str, save: str) -> str:
    """``message`` beginning with the save's file name (once)."""
    name = Path(save).name
    return message if message.startswith(name) else f"{name}: {message}"


def _check_seats(record: Any, registry: Any, save: str) -> None:
    """Every seat kind the save names is one the app can play (a person, the game's
    own procedure or an installed bot kind): what the app refuses, --verify refuses."""
    from tabletop.framework.errors import ReplayMismatch
    from tabletop.framework.session import AUTOMATED, HUMAN

    kinds = registry.bot_kinds(record.game)
    for seat, kind in enumerate(record.seats):
        if kind not in (HUMAN, AUTOMATED, *kinds):
            known = ", ".join(sorted([HUMAN, *kinds]))
            raise ReplayMismatch(
                f"{Path(save).name}: seat {seat} is played by {_shown(str(kind))!r}, which "
                f"is not a seat kind here (known: {known}): the app cannot open this save; "
                "it is kept unchanged"
            )


def cmd_replay(args: argparse.Namespace) -> int:
    from tabletop.framework.engine import Engine
    from tabletop.framework.errors import ReplayMismatch, TabletopError

    container, (record, installed) = _load_save(args)
    if args.to is not None and not 0 <= args.to <= len(record.actions):
        raise _error(f"--to must be between 0 and {len(record.actions)}")
    if args.seat is not None and not 0 <= args.seat < record.players:
        raise _error(f"--seat must be between 0 and {record.players - 1}")
    if args.verify and not record.digest:
        raise ReplayMismatch(
            f"{Path(args.save).name}: the save has no digest to verify against "
            "(its game failed during setup)"
        )
    _note_version(record, installed)
    if args.verify:
        _check_seats(record, _registry(container), args.save)
    try:
        engine = Engine.from_record(
            installed.definition,
            record,
            rng_factory=container.rng_factory(),
            dice_factory=container.dice_factory(),
            upto=args.to,
            verify=args.verify,
            progress=_progress("replaying"),
        )
    except ReplayMismatch as exc:
        raise _kept(exc, args.save) from None
    except TabletopError as exc:  # a bad option in the save, a fault in setup: name it
        raise TabletopError(_named(str(exc), args.save)) from None
    if args.to is not None:
        # A player-facing tool shows what a seat (or a spectator) may see: the full
        # state (hidden hands, the deck order) needs the developer flag.
        shown: dict[str, Any] = {"actions": args.to, "digest": engine.digest()}
        if args.full_state:
            shown["state"] = engine.state
        else:
            shown["seat"] = args.seat
            try:
                shown["view"] = engine.view(args.seat)
            except Exception as exc:  # the game's own code: name the save and plugin
                who = "the spectator" if args.seat is None else f"seat {args.seat}"
                raise ReplayMismatch(
                    f"{Path(args.save).name}: the view for {who} failed in plugin "
                    f"{installed.plugin!r}: {type(exc).__name__}: {exc}"
                ) from None
        print(json.dumps(shown, indent=2, sort_keys=True))
        return EXIT_OK
    if args.verify:
        _check_summary(record, engine, installed, args.save)
    status = "verified" if args.verify else "replayed"
    print(f"{args.save}: {status}: {len(record.actions)} actions, digest {engine.digest()[:16]}")
    return EXIT_OK


def _check_summary(record: Any, engine: Any, installed: Any, save: str) -> None:
    """The save's summary (finished, progress) must be what its replay gives: the
    listing shows it without replaying, so a forged one is caught here."""
    from tabletop.framework.errors import ReplayMismatch

    if record.finished != engine.over:
        said = "finished" if record.finished else "unfinished"
        raise ReplayMismatch(
            f"{Path(save).name}: the save says the game is {said}, its replay says "
            "otherwise: the summary was edited; the save is kept unchanged"
        )
    same_version = record.game_version == installed.info.version
    if same_version and record.progress != engine.game.describe(engine.state):
        raise ReplayMismatch(
            f"{Path(save).name}: the save's progress line is not what its replay gives: "
            "the summary was edited; the save is kept unchanged"
        )


def cmd_export(args: argparse.Namespace) -> int:
    """Print the public log. A save that no longer replays in full is exported as far
    as it goes (read-only: the file is never rewritten) and the command exits 1."""
    from tabletop.framework.engine import replay_partial

    container, (record, installed) = _load_save(args)
    _note_version(record, installed)
    replay = replay_partial(
        installed.definition,
        record,
        rng_factory=container.rng_factory(),
        dice_factory=container.dice_factory(),
    )
    engine = replay.engine
    public = [(index, event) for index, event in engine.history if event.visible_to(None)]
    result = engine.result
    if args.form == "json":
        data = {
            "game": record.game,
            "title": installed.info.title,
            "seed": record.seed,
            "players": record.players,
            "seats": list(engine.seat_names),
            "events": [
                {"action": index, "seat": event.concerns, "kind": event.kind, "text": event.text}
                for index, event in public
            ],
            "result": result.summary if result is not None else None,
            "replayed": replay.replayed,
            "total": replay.total,
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif args.form == "log":
        print(f"# {installed.info.title}, seed {record.seed}, {record.players} players")
        for line in engine.story(None):  # the same story as the UI's log
            number = f"{line.action:>4}" if line.event is None else "    "
            print(f"{number}  {_shown(line.text)}")
        if result is not None:
            print(f"Result: {_shown(result.summary)}")
    if replay.problem is not None:
        sys.stdout.flush()
        return _fail(
            f"exported {replay.replayed} of {replay.total} actions: {replay.problem}; "
            "the save is kept unchanged",
            EXIT_MISMATCH,
        )
    return EXIT_OK


def cmd_fuzz(args: argparse.Namespace) -> int:
    from tabletop.framework.errors import SaveError
    from tabletop.framework.fuzz import MAX_ACTIONS, FuzzFailure, fuzz

    if args.games < 0:
        raise _error("--games must be 0 or more")
    if args.max_actions is None:
        args.max_actions = MAX_ACTIONS
    if args.max_actions < 1:
        raise _error("--max-actions must be 1 or more")
    if args.roundtrip_every is not None and args.roundtrip_every < 0:
        raise _error("--roundtrip-every must be 0 or more")
    container = _container(args)
    log = container.logger()
    registry = _registry(container)
    game = registry.get(args.game).definition
    seats = _fuzz_seats(args.seats, registry, args.game)
    save_dir = Path(args.save_dir)
    if args.save_dir != DEFAULT_FUZZ_DIR:  # the default is only made when needed
        _check_writable_dir(save_dir)
    store = container.store_in(directory=save_dir)

    def keep(failure: FuzzFailure) -> str:
        assert failure.record is not None
        save_id = base = f"{args.game}-fuzz-seed{failure.seed}"
        suffix = 1
        while store.path_of(save_id).exists():  # keep the failures of earlier runs
            suffix += 1
            save_id = f"{base}-{suffix}"
        try:
            store.save(failure.record, save_id)
        except SaveError as exc:
            print(f"tabletop: warning: {exc}", file=sys.stderr)
            return ""
        return str(store.path_of(save_id))

    where = _where(args)
    if where is None:
        from tabletop.adapters.collector import collector
        from tabletop.framework.fuzz import terminate_as_interrupt

        with collector.tuned(), terminate_as_interrupt():  # many short-lived objects a game
            report = fuzz(
                game,
                games=args.games,
                seed=args.seed,
                players=args.players,
                options=_parse_options(args.option),
                rng_factory=container.rng_factory(),
                dice_factory=container.dice_factory(),
                max_actions=args.max_actions,
                roundtrip_every=args.roundtrip_every,
                on_failure=keep,
                progress=_progress(f"fuzzing {args.game}"),
                action_seconds=args.action_seconds,
                seats=seats,
                bots={kind: registry.bots[kind][0] for kind in seats if kind in registry.bots},
            )
    else:  # the same games on other processes or Ray; failures saved here, in order
        from tabletop.app import parallel
        from tabletop.framework.engine import resolve_options

        if args.players is not None:
            game.info.check_players(args.players)
        pinned = _parse_options(args.option)
        resolve_options(game, pinned)  # refuse bad pinned options before any work
        report = parallel.fuzz(
            args.game,
            games=args.games,
            seed=args.seed,
            players=args.players,
            options=pinned,
            max_actions=args.max_actions,
            roundtrip_every=args.roundtrip_every,
            where=where,
            on_failure=keep,
            progress=_progress(f"fuzzing {args.game}"),
            action_seconds=args.action_seconds,
            seats=seats,
        )
    _end_progress(report)
    data = report.to_json()
    logged = {k: v for k, v in data.items() if k not in ("failures", "reach")}
    log.info("fuzz", **logged, unreached=report.unreached)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(
            f"{data['game']}: {data['completed']}/{data['games']} games passed, "
            f"{data['errors']} failed, {data['actions']} actions, "
            f"{data['roundtrips']} save round trips in {data['seconds']} s"
        )
        for line in _reach_lines(report, full=args.reach):
            print(f"  {line}")
        for failure in data["failures"]:
            options = ",".join(f"{k}={v}" for k, v in failure["options"].items())
            print(f"  seed {failure['seed']} ({failure['players']} players {options}):")
            print(f"    {failure['reason']}")
            if failure["save"]:
                print(f"    saved: {failure['save']} (tabletop replay {failure['save']})")
        if report.stopped:
            print(f"  {report.partial_note()}")
    status = _batch_exit(report)
    if status == EXIT_OK and args.require_milestones and report.unreached:
        return _fail(f"milestones no game reached: {', '.join(report.unreached)}", 1)
    return status


def _fuzz_seats(text: str | None, registry: Any, game_id: str) -> list[str]:
    """``fuzz --seats``: bot kinds for the seats, cycled (none: random everywhere)."""
    if not text:
        return []
    seats = [part.strip() for part in text.split(",")]
    if any(not seat for seat in seats):
        raise _error(f"bad seat list {text!r}: empty entry")
    kinds = registry.bot_kinds(game_id)
    for seat in seats:
        if seat not in kinds:
            raise _error(f"unknown bot kind {seat!r} for {game_id} (known: {', '.join(kinds)})")
    return seats


def _reach_lines(report: Any, *, full: bool) -> list[str]:
    """What a fuzz run reached, in words: counts (``full``: every rule, prompt kind and
    milestone with how often), and the milestones the game must reach that no game did."""
    reach = report.reach
    lines = [
        f"reached {len(reach.rules)} rule citations, {len(reach.prompts)} kinds of prompt"
        + (f", {len(reach.milestones)} milestones" if reach.milestones else "")
        + f" (seats: {','.join(report.seats) or 'random'})"
    ]
    if full:
        lines += [f"rule {name}: {count} prompts" for name, count in sorted(reach.rules.items())]
        lines += [f"prompt {name}: {count}" for name, count in sorted(reach.prompts.items())]
        lines += [
            f"milestone {name}: {count} games" for name, count in sorted(reach.milestones.items())
        ]
    if report.unreached:
        lines.append(f"milestones no game reached: {', '.join(report.unreached)}")
    return lines


def _bot_players(value: str | None) -> list[int] | None:
    """``--bot-players 4,6`` as seat counts; None when not given."""
    if value is None:
        return None
    try:
        counts = [int(part) for part in value.split(",")]
    except ValueError:
        raise _error(f"--bot-players takes seat counts such as 4,6, not {value!r}") from None
    if any(count < 1 for count in counts):
        raise _error("--bot-players: seat counts must be 1 or more")
    return counts


def cmd_bench(args: argparse.Namespace) -> int:
    from tabletop.app.bench import (
        bench_games,
        bench_startup,
        format_startup,
        format_table,
        load_average,
    )

    if args.server:  # networked play over loopback (tabletop.app.bench_server)
        chosen = (args.server_idle, args.server_one_seat, args.server_finished)
        if any(count is not None for count in chosen):
            from tabletop.app.bench_server_limits import run_bench_limits

            return run_bench_limits(args, _registry(_container(args)))
        from tabletop.app.bench_server import run_bench_server

        return run_bench_server(args, _registry(_container(args)))
    if args.games < 1:
        raise _error("--games must be 1 or more")
    if args.rounds < 1:
        raise _error("--rounds must be 1 or more")
    if args.bot_decisions < 1:
        raise _error("--bot-decisions must be 1 or more")
    if args.bot_games < 1:
        raise _error("--bot-games must be 1 or more")
    bot_players = _bot_players(args.bot_players)
    container = _container(args)
    sessions = container.simulation().sessions  # exactly what `simulate` plays with
    game_ids = list(args.game) or sorted(sessions.registry.games)
    for game_id in game_ids:
        sessions.registry.get(game_id)  # an unknown game is refused before any work
    if args.bots and args.bot_kind not in sessions.registry.bots:
        raise _error(f"--bot-kind: no bot kind {args.bot_kind!r} is installed")
    load_before = load_average()
    data: dict[str, Any] = {}
    lines: list[str] = []
    failed = False
    if not args.bots:  # --bots measures the bots alone: the playouts are another question
        benches = bench_games(
            sessions,
            game_ids,
            games=args.games,
            rounds=args.rounds,
            seed=args.seed,
            progress=_progress("benchmarking"),
        )
        data["games"] = [bench.to_json() for bench in benches]
        lines += format_table(benches)
        failed = any(bench.error is not None for bench in benches)
    if args.mcts:
        from tabletop.app.bench import bench_mcts, format_mcts

        search = bench_mcts(sessions, game_ids, seed=args.seed)
        data["mcts"] = search
        lines += format_mcts(search)
    if args.bots:
        from tabletop.app.bench import bench_bots, format_bots

        timings = bench_bots(
            sessions,
            game_ids,
            kind=args.bot_kind,
            players=bot_players,
            games=args.bot_games,
            decisions=args.bot_decisions,
            seed=args.seed,
            progress=_progress("timing bots"),
        )
        data["bots"] = [timing.to_json() for timing in timings]
        lines += format_bots(timings)
        failed = failed or any(timing.error is not None for timing in timings)
    if args.startup:
        startup = bench_startup()
        data["startup"] = startup.to_json()
        lines += format_startup(startup)
    if args.ui:  # imports Textual: only when asked for
        from tabletop.app.bench_ui import bench_ui, format_ui

        ui = bench_ui(sessions, args.ui_game, seed=args.seed or 1)
        data["ui"] = ui.to_json()
        lines += format_ui(ui)
        failed = failed or ui.error is not None
    if args.waits:  # imports Textual: only when asked for
        from tabletop.app.bench_ui import bench_waits, format_waits

        waits = bench_waits(sessions, args.waits_game, seed=args.seed or 1, presses=args.waits)
        data["waits"] = waits.to_json()
        lines += format_waits(waits)
        failed = failed or waits.error is not None
    if args.openspiel:
        from tabletop.app.bench_openspiel import bench_side_by_side, format_side_by_side

        side = bench_side_by_side(sessions.registry, seconds=args.openspiel_seconds)
        data["openspiel"] = side
        lines += format_side_by_side(side)
    data["load_average"] = {"start": load_before, "end": load_average()}
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        loads = data["load_average"]
        if loads["start"] is not None and loads["end"] is not None:
            lines.append(
                "load average (1, 5, 15 min): "
                + " ".join(map(str, loads["start"]))
                + " at the start, "
                + " ".join(map(str, loads["end"]))
                + " at the end"
            )
        print("\n".join(lines))
    return EXIT_MISMATCH if failed else EXIT_OK


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise _error("--games must be 1 or more")
    container = _container(args)
    registry = _registry(container)
    seats = _seats_for(args, registry, args.game)
    options = _parse_options(args.option)
    batch = _batch(args, seats, f"tournament {args.game}")
    rotate = not args.fixed_seats
    where = _where(args)
    if where is None:
        from tabletop.framework.fuzz import terminate_as_interrupt

        with terminate_as_interrupt():
            report = container.tournament().run(args.game, options=options, rotate=rotate, **batch)
    else:  # the same games on other processes or Ray, put back in order
        from tabletop.app import parallel
        from tabletop.framework.engine import resolve_options

        options = resolve_options(registry.get(args.game).definition, options)
        report = parallel.tournament(
            args.game, options=options, rotate=rotate, where=where, **batch
        )
    _end_progress(report)
    data = report.to_json()
    container.logger().info("tournament", **{k: v for k, v in data.items() if k != "failures"})
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(report.lines()))
        if report.stopped:
            print(f"  {report.partial_note()}")
    return _batch_exit(report)


def cmd_play(args: argparse.Namespace) -> int:
    container = _container(args, console=False)
    log = container.logger()
    app = container.tui()
    log.info("play.start")
    app.run()
    code = app.return_code or 0  # Textual sets 1 when the app ended on an error
    log.info("play.end", code=code)
    return EXIT_OK if code == 0 else EXIT_INTERNAL


def _where(args: argparse.Namespace) -> Any:
    """Where a batch runs (``--workers``, ``--ray``); None: here, in this process."""
    if args.workers == 1 and args.ray is None:
        return None
    from tabletop.app.parallel import Where

    where = Where(workers=args.workers, ray=args.ray)
    where.check()
    return where


def _add_batch_arguments(
    parser: argparse.ArgumentParser, *, players_help: str, option_help: str
) -> None:
    """The arguments of the batch commands (simulate, fuzz, tournament): which game, how
    many, which seed, how to print, where to run."""
    parser.set_defaults(batch=True)  # see _one_interrupt
    parser.add_argument("game", help="the game's id (see `tabletop games`)")
    parser.add_argument(
        "--games",
        type=_bounded(MAX_COUNT),
        default=100,
        metavar="N",
        help="how many games (default: 100)",
    )
    parser.add_argument(
        "--seed",
        type=_bounded(MAX_SEED),
        default=0,
        metavar="S",
        help="seed of the run: game i plays with seed S*100003+i in simulate, fuzz and "
        "tournament alike (the same seed and seats play the same game in the terminal UI) "
        "(default: 0)",
    )
    parser.add_argument("--players", type=_players, metavar="P", help=players_help)
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help=option_help
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (default: words)"
    )
    parser.add_argument(
        "--workers",
        type=_bounded(256),
        default=1,
        metavar="K",
        help="play on K local processes; results (digest, outcomes, failures) are the "
        "same for any K (default: 1, this process)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on Ray: a local instance, or the cluster at ADDRESS; needs "
        "tabletop install 'tabletop-app[ray]' (default: no Ray)",
    )
    parser.add_argument(
        "--action-seconds",
        type=_seconds,
        default=10.0,
        metavar="T",
        help="time limit of one game action (rules and bot thinking): a game stuck "
        "longer fails with its seed instead of hanging the run; 0: no limit "
        "(default: 10)",
    )


def _seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, 0 (none) up to a day."""
    value = float(text) if len(text) <= 32 else -1.0  # ValueError: "invalid float value"
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not 0 to 86400 seconds")
    return value


_seconds.__name__ = "float"


def _sub(sub: Any, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tabletop",
        description="Play and write historical board games in the terminal. Saves go to "
        "$TABLETOP_SAVE_DIR (default: the user data directory), the log (JSON lines) to "
        "$TABLETOP_LOG_FILE (default: the user log directory), the games list's cache to "
        "$TABLETOP_CACHE_DIR (default: the user cache directory), your seats in server "
        "games (with their tokens) to $TABLETOP_SERVER_GAMES (default: the user data "
        "directory); TABLETOP_LOAD_PLUGINS=a,b loads only those plugins, "
        "TABLETOP_LOG_CONSOLE=1 also prints warnings. `tabletop paths` shows them all.",
        epilog=EPILOG,
        formatter_class=_KeepTables,
    )
    parser.add_argument(
        "-V", "--version", action=_Version, help="print the app's and the framework's versions"
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)  # none: the help

    games = _sub(
        sub,
        "games",
        "list installed games and broken plugins",
        "List the installed games (id, title, players, distribution) and every plugin "
        "that failed to load, with the reason.",
    )
    games.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    games.set_defaults(func=cmd_games)

    sim = _sub(
        sub,
        "simulate",
        "play games headless with bots",
        "Play GAME many times with bots in every seat, headless, each game through the "
        "same session and bot moves as the terminal UI; report completed games, errors "
        "(with the seed that reproduces each), actions, time, outcomes and a digest of "
        "all final states. Exit 1 when a game failed.",
    )
    _add_batch_arguments(
        sim,
        players_help="number of players (default: as many as --seats, else the game's minimum)",
        option_help="set a game option, repeatable (default: the game's defaults)",
    )
    sim.add_argument(
        "--seats",
        metavar="KINDS",
        help="comma list of bot kinds, one per seat, e.g. random,random "
        "(default: random in every seat)",
    )
    sim.add_argument(
        "--save-dir", metavar="DIR", help="save every game in DIR (default: save nothing)"
    )
    sim.set_defaults(func=cmd_simulate)

    replay = _sub(
        sub,
        "replay",
        "replay a save from its seed and log",
        "Replay a save from its seed and action log. With --verify, check the final "
        "state against the save's digest: exit 0 on a match, 1 on a mismatch, 2 when "
        "the save cannot be read.",
    )
    replay.add_argument("save", help="a save file's path, or a save id in the save directory")
    replay.add_argument(
        "--verify", action="store_true", help="check the state digest (default: replay only)"
    )
    replay.add_argument(
        "--to",
        type=_bounded(MAX_COUNT),
        metavar="N",
        help="print what a spectator sees after N actions, as JSON (default: replay them all)",
    )
    replay.add_argument(
        "--seat",
        type=_players,
        metavar="SEAT",
        help="with --to: show that seat's view, numbered from 0 (default: a spectator's)",
    )
    replay.add_argument(
        "--full-state",
        action="store_true",
        help="with --to: print the whole state, every hidden hand and the deck order "
        "included (for developers; default: a view)",
    )
    replay.set_defaults(func=cmd_replay)

    export = _sub(
        sub,
        "export",
        "print a save's public game log",
        "Print the public game log of a save: what every seat and a spectator saw, "
        "never a seat's private events. A save that no longer replays in full is "
        "exported as far as it goes and the command exits 1; the file is never changed.",
    )
    export.add_argument("save", help="a save file's path, or a save id in the save directory")
    form = export.add_mutually_exclusive_group()
    form.add_argument(
        "--log",
        dest="form",
        action="store_const",
        const="log",
        help="the log in words, one event a line (the default)",
    )
    form.add_argument(
        "--json",
        dest="form",
        action="store_const",
        const="json",
        help="the log as one JSON object: game, seed, seats, events, result",
    )
    export.set_defaults(func=cmd_export, form="log")

    fz = _sub(
        sub,
        "fuzz",
        "play random legal games, checking every guarantee",
        "Play random legal games of GAME and check after every action the game's "
        "invariants, save/load round trips, undo, views, prompts and leaks of hidden "
        "information. Each failure is saved as a game that `tabletop replay` opens. "
        "Exit 1 when a game failed.",
    )
    _add_batch_arguments(
        fz,
        players_help="pin the number of players (default: each game draws one)",
        option_help="pin a game option, repeatable (default: each game draws every option)",
    )
    fz.add_argument(
        "--save-dir",
        default=DEFAULT_FUZZ_DIR,
        metavar="DIR",
        help=f"where failing games are saved for replay (default: ./{DEFAULT_FUZZ_DIR})",
    )
    fz.add_argument(
        "--max-actions",
        type=_bounded(MAX_COUNT),
        metavar="N",
        help="longest game allowed before it counts as stuck (default: the limit of every "
        "batch run, simulate and tournament too: MAX_ACTIONS in tabletop.framework.fuzz)",
    )
    fz.add_argument(
        "--roundtrip-every",
        type=_bounded(MAX_COUNT),
        metavar="K",
        help="save/load round trip every K actions (default: every action up to 64, "
        "then every 16; 0: only at the end)",
    )
    fz.add_argument(
        "--seats",
        metavar="KINDS",
        help="comma list of bot kinds that play the seats, cycled over them, e.g. "
        "mcts-quick or the game's own bots, so the games reach states random play "
        "misses; every check still runs (default: random in every seat)",
    )
    fz.add_argument(
        "--reach",
        action="store_true",
        help="list every rule citation, kind of prompt and milestone reached, with how "
        "often (default: their counts only)",
    )
    fz.add_argument(
        "--require-milestones",
        action="store_true",
        help="exit 1 when a milestone the game must reach (GameDefinition.must_reach) was "
        "reached by no game",
    )
    fz.set_defaults(func=cmd_fuzz)

    bench = _sub(
        sub,
        "bench",
        "measure playouts, actions, saves and loads",
        "Measure each GAME (default: every installed game) with random bots: playouts "
        "per second through `simulate`, microseconds per action and the share of the "
        "game's own rules code in it, and the size, save time and load time of a "
        "finished game. Medians of interleaved rounds. With --bots, instead, how long the "
        "bots keep a player waiting (see --bots). Exit 1 when a game failed.",
    )
    bench.add_argument("game", nargs="*", help="game ids (default: every installed game)")
    bench.add_argument(
        "--games", type=int, default=100, metavar="N", help="games per round (default: 100)"
    )
    bench.add_argument(
        "--rounds", type=int, default=3, metavar="R", help="rounds, for medians (default: 3)"
    )
    bench.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default: 0)")
    bench.add_argument(
        "--mcts",
        action="store_true",
        help="also time the search bot (mcts): iterations and simulated actions per second",
    )
    bench.add_argument(
        "--bots",
        action="store_true",
        help="instead of the playouts, time what a player waits for: the default bot "
        "(mcts, normal strength) plays every seat of each game, at its least and most "
        "seats, and every decision with more than one choice is timed: decisions, mean, "
        "p95 and max seconds, wall-clock and CPU, simulated actions, and whether the "
        "target (mean under 0.5 s, none over 2 s) is met; bounded by --bot-games and "
        "--bot-decisions",
    )
    bench.add_argument(
        "--bot-decisions",
        type=int,
        default=60,
        metavar="D",
        help="with --bots: a game stops after D timed decisions (default: 60)",
    )
    bench.add_argument(
        "--bot-games",
        type=int,
        default=1,
        metavar="N",
        help="with --bots: games per game and seat count (default: 1)",
    )
    bench.add_argument(
        "--bot-players",
        metavar="P[,P...]",
        help="with --bots: the seat counts to time, where a game allows them (a game "
        "that allows none of them: its least; default: each game's least and most)",
    )
    bench.add_argument(
        "--bot-kind",
        default="mcts",
        metavar="KIND",
        help="with --bots: the bot kind in every seat (default: mcts)",
    )
    bench.add_argument(
        "--startup",
        action="store_true",
        help="also time `tabletop games --json` against a bare interpreter",
    )
    bench.add_argument(
        "--ui",
        action="store_true",
        help="also play a hot-seat game in the Textual UI through Pilot and report CPU "
        "time per key press (imports Textual)",
    )
    bench.add_argument(
        "--ui-game",
        default="red-flag-over-paris",
        metavar="GAME",
        help="the game --ui plays (default: red-flag-over-paris)",
    )
    bench.add_argument(
        "--waits",
        type=int,
        default=0,
        metavar="N",
        help="also play N decisions of a person against three mcts bots in the Textual UI "
        "at the default bot speed and report the waits felt from each key press to the "
        "next decision: p50, p95, max (imports Textual)",
    )
    bench.add_argument(
        "--waits-game",
        default="la-revolution-francaise",
        metavar="GAME",
        help="the game --waits plays, a person in its first seat (default: "
        "la-revolution-francaise)",
    )
    bench.add_argument(
        "--openspiel",
        action="store_true",
        help="also time tic-tac-toe and Pig as Tabletop games and as OpenSpiel's Python "
        "and C++ games, side by side (needs tabletop install 'tabletop-app[openspiel]')",
    )
    bench.add_argument(
        "--openspiel-seconds",
        type=float,
        default=2.0,
        metavar="T",
        help="seconds of play per figure with --openspiel (default: 2)",
    )
    bench.add_argument(
        "--server",
        action="store_true",
        help="instead, networked play over loopback: a tabletop serve process and "
        "--server-games concurrent games of the first GAME (default: pig), every seat a "
        "random-bot client; moves/s, p50/p95 latency per move, server memory per game",
    )
    bench.add_argument(
        "--server-games",
        type=int,
        default=50,
        metavar="N",
        help="with --server: concurrent games (default: 50)",
    )
    bench.add_argument(
        "--server-players",
        type=_players,
        metavar="P",
        help="with --server: seats per game (default: the game's least)",
    )
    bench.add_argument(
        "--server-processes",
        type=int,
        default=1,
        metavar="P",
        help="with --server: P server processes on the database of --server-db (PostgreSQL "
        "when more than one), each game's seats spread over them (default: 1)",
    )
    bench.add_argument(
        "--server-db",
        metavar="URL",
        help="with --server: the servers' database, postgresql://USER@HOST/DB (its tables "
        "are made if missing; default: a fresh SQLite file)",
    )
    bench.add_argument(
        "--server-idle",
        type=int,
        metavar="N",
        help="with --server: instead, N idle connections from one address (127.0.0.2) "
        "held against a server with its default limits while a new player joins and "
        "moves: p50/p95/max per move, what the server held",
    )
    bench.add_argument(
        "--server-one-seat",
        type=int,
        metavar="N",
        help="with --server: instead, N connections opened on one seat: how many stay "
        "live, and another game's moves meanwhile",
    )
    bench.add_argument(
        "--server-finished",
        type=int,
        metavar="N",
        help="with --server: instead, a store filled with N finished La Revolution games "
        "(none joined) and --server-played more played to their end on the server: its "
        "memory",
    )
    bench.add_argument(
        "--server-played",
        type=int,
        default=10,
        metavar="K",
        help="with --server-finished: all-bot games played to their end on the server, "
        "10 at a time (default: 10)",
    )
    bench.add_argument(
        "--server-mixed",
        action="store_true",
        help="with --server: instead, a person's moves while 100 all-bot La Revolution "
        "games (4 random seats) and 6 Red Flag games (mcts,mcts) play on the server: "
        "p50/p95/max per move, and the bot moves made meanwhile",
    )
    bench.add_argument(
        "--server-seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="with --server-mixed: how long the person plays (default: 60)",
    )
    bench.add_argument(
        "--json", action="store_true", help="print one JSON object (default: a table)"
    )
    bench.set_defaults(func=cmd_bench)

    play = _sub(
        sub,
        "play",
        "open the terminal UI",
        "Open the terminal UI: new game, load, hot-seat, bots, undo; every move is "
        "autosaved in $TABLETOP_SAVE_DIR (default: the user data directory).",
    )
    play.set_defaults(func=cmd_play)

    tour = _sub(
        sub,
        "tournament",
        "bots against each other, seats rotated, win rates with 95%% intervals",
        "Play GAME N times with the given bot kinds, the seat list rotated by one seat "
        "each game; report each kind's win rate with a 95% confidence interval (Wilson), "
        "the mean game length and each kind's time per decision. Game i uses seed "
        "S*100003+i, as simulate does; the results are the same for any --workers or on "
        "Ray. Exit 1 when a game failed.",
    )
    _add_batch_arguments(
        tour,
        players_help="number of players (default: as many as --seats)",
        option_help="set a game option, repeatable (default: the game's defaults)",
    )
    tour.add_argument(
        "--seats",
        required=True,
        metavar="KINDS",
        help="comma list of bot kinds, one per seat, e.g. mcts,random (rotated each game)",
    )
    tour.add_argument(
        "--fixed-seats",
        action="store_true",
        help="keep each kind in its seat instead of rotating (default: rotate)",
    )
    tour.set_defaults(func=cmd_tournament)
    from tabletop.app import commands  # paths, completion, install, uninstall, new-game

    commands.add_parsers(sub, _sub, parser)
    netplay.add_parsers(sub, _sub)  # serve, host, join, fetch, web: networked play
    return parser


def main(argv: Sequence[str] | None = None, *, container: Container | None = None) -> int:
    """Run the ``tabletop`` command on ``argv`` (default: the process's arguments) and
    return its exit status. ``container`` wires the command (an embedding program's, or
    a test's with overridden providers; processes started by ``--workers`` build their
    own); by default the command builds the composition root from the environment."""
    global _slow_noted
    _slow_noted = False  # each command notes slow plugins once
    parser = build_parser()
    args = parser.parse_args(argv, namespace=argparse.Namespace(container=container))
    if args.command is None:  # `tabletop` alone: the help, as pip and ruff do
        parser.print_help()
        return EXIT_OK
    try:
        with _one_interrupt() if getattr(args, "batch", False) else nullcontext():
            code: int = args.func(args)
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:  # `tabletop export x | head` is not an error
        sys.stderr.close()
        return EXIT_OK
    except (Exception, SystemExit) as exc:
        return _failed(exc)
    return code


@contextmanager
def _one_interrupt() -> Iterator[None]:
    """Around a batch command: the first Ctrl+C stops the run (a KeyboardInterrupt, as
    always), and any further one is ignored until the report is printed: a second
    press, a common reflex, landed in the merge or the printing and lost the report of
    the games played; it stays ignored to the process's end. Nothing changes off the
    main thread."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # ignored when started: so be it
    ):
        yield
        return

    def first(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        # Once interrupted, Ctrl+C stays ignored to the end: a press that came after
        # the report would otherwise kill the process (exit -2 instead of 130).
        if signal.getsignal(signal.SIGINT) is first:
            signal.signal(signal.SIGINT, previous)


def _failed(exc: BaseException) -> int:
    """The exit status of a command that raised, told in one line: a user error, a
    mismatch, a library Tabletop needs that is missing, or a bug or a plugin's exit
    (still one line)."""
    from tabletop.app.install import missing_dependency

    missing = missing_dependency(exc)  # before the framework: it may be what is missing
    if missing is not None:  # our own words: printed without the framework's printable
        print(f"tabletop: error: {missing}", file=sys.stderr)
        return EXIT_USAGE
    from tabletop.framework.errors import ReplayMismatch, SaveError, TabletopError

    if isinstance(exc, ReplayMismatch):
        return _fail(str(exc), EXIT_MISMATCH)
    if isinstance(exc, SaveError | TabletopError):
        return _fail(str(exc))
    if isinstance(exc, SystemExit) and exc.code in (None, 0):
        return EXIT_OK
    from tabletop.app.logs import crash_report  # the traceback goes to the log

    return _fail(f"unexpected {type(exc).__name__}: {exc} ({crash_report(exc)})", EXIT_INTERNAL)


if __name__ == "__main__":
    sys.exit(main())
