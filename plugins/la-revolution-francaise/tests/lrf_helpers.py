"""Positions for rule tests: a set-up state with the task under test on top, played
on through the engine with every legality check and loaded dice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.chance import LoadedDice, Pcg32, rng_factory
from tabletop.framework.decisions import OrderedVote, SecretChoices
from tabletop.framework.engine import Engine
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.core import seat_of
from tabletop.games.la_revolution_francaise.setup import new_state
from tabletop.games.la_revolution_francaise.table import STACK

ORDER_TURN_ONE = ["F", "G", "M", "R", "MT", "SC"]


def fresh(players: int = 6, **options: str) -> State:
    state = new_state(players, {"euro": "off", **options})
    state["order"] = list(ORDER_TURN_ONE)
    state["phase"] = "actions"
    return state


def place(state: State, **where: str) -> None:
    for person, region in where.items():
        key = {"Collot_d_Herbois": "Collot d'Herbois", "Saint_Just": "Saint-Just"}.get(person)
        state["persons"][key or person.replace("_", " ")]["where"] = region


def jail(state: State, *persons: str) -> None:
    """Put ``persons`` in prison (off the map)."""
    for person in persons:
        state["persons"][person].update({"status": "prison", "where": None})


def seat(state: State, current: str) -> int:
    """The seat playing ``current``, which must be in the game."""
    found = seat_of(state, current)
    assert found is not None
    return found


def law_vote_task(law: str, proposer: str, voters: list[int]) -> dict[str, Any]:
    """The Assembly's vote on ``law`` proposed by ``proposer``, ``voters`` asked in turn."""
    return {
        "kind": "law_vote",
        "law": law,
        "proposer": proposer,
        "vote": OrderedVote.new(law, voters),
    }


def fame_vote_task(law: str, proposer: str, ranges: Mapping[int, int]) -> dict[str, Any]:
    """The modifiers asked on ``law`` proposed by ``proposer`` (7.5.2.3.2): each seat of
    ``ranges`` in turn, up to its largest modifier either way."""
    return {
        "kind": "fame_vote",
        "law": law,
        "proposer": proposer,
        "modifier_ranges": {str(s): most for s, most in ranges.items()},
        "vote": OrderedVote.new(f"modifiers on {law}", list(ranges)),
    }


def objectives_at(state: State, declarer: str, kind: str | None = None) -> Engine:
    """An engine asking ``declarer`` (a Current, or "gov" for the Government's
    controller) for its sealed objective (6.4), its kind already chosen or not."""
    asked = seat(state, state["gov"]["controller"] if declarer == "gov" else declarer)
    state["objectives"] = {declarer: SecretChoices.new(f"objective of {declarer}", [asked])}
    state["objective_kind"] = {} if kind is None else {declarer: kind}
    return engine_at(state, [{"kind": "objectives"}])


def hinted_declaration(state: State, declarer: str) -> tuple[list[str], list[str]]:
    """What the search bot's hints leave the search when ``declarer`` is asked for its
    objective (6.4): at the kind, then, the first of those chosen, at the objective."""
    hints = RevolutionHints()
    engine = objectives_at(state, declarer)
    prompt = engine.prompt
    assert prompt is not None
    kinds = list(hints.candidates(engine.game, engine.state, prompt))
    engine.act(prompt.seat, kinds[0])
    prompt = engine.prompt
    assert prompt is not None
    return kinds, list(hints.candidates(engine.game, engine.state, prompt))


def hinted_attempt(engine: Engine, target: str, rolls: int | None = 3) -> None:
    """Play the search bot's hints through the attempt the open act prompt (7.3-7.4)
    should start: they leave only ``try:<target>``, then every Personality there
    (``with:all``) if asked, then only the most rolls offered (7.1), of which there are
    ``rolls`` (more than one when None)."""
    hints = RevolutionHints()
    prompt = engine.prompt
    assert prompt is not None
    assert list(hints.candidates(engine.game, engine.state, prompt)) == [f"try:{target}"]
    engine.act(prompt.seat, f"try:{target}")
    prompt = engine.prompt
    assert prompt is not None
    if "with:all" in prompt.actions():
        assert list(hints.candidates(engine.game, engine.state, prompt)) == ["with:all"]
        engine.act(prompt.seat, "with:all")
        prompt = engine.prompt
        assert prompt is not None
    offered = [a for a in prompt.actions() if a.startswith("rolls:")]
    assert len(offered) == rolls if rolls is not None else len(offered) > 1
    assert list(hints.candidates(engine.game, engine.state, prompt)) == [offered[-1]]


def allies_in_metz(state: State, coalition: int) -> None:
    """Brunswick's Allied army stands in Metz in place of its regular army, the region
    taken by the Coalition, whose track is at ``coalition``."""
    state["armies"] = [a for a in state["armies"] if a["id"] != "regular_metz"]
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Metz", "step": 0}
    )
    state["regions"]["Metz"]["coalition"] = True
    state["tracks"]["coalition"] = coalition


def engine_at(
    state: State,
    tasks: Iterable[Mapping[str, Any]],
    faces: Iterable[int] = (),
    first: Iterable[int] = (),
) -> Engine:
    """An engine whose next decision is the first of ``tasks``; automatic tasks before
    it run at once with the dice ``first``, later ones with ``faces``."""
    state["tasks"] = list(reversed(list(tasks)))
    STACK.run(state, context(first))  # skip what nobody is asked, as the game does after each act
    return Engine.from_state(
        LaRevolutionFrancaise(),
        state,
        players=state["players"],
        options=state["options"],
        rng_factory=rng_factory,
        dice_factory=lambda rng: LoadedDice(faces),
    )


def context(faces: Iterable[int] = ()) -> Context:
    return Context(Pcg32(1), LoadedDice(faces))
