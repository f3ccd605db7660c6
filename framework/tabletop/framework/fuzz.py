"""The fuzzer: random legal play with every safety check the framework can make.

Why it exists: a game plugin is arbitrary code, and the framework promises that a game
is nothing but a seed plus a log of actions. The fuzzer plays many seeded games with
uniformly random legal actions (every player count and option value unless pinned)
and after *every* action checks what that promise rests on:

* the game's own ``invariants`` hold;
* the state is plain JSON data (no tuples, sets or non-string keys) so that saves,
  digests and undo snapshots see all of it;
* the prompt offers at least one legal, distinct choice to a real seat, or the game is
  over and has a result (whose winners, in a game with sides, are the winning side's
  seats);
* every seat's view and the spectator's view can be built, are JSON-serialisable,
  use the view schema's keys as documented, and leave the state untouched;
* an illegal action and an action by the wrong seat are refused without any change
  (checked with each round trip);
* undo, where allowed, returns the exact previous digest and redoing gives it back;
* a *shadow* engine replaying the same actions from the same seed reaches the same
  digest;
* the record survives a save/load round trip (record -> JSON text -> record);
* in a game with hidden information, nothing a seat receives (view, prompt, events)
  tells it what it must not know: the counterfactual checks of ``leaks.py`` run on every
  action and on setup's draws; every world ``determinize`` makes is one the game can be
  in (its invariants hold, the same seat decides, it can be played on); and for a game
  whose secrets all come from the framework (``secrets_from_framework``), worlds the
  framework builds by replaying the game (``worlds.py``) check the views, prompts and
  events, and ``determinize`` is held to them.

Random play never reaches some states of a long game (Hanabi burns its fuses before the
deck runs out; a rare regime of La Révolution needs purposeful play), so the seats may
be played by other bots instead (``seats`` with their ``bots`` factories: the game's own
bots, a quick search bot, a mix), with every check unchanged. The report says what the
run reached (``Reach``): each rule citation and each kind of prompt (its citation and
its text's stem), and the game's milestones (``GameDefinition.milestones``); the
milestones a game says it ``must_reach`` and that no game reached are ``unreached``,
which ``tabletop fuzz --require-milestones`` treats as a failure.

The shadow engine is the speed trick: rather than replaying the whole log from the
start at each check (quadratic: a 200-action game would cost 20,000 replayed actions),
it runs on a deep copy of the game definition and follows the live game one action at
a time, which checks the same thing (same seed + same actions -> same digest, with no
state shared through the definition object) in linear time. At the end of every game
the final record is also replayed from scratch with ``Engine.from_record(verify=True)``,
exactly as loading a save does.

The JSON round trip costs O(log length) per check, so by default (``roundtrip_every``
None) it runs after each of a game's first AUTO_FULL=64 actions, which covers every
action of a small game (two-player Pig averages 43), then every AUTO_EVERY=16. On Pig
that adds about a third to the other checks: 2,000 games (2-6 players, all options;
185,293 actions, 120,273 round trips) take ~64 s on two shared cores, 48 s with K=0.

The core stays I/O-free: a failure is handed to ``on_failure`` (the CLI saves it and
returns the path) together with a record that replays up to the failure.
"""

from __future__ import annotations

import contextlib
import copy
import faulthandler
import json
import os
import re
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tabletop.framework import chance
from tabletop.framework.bots import Bot, BotFactory, RandomBot, batch_seed, bot_move, bot_seed
from tabletop.framework.engine import DiceFactory, Engine, RngFactory, resolve_options
from tabletop.framework.errors import IllegalAction, PluginFault, TabletopError
from tabletop.framework.game import (
    GameDefinition,
    Prompt,
    check_sides,
    clone,
    same_decision,
)
from tabletop.framework.leaks import BadWorld, Leak, LeakChecker
from tabletop.framework.record import GameRecord
from tabletop.framework.session import automated_seats
from tabletop.framework.soundness import check_prompt, json_problem
from tabletop.framework.views import check_view_schema, shared_part
from tabletop.framework.worlds import Replay

#: Longest game a batch run lets run before calling it stuck: the fuzzer's, and the
#: app's ``simulate`` and tournaments' (one limit, so a game that one of them calls
#: stuck is stuck for all).
MAX_ACTIONS = 10_000
#: Default round-trip schedule: after every one of a game's first AUTO_FULL actions
#: (all of a typical small game: two-player Pig averages 43), then every AUTO_EVERY.
AUTO_FULL = 64
AUTO_EVERY = 16
#: Not a legal action in any sane game: used to check that illegal input is refused.
ILLEGAL_ACTION = "\x00tabletop-fuzz-illegal"


#: ``BatchReport.stopped`` of a run stopped by Ctrl+C or a signal.
INTERRUPTED = "interrupted"
#: Time limit of one game action in batch runs (``--action-seconds``): generous, as a
#: bot that thinks may take seconds; game code past it is stuck, not slow.
ACTION_SECONDS = 10.0


class ActionTimeout(Exception):
    """A game action (its rules or a bot's thinking) ran past the batch time limit.

    An ``Exception``: raised inside a game's ``apply``, it becomes that game's
    ``PluginFault`` (the state restored), so the game is a failure with its seed."""


class Watchdog:
    """The batch runs' time limit per game action, so that game code that never
    returns is a failed game rather than a run that hangs forever.

    While active (``with``), a SIGALRM every quarter of the limit checks that ``beat``
    was called, or the followed engine moved, since (a counter, or the log's length
    read at the check: nothing costly on the hot path);
    after a whole limit without one it raises ``ActionTimeout`` in the main thread,
    where the game runs, and again after each further limit without a beat (game code
    that swallows it once meets it again). It does nothing off the main thread,
    without ``setitimer`` (Windows) or with no limit (None or 0).

    Game code can defeat both: one that catches ``BaseException`` swallows every
    timeout, and one that loops inside C (``deque(itertools.count(), maxlen=0)``)
    never lets a Python signal handler run, SIGTERM's included. So a hard stop backs
    them: after ``HARD_LIMITS`` whole limits without progress (``HARD_MINIMUM``
    seconds at least), faulthandler's own thread, which needs no interpreter, writes
    where the main thread is stuck to ``stuck_file`` (standard error by default) and
    ends the process with status 1. On a worker the parent then reports the stuck
    chunk as it reports a dead worker (``tabletop.app.parallel``)."""

    CHECKS = 4
    #: Whole limits without progress before the process is ended.
    HARD_LIMITS = 3
    #: The hard stop never comes sooner than this, whatever the limit: a loaded
    #: machine may starve a healthy process for a while.
    HARD_MINIMUM = 10.0
    #: Where a process ended by the hard stop says where it was stuck (a file
    #: descriptor; workers set their own, which the parent reads).
    stuck_file: int = 2

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds or 0.0
        self.beats = 0
        self.progress: Callable[[], int] = lambda: 0
        """Counts progress too, read at each check only (``follow``): nothing per action."""
        self._seen = 0
        self._quiet = 0
        self._previous: Any = None
        self._armed = False

    def beat(self) -> None:
        """A game action began or ended: the clock starts again."""
        self.beats += 1

    def follow(self, engine: Engine) -> None:
        """Count ``engine``'s actions as beats (read at each check: nothing per action)."""
        log = engine.log
        self.progress = lambda: len(log)

    def __enter__(self) -> Watchdog:
        if (
            self.seconds > 0
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        ):
            self._previous = signal.signal(signal.SIGALRM, self._check)
            step = self.seconds / self.CHECKS
            signal.setitimer(signal.ITIMER_REAL, step, step)
            self._armed = True
            self._hard_stop()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._armed:
            faulthandler.cancel_dump_traceback_later()
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            self._armed = False

    def _hard_stop(self) -> None:
        """(Re)start the hard stop's clock: progress was just seen."""
        with contextlib.suppress(OSError, ValueError):  # no usable descriptor: no stop
            faulthandler.dump_traceback_later(
                max(self.HARD_LIMITS * self.seconds, self.HARD_MINIMUM),
                exit=True,
                file=Watchdog.stuck_file,
            )

    def _check(self, signum: int, frame: Any) -> None:
        seen = self.beats + self.progress()
        if seen != self._seen:
            self._seen, self._quiet = seen, 0
            self._hard_stop()
            return
        self._quiet += 1
        # CHECKS + 1 quiet checks in a row: at least the whole limit since the last beat
        if self._quiet > self.CHECKS:
            self._quiet = 0  # what handles it (saving the failed game) has a whole limit
            raise ActionTimeout(f"a game action took more than {self.seconds:g} s")


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a batch run as Ctrl+C does (the games played so far reported, no
    worker left behind) while the block runs; the earlier handler comes back after.
    Once stopping, Ctrl+C is ignored from then on (it would only lose the report: the
    command that printed it puts its own handling back), and a second
    SIGTERM ends the process at once, as by default: game code that swallows the first
    (``except BaseException``) cannot keep the run alive. Nothing changes off the main
    thread (a signal handler can only be set there)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, last)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    def last(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


#: The seat kind that plays uniformly at random, the fuzzer's default in every seat.
RANDOM = "random"


def prompt_stem(prompt: Prompt) -> str:
    """A prompt's kind, for the reach report: its rule citation and its text up to the
    first colon or parenthesis with numbers as ``#`` ("§2 Turn total #"), so that the
    same question with other numbers or names counts as one."""
    text = re.split(r"[:(]", prompt.text, maxsplit=1)[0]
    stem = re.sub(r"\d+", "#", text).strip()
    return f"{prompt.rule} {stem}" if prompt.rule else stem


@dataclass
class Reach:
    """What a run reached: rule citations and prompt kinds asked (how often), and the
    game's milestones (in how many games each)."""

    rules: Counter[str] = field(default_factory=Counter)
    prompts: Counter[str] = field(default_factory=Counter)
    milestones: Counter[str] = field(default_factory=Counter)

    def add(self, other: Reach) -> None:
        self.rules.update(other.rules)
        self.prompts.update(other.prompts)
        self.milestones.update(other.milestones)

    def unreached(self, must_reach: Sequence[str]) -> list[str]:
        """The milestones of ``must_reach`` that no game reached, in its order."""
        return [name for name in must_reach if not self.milestones[name]]

    def to_json(self, must_reach: Sequence[str] = ()) -> dict[str, Any]:
        return {
            "rules": dict(sorted(self.rules.items())),
            "prompts": dict(sorted(self.prompts.items())),
            "milestones": dict(sorted(self.milestones.items())),
            "must_reach": list(must_reach),
            "unreached": self.unreached(must_reach),
        }


class FuzzProblem(Exception):
    """A broken guarantee found while fuzzing (internal: becomes a FuzzFailure)."""


@dataclass
class FuzzFailure:
    """One failing game: everything needed to reproduce it."""

    seed: int
    players: int
    options: dict[str, str]
    reason: str
    log: list[list[Any]]
    """The actions played, the failing one last when the game's code raised."""
    record: GameRecord | None
    """Replays up to the failure (excludes an action whose apply raised)."""
    save: str = ""
    """Where the record was saved, once ``on_failure`` has saved it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "reason": self.reason,
            "actions": len(self.log),
            "log": self.log,
            "save": self.save,
        }


@dataclass
class BatchReport:
    """What every batch run reports (the fuzzer, and the app's simulate and tournaments):
    the games asked for, completed and failed, the actions played, the time taken, the
    failures in game order; and how the parts of one run, played elsewhere (other
    processes, a cluster), add up to the report of a run played in one go."""

    game: str
    games: int
    seed: int
    completed: int = 0
    errors: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[Any] = field(default_factory=list)
    stopped: str = ""
    """Why the run ended before its last game (``INTERRUPTED``, a worker that died);
    "" when it did not. A stopped run's report counts its first ``done`` games, and
    only those: it is the report (and digest) of a run of ``done`` games."""
    done: int = 0
    """Games played, when ``stopped``."""

    def add(self, part: BatchReport) -> None:
        """Count ``part``, the next games of this run in game order (not its time)."""
        self.completed += part.completed
        self.errors += part.errors
        self.actions += part.actions
        self.failures.extend(part.failures)

    def stop(self, reason: str, done: int) -> None:
        """Mark the report partial: the run stopped (``reason``; "" means it did not)
        after its first ``done`` games."""
        if reason:
            self.stopped, self.done = reason, done

    def to_json(self) -> dict[str, Any]:
        data = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "completed": self.completed,
            "errors": self.errors,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions / self.seconds) if self.seconds else 0,
        }
        if self.stopped:  # only then: a whole run's report is unchanged
            data.update(partial=True, stopped=self.stopped, games_done=self.done)
        return data

    def partial_note(self) -> str:
        """One line on a stopped run's report ("" for a whole run)."""
        if not self.stopped:
            return ""
        return (
            f"partial: {self.stopped} after the first {self.done} of {self.games} games; "
            f"this report is that of --games {self.done}"
        )


@dataclass
class FuzzReport(BatchReport):
    roundtrips: int = 0
    failures: list[FuzzFailure] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    """The seat kinds that played (empty: random in every seat)."""
    reach: Reach = field(default_factory=Reach)
    must_reach: tuple[str, ...] = ()
    """The milestones the game says a run must reach (``GameDefinition.must_reach``)."""

    def add(self, part: BatchReport) -> None:
        super().add(part)
        if isinstance(part, FuzzReport):
            self.roundtrips += part.roundtrips
            self.reach.add(part.reach)
            self.must_reach = part.must_reach or self.must_reach

    @property
    def unreached(self) -> list[str]:
        """The game's milestones that no game of the run reached."""
        return self.reach.unreached(self.must_reach)

    def count(
        self,
        actions: int,
        roundtrips: int,
        failure: FuzzFailure | None,
        on_failure: Callable[[FuzzFailure], str] | None = None,
    ) -> None:
        """Count the next game (``fuzz_one``'s result); ``on_failure`` may save a failing
        game and return where it went."""
        self.actions += actions
        self.roundtrips += roundtrips
        if failure is None:
            self.completed += 1
            return
        self.errors += 1
        if on_failure is not None and failure.record is not None:
            failure.save = on_failure(failure)
        self.failures.append(failure)

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "roundtrips": self.roundtrips,
            "seats": list(self.seats) or [RANDOM],
            "reach": self.reach.to_json(self.must_reach),
            "failures": [failure.to_json() for failure in self.failures],
        }


#: Words that mean the reader: wrong in a label every seat reads as another's choice.
_SEAT_RELATIVE = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)


def seat_relative_label(prompt: Prompt, hides: bool) -> str | None:
    """What is wrong with a label other seats read, or None.

    Another seat's choice reaches every log as "Player 2 chose: <label>" when the game
    hides nothing, or when the choice is public (``Prompt.public``, ``Choice.public``):
    a label that says "you" ("Add Player 5 (you)") then tells every reader that it is
    about them. Name the seat instead; words for the deciding seat alone belong in
    ``detail``."""
    for choice in prompt.choices:
        if hides and not (prompt.public or choice.public):
            continue
        found = _SEAT_RELATIVE.search(choice.label)
        if found is not None:
            return (
                f"choice {choice.action!r} is labelled {choice.label!r}, which every seat "
                f"reads in its log as another's choice, yet it says {found.group(0)!r}: "
                "name the seat instead (the deciding seat's own words go in detail)"
            )
    return None


def _config(
    game: GameDefinition,
    chooser: Any,
    players: int | None,
    options: Mapping[str, str],
) -> tuple[int, dict[str, str]]:
    """This game's player count and options: pinned ones kept, the rest drawn."""
    info = game.info
    count = players if players is not None else chooser.randint(info.min_players, info.max_players)
    chosen = dict(options)
    for spec in info.options:
        if spec.key not in chosen:
            chosen[spec.key] = chooser.choice(spec.values())
    return count, chosen


def _round_trip(record: GameRecord) -> GameRecord:
    """record -> JSON text -> record, as a save and a load do (minus the disk)."""
    raw = record.to_json()
    decoded = GameRecord.from_json(json.loads(json.dumps(raw)))
    if decoded.to_json() != raw:
        raise FuzzProblem("the record changes in a JSON round trip")
    return decoded


def _worlds_due(count: int) -> bool:
    """Whether the replayed worlds' check (``LeakChecker.check_worlds``) runs after
    action number ``count``: each of the first 8, then every 4th (each builds a world
    per seat by replaying the whole game)."""
    return count <= 8 or count % 4 == 0


def _due(count: int, every: int | None) -> bool:
    """Whether the round trip runs after action number ``count``."""
    if every is None:
        return count <= AUTO_FULL or count % AUTO_EVERY == 0
    return every > 0 and count % every == 0


class _Game:
    """One fuzzed game: the live engine, its shadow and the checks between them."""

    def __init__(
        self,
        game: GameDefinition,
        *,
        seed: int,
        players: int,
        options: dict[str, str],
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        bots: Sequence[Bot] = (),
        reach: Reach | None = None,
    ) -> None:
        self.game = game
        self.rng_factory = rng_factory
        self.dice_factory = dice_factory
        self.engine = Engine(
            game,
            seed=seed,
            players=players,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        # A deep copy of the definition: state kept on the definition object (a bug)
        # would make the shadow diverge instead of being shared with it.
        self.shadow_game = copy.deepcopy(game)
        self.shadow: Engine | None = None
        #: Seats the game plays itself: a prompt for one would find nobody to ask.
        self.automated = automated_seats(game, players, self.engine.options)
        self.roundtrips = 0
        #: Who plays each seat (cycled when fewer than the seats): random by default.
        self.bots: Sequence[Bot] = bots or (RandomBot(),)
        self.reach = reach if reach is not None else Reach()
        self.milestones: set[str] = set()
        #: Whether the game hides information with these options (what others read of a
        #: choice depends on it).
        self.hides = game.hides_information(options)
        #: Whether another seat reads a seat's choices (not in a solitaire, whose one
        #: player alone reads its labels).
        self.others_read = players - len(self.automated) > 1
        self.leaks = (
            LeakChecker(
                game,
                players=players,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                seed=seed,
            )
            if self.hides
            else None
        )
        if self.leaks is not None and game.secrets_from_framework:
            # the game so far, replayed with what each seat did not see drawn again
            self.leaks.replay = Replay(
                game,
                seed,
                players,
                dict(self.engine.options),
                [],
                rng_factory,
                dice_factory,
            )

    def check_explained(self, prompt: Prompt, digest: str) -> str | None:
        """What is wrong with the game's ``explain`` of ``prompt`` (the state's digest
        is ``digest``): it must run, leave the state alone and be the same decision (the
        engine would otherwise show the plain prompt to a person, hiding the bug)."""
        engine = self.engine
        before = digest
        try:
            explained = self.game.explain(engine.state, prompt)
        except Exception as exc:
            return f"explain() failed: {type(exc).__name__}: {exc}"
        if engine.digest() != before:
            return "explain() changed the state"
        if not isinstance(explained, Prompt):
            return f"explain() returned {type(explained).__name__}, not a Prompt"
        return same_decision(prompt, explained)

    def check_state(self, where: str) -> str:
        """Run the per-state checks; return the state's digest."""
        engine = self.engine
        problem = json_problem(engine.state)
        if problem is not None:
            raise FuzzProblem(f"{where}: {problem}")
        broken = list(self.game.invariants(engine.state))
        if broken:
            raise FuzzProblem(f"{where}: invariant broken: {'; '.join(broken)}")
        prompt = engine.prompt
        result = self.game.result(engine.state) if prompt is None else None
        problem = check_prompt(prompt, engine.players, result)
        if problem is None and result is not None:
            problem = check_sides(self.game, engine.players, engine.options, result)
        if problem is None and prompt is not None and self.others_read:
            problem = seat_relative_label(prompt, self.hides)
        if problem is None and prompt is not None and prompt.seat in self.automated:
            # no person or bot sits there: a session would have nobody to ask
            problem = (
                f"prompt {prompt.text!r} asks seat {prompt.seat}, which the game plays "
                "itself (automated_seats)"
            )
        if prompt is not None:
            if prompt.rule:
                self.reach.rules[prompt.rule] += 1
            self.reach.prompts[prompt_stem(prompt)] += 1
        for milestone in self.game.milestones(engine.state):
            if milestone not in self.milestones:
                self.milestones.add(milestone)
                self.reach.milestones[milestone] += 1
        digest = engine.digest()
        self.game.prompt(engine.state)  # as a front end asks again: it must only read
        if engine.digest() != digest:
            raise FuzzProblem(f"{where}: prompt() changed the state")
        if problem is None and prompt is not None:
            problem = self.check_explained(prompt, digest)
        if problem is not None:
            raise FuzzProblem(f"{where}: {problem}")
        for seat in [*range(engine.players), None]:
            who = "spectator" if seat is None else f"seat {seat}"
            try:
                # the definition's own view, not Engine.view's copy: a view that
                # mutates the state must show up in the digest check below
                view = self.game.view(engine.state, seat)
                json.dumps(view)
            except Exception as exc:
                raise FuzzProblem(
                    f"{where}: view for {who} failed: {type(exc).__name__}: {exc}"
                ) from exc
            problem = check_view_schema(view, engine.players)
            if problem is None and self.game.fresh_views:
                shared = shared_part(view, engine.state, self.game.view(engine.state, seat))
                if shared is not None:
                    problem = f"fresh_views is set but {shared} is shared with the state "
                    problem += "or with the next view"
            if problem is not None:
                raise FuzzProblem(f"{where}: view for {who}: {problem}")
        if engine.digest() != digest:
            raise FuzzProblem(f"{where}: building a view changed the state")
        return digest

    def check_refusals(self, prompt: Prompt, digest: str, where: str) -> None:
        engine = self.engine
        attempts = [(prompt.seat, ILLEGAL_ACTION)]
        if engine.players > 1:
            attempts.append(((prompt.seat + 1) % engine.players, prompt.choices[0].action))
        for seat, action in attempts:
            try:
                engine.act(seat, action)
            except IllegalAction:
                pass
            else:
                raise FuzzProblem(f"{where}: illegal action {action!r} by seat {seat} accepted")
            if engine.digest() != digest:
                raise FuzzProblem(f"{where}: a refused action changed the state")

    def shadow_step(self, where: str, digest: str) -> None:
        """The shadow engine plays the live engine's new actions; digests must agree."""
        if self.shadow is None:
            self.shadow = Engine(
                self.shadow_game,
                seed=self.engine.seed,
                players=self.engine.players,
                options=self.engine.options,
                rng_factory=self.rng_factory,
                dice_factory=self.dice_factory,
            )
        for entry in self.engine.log[len(self.shadow.log) :]:
            try:
                self.shadow.act(entry.seat, entry.action)
            except TabletopError as exc:
                raise FuzzProblem(f"{where}: the same actions do not replay: {exc}") from exc
        if self.shadow.digest() != digest:
            raise FuzzProblem(
                f"{where}: replaying the same seed and actions gives a different state "
                "(the game depends on something outside its state and the seed)"
            )

    def round_trip(self, where: str) -> None:
        """Save/load the record through JSON text; it must come back identical."""
        try:
            _round_trip(self.engine.record())
        except TabletopError as exc:
            raise FuzzProblem(f"{where}: the saved game does not load: {exc}") from exc
        self.roundtrips += 1

    def final_replay(self) -> None:
        """Replay the finished game from scratch, verified, exactly like a load does."""
        record = _round_trip(self.engine.record())
        try:
            Engine.from_record(
                copy.deepcopy(self.game),
                record,
                rng_factory=self.rng_factory,
                dice_factory=self.dice_factory,
                verify=True,
            )
        except TabletopError as exc:
            raise FuzzProblem(f"end of game: the saved game does not reload: {exc}") from exc
        self.roundtrips += 1

    @contextmanager
    def leak_check(self, where: str) -> Iterator[LeakChecker | None]:
        """The leak checker when this game has hidden information; a Leak becomes a
        finding that says where it happened."""
        leaks = self.leaks if self.leaks is not None and self.leaks.supported else None
        try:
            yield leaks
        except BadWorld as exc:
            raise FuzzProblem(f"{where}: determinize: {exc}") from exc
        except Leak as exc:
            raise FuzzProblem(f"{where}: leak: {exc}") from exc

    def play(
        self, *, max_actions: int, roundtrip_every: int | None, beat: Callable[[], None]
    ) -> None:
        engine = self.engine
        if self.leaks is not None and not self.game.info.hidden_information:
            raise FuzzProblem(
                "setup: hides_information() is true for these options but GameInfo does "
                "not declare hidden_information=True (declare it; override "
                "hides_information only to turn it off for some options)"
            )
        with self.leak_check("setup") as leaks:
            if leaks is not None:
                leaks.check_setup(engine.options)
        digest = self.check_state("after setup")
        self.shadow_step("after setup", digest)
        if roundtrip_every != 0:
            self.round_trip("after setup")
            if engine.prompt is not None:
                self.check_refusals(engine.prompt, digest, "after setup")
        while engine.prompt is not None:
            count = len(engine.log)
            if count >= max_actions:
                raise FuzzProblem(f"no result after {max_actions} actions")
            beat()
            prompt = engine.prompt
            # the same move the seat's bot makes in `simulate` and in the UI
            action = bot_move(engine, self.bots[prompt.seat % len(self.bots)])
            where = f"action {count + 1} ({action!r} by seat {prompt.seat})"
            before = digest
            state, rng_state = clone(engine.state), engine.rng_state()
            engine.act(prompt.seat, action)
            with self.leak_check(where) as leaks:
                if leaks is not None:
                    leaks.check_action(state, rng_state, prompt.seat, action, salt=count)
                if leaks is not None and leaks.replay is not None:
                    leaks.replay.extend(prompt.seat, action)
                    if _worlds_due(count + 1):
                        leaks.check_worlds(engine.state, salt=count)
            digest = self.check_state(f"after {where}")
            if engine.can_undo():
                undone = engine.undo()
                if engine.digest() != before:
                    raise FuzzProblem(f"undo of {where} did not restore the state")
                engine.act(undone.seat, undone.action)
                if engine.digest() != digest:
                    raise FuzzProblem(f"redo of {where} after an undo gave another state")
            self.shadow_step(f"after {where}", digest)
            if _due(len(engine.log), roundtrip_every):
                self.round_trip(f"after {where}")
                if engine.prompt is not None:
                    self.check_refusals(engine.prompt, digest, f"after {where}")
        self.final_replay()


def fuzz_one(
    game: GameDefinition,
    *,
    seed: int,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    rng_factory: RngFactory = chance.rng_factory,
    dice_factory: DiceFactory = chance.dice_factory,
    max_actions: int = MAX_ACTIONS,
    roundtrip_every: int | None = None,
    beat: Callable[[], None] = lambda: None,
    seats: Sequence[str] = (),
    bots: Mapping[str, BotFactory] | None = None,
    reach: Reach | None = None,
) -> tuple[int, int, FuzzFailure | None]:
    """Fuzz one game; return (actions played, round trips, failure or None). ``beat``
    is called at each action (a ``Watchdog``'s, to time each one). ``seats`` are the
    bot kinds of the seats (cycled; default random), made by ``bots``' factories;
    ``reach`` collects what the game reached."""
    chooser = rng_factory(bot_seed(seed, -1))
    count, chosen = _config(game, chooser, players, options or {})
    kinds = [seats[seat % len(seats)] for seat in range(count)] if seats else []
    fuzzed: _Game | None = None
    try:
        fuzzed = _Game(
            game,
            seed=seed,
            players=count,
            options=chosen,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
            bots=make_seat_bots(game, kinds, bots or {}),
            reach=reach,
        )
        fuzzed.play(max_actions=max_actions, roundtrip_every=roundtrip_every, beat=beat)
    except Exception as exc:  # anything the game's code raises is a finding
        return _failed(game, fuzzed, exc, seed, count, chosen, kinds)
    return len(fuzzed.engine.log), fuzzed.roundtrips, None


def make_seat_bots(
    game: GameDefinition, kinds: Sequence[str], factories: Mapping[str, BotFactory]
) -> list[Bot]:
    """One bot per seat kind (``random`` is always known)."""
    bots: list[Bot] = []
    for kind in kinds:
        if kind == RANDOM and kind not in factories:
            bots.append(RandomBot())
            continue
        if kind not in factories:
            known = ", ".join(sorted({RANDOM, *factories}))
            raise TabletopError(f"unknown seat kind {kind!r} for {game.info.id} (known: {known})")
        bots.append(factories[kind](game))
    return bots


def _failed(
    game: GameDefinition,
    fuzzed: _Game | None,
    exc: Exception,
    seed: int,
    players: int,
    options: dict[str, str],
    kinds: Sequence[str] = (),
) -> tuple[int, int, FuzzFailure]:
    if isinstance(exc, FuzzProblem):
        reason = str(exc)
    elif isinstance(exc, PluginFault):
        reason = f"PluginFault: {exc}"
    else:
        reason = f"{type(exc).__name__}: {exc}"
    meta = {"fuzz": {"reason": reason}}  # its seed is the record's own
    if fuzzed is None:  # setup itself failed: the bare record reproduces that
        bare = GameRecord(
            game=game.info.id,
            seed=seed,
            players=players,
            options=dict(options),
            game_version=game.info.version,
            seats=list(kinds) or [RANDOM] * players,
            meta=meta,
        )
        return 0, 0, FuzzFailure(seed, players, options, reason, [], bare)
    engine = fuzzed.engine
    log: list[list[Any]] = [[entry.seat, entry.action] for entry in engine.log]
    if isinstance(exc, PluginFault):
        log = [list(entry) for entry in exc.actions]
    record: GameRecord | None
    try:
        record = engine.record(
            seats=list(kinds) or [RANDOM] * engine.players,
            meta={"fuzz": {**meta["fuzz"], "log": log}},
        )
    except Exception as problem:  # a non-JSON state or a raising describe(): report it
        record = None
        reason += f" (not saved: {type(problem).__name__}: {problem})"
    failure = FuzzFailure(seed, players, options, reason, log, record)
    return len(engine.log), fuzzed.roundtrips, failure


def fuzz(
    game: GameDefinition,
    *,
    games: int,
    seed: int,
    rng_factory: RngFactory = chance.rng_factory,
    dice_factory: DiceFactory = chance.dice_factory,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    max_actions: int = MAX_ACTIONS,
    roundtrip_every: int | None = None,
    on_failure: Callable[[FuzzFailure], str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    first: int = 0,
    action_seconds: float | None = None,
    seats: Sequence[str] = (),
    bots: Mapping[str, BotFactory] | None = None,
) -> FuzzReport:
    """Fuzz ``games`` games, numbers ``first`` to ``first + games - 1`` of the run with
    this ``seed`` (a part of a run played elsewhere: ``BatchReport.add`` puts the parts
    together). ``players``/``options`` pin those; the rest vary per game. The random
    source and dice are the reference ones (what saves use) unless given.

    ``roundtrip_every`` is K: the JSON save/load round trip runs every K actions (0:
    only the final from-scratch replay; None: every action up to AUTO_FULL, then every
    AUTO_EVERY). ``on_failure`` may save a failing game and
    return where it went; that goes into the report. ``action_seconds`` limits each
    action (``Watchdog``): a game stuck past it fails with ``ActionTimeout``. Ctrl+C
    ends the run with the report of the games played so far (``BatchReport.stopped``).

    ``seats`` names the bot kind of each seat (cycled when the game has more seats;
    default: random everywhere), made by ``bots``' factories (the registry's, with the
    game's own bots and the search bots; keep search budgets small, ``mcts-quick``).
    The report's ``reach`` says which rules, prompts and milestones the games reached.
    """
    if games < 0:
        raise TabletopError("the number of games must be 0 or more")
    if roundtrip_every is not None and roundtrip_every < 0:
        raise TabletopError("roundtrip_every must be 0 or more")
    info = game.info
    if players is not None:
        info.check_players(players)
    resolve_options(game, options)  # refuse unknown or bad pinned options up front
    make_seat_bots(game, seats, bots or {})  # refuse an unknown seat kind up front
    report = FuzzReport(info.id, games, seed, seats=list(seats))
    report.must_reach = tuple(game.must_reach)
    started = clock()
    try:
        with Watchdog(action_seconds) as watchdog:
            for index in range(first, first + games):
                watchdog.beat()
                this_seed = batch_seed(seed, index)
                actions, roundtrips, failure = fuzz_one(
                    game,
                    seed=this_seed,
                    players=players,
                    options=options,
                    rng_factory=rng_factory,
                    dice_factory=dice_factory,
                    max_actions=max_actions,
                    roundtrip_every=roundtrip_every,
                    beat=watchdog.beat,
                    seats=seats,
                    bots=bots,
                    reach=report.reach,
                )
                report.count(actions, roundtrips, failure, on_failure)
                if progress is not None:
                    progress(index + 1 - first, games)
    except KeyboardInterrupt:
        report.stop(INTERRUPTED, report.completed + report.errors)  # each game once
    report.seconds = clock() - started
    return report
