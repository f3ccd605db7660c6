"""The framework's decision stack and typed actions, on a small game written with them.

Harvest: each round every seat, in turn, picks a field to work (a decision); a drought
step may follow (automatic); after three rounds the most grain wins. The game is small
but uses every part of the stack: decisions, steps, a decision with nothing to ask, the
``between`` hook that pushes the next round, and a verb list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

import pytest

from tabletop.framework import Choice, Context, GameDefinition, GameInfo, Prompt, Result, State
from tabletop.framework.actions import Verb, Verbs, split
from tabletop.framework.stack import Decision, Stack, StackError, Step, Tasks
from tabletop.framework.testing import (
    GameConformance,
    default_factories,
    new_engine,
    play_out,
    replay,
)

WORK = Verb("work", "field")
REST = Verb("rest")
VERBS = Verbs(WORK, REST)
FIELDS = ("north", "south", "river")


class Turn(TypedDict):
    name: str
    seat: int


class Drought(TypedDict):
    name: str
    field: str


def turn_prompt(state: State, task: Turn) -> Prompt:
    seat = task["seat"]
    choices = [Choice(WORK(field), f"Work the {field} field") for field in FIELDS]
    if state["tired"][seat]:
        choices = [Choice(REST(), "Rest")]
    return Prompt(seat, "Which field do you work?", tuple(choices), rule="2.1")


def turn_apply(state: State, task: Turn, action: str, ctx: Context) -> None:
    RULES.finish(state)
    seat = task["seat"]
    if REST.matches(action):
        state["tired"][seat] = False
        ctx.emit("rest", "rests")
        return
    field = WORK.arg(action)
    (face,) = ctx.roll(1, 6, reason="harvest")
    state["grain"][seat] += face
    state["worked"].append(field)
    ctx.emit("work", f"works the {field} field: {face} grain")
    state["tired"][seat] = face == 6
    if face == 1:
        RULES.schedule(state, RULES.task("drought", field=field))


def turn_needed(state: State, task: Turn) -> bool:
    return not state["out"][task["seat"]]


def drought(state: State, task: Drought, ctx: Context) -> None:
    state["dry"].append(task["field"])
    ctx.emit("drought", f"drought on the {task['field']} field")


def next_round(state: State, ctx: Context) -> bool:
    if state["round"] == 3:
        return False
    state["round"] += 1
    ctx.heading(f"Round {state['round']}")
    RULES.schedule(state, *(RULES.task("turn", seat=s) for s in range(len(state["grain"]))))
    return True


RULES = Stack(
    [
        Decision[Turn]("turn", turn_prompt, turn_apply, needed=turn_needed),
        Step[Drought]("drought", drought),
    ],
    between=next_round,
)


class Harvest(GameDefinition):
    info = GameInfo(id="harvest", title="Harvest", min_players=2, max_players=3)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(f"Farmer {n + 1}" for n in range(players))

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        state: State = {
            "stack": [],
            "round": 0,
            "grain": [0] * players,
            "tired": [False] * players,
            "out": [False] * players,
            "worked": [],
            "dry": [],
        }
        RULES.run(state, ctx)
        return state

    def prompt(self, state: State) -> Prompt | None:
        return RULES.prompt(state)

    def apply(self, state: State, seat: int, action: str, ctx: Context) -> None:
        RULES.apply(state, action, ctx)

    def view(self, state: State, seat: int | None) -> dict[str, object]:
        return {"round": state["round"], "grain": list(state["grain"]), "dry": state["dry"]}

    def result(self, state: State) -> Result | None:
        if state["stack"] or state["round"] < 3:
            return None
        best = max(state["grain"])
        winners = tuple(s for s, g in enumerate(state["grain"]) if g == best)
        return Result(winners, tuple(float(g) for g in state["grain"]), "most grain")


def _ctx() -> Context:
    """A context with the reference random source, for running rules by hand."""
    rng_factory, dice_factory = default_factories()
    rng = rng_factory(1)
    return Context(rng, dice_factory(rng), actor=0)


class TestHarvestConformance(GameConformance):
    """The conformance kit passes a game written on the stack."""

    game = Harvest()
    players = (2, 3)
    fuzz_games = 20


def test_a_game_on_the_stack_plays_to_the_end_and_replays() -> None:
    engine = play_out(new_engine(Harvest(), seed=4, players=3))
    result = engine.result
    assert result is not None and engine.state["round"] == 3
    again = replay(Harvest(), engine.record())
    assert again.state == engine.state


def test_a_step_runs_when_it_reaches_the_top_and_the_next_decision_waits() -> None:
    state: State = {
        "stack": [],
        "round": 1,
        "grain": [0, 0],
        "tired": [False, False],
        "out": [False, False],
        "worked": [],
        "dry": [],
    }
    RULES.schedule(state, RULES.task("turn", seat=0), RULES.task("turn", seat=1))
    assert RULES.names(state) == ["turn", "turn"]
    ctx = _ctx()
    RULES.schedule(state, RULES.task("drought", field="river"))
    RULES.run(state, ctx)
    assert state["dry"] == ["river"]
    prompt = RULES.prompt(state)
    assert prompt is not None and prompt.seat == 0


def test_a_decision_that_is_not_needed_is_dropped_without_a_prompt() -> None:
    state: State = {
        "stack": [],
        "round": 3,
        "grain": [0, 0],
        "tired": [False, False],
        "out": [True, False],
        "worked": [],
        "dry": [],
    }
    RULES.schedule(state, RULES.task("turn", seat=0), RULES.task("turn", seat=1))
    RULES.run(state, _ctx())
    prompt = RULES.prompt(state)
    assert prompt is not None and prompt.seat == 1
    assert RULES.names(state) == ["turn"]


def test_the_stack_refuses_an_unknown_rule_and_two_rules_of_one_name() -> None:
    with pytest.raises(StackError, match="no rule is named 'harvest_festival'"):
        RULES.task("harvest_festival")
    with pytest.raises(StackError, match="no rule is named 'feast'"):
        RULES.schedule({"stack": []}, {"name": "feast"})
    with pytest.raises(ValueError, match="two rules are named 'drought'"):
        Stack([Step[Drought]("drought", drought), Step[Drought]("drought", drought)])


def test_a_step_that_loops_for_ever_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tabletop.framework.stack.MAX_STEPS", 50)

    def again(state: State, task: Drought, ctx: Context) -> None:
        state["stack"].append(task)

    looping = Stack([Step[Drought]("drought", again)])
    state: State = {"stack": [{"name": "drought", "field": "x"}]}
    with pytest.raises(StackError, match="top: 'drought'"):
        looping.run(state, _ctx())


def test_rules_that_cannot_import_the_table_share_its_tasks() -> None:
    """Issue 38: the schedule/finish pair two big games each wrote is the framework's.
    A game's vocabulary module makes a ``Tasks``; its rules schedule and finish through
    it; the table, built later on it, runs the same list (and names an unknown rule
    when it reaches the top)."""
    tasks = Tasks(key="tasks", field="kind")
    state: State = {"tasks": []}
    tasks.schedule(state, tasks.task("shout", word="a"), tasks.task("shout", word="b"))
    assert tasks.names(state) == ["shout", "shout"] and tasks.top(state) == {
        "kind": "shout",
        "word": "a",
    }
    heard: list[str] = []
    table = Stack([Step("shout", lambda state, task, ctx: heard.append(task["word"]))], tasks=tasks)
    table.run(state, _ctx())
    assert heard == ["a", "b"] and state["tasks"] == []
    tasks.schedule(state, tasks.task("whisper"))
    with pytest.raises(StackError, match="no rule is named 'whisper'"):
        table.run(state, _ctx())
    with pytest.raises(ValueError, match="tasks, or key and field"):
        Stack([], tasks=tasks, key="stack")


def test_finishing_an_empty_stack_is_named() -> None:
    with pytest.raises(StackError, match="the stack is empty"):
        RULES.finish({"stack": []})


def test_push_and_pop_are_schedule_and_finish_with_a_warning() -> None:
    state: State = {"stack": []}
    with pytest.warns(DeprecationWarning, match="Stack.push is Stack.schedule"):
        RULES.push(state, RULES.task("drought", field="x"))
    with pytest.warns(DeprecationWarning, match="Stack.pop is Stack.finish"):
        assert RULES.pop(state) == {"name": "drought", "field": "x"}


def test_a_decision_that_asks_nothing_is_told_the_one_way_to_say_so() -> None:
    """Nothing to ask is said with ``needed=``, not with a prompt of None."""
    silent = Stack([Decision[Turn]("turn", lambda state, task: None, turn_apply)])  # type: ignore[arg-type, return-value]
    with pytest.raises(StackError, match=r"'turn' asked nothing: .*Decision\(needed=...\)"):
        silent.prompt({"stack": [{"name": "turn", "seat": 0}]})


def test_verbs_build_and_read_actions() -> None:
    assert WORK("north") == "work:north"
    assert REST() == "rest"
    assert WORK.matches("work:north") and not WORK.matches("rest")
    assert WORK.arg("work:river") == "river"
    assert VERBS.verb_of("work:river") is WORK
    assert VERBS.parse("rest") == (REST, ())
    move = Verb("move", "army", "to")
    assert move.args("move:a3:paris") == ("a3", "paris")
    assert Verb("n", "count").number("n:12") == 12
    assert Verb("n", "count")(12) == "n:12"  # any argument, as its str
    key = Verb("key", "path", rest=True)
    assert key("a:b") == "key:a:b" and key.arg("key:a:b") == "a:b"
    assert split("move:a3:paris") == ("move", ("a3", "paris"))


def test_verbs_refuse_what_does_not_fit() -> None:
    with pytest.raises(TypeError, match="work takes 1 argument"):
        WORK()
    with pytest.raises(ValueError, match="holds ':'"):
        WORK("a:b")
    with pytest.raises(ValueError, match="is not a 'work' action"):
        WORK.arg("rest")
    with pytest.raises(ValueError, match="move takes 2"):
        Verb("move", "army", "to").args("move:a3")
    with pytest.raises(ValueError, match="no verb 'sow'"):
        VERBS.verb_of("sow:north")
    with pytest.raises(ValueError, match="two verbs"):
        Verbs(WORK, Verb("work"))
