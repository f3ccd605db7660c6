"""The engine: runs one game, the only way the state of a game changes.

It validates every action against the prompt's legal choices, logs it, keeps the
random state beside the game state, supports undo back to the last action that used
chance or revealed something, and turns a crash in a game's code into a clear error
with the state left as it was before the action.

Batch play (``undo=False``: simulations, tournaments, bots' own playouts) keeps no undo
snapshots at all: a deep copy of the state per action was a fifth of an action's cost
and nobody takes back a move there. The state is still restored after a crash in the
game's code, by replaying the seed and the log (a game is exactly that), which costs
more but happens once per crash, not once per action.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from tabletop.framework.context import Context
from tabletop.framework.errors import (
    PLUGIN_ESCAPES,
    GameOver,
    IllegalAction,
    PluginFault,
    ReplayMismatch,
    TabletopError,
    UndoRefused,
)
from tabletop.framework.game import (
    Action,
    Event,
    GameDefinition,
    Prompt,
    Result,
    State,
    clone,
    same_decision,
)
from tabletop.framework.ports import Dice, RandomSource
from tabletop.framework.record import GameRecord, digest_of

RngFactory = Callable[[int], RandomSource]
#: Most actions undo can take back in a row. Each keeps a snapshot of the state, and a
#: game with no chance (no barrier) would otherwise keep one for every action: a legal
#: 640,000-action save held 400 MB of snapshots once opened.
MAX_UNDO = 1000
DiceFactory = Callable[[RandomSource], Dice]


def resolve_options(game: GameDefinition, options: Mapping[str, str] | None) -> dict[str, str]:
    """Every declared option with its value; unknown keys and bad values are refused."""
    given = dict(options or {})
    resolved: dict[str, str] = {}
    for spec in game.info.options:
        value = given.pop(spec.key, spec.default)
        if value not in spec.values():
            allowed = ", ".join(spec.values())
            raise TabletopError(
                f"option {spec.key}={value!r} is not valid for {game.info.id} (one of: {allowed})"
            )
        resolved[spec.key] = value
    if given:
        known = ", ".join(spec.key for spec in game.info.options) or "none"
        raise TabletopError(
            f"unknown option {sorted(given)[0]!r} for {game.info.id} (known: {known})"
        )
    return resolved


class LogEntry(NamedTuple):
    """One applied action. A named tuple, not a frozen dataclass: as immutable, and one
    is made per action (a third of a microsecond instead of half)."""

    seat: int
    action: Action
    barrier: bool
    label: str = ""
    """The chosen choice's words when it was made (for the log: ``Engine.story``)."""
    public: bool = False
    """Whether the choice was public (``Prompt.public`` or ``Choice.public``): every
    seat's log then tells its label, even with hidden information."""


class StoryLine(NamedTuple):
    """One line of a game's log as a seat (or a spectator) may read it."""

    action: int
    """The number of the action the line belongs to (0: setup)."""
    text: str
    event: Event | None
    """The event the line tells, or None for the line that tells the choice itself."""


@dataclass
class _Snapshot:
    state: State
    rng: list[int]
    events: int


class Engine:
    """One running game. Create one directly for a new game, or with ``Engine.from_record``."""

    state: State
    """The game's state as it is now: the plain JSON data the game's ``setup`` built and
    its ``apply`` changes. Rules tests and tools read it (``engine.state["banks"]``);
    only ``act`` and ``undo`` change it, since a change made outside an action is in no
    log and the game could no longer be replayed (start from a hand-made position with
    ``testing.engine_from_state`` instead). Front ends and bots never read it: they get
    views."""

    def __init__(
        self,
        game: GameDefinition,
        *,
        seed: int,
        players: int,
        options: Mapping[str, str] | None,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        undo: bool = True,
    ) -> None:
        info = game.info
        info.check_players(players)
        self.game = game
        self.seed = seed
        self.players = players
        self.options = resolve_options(game, options)
        self.seat_names = game.seat_names(players, self.options)
        self._rng_factory = rng_factory
        self._dice_factory = dice_factory
        self._rng = rng_factory(seed)
        self._dice = dice_factory(self._rng)
        #: Whether undo snapshots are kept (see the module's docstring: batch play).
        self.keeps_undo = undo
        self.log: list[LogEntry] = []
        #: Every event so far with the number of actions before it (0: setup).
        self.history: list[tuple[int, Event]] = []
        self._undo: deque[_Snapshot] = deque(maxlen=MAX_UNDO)
        ctx = Context(self._rng, self._dice, players=players)
        try:
            self.state = game.setup(players, self.options, ctx)
        except TabletopError:
            raise
        except PLUGIN_ESCAPES as exc:
            raise PluginFault(
                f"{info.id} failed during setup: {type(exc).__name__}: {exc}",
                game=info.id,
                seed=seed,
                actions=[],
            ) from exc
        if ctx.events:
            self.history.extend((0, event) for event in ctx.events)
        self._prompt: Prompt | None = None
        self._prompt_valid = False
        self._explained_for: Prompt | None = None
        self._explained: Prompt | None = None
        self._hand_made = False
        #: Whether the game hides information with these options (asked when needed).
        self._hides: bool | None = None

    # Reading ------------------------------------------------------------------------

    @property
    def rng_factory(self) -> RngFactory:
        """The random source the game was started with, by seed: a replay of the game
        (``worlds.Replay``) makes its own from it."""
        return self._rng_factory

    @property
    def dice_factory(self) -> DiceFactory:
        """The dice the game was started with, on a random source."""
        return self._dice_factory

    @property
    def prompt(self) -> Prompt | None:
        """The decision now due (None when the game is over); cached until it changes."""
        if not self._prompt_valid:
            self._prompt = self.game.prompt(self.state)
            self._prompt_valid = True
        return self._prompt

    @property
    def explained_prompt(self) -> Prompt | None:
        """The decision now due with the game's explanations (``GameDefinition.explain``),
        for front ends that show it to a person; bots and batch play read ``prompt``.

        If ``explain`` raises or returns another decision, the plain prompt is shown: a
        person can still choose (every legal choice is there), and the fuzzer reports the
        bug. Cached for as long as the prompt is."""
        prompt = self.prompt
        if prompt is None:
            return None
        if self._explained_for is not prompt:
            try:
                explained = self.game.explain(self.state, prompt)
                if not isinstance(explained, Prompt) or same_decision(prompt, explained):
                    explained = prompt
            except PLUGIN_ESCAPES:
                explained = prompt
            self._explained_for, self._explained = prompt, explained
        return self._explained

    @property
    def over(self) -> bool:
        return self.prompt is None

    @property
    def result(self) -> Result | None:
        """How the game ended, or None while it goes on. A property, read like
        ``prompt`` (``engine.result.winners``); ``GameDefinition.result(state)`` is the
        game's method behind it."""
        return self.game.result(self.state) if self.over else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, never sharing a list or dict with the state, so callers
        cannot change the game through it and a later secret cannot show up in a view
        handed out earlier. A game whose ``fresh_views`` promises that already (checked
        by the fuzzer and the conformance kit) is trusted; any other view is copied."""
        view: dict[str, Any] = self.game.view(self.state, seat)
        return view if self.game.fresh_views else clone(view)

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """Events visible to ``seat`` from history position ``since`` on."""
        return [event for _, event in self.history[since:] if event.visible_to(seat)]

    def digest(self) -> str:
        """Hash of the full state and random state: equal digests, equal games."""
        return digest_of({"state": self.state, "rng": self._rng.getstate()})

    def rng_state(self) -> list[int]:
        """The random source's state now (for counterfactual checks and analysis)."""
        return self._rng.getstate()

    @property
    def rng_algorithm(self) -> str:
        return self._rng.algorithm

    # Changing -----------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s ``action`` if legal; return the events it produced.

        Raises IllegalAction (nothing changed) or PluginFault (the game's code raised;
        the state is restored to before the action).
        """
        prompt = self._prompt if self._prompt_valid else self.prompt
        if prompt is None:
            raise GameOver("the game is over; no more actions")
        if seat != prompt.seat:
            raise IllegalAction(
                f"it is {self.seat_name(prompt.seat)}'s decision, not {self.seat_name(seat)}'s"
            )
        for choice in prompt.choices:  # a loop, not actions(): no tuple per action
            if choice.action == action:
                break
        else:
            raise IllegalAction(f"{action!r} is not a legal choice now ({prompt.text})")
        snapshot: _Snapshot | None = None
        if self.keeps_undo or self._hand_made:
            snapshot = _Snapshot(clone(self.state), self._rng.getstate(), len(self.history))
        ctx = Context(self._rng, self._dice, seat, players=self.players)
        try:
            self.game.apply(self.state, seat, action, ctx)
        except PLUGIN_ESCAPES as exc:  # a stray sys.exit() in apply is a fault too
            if snapshot is not None:
                self._restore(snapshot)
            else:  # the history is as before: an action's events join it once applied
                self._rebuild(len(self.history))
            raise PluginFault(
                f"{self.game.info.id} failed applying {action!r}: {type(exc).__name__}: {exc}",
                game=self.game.info.id,
                seed=self.seed,
                actions=[[entry.seat, entry.action] for entry in self.log] + [[seat, action]],
            ) from exc
        self._prompt_valid = False
        public = prompt.public or choice.public
        self.log.append(LogEntry(seat, action, ctx.barrier, choice.label, public))
        if ctx.events:
            turn = len(self.log)
            history = self.history
            for event in ctx.events:  # one or two: a loop beats a generator
                history.append((turn, event))
        if ctx.barrier:
            self._undo.clear()
        elif snapshot is not None and self.keeps_undo:
            self._undo.append(snapshot)
        return ctx.events

    def can_undo(self) -> bool:
        """True when the last action used no chance and revealed nothing."""
        return bool(self._undo)

    def undo_depth(self) -> int:
        """How many actions may be taken back, newest first, before a barrier."""
        return len(self._undo)

    def undo(self) -> LogEntry:
        """Take back the last action; return it. Refused across chance or a reveal."""
        if not self._undo:
            if not self.log:
                raise UndoRefused("nothing to undo")
            raise UndoRefused("cannot undo: the last action drew chance or revealed something")
        self._restore(self._undo.pop())
        return self.log.pop()

    def _restore(self, snapshot: _Snapshot) -> None:
        self.state = snapshot.state
        self._rng.setstate(snapshot.rng)
        del self.history[snapshot.events :]
        self._prompt_valid = False

    def _rebuild(self, events: int) -> None:
        """Restore the state before the action now failing, with no snapshot: replay
        the seed and the log on a fresh engine (batch play keeps no snapshots). A game
        that does not replay its own log is a second bug; its state stays as the failed
        action left it, and the fault raised next still names the actions."""
        try:
            log = [(entry.seat, entry.action) for entry in self.log]
            fresh = Engine.from_record(
                self.game,
                GameRecord(self.game.info.id, self.seed, self.players, self.options, log),
                rng_factory=self._rng_factory,
                dice_factory=self._dice_factory,
                verify=False,
            )
        except Exception:
            return
        self.state = fresh.state
        self._rng.setstate(fresh.rng_state())
        del self.history[events:]
        self._prompt_valid = False

    def seat_name(self, seat: int) -> str:
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"seat {seat}"

    def event_line(self, event: Event) -> str:
        """An event in words, led by the name of the seat it concerns ("Player 2: banks
        12"). The one rendering of "who" that the UI log and the export share."""
        seat = event.concerns
        return event.text if seat is None else f"{self.seat_name(seat)}: {event.text}"

    def choice_line(self, entry: LogEntry, viewer: int | None) -> str:
        """An action as ``viewer`` may read it: "You chose: Roll" for its own, "Player 2
        chose: Roll" for another seat's in a game without hidden information. With
        hidden information another seat's choice may be secret (a card from a hand), so
        it reads "Player 2 decided." and the game's own events tell what is public,
        unless the game marked the decision public (``Prompt.public``,
        ``Choice.public``: "Player 2 chose: Hint red"); who is deciding is never a
        secret (every front end shows it)."""
        if viewer == entry.seat:
            return f"You chose: {entry.label or entry.action}"
        name = self.seat_name(entry.seat)
        if self._hides is None:
            self._hides = self.game.hides_information(self.options)
        if self._hides and not entry.public:
            return f"{name} decided."
        return f"{name} chose: {entry.label or entry.action}"

    def story(
        self, viewer: int | None, *, actions: int = 0, events: int = 0
    ) -> Iterator[StoryLine]:
        """The log as ``viewer`` reads it, from after ``actions`` actions and
        ``events`` history entries on: each action's choice (``choice_line``), then
        the events it produced that the viewer may see (``event_line``). Setup events
        come first, under action 0. Every action has its choice line, so the action
        numbers run on without gaps; the UI's log and ``tabletop export`` (the
        spectator's story) are both this, so they say the same thing.

        Resume with ``actions=len(log), events=len(history)`` of the last call to get
        only what is new."""
        log, history = self.log, self.history
        told = actions
        for index in range(events, len(history)):
            turn, event = history[index]
            while told < turn:
                told += 1
                yield StoryLine(told, self.choice_line(log[told - 1], viewer), None)
            if event.visible_to(viewer):
                yield StoryLine(turn, self.event_line(event), event)
        while told < len(log):
            told += 1
            yield StoryLine(told, self.choice_line(log[told - 1], viewer), None)

    # Records ------------------------------------------------------------------------

    def record(
        self, seats: list[str] | None = None, meta: dict[str, Any] | None = None
    ) -> GameRecord:
        """The game as seed + options + log + digest, ready to save."""
        if self._hand_made:
            raise TabletopError(
                "this game started from a hand-made state: seed and log cannot rebuild it"
            )
        return GameRecord(
            game=self.game.info.id,
            game_version=self.game.info.version,
            rng=self.rng_algorithm,
            seed=self.seed,
            players=self.players,
            options=dict(self.options),
            actions=[(entry.seat, entry.action) for entry in self.log],
            digest=self.digest(),
            seats=list(seats or []),
            progress=self.game.describe(self.state),
            finished=self.over,
            meta=dict(meta or {}),
        )

    @classmethod
    def from_state(
        cls,
        game: GameDefinition,
        state: State,
        *,
        seed: int = 0,
        players: int,
        options: Mapping[str, str] | None = None,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
    ) -> Engine:
        """An engine that continues from ``state``, for tests of a rulebook situation.

        Set up the position the example describes and play on from it with the full
        legality checks. Such a game has no replayable record (``record`` refuses), so
        this is a tool for tests and analysis, never for saves.
        """
        engine = cls(
            game,
            seed=seed,
            players=players,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        engine.state = clone(state)
        engine.history.clear()
        engine._hand_made = True
        return engine

    @classmethod
    def from_record(
        cls,
        game: GameDefinition,
        record: GameRecord,
        *,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        upto: int | None = None,
        verify: bool = True,
        progress: Callable[[int, int], None] | None = None,
    ) -> Engine:
        """Rebuild a game by replaying its log; check the digest when ``verify``.

        ``upto`` stops after that many actions (no digest check then). Raises
        ReplayMismatch when an action is no longer legal or the digest differs.
        """
        if record.game != game.info.id:
            raise ReplayMismatch(f"record is for {record.game!r}, not {game.info.id!r}")
        engine = cls(
            game,
            seed=record.seed,
            players=record.players,
            options=record.options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        if record.rng and record.rng != engine.rng_algorithm:
            raise ReplayMismatch(
                f"record was made with random algorithm {record.rng!r}, "
                f"this Tabletop uses {engine.rng_algorithm!r}"
            )
        actions = record.actions if upto is None else record.actions[:upto]
        if upto is not None and not 0 <= upto <= len(record.actions):
            raise TabletopError(f"the record has {len(record.actions)} actions, not {upto}")
        note = version_note(record, game.info.version)
        for index, (seat, action) in enumerate(actions, start=1):
            try:
                engine.act(seat, action)
            except IllegalAction as exc:
                raise ReplayMismatch(
                    f"action {index} ({action!r} by seat {seat}) does not replay: {exc}{note}"
                ) from None
            if progress is not None:
                progress(index, len(actions))
        if verify and upto is None and record.digest and engine.digest() != record.digest:
            raise ReplayMismatch(
                "replay does not match the saved digest: the game's rules or data have "
                f"changed since this save was made{note}"
            )
        return engine


def version_note(record: GameRecord, installed: str) -> str:
    """``"; saved with pig 0.9, installed 1.0"`` when versions differ, else ``""``.

    Appended to replay errors because a changed plugin is the usual reason an old save
    stops replaying, and saying so tells the player the save itself is not damaged.
    """
    if record.game_version and installed and record.game_version != installed:
        return (
            f" (saved with {record.game} {record.game_version}, "
            f"installed {record.game} is {installed})"
        )
    return ""


@dataclass(frozen=True)
class PartialReplay:
    """A save replayed as far as it goes: for opening a save read-only."""

    engine: Engine
    """The game after the last action that still replays."""
    replayed: int
    total: int
    problem: str | None
    """Why the replay stopped short or ended on another digest; None when it verified."""

    @property
    def complete(self) -> bool:
        return self.problem is None


def replay_partial(
    game: GameDefinition,
    record: GameRecord,
    *,
    rng_factory: RngFactory,
    dice_factory: DiceFactory,
) -> PartialReplay:
    """Replay ``record`` up to the first action that no longer replays, never raising
    for that: a save made by an older plugin can still be read, reviewed and exported.

    Still raises when nothing at all can be replayed (another game, another random
    algorithm, a setup that fails).
    """
    engine = Engine.from_record(
        game, record, rng_factory=rng_factory, dice_factory=dice_factory, upto=0
    )
    note = version_note(record, game.info.version)
    total = len(record.actions)
    for index, (seat, action) in enumerate(record.actions, start=1):
        try:
            engine.act(seat, action)
        except TabletopError as exc:
            why = "does not replay" if isinstance(exc, IllegalAction) else "fails"
            problem = f"action {index} ({action!r} by seat {seat}) {why}: {exc}{note}"
            return PartialReplay(engine, index - 1, total, problem)
    if record.digest and engine.digest() != record.digest:
        problem = f"all {total} actions replay but the final state differs from the save{note}"
        return PartialReplay(engine, total, total, problem)
    return PartialReplay(engine, total, total, None)
