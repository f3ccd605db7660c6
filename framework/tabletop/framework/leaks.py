"""Leak checks: nothing a seat must not know reaches it, through any channel.

A seat receives its view, its prompt when it decides, the events it may see (its log,
what the UI shows, what a bot reads, what ``tabletop export`` prints for spectators)
and the choice lines of other seats' public decisions. Checking views alone is not
enough: a game can roll a player's secret dice in public, forget ``seats=`` on a
private event, or put hidden state in an event's data. This module finds those by
*counterfactuals*: it builds a second world that the seat cannot tell apart from the
real one, plays the same action in both, and requires that nothing the seat receives
differs. Two kinds of second world:

1. **Resampled hidden state.** ``determinize(state, seat)`` gives a state that differs
   only in what ``seat`` cannot know. Its view and (when it decides) its prompt must be
   the same as in the real state; then the same action with the same chance must give
   the seat the same events, the same public choice line and the same view afterwards.
   What the action *reveals* to the seat is exempt, and only that: the events that say
   so (``ctx.reveal(text, seats=...)``, a draw's or a private roll's event for the
   seats that see it; ``Context.reveals``). Two worlds that reveal different things to
   the seat are told apart by the reveal itself, so the checker looks for a world that
   reveals the same (a few more resamples) and then compares every other event: a
   public event naming another still-hidden card, inside an action that turns one card
   face up, fails. The view after the action is not compared for a seat something was
   revealed to (the next position's check covers that view). This catches an event
   that shows a hidden hand, a private event without ``seats=``, live state in event
   data, a public choice whose label depends on a hidden card.
2. **Perturbed chance.** One random draw of the action is changed. If the change is
   invisible in the seat's view (and the state did change), the seat's events must
   not change either, unless what the action reveals to the seat changed (a private
   draw tells its seat the items, whatever its view shows of them). This catches
   secret dice rolled in public: the faces of another player's dice appear in the log
   although the view hides them. A public roll whose result matters should show in
   the view (a "last roll" field), which is also what a player expects to see.

A failure names the seat (or the spectator), the channel (view, prompt, event, choice
line) and what differs: the first differing key path of a view (``hands[1][0]``) or
prompt, or the event. Both checks need only the game's own ``determinize``; the
framework checks every game, so an author cannot forget to. The fuzzer runs them after
every action, and the conformance kit on sampled positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

from tabletop.framework.context import Context
from tabletop.framework.errors import Unsupported
from tabletop.framework.game import (
    Action,
    Event,
    GameDefinition,
    Prompt,
    State,
    clone,
    explained_prompt,
)
from tabletop.framework.ports import Dice, RandomSource
from tabletop.framework.seats import prompt_to_json
from tabletop.framework.soundness import check_prompt, flat, forgotten, json_problem

if TYPE_CHECKING:
    from tabletop.framework.worlds import Replay

RngFactory = Callable[[int], RandomSource]
DiceFactory = Callable[[RandomSource], Dice]

#: Most perturbed draws tried per action (spread over all the draws it makes).
MAX_PERTURBATIONS = 6
#: Worlds ``determinize`` draws for a seat before ``check_worlds`` says that it keeps a
#: field a replayed world shows to differ: enough that a field it draws again only
#: sometimes (a role among five seats) is seen to move.
DETERMINIZE_SAMPLES = 48
#: More resampled worlds tried per observer when the first is not comparable with a
#: revealing action (it reveals something else to the observer, or the action is not
#: legal there): enough to find one that shows the same revealed card most times.
REVEAL_RETRIES = 3
_NUDGE = 0x9E3779B9  # odd: changes the parity, and most residues, of a 32-bit draw


class Leak(Exception):
    """A seat could learn something it must not (the message says what and how)."""


class BadWorld(Leak):
    """``determinize`` made a world that is not one the seat cannot tell apart: its
    invariants break, it cannot be played on, another seat decides in it, or it keeps a
    secret a replayed world shows to differ (the message says which)."""


class _Nudged(RandomSource):
    """A random source that replays another's stream with one draw changed."""

    def __init__(self, inner: RandomSource, nudge_at: int | None) -> None:
        self._inner = inner
        self._nudge_at = nudge_at
        self.draws = 0
        self.algorithm = inner.algorithm

    def next_u32(self) -> int:
        value = self._inner.next_u32()
        if self.draws == self._nudge_at:
            value = (value + _NUDGE) & 0xFFFFFFFF
        self.draws += 1
        return value

    def getstate(self) -> list[int]:
        return self._inner.getstate()

    def setstate(self, state: Sequence[int]) -> None:
        self._inner.setstate(state)


def _own_determinize(game: GameDefinition) -> bool:
    """Whether ``game`` wrote its own ``determinize`` (rather than the default)."""
    return type(game).determinize is not GameDefinition.determinize


def _leaf(data: Any, path: str) -> Any:
    """The value at a key path of ``soundness.flat`` (None when there is none)."""
    return flat(data).get(path)


def prompt_json(prompt: Prompt | None) -> Any:
    """What a seat is shown of a prompt: text, rule and every choice's words (the seat
    protocol's form of it, less the keys a front end binds)."""
    if prompt is None:
        return None
    shown = prompt_to_json(prompt)
    for choice in shown["choices"]:
        del choice["key"]
    return shown


def public_line(prompt: Prompt | None, action: Action) -> str | None:
    """The words every seat reads for ``action`` chosen at ``prompt`` (the choice's
    label when the prompt or the choice is public), or None when they read only that
    the seat decided."""
    if prompt is None:
        return None
    for choice in prompt.choices:
        if choice.action == action:
            return choice.label if prompt.public or choice.public else None
    return None


def seen_events(events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event.to_json() for event in events if event.visible_to(seat)]


def first_difference(real: Any, other: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first key path at which two JSON values differ (``hands[1][0]``,
    ``players.2.coins``) with the two values there; None when they are equal."""
    if isinstance(real, dict) and isinstance(other, dict):
        for key in [*real, *(k for k in other if k not in real)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in real or key not in other:
                return where, real.get(key, "(missing)"), other.get(key, "(missing)")
            found = first_difference(real[key], other[key], where)
            if found is not None:
                return found
        return None
    if isinstance(real, list | tuple) and isinstance(other, list | tuple):
        for index, (mine, theirs) in enumerate(zip(real, other, strict=False)):
            found = first_difference(mine, theirs, f"{path}[{index}]")
            if found is not None:
                return found
        if len(real) != len(other):
            return f"{path or '(top)'} (length)", len(real), len(other)
        return None
    return None if real == other else (path or "(top)", real, other)


def _field(real: Any, other: Any) -> str:
    """Words for the first differing field of two views or prompts."""
    found = first_difference(real, other)
    if found is None:
        return "no field (they are equal)"
    where, mine, theirs = found
    return f"field {where} ({_short(mine)} here, {_short(theirs)} in the other world)"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_difference(real: list[dict[str, Any]], other: list[dict[str, Any]]) -> str:
    for mine, theirs in zip(real, other, strict=False):
        if mine != theirs:
            return f"event {mine['kind']!r} ({mine['text']!r})"
    longer = real if len(real) > len(other) else other
    extra = longer[min(len(real), len(other))]
    return f"event {extra['kind']!r} ({extra['text']!r}), which appears in only one world"


def _differing_event(real: list[dict[str, Any]], other: list[dict[str, Any]]) -> dict[str, Any]:
    for mine, theirs in zip(real, other, strict=False):
        if mine != theirs:
            return mine
    longer = real if len(real) > len(other) else other
    return longer[min(len(real), len(other))]


#: The one way a leak message mentions a reveal: only as what it is, a statement that
#: the rules make the information public to those seats (the checks then trust it), so
#: that a caught leak is never turned into an uncaught one by following the advice.
REVEAL_WARNING = (
    "a reveal declares that the rules make this information public to those seats, and "
    "the checks then trust it: use one only if the rules say so"
)


def _advice(event: dict[str, Any], observer: int) -> str:
    """What to do about an event that differs for ``observer``: never to add
    ``seats=`` when the event has seats and the observer is one of them, and never a
    reveal without saying what a reveal declares."""
    seats = event.get("seats")
    if seats is not None and observer in seats:
        return (
            f"the event is already private to seats {seats}: leave the hidden part out of "
            f"the event; if the rules make it known to seat {observer}, say so with "
            f"ctx.reveal(text, seats=[{observer}]) or draw it with seats= ({REVEAL_WARNING})"
        )
    return (
        "leave the hidden part out of the event, or mark it seats=[...] for the seats "
        "that may know it; if the rules make it known, say so with ctx.reveal(text, "
        f"seats=...) ({REVEAL_WARNING})"
    )


@dataclass
class _Outcome:
    state: State
    events: list[Event]
    reveals: list[tuple[int | None, frozenset[int] | None]]
    draws: int

    def revealed_to(self, seat: int) -> bool:
        return any(who is None or seat in who for _, who in self.reveals)

    def split(self, seat: int | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(the reveals ``seat`` sees, every other event it sees), as JSON.

        A reveal is an event that says so (``Context.reveals``); a ``reveal()`` without
        words to the seat also makes the action's *private* events it sees reveals to
        it (the older idiom: ``emit(..., seats=[s])`` then ``reveal()``). Public
        events are never exempted that way."""
        told = {index for index, _ in self.reveals if index is not None}
        bare = any(
            index is None and (who is None or (seat is not None and seat in who))
            for index, who in self.reveals
        )
        revealed: list[dict[str, Any]] = []
        other: list[dict[str, Any]] = []
        for index, event in enumerate(self.events):
            if event.visible_to(seat):
                exempt = index in told or (bare and event.seats is not None)
                (revealed if exempt else other).append(event.to_json())
        return revealed, other


@dataclass(eq=False)
class LeakChecker:
    """Runs the counterfactual checks for one game configuration.

    ``resample(state, seat, rng)`` replaces the game's ``determinize`` (the conformance
    kit passes its ``hidden_variants``); it must not change ``state``."""

    game: GameDefinition
    _: KW_ONLY
    players: int
    rng_factory: RngFactory
    dice_factory: DiceFactory
    seed: int = 0
    max_perturbations: int = MAX_PERTURBATIONS
    resample: Callable[[State, int, RandomSource], State] | None = None
    supported: bool = field(default=True, init=False)
    """False once the game turned out to have no ``determinize`` to check with."""
    replay: Replay | None = field(default=None, init=False)
    """The game so far, for a game whose secrets all come from the framework
    (``GameDefinition.secrets_from_framework``): the caller keeps it at the position it
    checks (``Replay.extend``). Its worlds stand in for a ``determinize`` the game does
    not have, and ``check_worlds`` holds the game's own to them."""

    # One world ----------------------------------------------------------------------

    def _run(
        self, state: State, seat: int, action: Action, rng_state: list[int], nudge: int | None
    ) -> _Outcome:
        inner = self.rng_factory(0)
        inner.setstate(rng_state)
        rng = _Nudged(inner, nudge)
        ctx = Context(rng, self.dice_factory(rng), actor=seat, players=self.players)
        world = clone(state)
        self.game.apply(world, seat, action, ctx)
        return _Outcome(world, ctx.events, ctx.reveals, rng.draws)

    def _determinize(self, state: State, seat: int, salt: int) -> State | None:
        """The world ``seat`` cannot tell apart that the checks compare with: the kit's
        ``hidden_variants``, the game's ``determinize``, or for a game that has none and
        whose secrets all come from the framework, a replayed world (None when no
        replay found one this time: that seat is not compared at this position)."""
        rng = self.rng_factory(self.seed * 7_919 + salt * 31 + seat)
        try:
            if self.resample is not None:
                return self.resample(state, seat, rng)
            if self.replay is not None and not _own_determinize(self.game):
                return self.replay.world(seat, rng)
            return self.game.determinize(clone(state), seat, Context(rng, self.dice_factory(rng)))
        except Unsupported:
            self.supported = False
            return None

    def _sound_world(self, real: State, world: State, seat: int, where: str) -> None:
        """A world from ``determinize`` must be one the game can be in: its invariants
        hold, it is plain data, the same seat decides (who decides is never a secret),
        its prompt is sound, and it can be played on (one of its choices applies)."""
        broken = list(self.game.invariants(world))
        if broken:
            raise BadWorld(f"{where}, the game's invariants break: {'; '.join(broken)}")
        problem = json_problem(world, "the state")
        if problem is not None:
            raise BadWorld(f"{where}, {problem}")
        prompt, real_prompt = self.game.prompt(world), self.game.prompt(real)
        if (prompt is None) != (real_prompt is None) or (
            prompt is not None and real_prompt is not None and prompt.seat != real_prompt.seat
        ):

            def who(asked: Prompt | None) -> str:
                return "nobody (the game is over)" if asked is None else f"seat {asked.seat}"

            raise BadWorld(
                f"{where}, {who(prompt)} decides where {who(real_prompt)} does in the game "
                "(who decides is never hidden)"
            )
        result = self.game.result(world) if prompt is None else None
        problem = check_prompt(prompt, self.players, result)
        if problem is not None:
            raise BadWorld(f"{where}, {problem}")
        if prompt is None:
            return
        rng = self.rng_factory(self.seed * 31 + seat)
        ctx = Context(rng, self.dice_factory(rng), actor=prompt.seat, players=self.players)
        action = rng.choice(prompt.choices).action
        try:
            self.game.apply(clone(world), prompt.seat, action, ctx)
        except Exception as exc:
            raise BadWorld(
                f"{where}, the world cannot be played on: {action!r} by seat {prompt.seat} "
                f"fails there ({type(exc).__name__}: {exc})"
            ) from exc

    # The checks ---------------------------------------------------------------------

    def check_position(self, state: State, salt: int = 0) -> dict[int, State]:
        """Views and prompts must not change when only hidden things change.

        Returns each seat's resampled state for ``check_action`` to reuse.
        """
        worlds: dict[int, State] = {}
        prompt = explained_prompt(self.game, state)  # with the words a person reads
        spectator = self.game.view(state, None)
        for seat in range(self.players):
            other = self._determinize(state, seat, salt)
            if other is None:
                if not self.supported:
                    return {}
                continue
            where = f"in a state resampled by determinize for seat {seat}"
            self._sound_world(state, other, seat, f"determinize for seat {seat}: in its world")
            seen, alt_seen = self.game.view(state, seat), self.game.view(other, seat)
            if alt_seen != seen:
                raise Leak(
                    f"seat {seat}, through its view: the view changed {where}, at "
                    f"{_field(seen, alt_seen)}: it shows something the seat cannot know"
                )
            alt_spectator = self.game.view(other, None)
            if alt_spectator != spectator:
                raise Leak(
                    f"a spectator, through its view: the spectator's view changed {where}, "
                    f"at {_field(spectator, alt_spectator)}"
                )
            deciding = prompt is not None and prompt.seat == seat
            if deciding:
                asked = prompt_json(prompt)
                alt_asked = prompt_json(explained_prompt(self.game, other))
                if alt_asked != asked:
                    raise Leak(
                        f"seat {seat}, through its prompt: the prompt changed {where}, at "
                        f"{_field(asked, alt_asked)}: its text or choices depend on "
                        "something the deciding seat cannot know"
                    )
            worlds[seat] = other
        return worlds

    def check_worlds(self, state: State, salt: int = 0) -> None:
        """For a game whose secrets all come from the framework and that has its own
        ``determinize``: in a world each seat cannot tell apart, built by replaying the
        game (``self.replay``, at ``state``), the seat must receive the same (else a
        ``Leak``), and ``determinize`` must be able to differ from the real state wherever
        that world does (else ``BadWorld``: a secret it keeps as it is)."""
        replay = self.replay
        authored = self.resample is not None or _own_determinize(self.game)
        if replay is None or not authored:
            return  # no determinize to hold to account: the replayed worlds are used
        for seat in range(self.players):
            rng = self.rng_factory(self.seed * 104_723 + salt * 37 + seat)
            world = replay.world(seat, rng)
            if world is None:
                continue
            samples = (
                sample
                for attempt in range(DETERMINIZE_SAMPLES)
                if (sample := self._determinize(state, seat, salt + 613 * (attempt + 1)))
                is not None
            )
            kept = forgotten(state, world, samples)
            if kept:
                mine, theirs = _leaf(state, kept[0]), _leaf(world, kept[0])
                raise BadWorld(
                    f"determinize for seat {seat} keeps {kept[0]} as it is ({mine!r}) in "
                    f"{DETERMINIZE_SAMPLES} worlds, but a world the seat cannot tell apart "
                    "(the game replayed with the draws it did not see and the others' "
                    f"sealed answers drawn again) has {theirs!r} there: determinize must "
                    "draw again everything the seat cannot know, derived records included"
                    + (f" (also: {', '.join(kept[1:4])})" if len(kept) > 1 else "")
                )

    def check_action(
        self,
        state: State,
        rng_state: list[int],
        seat: int,
        action: Action,
        *,
        salt: int = 0,
        worlds: dict[int, State] | None = None,
    ) -> None:
        """Play ``seat``'s ``action`` from ``state`` (random state ``rng_state``) in the
        real world and in counterfactual ones; raise Leak if a seat could tell them apart
        by anything it receives that the action does not reveal to it."""
        real = self._run(state, seat, action, rng_state, None)
        if worlds is None:
            worlds = self.check_position(state, salt)
        line = public_line(self.game.prompt(state), action)
        for observer, other in worlds.items():
            self._compare_resampled(
                state, other, observer, seat, action, rng_state, real, line, salt
            )
        if real.draws:
            self._compare_perturbed(state, seat, action, rng_state, real, salt)

    def check_setup(self, options: dict[str, str]) -> None:
        """Setup's deals and shuffles: perturb its draws and compare what each seat gets."""

        def make(rng: _Nudged) -> _Outcome:
            ctx = Context(rng, self.dice_factory(rng), players=self.players)
            state = self.game.setup(self.players, options, ctx)
            return _Outcome(state, ctx.events, ctx.reveals, rng.draws)

        probe = _Nudged(self.rng_factory(self.seed), None)
        real = make(probe)
        for nudge in self._nudges(probe.draws, salt=-1):
            alt = make(_Nudged(self.rng_factory(self.seed), nudge))
            self._judge_perturbed(
                real, alt, f"setup (random draw {nudge + 1} of {probe.draws} changed)"
            )

    # Helpers ------------------------------------------------------------------------

    def _compare_resampled(
        self,
        state: State,
        other: State,
        observer: int,
        seat: int,
        action: Action,
        rng_state: list[int],
        real: _Outcome,
        line: str | None,
        salt: int,
    ) -> None:
        """Compare what ``observer`` receives from ``action`` in the real world and in
        one it cannot tell apart (``other``, resampled for it). A world that reveals
        something else to the observer, or where the action is not legal (the actor's
        options depend on what the observer cannot know), is not comparable; when the
        action reveals something, a few more resampled worlds are tried."""
        mine, mine_rest = real.split(observer)
        tries = 1 + (REVEAL_RETRIES if real.reveals else 0)
        for attempt in range(tries):
            if attempt:
                found = self._determinize(state, observer, salt + 7_717 * attempt)
                if found is None:
                    return
                other = found
            alt = self._alt(other, observer, seat, action, rng_state, line)
            if alt is None:
                continue
            theirs, theirs_rest = alt.split(observer)
            if theirs != mine:
                continue  # told apart by what the action reveals to the observer
            if mine_rest != theirs_rest:
                event = _differing_event(mine_rest, theirs_rest)
                raise Leak(
                    f"seat {observer}, through its events: it learns something hidden from "
                    f"it through {_first_difference(mine_rest, theirs_rest)} of {action!r} "
                    f"by seat {seat}: the same action in a world that differs only in what "
                    "the seat cannot know (and reveals the same to it) shows it other "
                    f"events ({_advice(event, observer)})"
                )
            if real.revealed_to(observer) or alt.revealed_to(observer):
                return  # its view may show what was revealed: the next position checks it
            after = self.game.view(real.state, observer)
            alt_after = self.game.view(alt.state, observer)
            if alt_after != after:
                raise Leak(
                    f"seat {observer}, through its view: after {action!r} by seat {seat} the "
                    f"view differs at {_field(after, alt_after)} between worlds the seat "
                    "could not tell apart before, but the action reveals nothing to it "
                    "(leave it out of the view; if the rules make it known, say so with "
                    f"ctx.reveal(text, seats=...): {REVEAL_WARNING})"
                )
            return

    def _alt(
        self,
        other: State,
        observer: int,
        seat: int,
        action: Action,
        rng_state: list[int],
        line: str | None,
    ) -> _Outcome | None:
        """``action`` played in ``other``; None when it is not legal there. Checks on the
        way that a public choice's line reads the same there."""
        prompt = self.game.prompt(other)
        if prompt is None or prompt.seat != seat or action not in prompt.actions():
            return None  # the actor's options depend on what the observer cannot know
        if observer != seat and public_line(prompt, action) != line:
            raise Leak(
                f"seat {observer}, through the choice line: {action!r} by seat {seat} is a "
                f"public decision whose words read {line!r} here and "
                f"{public_line(prompt, action)!r} in a world seat {observer} cannot tell "
                "apart: a public choice's label may say only what every seat knows (or "
                "leave the choice private)"
            )
        try:
            return self._run(other, seat, action, rng_state, None)
        except Exception as exc:
            raise Leak(
                f"determinize for seat {observer} made a state on which {action!r} by seat "
                f"{seat} fails ({type(exc).__name__}: {exc}): it is not a consistent state"
            ) from exc

    def _nudges(self, draws: int, salt: int) -> list[int]:
        if draws <= self.max_perturbations:
            return list(range(draws))
        pick = self.rng_factory(self.seed * 104_729 + salt)
        return sorted(pick.sample(range(draws), self.max_perturbations))

    def _compare_perturbed(
        self,
        state: State,
        seat: int,
        action: Action,
        rng_state: list[int],
        real: _Outcome,
        salt: int,
    ) -> None:
        for nudge in self._nudges(real.draws, salt):
            alt = self._run(state, seat, action, rng_state, nudge)
            self._judge_perturbed(
                real,
                alt,
                f"{action!r} by seat {seat} (random draw {nudge + 1} of {real.draws} changed)",
            )

    def _judge_perturbed(self, real: _Outcome, alt: _Outcome, what: str) -> None:
        """A draw whose effect an observer's view does not show must not show in its
        events either, except in what the draw reveals to it (a private draw's items
        for its seats): worlds that reveal different things are told apart by that."""
        if alt.state == real.state:
            return  # the draw changed nothing that stays: a public roll with no effect
        for observer in [*range(self.players), None]:
            if self.game.view(alt.state, observer) != self.game.view(real.state, observer):
                continue  # the observer sees the draw's effect anyway
            told, mine = real.split(observer)
            alt_told, theirs = alt.split(observer)
            if told != alt_told:
                continue  # what the draw reveals to the observer differs: it may
            if mine != theirs:
                who = "a spectator" if observer is None else f"seat {observer}"
                seats = _differing_event(mine, theirs).get("seats")
                if seats is not None and observer in seats:
                    advice = (
                        f"the event is already private to seats {seats}: leave the result "
                        f"out; if the rules let {who} learn it, roll or draw it with "
                        f"seats=[...] or say so with ctx.reveal(text, seats=...) "
                        f"({REVEAL_WARNING})"
                    )
                else:
                    advice = (
                        "roll or draw it with seats=[...] (private chance), or show it "
                        "in the view if it is public"
                    )
                raise Leak(
                    f"{who}, through its events: it learns the result of a draw hidden "
                    f"from its view through {_first_difference(mine, theirs)} of {what}: " + advice
                )
