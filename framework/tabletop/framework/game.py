"""The game API that authors write against.

A game is a *definition* object (no state of its own) plus plain JSON data for the
state. The engine asks the definition for the current prompt, checks that an action
is one of the legal choices, and lets the definition mutate the state. Keeping the
state as plain data is what makes saves, replays, digests and per-seat views cheap
and uniform across games (see docs/architecture.md).
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from tabletop.framework.errors import TabletopError, Unsupported

if TYPE_CHECKING:
    from tabletop.framework.context import Context

#: A game's state: JSON-compatible data (dicts with str keys, lists, str, int, bool, None).
State = dict[str, Any]
#: An action is a short string chosen from the prompt's legal choices ("roll", "play:12:event").
Action = str


@dataclass(frozen=True)
class OptionSpec:
    """One setup option a game declares (scenario, variant, target score...)."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    """Pairs of (value, human label); the value is what is stored in saves."""
    default: str
    help: str = ""

    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)


@dataclass(frozen=True)
class GameInfo:
    """What the app shows about a game before it is started."""

    id: str
    title: str
    min_players: int
    max_players: int
    description: str = ""
    version: str = "0"
    options: tuple[OptionSpec, ...] = ()
    hidden_information: bool = False
    """True when views differ by seat: the UI then hides the screen between humans."""
    cooperative: bool = False
    """True when the seats play as one team against the game (Hanabi, Pandemic): a win
    is the team's, every seat shares one score, and bots, ``simulate``, ``tournament``
    and the UI speak of the team's score and win, not of a winner (docs/bots.md)."""

    def check_players(self, players: int) -> None:
        """Refuse a player count the game does not take, in words a player reads."""
        if not self.min_players <= players <= self.max_players:
            raise TabletopError(
                f"{self.id} takes {self.min_players}-{self.max_players} players, not {players}"
            )

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        raise KeyError(key)


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Immutable JSON leaves: shared, never copied."""


def clone(data: Any) -> Any:
    """Deep copy of JSON-like data; several times faster than copy.deepcopy.

    Leaves (words, numbers) are shared without a call each: a state is mostly leaves,
    and the bots' searches clone states thousands of times a second."""
    kind = type(data)
    if kind is dict:
        return {
            key: value if type(value) in _SCALARS else clone(value) for key, value in data.items()
        }
    if kind is list or kind is tuple:
        return [value if type(value) in _SCALARS else clone(value) for value in data]
    return data


@dataclass(frozen=True)
class Choice:
    """One legal answer to a prompt.

    ``detail`` and ``consequence`` let a person decide from the screen alone: every front
    end shows them before the choice is committed, and bots may ignore them.
    """

    action: Action
    label: str
    """Words for a person ("Roll the die", "Play Thiers as an event")."""
    detail: str = ""
    """Longer text about the choice: a card's full event text, a rule's effect."""
    consequence: str = ""
    """A side effect the person should know before committing, in words
    ("breaches your Final Crisis zone: -1 Political VP"). Empty when there is none."""
    key: str = ""
    """A stable key for a recurring choice, so it does not move under a player's
    fingers from one prompt to the next: ``"0"`` for pass / stop / none by convention
    (``PASS_KEY``), or a letter. Front ends bind it as given when it is free and number
    the other choices around it. Empty: the front end numbers the choice."""
    public: bool = False
    """True when choosing it is public in a game with hidden information: every seat's
    log then reads "Player 2 chose: <label>" instead of "Player 2 decided.". The label
    must then say only what every seat knows (the leak checks compare it across the
    worlds the other seats cannot tell apart). ``Prompt(public=True)`` marks them all."""


@dataclass(frozen=True, slots=True)  # slotted: games make one for most decisions
class Prompt:
    """Who must decide what now. Exactly one seat decides at a time.

    Decisions that several seats make in turn are a sequence of prompts; a long chain of
    sub-decisions inside one action is a sequence of prompts for the same seat.
    """

    seat: int
    text: str
    choices: tuple[Choice, ...]
    rule: str | None = None
    """Rule section this decision applies (shown by the UI as a reference)."""
    public: bool = False
    """True when every choice of this decision is public (a hint, a bid, a pass): see
    ``Choice.public``. Without it, another seat's choice in a game with hidden
    information reads only "Player 2 decided."."""

    def actions(self) -> tuple[Action, ...]:
        return tuple(choice.action for choice in self.choices)


@dataclass(frozen=True)
class Sides:
    """The sides (teams) a game is played in, with these players and options
    (``GameDefinition.sides``): a side wins or loses as one, and reports count its wins
    (``tabletop simulate``, ``tournament``), each of its members' too.

    ``names`` are the sides; ``seats`` says each seat's side, in seat order, when the
    seating fixes it (the Communards in seat 0, Versailles in seat 1), or is None when
    the sides are dealt secretly as roles: each finished game's ``Result.seat_sides``
    then says who played which. Build one with ``Sides.fixed`` or ``Sides.dealt``."""

    names: tuple[str, ...]
    seats: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.names or len(set(self.names)) != len(self.names):
            raise ValueError(f"sides need distinct names: {self.names}")
        if self.seats is not None and any(side not in self.names for side in self.seats):
            raise ValueError(f"a seat's side is not one of {self.names}: {self.seats}")

    @classmethod
    def fixed(cls, *by_seat: str) -> Sides:
        """Sides the seating fixes: ``by_seat[i]`` is seat i's side (a side may have
        several seats: ``Sides.fixed("North", "East", "North", "East")``)."""
        return cls(tuple(dict.fromkeys(by_seat)), tuple(by_seat))

    @classmethod
    def dealt(cls, *names: str) -> Sides:
        """Sides dealt secretly as roles: who is on which is known only at the end
        (``Result.seat_sides``)."""
        return cls(tuple(names), None)


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    winners: tuple[int, ...]
    """Winning seats; several for a shared win, empty for nobody (a solitaire loss). When
    a side wins, every seat of that side (and only those)."""
    scores: tuple[float, ...] = ()
    summary: str = ""
    """How the winner was decided, in words (tiebreaks included)."""
    outcome: str = ""
    """The way the game ended, as a short fixed category ("Sudden Death victory",
    "defeat: army routed"): what simulations and tournaments count, so a balance study
    sees how games end, not only who won. Empty: the winners alone say it."""
    side: str = ""
    """In a game with sides (``GameDefinition.sides``), the side that won ("" for none:
    a draw). The fuzzer and the kit check that ``winners`` are exactly its seats."""
    seat_sides: tuple[str, ...] = ()
    """Each seat's side, in seat order, when the sides were dealt secretly (roles): the
    end of the game says who played which. Empty when the seating fixed the sides (or
    the game has none)."""

    def __call__(self) -> Result:
        """Deprecated: ``Engine.result`` became a property (read like ``prompt``); a
        finished game's ``engine.result()`` still gives the result, with a warning."""
        warnings.warn(
            "Engine.result is a property now: read engine.result, not engine.result()",
            DeprecationWarning,
            stacklevel=2,
        )
        return self


#: The key front ends give a pass / stop / "no bonus action" choice when the game marks
#: it with ``Choice(..., key=PASS_KEY)``: the same key in every prompt.
PASS_KEY = "0"

#: Event kind for a phase boundary ("Round 3", "Final Crisis", "Scoring"); emitted with
#: ``Context.heading``, shown by front ends as a heading in the log.
HEADING = "heading"

#: Event kind for a recap at the end of a turn, round or phase (what scored, what
#: changed, why), emitted with ``Context.summary``: a front end pauses on it until the
#: player has read it, because the automatic steps of a turn end otherwise run past in
#: one key press. Its ``text`` is the title, ``data["lines"]`` the recap's lines.
SUMMARY = "summary"

#: ``about=NOBODY``: an event that concerns no seat ("Round 2 begins"), even when a
#: seat's action triggered it; front ends then name no seat for it.
NOBODY = -1


class _EventFields(NamedTuple):
    kind: str
    text: str
    data: Mapping[str, Any]
    seats: frozenset[int] | None = None
    actor: int | None = None
    about: int | None = None


class Event(_EventFields):
    """Something that happened, for the log.

    ``seats`` limits who may see it (None: everyone, spectators included). ``actor`` is
    the seat whose action produced the event (None during setup); ``about`` is the seat
    the event concerns (the one who went bust, who drew), which defaults to the actor.
    Every front end and the log export name a seat from these two fields only, so they
    never disagree on who did what.

    ``data`` is deep-copied when the event is made: an event keeps what was true when
    it happened, never a live reference into a state that later holds new secrets.

    A named tuple (immutable, compared field by field), not a frozen dataclass: every
    action of every game makes one or two.
    """

    __slots__ = ()

    def __new__(
        cls,
        kind: str,
        text: str,
        data: Mapping[str, Any] | None = None,
        seats: Iterable[int] | None = None,
        actor: int | None = None,
        about: int | None = None,
    ) -> Event:
        return tuple.__new__(
            cls,
            (
                kind,
                text,
                clone(dict(data or {})),
                None if seats is None else frozenset(seats),
                actor,
                about,
            ),
        )

    @classmethod
    def logged(
        cls,
        kind: str,
        text: str,
        data: dict[str, Any],
        seats: frozenset[int] | None,
        actor: int | None,
        about: int | None,
    ) -> Event:
        """The event ``Context`` logs: the same as ``Event(...)`` for a caller whose
        ``seats`` is already a frozenset and whose ``data`` is a dict of its own (a
        call's keyword arguments); made once per event of every action.

        ``data`` is kept as it is when every value is a leaf (most events: a card, a
        space, a count), and deep-copied as ``Event`` copies it otherwise (a list of
        faces, a hand), so a later change to the state never reaches the event."""
        for value in data.values():
            if type(value) not in _SCALARS:
                data = clone(data)
                break
        return tuple.__new__(cls, (kind, text, data, seats, actor, about))

    def visible_to(self, seat: int | None) -> bool:
        """Spectators (seat None) see only public events."""
        return self.seats is None or (seat is not None and seat in self.seats)

    @property
    def private(self) -> bool:
        return self.seats is not None

    @property
    def concerns(self) -> int | None:
        """The seat this event is about: ``about`` if given, else the actor; None for
        an event about nobody (``about=NOBODY``) or from setup."""
        if self.about == NOBODY:
            return None
        return self.actor if self.about is None else self.about

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "data": clone(dict(self.data)),
            "seats": None if self.seats is None else sorted(self.seats),
            "actor": self.actor,
            "about": self.about,
        }


class GameDefinition(ABC):
    """Base class for a game. Subclass it, fill ``info`` and the abstract methods.

    The definition is stateless: every method receives the state. ``setup`` and
    ``apply`` may draw randomness and emit events only through the ``Context`` they
    are given, which is what makes a game a seed plus a log of actions.
    """

    info: GameInfo

    fresh_views: bool = False
    """Set True when ``view`` builds every list and dict it returns anew on each call,
    sharing none with the state or with anything kept between calls. The engine then
    hands views out without a defensive deep copy (a view that shared a list with the
    state could later show a secret added to it). The fuzzer and the conformance kit
    check the promise on every view they build (``views.shared_part``)."""

    secrets_from_framework: bool = False
    """Set True when everything this game hides comes from the framework: chance whose
    result some seat does not see (``ctx.draw`` and ``ctx.roll`` with ``seats=`` or
    ``hidden_from=``, ``ctx.shuffle``, any use of ``ctx.rng``) and the seats' sealed
    answers (``decisions.SecretChoices``). The framework then builds the worlds a seat
    cannot tell apart itself, by replaying the game's log with those drawn again
    (``tabletop.framework.worlds``): search bots sample them when the game has no
    ``determinize`` of its own, and the fuzzer and the conformance kit check the game's
    views, prompts and events in them and hold its own ``determinize`` to them (a field
    it always keeps as it is, where such a world differs, is a secret it forgot). Every
    event that tells something hidden must then be a reveal (``ctx.reveal``, a draw's own
    event): an ordinary event must read the same in every such world."""

    must_reach: tuple[str, ...] = ()
    """Milestones (names that ``milestones`` returns) a fuzz run must reach: the late or
    rare states random play tends to miss (the last round, a rare ending). ``tabletop
    fuzz`` reports each one no game reached, a failure with ``--require-milestones``
    (play the seats with the game's bots, ``--seats``, to get there)."""

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        """Names of the seats for this number of players, in seat order; by default
        "Player 1" to "Player n" (most games' seats have no names of their own)."""
        return tuple(f"Player {n}" for n in range(1, players + 1))

    def sides(self, players: int, options: Mapping[str, str]) -> Sides | None:
        """The sides the seats play in with these players and options, or None (the
        default: every seat for itself). A side's win is named by ``Result.side`` and
        counts as a win for each of its seats, in reports and in the search's reward."""
        return None

    @abstractmethod
    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        """Build the initial state (shuffle, deal) using only ``ctx`` for chance."""

    @abstractmethod
    def prompt(self, state: State) -> Prompt | None:
        """The decision now due, or None once the game is over."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        """Carry out a legal action, mutating ``state`` in place.

        The engine has already checked that ``action`` is legal and that ``seat`` is the
        prompted seat; it restores the state if this raises.
        """

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). Must omit hidden information."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """The result once the game is over, else None."""

    # Optional hooks with sensible defaults -------------------------------------------

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        """``prompt`` with what a person reads before choosing: each choice's
        ``detail`` and ``consequence``.

        Why apart from ``prompt``: bots, batch runs and searches never read these words,
        and a card game's texts and forecasts can cost as much as its rules. A game may
        leave them out of ``prompt`` and fill them in here; the engine asks for them only
        when the prompt is shown to a person (``Engine.explained_prompt``). The result
        must be the same decision: same seat and text, the same choices (actions, labels,
        keys) in the same order; the fuzzer and the conformance kit check it. Default:
        the prompt as it is (a game that explains in ``prompt`` needs nothing here).
        """
        return prompt

    def hides_information(self, options: Mapping[str, str]) -> bool:
        """Whether seats' views differ in a game with these options (default: info's flag).

        The UI shows a hand-off screen between human seats only when this is true.
        """
        return self.info.hidden_information

    def automated_seats(self, players: int, options: Mapping[str, str]) -> frozenset[int]:
        """Seats the game plays itself, by its own procedure, with these options (a
        solitaire mode's solo opponent): such a seat never gets a prompt, so no person
        or bot plays it. Front ends seat nobody there (its controller is
        ``session.AUTOMATED``) and name it as played by the game's procedure; a person
        recorded on it by an older save is not counted as one. Default: none."""
        return frozenset()

    def describe(self, state: State) -> str:
        """A short progress line for save lists ("Round 2", "Turn 14")."""
        return ""

    def invariants(self, state: State) -> Sequence[str]:
        """Broken invariants, in words; empty when the state is sound. Used by fuzzing."""
        return ()

    def milestones(self, state: State) -> Iterable[str]:
        """Names of the notable situations ``state`` is in ("last round", "deck empty",
        "regime: Directory"), for the fuzzer's reach report: it asks after every action
        and counts the games that reached each. Only read, never shown to players.
        Default: none."""
        return ()

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """A full state consistent with what ``seat`` knows, hidden parts resampled.

        Everything the seat cannot know is drawn again, derived records included: the
        other hands and the deck, a sealed answer, and also any note the game keeps of
        them (who played the Fail card, which card a seat passed). Used by search bots
        (information-set MCTS) and by the leak checks, which compare the real world with
        these; the fuzzer and the kit check that the game's invariants hold in them, that
        the seat's view and prompt are the same there, and that they can be played on.
        The default is only correct for games without hidden information; a game whose
        secrets all come from the framework may leave it out
        (``secrets_from_framework``)."""
        if self.info.hidden_information:
            raise Unsupported(f"{self.info.id} does not support determinization")
        return state

    def rules_summary(self) -> str:
        """The game's rules in the author's own words (Markdown), for the UI's reference."""
        return self.info.description


def seat_sides(
    game: GameDefinition, players: int, options: Mapping[str, str], result: Result
) -> tuple[str, ...] | None:
    """The side each seat played in a finished game (None for a game without sides):
    the seating's, or the dealt roles the result names."""
    sides = game.sides(players, options)
    if sides is None:
        return None
    return sides.seats if sides.seats is not None else result.seat_sides


def check_sides(
    game: GameDefinition, players: int, options: Mapping[str, str], result: Result
) -> str | None:
    """What is wrong with a finished game's sides (None when sound): a side's win names
    exactly its seats, a game without sides names no side, and dealt sides are told."""
    sides = game.sides(players, options)
    if sides is None:
        if result.side or result.seat_sides:
            return "result names a side, but the game declares none (GameDefinition.sides)"
        return None
    if sides.seats is not None and len(sides.seats) != players:
        return f"sides() gives {len(sides.seats)} seats' sides for {players} players"
    if sides.seats is not None and result.seat_sides:
        return "result.seat_sides is for sides dealt secretly; these sides are fixed"
    played = seat_sides(game, players, options, result)
    if played is None or len(played) != players:
        return (
            f"the sides are dealt secretly, so the result must say each of the {players} "
            f"seats' side (Result.seat_sides), not {played}"
        )
    if any(side not in sides.names for side in played):
        return f"result.seat_sides names a side that is not one of {sides.names}: {played}"
    if result.side and result.side not in sides.names:
        return f"result.side {result.side!r} is not one of {sides.names}"
    members = tuple(seat for seat, side in enumerate(played) if side == result.side)
    if result.side and tuple(sorted(result.winners)) != members:
        return (
            f"{result.side} won, so the winners must be its seats {members}, "
            f"not {tuple(sorted(result.winners))}"
        )
    if not result.side and result.winners:
        return (
            f"the game has sides but its result names winners {result.winners} and no "
            "side: name the side that won (Result.side)"
        )
    return None


def same_decision(plain: Prompt, explained: Prompt) -> str | None:
    """What differs between a prompt and its explained form, beyond the words that
    ``GameDefinition.explain`` may add; None when it is the same decision."""
    if explained.seat != plain.seat or explained.text != plain.text:
        return "explain() changed the prompt's seat or text"
    if explained.rule != plain.rule or explained.public != plain.public:
        return "explain() changed the prompt's rule or whether it is public"
    bare = [(c.action, c.label, c.key, c.public) for c in plain.choices]
    if [(c.action, c.label, c.key, c.public) for c in explained.choices] != bare:
        return "explain() changed the choices (their actions, labels, keys, order or publicity)"
    return None


def explained_prompt(game: GameDefinition, state: State) -> Prompt | None:
    """The prompt a person is shown for ``state``: ``prompt`` then ``explain``. Checks
    (fuzzer, leak checks) compare what people see, so they read prompts through this."""
    prompt = game.prompt(state)
    return None if prompt is None else game.explain(state, prompt)
