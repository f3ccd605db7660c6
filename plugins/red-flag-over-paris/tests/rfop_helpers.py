"""Helpers for the Red Flag Over Paris tests: build states directly and drive them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.framework import PASS_KEY, Bot, Choice, Context, State
from tabletop.framework.bots import RandomBot
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.games.red_flag_over_paris import RedFlagOverParis
from tabletop.games.red_flag_over_paris.data import BOARD, FINAL_ZONE, STRATEGY_IDS
from tabletop.games.red_flag_over_paris.data import CARDS as GAME_CARDS
from tabletop.games.red_flag_over_paris.rules import tasks

GAME = RedFlagOverParis()
V, C = 0, 1


class Driver:
    """A state plus a seeded context, applying only legal actions (like the engine)."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = rng_factory(seed)
        self.dice = dice_factory(self.rng)
        self.state: State = GAME.setup(2, {}, self.ctx())
        self.events: list[Any] = []

    def ctx(self, actor: int | None = None) -> Context:
        return Context(self.rng, self.dice, actor=actor)

    def prompt_actions(self) -> list[str]:
        prompt = GAME.prompt(self.state)
        assert prompt is not None
        return list(prompt.actions())

    def act(self, action: str, seat: int | None = None) -> None:
        prompt = GAME.prompt(self.state)
        assert prompt is not None, "game over"
        assert action in prompt.actions(), f"{action!r} not in {prompt.actions()}"
        if seat is not None:
            assert prompt.seat == seat, f"prompt is for seat {prompt.seat}"
        ctx = self.ctx(prompt.seat)  # as the engine does: the deciding seat is the actor
        GAME.apply(self.state, prompt.seat, action, ctx)
        self.events.extend(ctx.events)
        assert not GAME.invariants(self.state), GAME.invariants(self.state)

    @property
    def seat(self) -> int:
        prompt = GAME.prompt(self.state)
        assert prompt is not None
        return prompt.seat

    def texts(self) -> list[str]:
        return [e.text for e in self.events]

    def choice(self, action: str) -> Choice:
        """The offered choice for ``action`` (with its label, detail and consequence)."""
        prompt = GAME.prompt(self.state)
        assert prompt is not None
        return next(c for c in prompt.choices if c.action == action)


def clear_board(state: State, cubes: Mapping[str, tuple[int, int]] | None = None) -> None:
    """Empty the map but for ``cubes`` (space: Versailles and Commune cubes); the cubes
    go to (and come from) the Crisis Track's Starting zones to stay counted."""
    for s in BOARD:
        for seat in (V, C):
            state["track"][seat][0] += state["cubes"][s][seat]
            state["cubes"][s][seat] = 0
    state["discs"] = {}
    for space, (v, c) in (cubes or {}).items():
        set_cubes(state, space, v, c)


def set_cubes(state: State, space: str, v: int, c: int) -> None:
    """Set a space's cubes, balancing against the Starting zones (keeps totals at 18)."""
    for seat, n in ((V, v), (C, c)):
        diff = n - state["cubes"][space][seat]
        state["track"][seat][0] -= diff
        state["cubes"][space][seat] = n


def at_play(
    seed: int,
    seat: int,
    hand: list[int],
    *,
    rnd: int = 1,
    cubes: Mapping[str, tuple[int, int]] | None = None,
) -> Driver:
    """A driver whose next decision is ``seat`` playing a card from ``hand``; given
    ``cubes``, the map is emptied but for them (``clear_board``)."""
    d = Driver(seed)
    st = d.state
    st["stack"] = []
    st["objective"] = [None, None]
    for s in (V, C):
        st["obj_deck"].extend(st["obj_hand"][s])
        st["obj_hand"][s] = []
        st["deck"].extend(st["hands"][s])
        st["hands"][s] = []
    for card in hand:
        st["deck"].remove(card)
    st["hands"][seat] = list(hand)
    st["round"] = rnd
    st["step"] = "plays"
    st["initiative"] = seat
    st["active"] = seat
    st["plays"] = [0, 0]
    st["plays"][1 - seat] = 3
    st["stack"] = [tasks.end_of_card_play(seat), tasks.card_play(seat)]
    if cubes is not None:
        clear_board(st, cubes)
    return d


def new_engine(seed: int) -> Engine:
    return Engine(
        GAME, seed=seed, players=2, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )


def play_out(engine: Engine, seed: int, bots: tuple[Bot, Bot] | None = None) -> Engine:
    """Play ``engine`` to its end (random play unless ``bots``), checking the invariants
    and that every prompt cites a rule after each action."""
    players = bots or (RandomBot(), RandomBot())
    streams = [rng_factory(seed * 7 + 1), rng_factory(seed * 7 + 2)]
    while not engine.over:
        prompt = engine.prompt
        assert prompt is not None
        action = players[prompt.seat].choose(
            GAME, engine.view(prompt.seat), prompt, streams[prompt.seat]
        )
        engine.act(prompt.seat, action)
        broken = GAME.invariants(engine.state)
        assert not broken, (seed, broken)
        assert prompt.rule and prompt.rule.startswith("§")
    return engine


def at_final_crisis_play(seed: int, seat: int, card: int) -> Driver:
    """A driver in the Final Crisis whose next decision is ``seat`` playing its own
    Final Crisis card ``card`` for its event (§12.2-§12.3)."""
    d = at_play(seed, seat, [])
    st = d.state
    st["fc"] = True
    st["fc_card"][seat] = False
    st["hands"][seat] = [card]
    return d


def to_objective_event(seed: int, seat: int, card: int) -> Driver:
    """A driver at ``seat``'s choice to perform the event of its objective ``card``,
    reached by play: ``seat`` controls the objective's space and makes the round's last
    card play (advancing its momentum), then the end of the round runs (§10-§11)."""
    space = GAME_CARDS[card].space or ""
    d = at_play(seed, seat, [STRATEGY_IDS[0]], cubes={space: (int(seat == V), int(seat == C))})
    st = d.state
    st["obj_deck"].remove(card)
    st["objective"][seat] = card
    st["plays"][seat] = 2
    d.act(d.prompt_actions()[[a.startswith("mom:") for a in d.prompt_actions()].index(True)])
    while "perform" not in d.prompt_actions():
        prompt = GAME.prompt(d.state)
        assert prompt is not None
        passing = [c.action for c in prompt.choices if c.key == PASS_KEY]
        d.act(passing[0] if passing else prompt.choices[0].action)
    return d


def turncoat_ready(*, final_zone_next: bool) -> Driver:
    """The Commune's bonus action in Paris is due and it may Turncoat in Butte-aux-Cailles;
    with ``final_zone_next`` its next cube comes from its Final Crisis zone."""
    d = at_play(2, V, [4], cubes={"butte_montmartre": (0, 2), "butte_aux_cailles": (1, 0)})
    st = d.state
    if final_zone_next:
        st["out"][C] += sum(st["track"][C][:FINAL_ZONE]) + st["pool"][C]
        st["track"][C][:FINAL_ZONE] = [0] * FINAL_ZONE
        st["pool"][C] = 0
    d.act("mom:4", V)  # the last card play: the round ends, bonus actions follow
    assert d.seat == C and "turn:butte_aux_cailles" in d.prompt_actions()
    return d
