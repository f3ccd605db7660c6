"""Worlds a seat cannot tell apart, built by the framework by replaying the game.

Why: ``determinize`` is the author's statement of what a seat cannot know, and the leak
checks, the search bots and the kit all trust it. An author who forgets a secret there
(a record of who played which anonymous card, kept in the state and never drawn again)
makes every check compare the real world with worlds that share the secret, and nothing
is ever found (issue 38). For a game whose hidden information comes only from the
framework (``GameDefinition.secrets_from_framework``: chance some seat does not see, and
the seats' sealed answers), the framework need not trust anyone: it knows what was
hidden from whom, so it can build those worlds itself.

A **replayed world** for a seat is the game played again from its seed with the same
actions, except that

- every private draw and roll whose result the seat did not see (``ctx.draw`` and
  ``ctx.roll`` with ``seats=`` or ``hidden_from=``) is drawn again; every other use of
  chance (a draw or roll the seat saw, a public one, a shuffle, ``ctx.rng``) comes out
  as it did;
- every other seat's sealed answer (``SecretChoices.choose``) that was not opened by
  seat (``reveal_by_seat``) is answered again at random among that seat's choices then
  (an answer opened anonymously keeps only its count: that is told by the reveal);

and it is **kept** only if the seat is told the same in it as in the real game: every
action's reveals the seat sees (``ctx.reveal``, the draws and private rolls it sees)
read the same, every action of the log is legal where it comes, and the same seats
decide. Such a world is one the seat cannot tell from the real one. In it

- every other event the seat receives must read the same (an ordinary event says
  nothing hidden), its prompts must be the same, and so must its view at the end:
  whatever differs is a **leak**, whatever ``determinize`` says;
- the game's own ``determinize`` must be able to differ from the real state wherever
  the replayed world does (checked over many samples): a field it always keeps as it
  is, where the replayed world has another value, is a secret it forgot.

A game may leave ``determinize`` out: search bots then sample replayed worlds
(``search.InformationSet``), and ``testing.sample`` shows them.

Their limits: a world is searched for by rejection (a few tries per check), so a
position where almost nothing fits gives no world and is not checked; and only the
framework's private chance and sealed answers are drawn again, so a secret the game
makes another way (a deck shuffled with ``ctx.shuffle`` and dealt face down by hand,
hidden state drawn with ``ctx.rng``) is the same in every replayed world: such a game
does not declare ``secrets_from_framework`` and writes its ``determinize``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from tabletop.framework.chance import LoadedDice
from tabletop.framework.context import Context
from tabletop.framework.decisions import ANONYMOUS
from tabletop.framework.game import Action, Event, GameDefinition, Prompt, State, explained_prompt
from tabletop.framework.leaks import (
    REVEAL_WARNING,
    Leak,
    first_difference,
    prompt_json,
    public_line,
)
from tabletop.framework.ports import Dice, RandomSource

T = TypeVar("T")
RngFactory = Callable[[int], RandomSource]
DiceFactory = Callable[[RandomSource], Dice]

#: Replays tried for one world before giving up (each stops at the first action that
#: tells the seat something else).
TRIES = 24


class Inconsistent(Exception):
    """The replay went where the real game did not: the world is not kept."""


class _Chance(NamedTuple):
    """One draw or roll in the real game: its kind, who saw its result (None:
    everyone), and the result (items drawn, faces)."""

    kind: str
    seen: frozenset[int] | None
    result: Any


@dataclass
class _Step:
    """Setup (``seat`` None) or one action of the real game, as it happened."""

    seat: int | None
    action: Action | None
    chances: list[_Chance]
    drawn: list[int]
    """The random numbers the action drew outside its draws and rolls (shuffles,
    ``ctx.rng``): a replay draws the same."""
    events: list[Event]
    reveals: list[tuple[int | None, frozenset[int] | None]]
    prompt: Prompt | None
    """The prompt the action answered (explained: what a person is shown)."""
    sealed: Any = None
    """The sealed answers' data this action sealed an answer into, if any."""


def _audience(
    players: int, seats: Iterable[int] | None, hidden_from: Iterable[int] | None
) -> frozenset[int] | None:
    """Who sees a draw's or a roll's result: None for everyone."""
    if seats is None and hidden_from is None:
        return None
    if hidden_from is None:
        return frozenset(seats or ())
    return frozenset(range(players)) - frozenset(hidden_from)


class _Tape(RandomSource):
    """The real random source, noting the numbers drawn outside a draw or a roll."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.algorithm = inner.algorithm
        self.inside = False
        self.drawn: list[int] = []

    def next_u32(self) -> int:
        value = self.inner.next_u32()
        if not self.inside:
            self.drawn.append(value)
        return value

    def getstate(self) -> list[int]:
        return self.inner.getstate()

    def setstate(self, state: Sequence[int]) -> None:
        self.inner.setstate(state)


class _Again(RandomSource):
    """A replay's random source outside draws and rolls: the numbers the real action
    drew, in order (a shuffle comes out the same)."""

    algorithm = "replayed"

    def __init__(self, drawn: Sequence[int]) -> None:
        self._drawn = list(drawn)

    def next_u32(self) -> int:
        if not self._drawn:
            raise Inconsistent("the replay drew more random numbers than the game")
        return self._drawn.pop(0)

    def left(self) -> int:
        return len(self._drawn)

    def getstate(self) -> list[int]:
        return []

    def setstate(self, state: Sequence[int]) -> None:
        return None


class _Recording(Context):
    """The real game's context, noting each draw and roll with its result, and the
    random numbers drawn outside them."""

    __slots__ = ("chances", "tape")

    def __init__(self, tape: _Tape, dice: Dice, actor: int | None = None, *, players: int) -> None:
        super().__init__(tape, dice, actor, players=players)
        self.tape = tape
        self.chances: list[_Chance] = []

    def roll(
        self,
        count: int = 1,
        sides: int = 6,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
    ) -> tuple[int, ...]:
        seats = None if seats is None else list(seats)
        hidden_from = None if hidden_from is None else list(hidden_from)
        self.tape.inside = True
        try:
            faces = super().roll(
                count, sides, reason=reason, about=about, seats=seats, hidden_from=hidden_from
            )
        finally:
            self.tape.inside = False
        seen = _audience(self.players or 0, seats, hidden_from)
        self.chances.append(_Chance("roll", seen, faces))
        return faces

    def draw(
        self,
        bag: MutableSequence[T],
        count: int = 1,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
        name: Callable[[T], str] = str,
    ) -> list[T]:
        seats = None if seats is None else list(seats)
        hidden_from = None if hidden_from is None else list(hidden_from)
        self.tape.inside = True
        try:
            drawn = super().draw(
                bag,
                count,
                reason=reason,
                about=about,
                seats=seats,
                hidden_from=hidden_from,
                name=name,
            )
        finally:
            self.tape.inside = False
        seen = _audience(self.players or 0, seats, hidden_from)
        self.chances.append(_Chance("draw", seen, list(drawn)))
        return drawn


class _Forced(RandomSource):
    """A source whose ``randbelow`` picks, one after another, given items of a bag: how
    a draw the observer saw comes out as it did in a replayed world."""

    algorithm = "forced"

    def __init__(self, bag: Sequence[Any], items: Sequence[Any]) -> None:
        self._bag = bag
        self._items = list(items)

    def randbelow(self, n: int) -> int:
        item = self._items.pop(0)
        if item not in self._bag:
            raise Inconsistent("a draw the seat saw cannot come out as it did")
        return self._bag.index(item)

    def next_u32(self) -> int:
        raise Inconsistent("a forced draw asked for more than its items")

    def getstate(self) -> list[int]:
        return []

    def setstate(self, state: Sequence[int]) -> None:
        return None


class _World(Context):
    """A replayed world's context: a draw or roll ``observer`` saw (and every public
    one) comes out as recorded, a private one it did not see is drawn from ``alt``, and
    everything else draws the numbers the real action drew."""

    __slots__ = ("_again", "_alt", "_chances", "_dice_factory", "_observer")

    def __init__(
        self,
        alt: RandomSource,
        dice_factory: DiceFactory,
        actor: int | None,
        *,
        players: int,
        observer: int,
        step: _Step,
    ) -> None:
        again = _Again(step.drawn)
        super().__init__(again, dice_factory(again), actor, players=players)
        self._again = again
        self._alt = alt
        self._dice_factory = dice_factory
        self._observer = observer
        self._chances = list(step.chances)

    def _next(self, kind: str, seen: frozenset[int] | None) -> _Chance:
        if not self._chances:
            raise Inconsistent(f"the replay used chance ({kind}) where the game did not")
        chance = self._chances.pop(0)
        if chance.kind != kind or chance.seen != seen:
            raise Inconsistent(f"the replay used chance ({kind}) unlike the game ({chance.kind})")
        return chance

    def _redrawn(self, seen: frozenset[int] | None) -> bool:
        """Whether a result is drawn again: private, and not seen by the observer."""
        return seen is not None and self._observer not in seen

    def done(self) -> None:
        """The action is over: it must have used all the chance the real one did."""
        if self._chances or self._again.left():
            raise Inconsistent("the replay used less chance than the game")

    def roll(
        self,
        count: int = 1,
        sides: int = 6,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
    ) -> tuple[int, ...]:
        seats = None if seats is None else list(seats)
        hidden_from = None if hidden_from is None else list(hidden_from)
        chance = self._next("roll", _audience(self.players or 0, seats, hidden_from))
        if self._redrawn(chance.seen):
            self._dice = self._dice_factory(self._alt)
        else:
            self._dice = LoadedDice(chance.result)
        try:
            return super().roll(
                count, sides, reason=reason, about=about, seats=seats, hidden_from=hidden_from
            )
        finally:
            self._dice = self._dice_factory(self._again)

    def draw(
        self,
        bag: MutableSequence[T],
        count: int = 1,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
        name: Callable[[T], str] = str,
    ) -> list[T]:
        seats = None if seats is None else list(seats)
        hidden_from = None if hidden_from is None else list(hidden_from)
        chance = self._next("draw", _audience(self.players or 0, seats, hidden_from))
        if len(chance.result) != count:
            raise Inconsistent("the replay drew another number of items")
        self._rng = self._alt if self._redrawn(chance.seen) else _Forced(bag, chance.result)
        try:
            return super().draw(
                bag,
                count,
                reason=reason,
                about=about,
                seats=seats,
                hidden_from=hidden_from,
                name=name,
            )
        finally:
            self._rng = self._again


def _told(
    events: Sequence[Event], reveals: Sequence[tuple[int | None, frozenset[int] | None]], seat: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(what the action tells ``seat`` it now knows, every other event it sees), as
    JSON: the same split as the leak checks' (``leaks._Outcome.split``)."""
    told = {index for index, _ in reveals if index is not None}
    bare = any(index is None and (who is None or seat in who) for index, who in reveals)
    known: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        if event.visible_to(seat):
            exempt = index in told or (bare and event.seats is not None)
            (known if exempt else rest).append(event.to_json())
    return known, rest


@dataclass(eq=False)
class Replay:
    """A game as its seed, players, options and action log, replayed once to note what
    its chance and its sealed answers did; ``world`` then builds worlds from it."""

    game: GameDefinition
    seed: int
    players: int
    options: dict[str, str]
    log: list[tuple[int, Action]]
    rng_factory: RngFactory
    dice_factory: DiceFactory
    steps: list[_Step] = field(init=False, default_factory=list)
    state: State = field(init=False, default_factory=dict)
    """The real state after the log."""
    free: set[int] = field(init=False, default_factory=set)
    """Log indexes of sealed answers that may be answered again (not opened by seat)."""
    _tape: _Tape = field(init=False, repr=False)
    _dice: Dice = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._tape = _Tape(self.rng_factory(self.seed))
        self._dice = self.dice_factory(self._tape)
        ctx = _Recording(self._tape, self._dice, players=self.players)
        self.state = self.game.setup(self.players, self.options, ctx)
        self.steps.append(
            _Step(None, None, ctx.chances, self._taken(), ctx.events, ctx.reveals, None)
        )
        self._opened: dict[int, str] = {}
        self._sealed_at: dict[int, Any] = {}
        self._keep: list[Any] = []  # the sealed answers' data, alive so ids stay unique
        actions, self.log = self.log, []
        for seat, action in actions:
            self.extend(seat, action)

    def extend(self, seat: int, action: Action) -> None:
        """The game goes on by ``seat``'s ``action`` (a fuzzer follows its game this way
        rather than replaying the whole log again at every action)."""
        index = len(self.log)
        prompt = explained_prompt(self.game, self.state)
        ctx = _Recording(self._tape, self._dice, seat, players=self.players)
        self.game.apply(self.state, seat, action, ctx)
        step = _Step(seat, action, ctx.chances, self._taken(), ctx.events, ctx.reveals, prompt)
        for what, data, _ in ctx.sealing or ():
            self._keep.append(data)
            if what == "sealed":
                step.sealed = data
                self._sealed_at[index] = data
            else:
                self._opened[id(data)] = what
        self.steps.append(step)
        self.log.append((seat, action))
        self.free = {
            at
            for at, data in self._sealed_at.items()
            if self._opened.get(id(data)) in (None, ANONYMOUS)
        }

    def _taken(self) -> list[int]:
        """The numbers drawn outside draws and rolls since the last call."""
        drawn, self._tape.drawn = self._tape.drawn, []
        return drawn

    @classmethod
    def of(cls, engine: Any) -> Replay:
        """The replay of ``engine``'s game so far (an ``engine.Engine``)."""
        return cls(
            engine.game,
            engine.seed,
            engine.players,
            dict(engine.options),
            [(entry.seat, entry.action) for entry in engine.log],
            engine.rng_factory,
            engine.dice_factory,
        )

    def world(
        self, seat: int, rng: RandomSource, *, tries: int = TRIES, strict: bool = True
    ) -> State | None:
        """A world ``seat`` cannot tell from the real one, or None when ``tries``
        replays found none. ``strict`` (the checks) raises ``Leak`` when a world that
        tells the seat the same shows it something else (an event, a prompt, its view);
        a search bot samples without it (the world is a sound sample either way)."""
        for _ in range(tries):
            try:
                return self._replay(seat, rng, strict)
            except Inconsistent:
                continue
        return None

    def _replay(self, seat: int, rng: RandomSource, strict: bool) -> State:
        game, players = self.game, self.players
        first = self.steps[0]
        ctx = _World(rng, self.dice_factory, None, players=players, observer=seat, step=first)
        try:
            state = game.setup(players, self.options, ctx)
        except Inconsistent:
            raise
        except Exception as exc:
            raise Inconsistent(f"setup failed in the replay: {exc}") from exc
        ctx.done()
        self._compare(first, ctx, seat, "setup", strict)
        for index, (actor, logged) in enumerate(self.log):
            step = self.steps[index + 1]
            prompt = game.prompt(state)
            if prompt is None or prompt.seat != actor:
                raise Inconsistent("another seat decides in the replay")
            action = logged
            if actor != seat and index in self.free:
                action = rng.choice(prompt.choices).action
            if action not in prompt.actions():
                raise Inconsistent("an action of the log is not legal in the replay")
            where = f"action {index + 1} ({logged!r} by seat {actor})"
            if strict:
                self._same_told(step, prompt, state, seat, actor, action, logged, where)
            ctx = _World(rng, self.dice_factory, actor, players=players, observer=seat, step=step)
            try:
                game.apply(state, actor, action, ctx)
            except Inconsistent:
                raise
            except Exception as exc:
                raise Inconsistent(f"{where} failed in the replay: {exc}") from exc
            ctx.done()
            self._compare(step, ctx, seat, where, strict)
        if not strict:
            return state
        seen, alt_seen = game.view(self.state, seat), game.view(state, seat)
        differs = first_difference(seen, alt_seen)
        if differs is not None:
            path, mine, theirs = differs
            raise Leak(
                f"seat {seat}, through its view: at {path or 'its top'} it shows {mine!r} in "
                f"the game and {theirs!r} in a world {_WORLD}: the view shows something the "
                "seat cannot know"
            )
        real_prompt = explained_prompt(game, self.state)
        if real_prompt is not None and real_prompt.seat == seat:
            self._same_prompt(
                _Step(seat, None, [], [], [], [], real_prompt),
                explained_prompt(game, state),
                seat,
                "now",
            )
        return state

    def _same_told(
        self,
        step: _Step,
        prompt: Prompt,
        state: State,
        seat: int,
        actor: int,
        action: Action,
        logged: Action,
        where: str,
    ) -> None:
        """Before the action: the seat's own prompt, or another seat's public choice
        line, must read as in the game."""
        if actor == seat:
            self._same_prompt(step, explained_prompt(self.game, state), seat, where)
        elif action == logged and public_line(step.prompt, logged) != public_line(prompt, logged):
            raise Leak(
                f"seat {seat}, through the choice line: {where} reads "
                f"{public_line(step.prompt, logged)!r} in the game and "
                f"{public_line(prompt, logged)!r} in a world {_WORLD}"
            )

    def _same_prompt(self, step: _Step, prompt: Prompt | None, seat: int, where: str) -> None:
        mine, theirs = prompt_json(step.prompt), prompt_json(prompt)
        differs = first_difference(mine, theirs)
        if differs is not None:
            raise Leak(
                f"seat {seat}, through its prompt ({where}): at {differs[0]} it reads "
                f"{differs[1]!r} in the game and {differs[2]!r} in a world {_WORLD}: the "
                "prompt depends on something the seat cannot know"
            )

    def _compare(self, step: _Step, ctx: Context, seat: int, where: str, strict: bool) -> None:
        known, rest = _told(step.events, step.reveals, seat)
        alt_known, alt_rest = _told(ctx.events, ctx.reveals, seat)
        if alt_known != known:
            raise Inconsistent("the replay tells the seat something else")
        if alt_rest != rest and not strict:
            raise Inconsistent("the replay shows the seat another event")
        if alt_rest != rest:
            event = next(
                (mine for mine, theirs in zip(rest, alt_rest, strict=False) if mine != theirs),
                (rest or alt_rest)[-1],
            )
            raise Leak(
                f"seat {seat}, through its events: {where} shows it event {event['kind']!r} "
                f"({event['text']!r}) in the game and another in a world {_WORLD}: an "
                "ordinary event says nothing hidden; if the rules make this public, say so "
                f"with ctx.reveal(text, seats=...) ({REVEAL_WARNING})"
            )


#: How the messages name a replayed world.
_WORLD = (
    "the seat cannot tell apart (the game replayed with the draws it did not see and "
    "the others' sealed answers drawn again, telling it the same)"
)


def own_determinize(game: GameDefinition) -> bool:
    """Whether ``game`` wrote its own ``determinize`` (rather than the default)."""
    return type(game).determinize is not GameDefinition.determinize
