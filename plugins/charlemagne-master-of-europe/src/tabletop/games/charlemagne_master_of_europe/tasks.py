"""The task stack: how a turn is a sequence of decisions and automatic steps.

``state["tasks"]`` is a stack of plain dicts (the last entry is on top). A task is
either a *decision* (the player is prompted; its handler runs on the answer) or an
automatic *step* (run at once). Each rules module registers its decisions and steps
here with their full names; ``advance`` runs steps until a decision, or the end of the
game, is on top. A decision whose ``needed`` says no is dropped without a prompt.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypedDict

from tabletop.framework import Action, Choice, Context, Prompt, State

from .data import DIE_SIDES, SPECIAL_FACE


class Task(TypedDict, total=False):
    """One entry of the task stack: ``kind`` names the decision or step; the other
    keys are that task's arguments (a box, a wing, a count...)."""

    kind: str
    box: str
    region: str
    wing: str
    slot: list[Any]
    count: int
    source: str
    target: str
    used: list[str]
    piece: str


class Decision(ABC):
    """A decision the player makes: its prompt and the handler of its answer."""

    kind: ClassVar[str]
    rule: ClassVar[str]

    def needed(self, state: State, task: Task) -> bool:
        return True

    @abstractmethod
    def choices(self, state: State, task: Task) -> list[Choice]:
        """The legal answers now."""

    @abstractmethod
    def text(self, state: State, task: Task) -> str:
        """The question, in words."""

    def prompt(self, state: State, task: Task) -> Prompt:
        return Prompt(0, self.text(state, task), tuple(self.choices(state, task)), rule=self.rule)

    def explain(self, state: State, task: Task, prompt: Prompt) -> Prompt:
        """``prompt`` with what a person reads; a decision that leaves its texts out of
        ``choices`` (for the bots' speed) fills them in here."""
        return prompt

    @abstractmethod
    def apply(self, state: State, task: Task, action: Action, ctx: Context) -> None:
        """Carry out the chosen answer."""


Step = Callable[[State, Task, Context], None]

DECISIONS: dict[str, Decision] = {}
STEPS: dict[str, Step] = {}


def decision(cls: type[Decision]) -> type[Decision]:
    DECISIONS[cls.kind] = cls()
    return cls


def step(kind: str) -> Callable[[Step], Step]:
    def register(function: Step) -> Step:
        STEPS[kind] = function
        return function

    return register


def new_task(kind: str, **arguments: Any) -> Task:
    made: Task = {"kind": kind}
    made.update(arguments)  # type: ignore[typeddict-item]
    return made


def schedule(state: State, *tasks: Task) -> None:
    """Put tasks on top of the stack so that the first given runs first."""
    for item in reversed(tasks):
        state["tasks"].append(item)


def advance(state: State, ctx: Context) -> None:
    """Run automatic steps until a needed decision is on top or the game is over."""
    while state["outcome"] is None:
        if not state["tasks"]:
            raise RuntimeError("the task stack ran dry before the game ended")
        top: Task = state["tasks"][-1]
        kind = top["kind"]
        if kind in STEPS:
            state["tasks"].pop()
            STEPS[kind](state, top, ctx)
        elif DECISIONS[kind].needed(state, top):
            return
        else:
            state["tasks"].pop()
    state["tasks"] = []


#: Every way the game ends, as the short fixed category ``Result.outcome`` carries
#: (simulations count games by it); the reason in words says the particulars.
VICTORY = "victory: Master of Europe"
VICTORY_EASY = "victory: Master of Europe (Easy Mode)"
DEFEAT_THRESHOLD = "defeat: VP threshold missed"
DEFEAT_ROUTED = "defeat: army routed"
DEFEAT_STALLED = "defeat: battle stalled"
DEFEAT_MOORS = "defeat: Moors beyond Poitiers"
DEFEAT_INTRIGUE = "defeat: court intrigue"
DEFEAT_FINAL_VP = "defeat: final VP short of 145"
DEFEAT_FINAL_CONDITIONS = "defeat: final conditions unmet"
OUTCOMES = (
    VICTORY,
    VICTORY_EASY,
    DEFEAT_THRESHOLD,
    DEFEAT_ROUTED,
    DEFEAT_STALLED,
    DEFEAT_MOORS,
    DEFEAT_INTRIGUE,
    DEFEAT_FINAL_VP,
    DEFEAT_FINAL_CONDITIONS,
)


def lose(state: State, ctx: Context, reason: str, category: str) -> None:
    """End the game lost: ``reason`` in words, ``category`` one of ``OUTCOMES``."""
    if state["outcome"] is None:
        state["outcome"] = {"won": False, "reason": reason, "category": category}
        ctx.emit("defeat", f"loses the game: {reason}")


def roll(state: State, ctx: Context, reason: str) -> int:
    """One die, public, remembered in ``state['rolls']`` so that the view shows it."""
    (face,) = ctx.roll(1, DIE_SIDES, reason=reason)
    state["rolls"].append({"reason": reason, "face": face})
    return face


def special(face: int) -> bool:
    """The rules' "natural 6" (A1: the d8's top face)."""
    return face == SPECIAL_FACE
