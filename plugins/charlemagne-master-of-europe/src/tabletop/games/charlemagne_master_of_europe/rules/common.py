"""What every rules module shares: the typed tasks, the ways the game ends, the die,
and the turn's report.

``state["tasks"]`` is the framework's decision stack (``tabletop.framework.stack``)
under this game's own names: the list is ``"tasks"`` and a task's rule is its
``"kind"``, as saves and digests have always had them. ``TASKS`` holds those names and
the one way the rules change the list (``TASKS.schedule``, ``TASKS.finish``). The
table of rules is ``rules/table.py``, built on ``TASKS``; a rules module only builds
tasks and schedules them, so that none needs the table and none imports another in a
circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

from tabletop.framework import Choice, Context, Prompt, State
from tabletop.framework.stack import Tasks

from ..data import DIE_SIDES, SPECIAL_FACE

#: The state's field holding the task stack and a task's field naming its rule, with the
#: calls that change the list (issue 38: one stack dialect).
TASKS = Tasks(key="tasks", field="kind")


class Task(TypedDict):
    """A task with no arguments: ``kind`` names its decision or step."""

    kind: str


class SlotTask(Task):
    """A battle decision about one of your spaces (``["line" | "flank", wing, pos]``)."""

    slot: list[Any]


class DeployTask(SlotTask):
    wing: str


class WingTask(Task):
    """A battle's promotion in one wing."""

    wing: str


class ReserveTask(Task):
    """A required Reserve response: ``count`` is the unengaged enemy's space."""

    wing: str
    count: int


class VikingsTask(Task):
    """The Vikings' diplomacy: the Regions whose Marquis has driven one off this turn."""

    used: NotRequired[list[str]]


class CupTask(Task):
    """One Cup Adjustment of ``count`` chits from ``source`` to ``target``."""

    source: str
    target: str
    count: int


def new_task(kind: str, **arguments: Any) -> dict[str, Any]:
    """A task for rule ``kind`` (the table refuses a kind it does not know when the
    task reaches the top)."""
    return TASKS.task(kind, **arguments)


def cup_task(source: str, target: str, count: int) -> CupTask:
    """A Cup Adjustment to come (rules §5.9): ``count`` chits, blind, from one cup to
    the next."""
    return {"kind": "cup_adjustment", "source": source, "target": target, "count": count}


def reactions(count: int) -> list[dict[str, Any]]:
    """``count`` Hostile Reactions to come (rules §6), one chit drawn each."""
    return [new_task("hostile_reaction") for _ in range(count)]


T = TypeVar("T", bound=Task)

#: Every decision is public: the player alone decides, and no answer depends on what
#: the cups hide, so the log a spectator reads (``tabletop export``) names each choice
#: ("Charlemagne chose: Marquis to The Breton March") rather than "Charlemagne decided.".
PUBLIC = True


@dataclass(frozen=True)
class Ask(Generic[T]):
    """A decision's prompt: the rulebook section it cites, its question and its legal
    answers. Kept apart (not one function) so that tests read each decision's section
    and choices without building a whole position. ``text`` is the question itself when
    it never changes, else a function that words it for the position."""

    rule: str
    text: str | Callable[[State, T], str]
    choices: Callable[[State, T], list[Choice]]

    def __call__(self, state: State, task: T) -> Prompt:
        choices = tuple(self.choices(state, task))
        text = self.text if isinstance(self.text, str) else self.text(state, task)
        return Prompt(0, text, choices, rule=self.rule, public=PUBLIC)


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


def note(state: State, line: str) -> None:
    """A line for the summary at the end of the turn (what scored, what changed)."""
    state["report"].append(line)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
