"""The decision stack: a game's rules as named decisions and steps over a stack of tasks.

A board game's turn is a sequence of questions ("which card?", "where does the army
go?") and of things that simply happen (income, upkeep, the end of a round). Written as
one long ``apply`` with ``if state["phase"] == ...`` branches, it becomes hard to follow
and harder to extend; written as a stack, each rule is small and has a name:

- the state holds a list of **tasks** (plain dicts: the state stays data that saves,
  loads and hashes as it is); the last one is on top; a task's ``name`` field (or the
  field the game chooses) says which rule it is, its other fields are that rule's
  arguments (type them with a ``TypedDict``);
- a **Decision** asks a seat: its ``prompt``, the ``apply`` of the answer, and optional
  automatic work done before asking (``automatic``) or instead of asking (``needed``);
- a **Step** is automatic: it is taken off the stack and run;
- a rule *pushes* the tasks that follow it (``Stack.push``), so a card that triggers
  three events pushes three tasks and returns.

``Stack.run`` carries out steps until a decision is due; ``Stack.prompt`` reads the
decision on top; ``Stack.apply`` hands it the answer and runs on. Registration is one
explicit table, ``Stack([...])``, so a reader finds every rule of the game in one place
and the stack refuses a task whose name it does not know. See docs/writing-a-game.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tabletop.framework.context import Context
from tabletop.framework.game import Action, Prompt, State

Task = MutableMapping[str, Any]
"""A task on the stack, read generically (a game types each kind with a TypedDict)."""

T = TypeVar("T", bound=Mapping[str, Any])

#: Steps run in one ``run`` before the stack decides that a rule loops for ever.
MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class Decision(Generic[T]):
    """A question to one seat, under its full name.

    ``prompt(state, task)`` asks it (the prompt names the seat); ``apply(state, task,
    action, ctx)`` carries out the answer, which the engine has already checked to be one
    of the prompt's choices, and finishes the task (``Stack.pop``) when the decision is
    over: a decision that stays on top is asked again (a sequence of placements, say).
    Optional:

    - ``automatic(state, task, ctx) -> bool`` runs before the seat is asked; True means
      it changed the stack (it took an automatic step, or finished the task) and the
      stack must look again;
    - ``needed(state, task) -> bool``: False drops the task without asking (nothing to
      choose from, a seat that is out), or calls ``skipped`` when that is given;
    - ``explain(state, task, prompt)`` adds what a person reads and a bot does not need
      (details, consequences), so that bots stay fast.
    """

    name: str
    prompt: Callable[[State, T], Prompt]
    apply: Callable[[State, T, Action, Context], None]
    automatic: Callable[[State, T, Context], bool] | None = None
    needed: Callable[[State, T], bool] | None = None
    skipped: Callable[[State, T, Context], None] | None = None
    explain: Callable[[State, T, Prompt], Prompt] | None = None


@dataclass(frozen=True)
class Step(Generic[T]):
    """An automatic step under its full name: taken off the stack, then ``run(state,
    task, ctx)``, which may push the tasks that follow it."""

    name: str
    run: Callable[[State, T, Context], None]


Rule = Decision[Any] | Step[Any]


class StackError(RuntimeError):
    """The game's rules misused the stack (an unknown task, a step that loops): a bug in
    the game, reported with the task's name so the author finds the rule."""


class Stack:
    """A game's rules: the table of its decisions and steps, and the loop that runs them.

    ``key`` is the state's field that holds the task list and ``field`` the task's field
    that names its rule (defaults ``"stack"`` and ``"name"``; a game moving onto the
    stack keeps its own names so its states, and the digests of its saves, stay the same).

    ``between(state, ctx)`` is called when the stack is empty: it pushes the next part of
    the game's fixed sequence (the next round) and returns True, or returns False when
    the game is over. ``over(state)`` says the game has ended even with tasks left (a
    sudden defeat); ``clear_when_over`` then empties the list. ``stand_in(state, task,
    ctx)`` lets the game answer a decision itself (a solitaire opponent's procedure):
    True when it did.
    """

    def __init__(
        self,
        rules: Iterable[Rule],
        *,
        key: str = "stack",
        field: str = "name",
        between: Callable[[State, Context], bool] | None = None,
        over: Callable[[State], bool] | None = None,
        clear_when_over: bool = False,
        stand_in: Callable[[State, Task, Context], bool] | None = None,
    ) -> None:
        self.rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.name in self.rules:
                raise ValueError(f"two rules are named {rule.name!r}")
            self.rules[rule.name] = rule
        self.key = key
        self.field = field
        self._between = between
        self._over = over
        self._clear = clear_when_over
        self._stand_in = stand_in

    # The tasks ---------------------------------------------------------------------

    def task(self, name: str, **fields: Any) -> dict[str, Any]:
        """A new task for rule ``name`` (checked to exist) with its ``fields``."""
        if name not in self.rules:
            raise StackError(f"no rule is named {name!r}")
        return {self.field: name, **fields}

    def push(self, state: State, *tasks: Mapping[str, Any]) -> None:
        """Put ``tasks`` on top so that the first given is done first."""
        stack = state[self.key]
        for task in reversed(tasks):
            if task[self.field] not in self.rules:
                raise StackError(f"no rule is named {task[self.field]!r}")
            stack.append(task)

    def top(self, state: State) -> Task | None:
        """The task on top, None when the stack is empty."""
        stack = state[self.key]
        return stack[-1] if stack else None

    def pop(self, state: State) -> Task:
        """Finish the task on top (a decision calls it when it is decided)."""
        popped: Task = state[self.key].pop()
        return popped

    def names(self, state: State) -> list[str]:
        """The rule names on the stack, bottom first (for views and invariants)."""
        return [task[self.field] for task in state[self.key]]

    # Running -----------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return self._over is not None and self._over(state)

    def run(self, state: State, ctx: Context) -> None:
        """Carry out everything that needs no decision, up to the next question (or the
        end of the game)."""
        stack = state[self.key]
        rules = self.rules
        field = self.field
        for _ in range(MAX_STEPS):
            if self._over is not None and self._over(state):
                if self._clear:
                    stack.clear()
                return
            if not stack:
                if self._between is None or not self._between(state, ctx):
                    return
                continue
            task = stack[-1]
            rule = rules.get(task[field])
            if rule is None:
                raise StackError(f"no rule is named {task[field]!r}")
            if isinstance(rule, Step):
                stack.pop()
                rule.run(state, task, ctx)
                continue
            if rule.automatic is not None and rule.automatic(state, task, ctx):
                continue
            if rule.needed is not None and not rule.needed(state, task):
                if rule.skipped is not None:
                    rule.skipped(state, task, ctx)
                else:
                    stack.pop()
                continue
            if self._stand_in is not None and self._stand_in(state, task, ctx):
                continue
            return
        top = stack[-1][field] if stack else "(empty stack)"
        raise StackError(f"the rules ran {MAX_STEPS} steps without a decision; top: {top!r}")

    def _decision(self, state: State) -> tuple[Decision[Any], Task] | None:
        if self._over is not None and self._over(state):
            return None
        stack = state[self.key]
        if not stack:
            return None
        task = stack[-1]
        rule = self.rules.get(task[self.field])
        if not isinstance(rule, Decision):
            raise StackError(f"{task[self.field]!r} on top of the stack is not a decision")
        return rule, task

    def prompt(self, state: State) -> Prompt | None:
        """The question the decision on top asks (None when the game is over)."""
        found = self._decision(state)
        if found is None:
            return None
        rule, task = found
        return rule.prompt(state, task)

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        """``prompt`` with the words a person reads (the decision's ``explain``)."""
        found = self._decision(state)
        if found is None or found[0].explain is None:
            return prompt
        rule, task = found
        assert rule.explain is not None
        return rule.explain(state, task, prompt)

    def apply(self, state: State, action: Action, ctx: Context) -> None:
        """Hand the answer to the decision on top, then run on to the next question."""
        found = self._decision(state)
        if found is None:
            raise StackError("no decision is waiting for an answer")
        rule, task = found
        rule.apply(state, task, action, ctx)
        self.run(state, ctx)
