"""Pig: a reference game for Tabletop authors, beside the race that
docs/writing-a-game.md builds.

On your turn you roll as often as you dare: each roll adds to your turn total, but a 1
wipes it and ends the turn. Hold to bank the turn total. First to the target wins.

It shows every part of the API: options, the dice port, the rules as one decision on
the framework's stack (a turn that stays on top while the seat rolls on), declared
verbs, a prompt with rule references, a per-seat view (the *secret* variant hides the
other banks), events, invariants for fuzzing, and registration through the
``tabletop`` entry point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from tabletop.framework import (
    Action,
    Choice,
    Context,
    Decision,
    GameDefinition,
    GameInfo,
    GameRegistrar,
    OptionSpec,
    Prompt,
    Result,
    Stack,
    State,
    Verb,
    Verbs,
    hookimpl,
    views,
)

RULES = """\
# Pig

## §1 Goal
Be the first to bank the target score (50 or 100 points).

## §2 Your turn
Roll the die as often as you like. Each roll adds its face to your *turn total*.

### §2.1 A one
Roll a 1 and the turn total is lost and your turn ends.

### §2.2 Hold
Choose *hold* to add the turn total to your bank and pass the die.

## §3 Two dice (variant)
Roll two dice. A single 1 loses the turn total as above; double 1s also wipe your bank.

## §4 Secret banks (variant)
Everyone rolls behind a screen. The others see that you rolled, held or went bust,
never the numbers; you see only your own bank and turn total. All banks are shown when
the game ends.
"""


#: Pig's two actions (§2).
ROLL = Verb("roll")
HOLD = Verb("hold")
VERBS = Verbs(ROLL, HOLD)


class Turn(TypedDict):
    """A seat's turn (§2): it stays on the stack while the seat rolls on."""

    name: str
    seat: int


def turn_prompt(state: State, task: Turn) -> Prompt:
    """§2: roll (again), or hold once something is at risk."""
    total = state["turn_total"]
    choices = [Choice(ROLL(), "Roll" if total == 0 else f"Roll again (at risk: {total})")]
    if total > 0:
        choices.append(Choice(HOLD(), f"Hold and bank {total}"))
    return Prompt(
        seat=task["seat"],
        text=f"Turn total {total}: roll or hold?" if total else "Roll to start your turn",
        choices=tuple(choices),
        rule="§2",
    )


def turn_apply(state: State, task: Turn, action: Action, ctx: Context) -> None:
    """§2-§4: a roll adds to the turn total or goes bust; a hold banks it. The turn's
    task leaves the stack when the turn ends (bust, hold); a roll that adds keeps it
    on top, so the seat is asked again."""
    seat = task["seat"]
    # With secret banks (§4) numbers go only to the seat they belong to: a public
    # roll or "banks 12" would let the others keep count of the hidden banks.
    mine = [seat] if state["secret"] else None
    if HOLD.matches(action):
        PIG.finish(state)
        banked = state["turn_total"]
        state["banks"][seat] += banked
        state["turn_total"] = 0
        if state["secret"]:
            ctx.emit("hold", "holds")
            ctx.emit("hold", f"you bank {banked}", seats=mine, banked=banked)
        else:
            ctx.emit("hold", f"banks {banked}", banked=banked)
        if state["banks"][seat] >= state["target"]:
            state["winner"] = seat
            ctx.reveal(f"reaches {state['target']} and wins", banks=state["banks"])
            return
        _pass_die(state)
        return
    faces = ctx.roll(state["dice"], 6, reason="Pig §2", seats=mine)
    if 1 not in faces:
        state["turn_total"] += sum(faces)
        return
    PIG.finish(state)
    lost = state["turn_total"]
    state["turn_total"] = 0
    if faces.count(1) == 2:
        state["banks"][seat] = 0
        why = "snake eyes: bank wiped (§3)"
    else:
        why = f"rolled a 1: loses {lost} (§2.1)"
    if state["secret"]:
        ctx.emit("bust", "goes bust")
        ctx.emit("bust", why, seats=mine)
    else:
        ctx.emit("bust", why)
    _pass_die(state)


def _pass_die(state: State) -> None:
    state["active"] = (state["active"] + 1) % len(state["banks"])
    state["turn"] += 1


def next_turn(state: State, ctx: Context) -> bool:
    """When a turn is over: the next seat's, or False once someone has won (§1)."""
    if state["winner"] is not None:
        return False
    PIG.schedule(state, PIG.task("turn", seat=state["active"]))
    return True


#: Pig's rules: one decision, and the next turn when the stack runs empty.
PIG = Stack([Decision[Turn]("turn", turn_prompt, turn_apply)], between=next_turn)


class Pig(GameDefinition):
    info = GameInfo(
        id="pig",
        title="Pig",
        min_players=2,
        max_players=6,
        description="Push-your-luck dice race: roll again, or hold and bank your points.",
        version="1.1.0",
        options=(
            OptionSpec(
                "target", "Target score", (("50", "50 points"), ("100", "100 points")), "50"
            ),
            OptionSpec("dice", "Dice", (("one", "One die"), ("two", "Two dice (§3)")), "one"),
            OptionSpec(
                "banks",
                "Banks",
                (("open", "Open: everyone sees all banks"), ("secret", "Secret banks (§4)")),
                "open",
                help="Secret banks make this a game of hidden information.",
            ),
        ),
        hidden_information=True,
    )

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        state: State = {
            "stack": [],
            "target": int(options["target"]),
            "dice": 2 if options["dice"] == "two" else 1,
            "secret": options["banks"] == "secret",
            "banks": [0] * players,
            "turn_total": 0,
            "active": 0,
            "turn": 1,
            "winner": None,
        }
        PIG.run(state, ctx)
        return state

    def prompt(self, state: State) -> Prompt | None:
        return PIG.prompt(state)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        PIG.apply(state, action, ctx)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """``status`` and ``seats`` follow the view schema (``tabletop.framework.views``),
        so the generic screen draws a line and a table of banks; ``banks`` keeps the
        numbers for programs (bots, tests). With secret banks (§4) another seat's bank
        and turn total read "?" (None in ``banks``) until the game ends."""
        over = state["winner"] is not None
        banks: list[int | None] = [
            bank if (not state["secret"] or over or index == seat) else None
            for index, bank in enumerate(state["banks"])
        ]
        active = state["active"]
        total = state["turn_total"] if not state["secret"] or over or seat == active else None
        return {
            "status": self._status(state, total),
            "seats": self._seat_rows(state, banks, total),
            "banks": banks,
        }

    def _status(self, state: State, total: int | None) -> str:
        names = self.seat_names(len(state["banks"]), {})
        if state["winner"] is not None:
            return f"{names[state['winner']]} reached {state['target']} and won."
        risk = f", {total} at risk" if total else ""
        first = f"First to {state['target']} wins."
        return f"Turn {state['turn']}: {names[state['active']]} to roll{risk}. {first}"

    def _seat_rows(
        self, state: State, banks: list[int | None], total: int | None
    ) -> list[views.SeatEntry]:
        rows: list[dict[str, Any]] = []
        for index, bank in enumerate(banks):
            row: dict[str, Any] = {"Bank": "?" if bank is None else bank}
            if index == state["active"] and state["winner"] is None:
                row["Turn"] = f"{total} at risk" if total else "to roll"
                if total is None:
                    row["Turn"] = "?"
            rows.append(row)
        return views.seats(self.seat_names(len(banks), {}), rows)

    def result(self, state: State) -> Result | None:
        winner = state["winner"]
        if winner is None:
            return None
        return Result(
            winners=(winner,),
            scores=tuple(float(bank) for bank in state["banks"]),
            summary=f"Player {winner + 1} reached {state['target']} first.",
        )

    def hides_information(self, options: Mapping[str, str]) -> bool:
        return options.get("banks") == "secret"

    def describe(self, state: State) -> str:
        return f"Turn {state['turn']}"

    def invariants(self, state: State) -> Sequence[str]:
        problems = []
        if any(bank < 0 for bank in state["banks"]):
            problems.append("a bank is negative")
        if state["turn_total"] < 0:
            problems.append("turn total is negative")
        if not 0 <= state["active"] < len(state["banks"]):
            problems.append("active seat out of range")
        leaders = [bank for bank in state["banks"] if bank >= state["target"]]
        if leaders and state["winner"] is None:
            problems.append("someone reached the target but nobody won")
        return problems

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """With secret banks, while play goes on a seat knows neither the other banks
        nor another player's turn total: any values below the target fit its view."""
        if state["secret"] and state["winner"] is None:
            for other in range(len(state["banks"])):
                if other != seat:
                    state["banks"][other] = ctx.rng.randint(0, state["target"] - 1)
            if state["active"] != seat:
                room = state["target"] - 1 - state["banks"][state["active"]]
                state["turn_total"] = ctx.rng.randint(0, max(room, 0))
        return state

    def rules_summary(self) -> str:
        return RULES


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(Pig())
