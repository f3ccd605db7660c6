"""Leak checks: nothing a seat must not know reaches it, through any channel.

A seat receives its view, its prompt when it decides, and the events it may see (its
log, what the UI shows, what a bot reads, what ``tabletop export`` prints for
spectators). Checking views alone is not enough: a game can roll a player's secret
dice in public, forget ``seats=`` on a private event, or put hidden state in an event's
data. This module finds those by *counterfactuals*: it builds a second world that the
seat cannot tell apart from the real one, plays the same action in both, and requires
that nothing the seat receives differs. Two kinds of second world:

1. **Resampled hidden state.** ``determinize(state, seat)`` gives a state that differs
   only in what ``seat`` cannot know. Its view and (when it decides) its prompt must be
   the same as in the real state; then the same action with the same chance must give
   the seat the same events and the same view afterwards, unless the action revealed
   something (``ctx.reveal``, which also makes it an undo barrier). This catches an
   event that shows a hidden hand, a private event without ``seats=``, live state in
   event data, a deck draw that shows a card without being marked as a reveal.
2. **Perturbed chance.** One random draw of the action is changed. If the change is
   invisible in the seat's view (and the state did change), the seat's events must
   not change either. This catches secret dice rolled in public: the faces of another
   player's dice appear in the log although the view hides them. A public roll whose
   result matters should show in the view (a "last roll" field), which is also what a
   player expects to see on screen.

Both need only the game's own ``determinize``; the framework checks every game, so an
author cannot forget to. The fuzzer runs these checks after every action, and the
conformance kit on sampled positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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

RngFactory = Callable[[int], RandomSource]
DiceFactory = Callable[[RandomSource], Dice]

#: Most perturbed draws tried per action (spread over all the draws it makes).
MAX_PERTURBATIONS = 6
_NUDGE = 0x9E3779B9  # odd: changes the parity, and most residues, of a 32-bit draw


class Leak(Exception):
    """A seat could learn something it must not (the message says what and how)."""


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


def prompt_json(prompt: Prompt | None) -> Any:
    """What a seat is shown of a prompt: text, rule and every choice's words."""
    if prompt is None:
        return None
    return [
        prompt.seat,
        prompt.text,
        prompt.rule,
        [[c.action, c.label, c.detail, c.consequence] for c in prompt.choices],
    ]


def seen_events(events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event.to_json() for event in events if event.visible_to(seat)]


def _first_difference(real: list[dict[str, Any]], other: list[dict[str, Any]]) -> str:
    for mine, theirs in zip(real, other, strict=False):
        if mine != theirs:
            return f"event {mine['kind']!r} ({mine['text']!r})"
    longer = real if len(real) > len(other) else other
    extra = longer[min(len(real), len(other))]
    return f"event {extra['kind']!r} ({extra['text']!r}), which appears in only one world"


@dataclass
class _Outcome:
    state: State
    events: list[Event]
    revealed: bool
    draws: int


class LeakChecker:
    """Runs the counterfactual checks for one game configuration."""

    def __init__(
        self,
        game: GameDefinition,
        *,
        players: int,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        seed: int = 0,
        max_perturbations: int = MAX_PERTURBATIONS,
        resample: Callable[[State, int, RandomSource], State] | None = None,
    ) -> None:
        """``resample(state, seat, rng)`` replaces the game's ``determinize`` (the
        conformance kit passes its ``hidden_variants``); it must not change ``state``."""
        self.game = game
        self.resample = resample
        self.players = players
        self.rng_factory = rng_factory
        self.dice_factory = dice_factory
        self.seed = seed
        self.max_perturbations = max_perturbations
        self.supported = True

    # One world ----------------------------------------------------------------------

    def _run(
        self, state: State, seat: int, action: Action, rng_state: list[int], nudge: int | None
    ) -> _Outcome:
        inner = self.rng_factory(0)
        inner.setstate(rng_state)
        rng = _Nudged(inner, nudge)
        ctx = Context(rng, self.dice_factory(rng), actor=seat)
        world = clone(state)
        self.game.apply(world, seat, action, ctx)
        return _Outcome(world, ctx.events, ctx.revealed, rng.draws)

    def _determinize(self, state: State, seat: int, salt: int) -> State | None:
        rng = self.rng_factory(self.seed * 7_919 + salt * 31 + seat)
        try:
            if self.resample is not None:
                return self.resample(state, seat, rng)
            return self.game.determinize(clone(state), seat, Context(rng, self.dice_factory(rng)))
        except Unsupported:
            self.supported = False
            return None

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
                return {}
            where = f"for seat {seat}, in a state resampled by determinize"
            if self.game.view(other, seat) != self.game.view(state, seat):
                raise Leak(f"the view {where} changed: it shows something the seat cannot know")
            if self.game.view(other, None) != spectator:
                raise Leak(f"the spectator's view changed {where}")
            deciding = prompt is not None and prompt.seat == seat
            if deciding and prompt_json(explained_prompt(self.game, other)) != prompt_json(prompt):
                raise Leak(
                    f"the prompt {where} changed: its text or choices depend on "
                    "something the deciding seat cannot know"
                )
            worlds[seat] = other
        return worlds

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
        by anything it receives."""
        real = self._run(state, seat, action, rng_state, None)
        if worlds is None:
            worlds = self.check_position(state, salt)
        for observer, other in worlds.items():
            self._compare_resampled(state, other, observer, seat, action, rng_state, real)
        if real.draws:
            self._compare_perturbed(state, seat, action, rng_state, real, salt)

    def check_setup(self, options: dict[str, str]) -> None:
        """Setup's deals and shuffles: perturb its draws and compare what each seat gets."""

        def make(rng: _Nudged) -> tuple[State, list[Event]]:
            ctx = Context(rng, self.dice_factory(rng))
            return self.game.setup(self.players, options, ctx), ctx.events

        probe = _Nudged(self.rng_factory(self.seed), None)
        state, events = make(probe)
        for nudge in self._nudges(probe.draws, salt=-1):
            other_state, other_events = make(_Nudged(self.rng_factory(self.seed), nudge))
            self._judge_perturbed(
                state,
                events,
                other_state,
                other_events,
                f"setup (random draw {nudge + 1} of {probe.draws} changed)",
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
    ) -> None:
        prompt = self.game.prompt(other)
        if prompt is None or prompt.seat != seat or action not in prompt.actions():
            return  # the actor's options depend on what the observer cannot know
        try:
            alt = self._run(other, seat, action, rng_state, None)
        except Exception as exc:
            raise Leak(
                f"determinize for seat {observer} made a state on which {action!r} by seat "
                f"{seat} fails ({type(exc).__name__}: {exc}): it is not a consistent state"
            ) from exc
        if real.revealed or alt.revealed:
            return  # a reveal may show what was hidden: that is its purpose
        mine = seen_events(real.events, observer)
        theirs = seen_events(alt.events, observer)
        if mine != theirs:
            raise Leak(
                f"seat {observer} learns something hidden from it through "
                f"{_first_difference(mine, theirs)} of {action!r} by seat {seat}: the "
                "same action in a world that differs only in what the seat cannot know "
                "shows it other events (mark the event seats=[...], or call ctx.reveal "
                "if the action reveals it)"
            )
        if self.game.view(alt.state, observer) != self.game.view(real.state, observer):
            raise Leak(
                f"after {action!r} by seat {seat}, seat {observer}'s view depends on "
                "something it could not know before, but the action is not marked as a "
                "reveal (call ctx.reveal, which also stops undo from crossing it)"
            )

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
                real.state,
                real.events,
                alt.state,
                alt.events,
                f"{action!r} by seat {seat} (random draw {nudge + 1} of {real.draws} changed)",
            )

    def _judge_perturbed(
        self,
        state: State,
        events: Sequence[Event],
        other_state: State,
        other_events: Sequence[Event],
        what: str,
    ) -> None:
        if other_state == state:
            return  # the draw changed nothing that stays: a public roll with no effect
        for observer in [*range(self.players), None]:
            if self.game.view(other_state, observer) != self.game.view(state, observer):
                continue  # the observer sees the draw's effect anyway
            mine = seen_events(events, observer)
            theirs = seen_events(other_events, observer)
            if mine != theirs:
                who = "a spectator" if observer is None else f"seat {observer}"
                raise Leak(
                    f"{who} learns the result of a draw hidden from its view through "
                    f"{_first_difference(mine, theirs)} of {what}: roll or draw it with "
                    "seats=[...] (private chance), or show it in the view if it is public"
                )
