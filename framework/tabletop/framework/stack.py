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
- a rule *schedules* the tasks that follow it (``schedule``), so a card that triggers
  three events schedules three tasks and returns; a decision that is decided
  *finishes* its task (``finish``).

``Stack.run`` carries out steps until a decision is due; ``Stack.prompt`` reads the
decision on top; ``Stack.apply`` hands it the answer and runs on. Registration is one
explicit table, ``Stack([...])``, so a reader finds every rule of the game in one place
and the stack refuses a task whose name it does not know. See docs/writing-a-game.md.

One dialect, whatever the game's size: the rules schedule and finish through the
stack (never ``state["stack"].append`` or ``.pop()``), and there is one way to say
that a decision has nothing to ask (``Decision(needed=...)``). A big game whose rules
modules cannot import the table (the table imports them) shares a ``Tasks`` instead,
made in a module both import: ``TASKS = Tasks(key="tasks", field="kind")``, then
``Stack(rules, tasks=TASKS)``; ``TASKS.schedule`` and ``TASKS.finish`` are the same
calls as the table's (the table checks the rule names when the task reaches the top).
"""

from __future__ import annotations

import warnings
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

    ``prompt(state, task)`` asks it (the prompt names the seat, and always has a choice
    to offer); ``apply(state, task, action, ctx)`` carries out the answer, which the
    engine has already checked to be one of the prompt's choices, and finishes the task
    (``Stack.finish``) when the decision is over: a decision that stays on top is asked
    again (a sequence of placements, say). Optional:

    - ``needed(state, task) -> bool`` is the one way to say that there is *nothing to
      ask* (nothing to choose from, a seat that is out): False finishes the task
      without asking, or calls ``skipped`` when that is given (a tally that closes a
      vote). Not a prompt of None, not an ``automatic`` that finishes the task;
    - ``automatic(state, task, ctx) -> bool`` is automatic work before the seat is
      asked (an assessment, a stage that moves on); True means it changed the stack
      and the stack must look again;
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


class Tasks:
    """Where a game keeps its tasks: the state's field that holds the list (``key``)
    and the task's field that names its rule (``field``), with the calls that change
    the list. ``Stack`` is one (with the rules); a game whose rules modules cannot
    import its table makes a ``Tasks`` of its own for them and builds the table on it
    (``Stack(rules, tasks=TASKS)``), so every rule schedules and finishes the same way.
    """

    def __init__(self, key: str = "stack", field: str = "name") -> None:
        self.key = key
        self.field = field

    def task(self, name: str, **fields: Any) -> dict[str, Any]:
        """A new task for rule ``name`` with its ``fields`` (``Stack.task`` also checks
        that the rule exists)."""
        return {self.field: name, **fields}

    def schedule(self, state: State, *tasks: Mapping[str, Any]) -> None:
        """Put ``tasks`` on top so that the first given is done first."""
        stack = state[self.key]
        for task in reversed(tasks):
            self._check(task[self.field])
            stack.append(task)

    def finish(self, state: State) -> Task:
        """Take the task on top off the stack: the decision on top is decided (a
        decision that stays is asked again). Returns the task."""
        stack = state[self.key]
        if not stack:
            raise StackError("finish: the stack is empty (the task was finished already)")
        finished: Task = stack.pop()
        return finished

    def top(self, state: State) -> Task | None:
        """The task on top, None when the stack is empty."""
        stack = state[self.key]
        return stack[-1] if stack else None

    def names(self, state: State) -> list[str]:
        """The rule names on the stack, bottom first (for views and invariants)."""
        return [task[self.field] for task in state[self.key]]

    def _check(self, name: str) -> None:
        """A ``Tasks`` knows no rules: the table checks a name when it reaches the top."""

    # The older names, kept for a deprecation period ---------------------------------

    def push(self, state: State, *tasks: Mapping[str, Any]) -> None:
        """Deprecated: ``schedule``."""
        _renamed("push", "schedule")
        self.schedule(state, *tasks)

    def pop(self, state: State) -> Task:
        """Deprecated: ``finish``."""
        _renamed("pop", "finish")
        return self.finish(state)


def _renamed(old: str, new: str) -> None:
    warnings.warn(
        f"Stack.{old} is Stack.{new} now (one stack dialect for every game, issue 38)",
        DeprecationWarning,
        stacklevel=3,
    )


class Stack(Tasks):
    """A game's rules: the table of its decisions and steps, and the loop that runs them.

    ``key`` is the state's field that holds the task list and ``field`` the task's field
    that names its rule (defaults ``"stack"`` and ``"name"``; a game moving onto the
    stack keeps its own names so its states, and the digests of its saves, stay the
    same); or give ``tasks``, a ``Tasks`` the rules modules already share.

    ``between(state, ctx)`` is called when the stack is empty: it schedules the next
    part of the game's fixed sequence (the next round) and returns True, or returns
    False when the game is over. ``over(state)`` says the game has ended even with
    tasks left (a sudden defeat); ``clear_when_over`` then empties the list.
    ``stand_in(state, task, ctx)`` lets the game answer a decision itself (a solitaire
    opponent's procedure): True when it did.
    """

    def __init__(
        self,
        rules: Iterable[Rule],
        *,
        key: str | None = None,
        field: str | None = None,
        tasks: Tasks | None = None,
        between: Callable[[State, Context], bool] | None = None,
        over: Callable[[State], bool] | None = None,
        clear_when_over: bool = False,
        stand_in: Callable[[State, Task, Context], bool] | None = None,
    ) -> None:
        if tasks is not None and (key is not None or field is not None):
            raise ValueError("give tasks, or key and field, not both")
        if tasks is not None:
            super().__init__(tasks.key, tasks.field)
        else:
            super().__init__(key or "stack", field or "name")
        self.rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.name in self.rules:
                raise ValueError(f"two rules are named {rule.name!r}")
            self.rules[rule.name] = rule
        self._between = between
        self._over = over
        self._clear = clear_when_over
        self._stand_in = stand_in
        #: The decisions by name, and those with nothing to do before their seat is
        #: asked (no automatic work, always needed, no stand-in): on top of the stack,
        #: one of these ends a run at once. Small games run on the stack too, so the
        #: loop's common case costs a set lookup (issue 38's measurements).
        self._decisions = {n: r for n, r in self.rules.items() if isinstance(r, Decision)}
        self._waits = frozenset(
            name
            for name, rule in self._decisions.items()
            if rule.automatic is None and rule.needed is None and stand_in is None
        )

    # The tasks ---------------------------------------------------------------------

    def task(self, name: str, **fields: Any) -> dict[str, Any]:
        """A new task for rule ``name`` (checked to exist) with its ``fields``."""
        self._check(name)
        return {self.field: name, **fields}

    def _check(self, name: str) -> None:
        if name not in self.rules:
            raise StackError(f"no rule is named {name!r}")

    # Running -----------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return self._over is not None and self._over(state)

    def run(self, state: State, ctx: Context) -> None:
        """Carry out everything that needs no decision, up to the next question (or the
        end of the game)."""
        stack = state[self.key]
        rules = self.rules
        field = self.field
        over = self._over
        waits = self._waits
        for _ in range(MAX_STEPS):
            if over is not None and over(state):
                if self._clear:
                    stack.clear()
                return
            if not stack:
                if self._between is None or not self._between(state, ctx):
                    return
                continue
            task = stack[-1]
            if task[field] in waits:
                return
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
        rule = self._decisions.get(task[self.field])
        if rule is None:
            raise StackError(f"{task[self.field]!r} on top of the stack is not a decision")
        return rule, task

    def prompt(self, state: State) -> Prompt | None:
        """The question the decision on top asks (None when the game is over)."""
        # _decision written out: the engine asks for a prompt after every action
        if self._over is not None and self._over(state):
            return None
        stack = state[self.key]
        if not stack:
            return None
        task = stack[-1]
        rule = self._decisions.get(task[self.field])
        if rule is None:
            raise StackError(f"{task[self.field]!r} on top of the stack is not a decision")
        prompt = rule.prompt(state, task)
        if prompt is None:
            raise StackError(
                f"{task[self.field]!r} asked nothing: say that a decision has nothing to ask "
                "with Decision(needed=...), which finishes the task (or calls skipped) "
                "without asking"
            )
        return prompt

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
        stack = state[self.key]
        if not stack or (self._over is not None and self._over(state)):
            raise StackError("no decision is waiting for an answer")
        task = stack[-1]
        rule = self._decisions.get(task[self.field])
        if rule is None:
            raise StackError(f"{task[self.field]!r} on top of the stack is not a decision")
        rule.apply(state, task, action, ctx)
        if stack and stack[-1][self.field] in self._waits and self._over is None:
            return  # the same question, or another one, is waiting: nothing to run
        self.run(state, ctx)
