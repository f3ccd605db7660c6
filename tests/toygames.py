"""Tiny games for tests: each exercises one feature of the engine or the screen, no more.

The home of the tests' toy games, the terminal UI's included (tests/tui/tui_support.py
registers those); Liar's Dice and its leaky variants are in liars.py. A broken variant
used by one test file stays in that file; one that a plugin installed by fakesite.py
must import by name lives here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tabletop.framework import (
    PASS_KEY,
    Action,
    Bot,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
    views,
)
from tabletop.games.pig import Pig


def renamed(info: GameInfo, id: str, title: str, **changes: Any) -> GameInfo:
    """``info`` under another id and title: a variant registers beside its original."""
    return replace(info, id=id, title=title, **changes)


class OneDecision(GameDefinition):
    """One decision for seat 0 among ``actions``; whichever is taken, the game ends with
    ``outcome``. For the tests that count wins and scores (a shared win, a team's) or
    watch which of equally good choices a bot takes."""

    def __init__(self, info: GameInfo, actions: Iterable[Action], outcome: Result) -> None:
        self.info = info
        self.actions = tuple(actions)
        self.outcome = outcome

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"done": False}

    def prompt(self, state: State) -> Prompt | None:
        if state["done"]:
            return None
        return Prompt(0, "Pick", tuple(Choice(action, action) for action in self.actions))

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["done"] = True

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: State) -> Result | None:
        return self.outcome if state["done"] else None


class HighCard(GameDefinition):
    """Each seat holds a hidden card; in turn each may keep it, swap it (a random draw)
    or, in the variant, peek at a public counter (a move that touches no randomness)."""

    info = GameInfo(
        id="highcard",
        title="High Card",
        min_players=2,
        max_players=4,
        options=(OptionSpec("deck", "Deck", (("10", "1-10"), ("20", "1-20")), "10"),),
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(f"Seat {n}" for n in range(players))

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        top = int(options["deck"])
        cards = [ctx.rng.randint(1, top) for _ in range(players)]
        for seat, card in enumerate(cards):
            ctx.emit("deal", f"you hold {card}", seats=[seat], card=card)
        return {"top": top, "cards": cards, "turn": 0, "taps": 0, "done": False}

    def prompt(self, state: State) -> Prompt | None:
        if state["done"]:
            return None
        return Prompt(
            state["turn"],
            "Keep, swap or tap?",
            (Choice("keep", "Keep"), Choice("swap", "Swap"), Choice("tap", "Tap the table")),
            rule="§1",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap":
            state["taps"] += 1
            ctx.emit("tap", "taps the table")
            return
        if action == "swap":
            state["cards"][seat] = ctx.rng.randint(1, state["top"])
            ctx.emit("swap", "swaps a card")
        state["turn"] += 1
        if state["turn"] == len(state["cards"]):
            state["done"] = True
            ctx.reveal("cards shown", cards=list(state["cards"]))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = [
            card if state["done"] or index == seat else None
            for index, card in enumerate(state["cards"])
        ]
        return {"held": cards, "turn": state["turn"], "taps": state["taps"]}

    def result(self, state: State) -> Result | None:
        if not state["done"]:
            return None
        best = max(state["cards"])
        winners = tuple(i for i, card in enumerate(state["cards"]) if card == best)
        return Result(winners, tuple(float(c) for c in state["cards"]), f"high card {best}")


class OpenHighCard(HighCard):
    """High Card played face up: an open-information game (undo may cross bot moves)."""

    info = renamed(HighCard.info, "openhighcard", "Open High Card", hidden_information=False)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"held": list(state["cards"]), "turn": state["turn"], "taps": state["taps"]}


class Exploding(HighCard):
    """High Card whose code raises on the second 'tap': a buggy plugin."""

    info = renamed(HighCard.info, "exploding", "Exploding", max_players=2, hidden_information=False)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "tap" and state["taps"] == 1:
            state["taps"] = 99  # half-done change the engine must roll back
            raise ZeroDivisionError("boom")
        super().apply(state, seat, action, ctx)


class Counter(GameDefinition):
    """One seat counts up, one event per count, until ``limit``: no chance, nothing
    hidden, for tests of what runs around a game (the UI, saves, undo's memory)."""

    info = GameInfo(id="counter", title="Counter", min_players=1, max_players=1, version="1")
    limit = 5

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Counter",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"n": 0}

    def choices(self) -> tuple[Choice, ...]:
        return (Choice("tick", "Count one more"),)

    def prompt(self, state: State) -> Prompt | None:
        return None if state["n"] >= self.limit else Prompt(0, "Count on", self.choices())

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["n"] += 1
        ctx.emit("tick", f"counts to {state['n']}")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"n": state["n"]}

    def result(self, state: State) -> Result | None:
        return Result((0,), (float(state["n"]),), "Counted.") if state["n"] >= self.limit else None


class Crashy(Bot):
    """A bot whose thinking raises, quoting a secret.

    The error must be reported (the UI stays up and offers a retry), and the secret must
    stay out of the log.
    """

    name = "crashy"

    def choose(self, *args: Any) -> Action:
        raise ValueError("the bot saw SECRET-CARD-7 and lost its marbles")


# The terminal UI's test games (tests/tui/tui_support.py registers them).


class Secrets(GameDefinition):
    """Two players each hold a secret number; on your turn pick 'pass' or 'reveal'.

    'reveal' ends the game; the higher number wins. Hidden information by design.
    """

    info = GameInfo(
        id="secrets",
        title="Secrets",
        min_players=2,
        max_players=2,
        description="Test game with secret hands.",
        version="0.1",
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("North", "South")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"hands": [["SECRET-NORTH-7"], ["SECRET-SOUTH-3"]], "active": 0, "over": False}

    def prompt(self, state: State) -> Prompt | None:
        if state["over"]:
            return None
        return Prompt(
            state["active"],
            "Pass or reveal?",
            (Choice("pass", "Pass"), Choice("reveal", "Reveal the hands")),
            rule="§1",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "reveal":
            state["over"] = True
            ctx.reveal("reveals")
            return
        ctx.emit("peek", f"looks at {state['hands'][seat][0]}", seats=[seat], seat=seat)
        state["active"] = 1 - seat

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        hands = [h if (seat == i or state["over"]) else None for i, h in enumerate(state["hands"])]
        return {"active": state["active"], "hands": hands}

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        return Result((0,), (7.0, 3.0), "North holds 7, South 3: higher wins.")


class Faulty(GameDefinition):
    """Its 'boom' choice raises: the UI must show the PluginFault and carry on."""

    info = GameInfo(id="faulty", title="Faulty", min_players=1, max_players=1)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Solo",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"n": 0}

    def prompt(self, state: State) -> Prompt | None:
        if state["n"] >= 3:
            return None
        return Prompt(0, "Count", (Choice("inc", "Count one"), Choice("boom", "Explode")))

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "boom":
            raise RuntimeError("kaboom")
        state["n"] += 1

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"count": state["n"]}

    def result(self, state: State) -> Result | None:
        return Result((0,), (float(state["n"]),), "Counted to three.") if state["n"] >= 3 else None


#: A card text longer than a details pane at 80x24, to show that it is kept whole.
LONG_TEXT = " ".join(f"Clause {n}: place a cube in district {n} and read on." for n in range(1, 13))
#: The warning the "Turncoat" choice carries.
WARNING = "breaches your own Final Crisis zone: -1 Political VP"
#: Options of Menu's long prompt besides pass and the turncoat: 14, so 16 in all.
MENU_SIZE = 14


class Menu(GameDefinition):
    """A long menu, stable keys, a warning, headings, long log lines, cards and a
    result that explains itself: everything the generic screen must show, on a small
    open-information game.

    Each round a seat picks from 16 choices (the pass on key 0, at a different place in
    each round's list); two rounds each, then the game ends.
    """

    info = GameInfo(
        id="menu", title="Menu", min_players=2, max_players=2, description="A long menu."
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Commune", "Versailles")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        ctx.heading("Round 1")
        return {"turn": 0, "score": [0, 0], "passes": [0, 0]}

    def prompt(self, state: State) -> Prompt | None:
        if state["turn"] >= 4:
            return None
        seat = state["turn"] % 2
        options = [
            Choice(f"district:{n}", f"Place a cube in district {n}", f"District {n}: worth {n}.")
            for n in range(1, MENU_SIZE + 1)
        ]
        options.insert(2, Choice("turncoat", "Turncoat", LONG_TEXT, WARNING))
        options.insert(state["turn"] + 1, Choice("pass", "No bonus action", key=PASS_KEY))
        rule = "§2.1" if state["turn"] < 2 else "§3"
        return Prompt(seat, f"Round {state['turn'] // 2 + 1}: your move", tuple(options), rule)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action.startswith("district:"):
            worth = int(action.split(":")[1])
            state["score"][seat] += worth
            ctx.emit(
                "place",
                f"places a cube in district {worth} (strength {worth}, drew nothing, "
                f"gains {worth} points: {state['score'][seat]} in all)",
            )
        elif action == "turncoat":
            state["score"][seat] -= 1
            ctx.emit("turncoat", "turns a coat and loses 1 point")
        else:
            state["passes"][seat] += 1
        state["turn"] += 1
        if state["turn"] == 2:
            ctx.heading("Round 2")
        elif state["turn"] == 4:
            ctx.heading("Final scoring")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "status": f"Turn {state['turn'] + 1} of 4",
            "seats": views.seats(
                ["Commune", "Versailles"],
                [
                    {"Points": state["score"][0], "Control": "Montmartre, Belleville"},
                    {"Points": state["score"][1], "Control": "Mont-Valérien, Versailles HQ"},
                ],
            ),
            "cards": [views.card("Turncoat", LONG_TEXT, where="hand")],
        }

    def result(self, state: State) -> Result | None:
        if state["turn"] < 4:
            return None
        score = state["score"]
        winner = 0 if score[0] >= score[1] else 1
        return Result(
            (winner,),
            (float(score[0]), float(score[1])),
            f"{self.seat_names(2, {})[winner]} scored more points ({score[0]} to {score[1]}); "
            "the Commune wins ties.",
            "points victory",
        )

    def rules_summary(self) -> str:
        setup = ["## §1 Setup", *(["Setting up."] * 30)]
        placing = ["## §2 Placing", *(["Placing cubes."] * 30)]
        return "\n\n".join(["# Menu", "Intro.", *setup, *placing, "## §3 Scoring", "Points win."])


EVENT_DETAIL = "Thiers: place 2 cubes in Versailles and gain 1 momentum."
EVENT_CONSEQUENCE = "breaches your Final Crisis zone: -1 Political VP"


class Explained(GameDefinition):
    """Every schema key in its view, and choices that carry detail and consequence."""

    info = GameInfo(id="explained", title="Explained", min_players=2, max_players=2)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Commune", "Versailles")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"plays": 0}

    def prompt(self, state: State) -> Prompt | None:
        if state["plays"] >= 4:
            return None
        return Prompt(
            state["plays"] % 2,
            "Play Thiers",
            (
                Choice("event", "Play Thiers as an event", EVENT_DETAIL, EVENT_CONSEQUENCE),
                Choice("ops", "Play Thiers for 3 operations", "Place or move up to 3 cubes."),
                Choice("pass", "Pass"),
            ),
            rule="§6",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["plays"] += 1
        ctx.emit("play", f"plays {action}")
        if action == "ops":
            ctx.emit("loss", "loses a cube", about=1 - seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "status": f"Round 1, play {state['plays'] + 1}",
            "seats": views.seats(
                ["Commune", "Versailles"], [{"VP": 3, "Hand": 4}, {"VP": "?", "Hand": 5}]
            ),
            "you": {"Objective": "Hold Montmartre"} if seat is not None else {},
            "tracks": [views.track("Final Crisis", 3, 0, 8)],
            "zones": [views.zone("Montmartre", counts={"Commune": 2, "Versailles": 1})],
            "cards": [views.card("Thiers", "Place 2 cubes in Versailles.", where="hand")],
            "deck": 17,
        }

    def result(self, state: State) -> Result | None:
        return Result((0,), (3.0, 1.0), "Commune held.") if state["plays"] >= 4 else None


# Broken Pig variants that an installed plugin registers (see fakesite.install_games).


class SetState(Pig):
    """Keeps a set in its state after the third action: not JSON."""

    info = renamed(Pig.info, "set-pig", "Set Pig", max_players=3, version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        if state["turn"] >= 3:
            state["seen"] = {seat}


class BadDescribe(Pig):
    """A progress line that raises: every save of it fails."""

    info = renamed(Pig.info, "bad-describe", "Bad Describe", max_players=3, version="0.1")

    def describe(self, state: State) -> str:
        raise RuntimeError("describe is broken")


class Cursed(Pig):
    """Breaks its own invariant from turn 4 on: every fuzzed game fails, replayably."""

    info = renamed(Pig.info, "cursed", "Cursed Pig", max_players=3, version="0.1")

    def invariants(self, state: State) -> list[str]:
        return ["turn 4 is cursed"] if state["turn"] >= 4 else []


class Flaky(Pig):
    """Raises in ``apply`` at turn ``fail_at``, in every game that gets there: a game
    fault each batch run must count with the seed that reproduces it."""

    info = renamed(Pig.info, "flaky-pig", "Flaky Pig", version="0.1")
    fail_at = 7

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == self.fail_at and self.fails(state):
            raise KeyError("bug")
        super().apply(state, seat, action, ctx)

    def fails(self, state: State) -> bool:
        return True


class SometimesFlaky(Flaky):
    """Fails only with 8 or more points at risk at turn 7: some games, not all."""

    info = renamed(Pig.info, "sometimes-flaky-pig", "Sometimes Flaky Pig", version="0.1")

    def fails(self, state: State) -> bool:
        return bool(state["turn_total"] >= 8)


#: Each seat's turn: three decisions in a row, with these many choices, the first
#: explained at length, the middle one plain, the last in a few words.
MENUS = (5, 2, 7)
LONG_DETAIL = "Choice {n} " + "does a great many things, every one of them worth reading. " * 3


class Steps(GameDefinition):
    """Two seats, each taking three decisions in a row of different lengths."""

    info = GameInfo(id="steps", title="Steps", min_players=2, max_players=2)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Commune", "Versailles")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"step": 0}

    def prompt(self, state: State) -> Prompt | None:
        step = state["step"]
        if step >= 2 * len(MENUS):
            return None
        size = MENUS[step % len(MENUS)]
        detail = {5: LONG_DETAIL, 2: "", 7: "What choice {n} does."}[size]
        choices = tuple(Choice(f"c{n}", f"Choice {n}", detail.format(n=n)) for n in range(size))
        return Prompt(step // len(MENUS), f"Step {step % len(MENUS) + 1}", choices, "1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["step"] += 1
        for line in range(4):  # a log longer than its window after a few steps
            ctx.emit("step", f"takes step {state['step']}, part {line + 1}")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"status": f"Step {state['step'] + 1}", "cards": [views.card("Thiers", "Cubes.")]}

    def result(self, state: State) -> Result | None:
        if state["step"] < 2 * len(MENUS):
            return None
        return Result((0,), (1.0, 0.0), "The Commune took its steps first.", "steps")


#: Recaps: moves in a game, two moves a round, two rounds a half.
RECAP_MOVES = 8


class Recaps(GameDefinition):
    """Two seats add 1 or 2 to their score in turn. Each round (two moves) ends with a
    recap (``Context.summary``), each half (two rounds) with a second one from the same
    move; with the ``secret`` option the scores are hidden and each round also ends
    with a recap only West may read."""

    info = GameInfo(
        id="recaps",
        title="Recaps",
        min_players=2,
        max_players=2,
        options=(OptionSpec("secret", "Secret", (("no", "Open"), ("yes", "Secret")), "no"),),
        hidden_information=True,  # with the secret option: hides_information says when
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("West", "East")

    def hides_information(self, options: Mapping[str, str]) -> bool:
        return options.get("secret") == "yes"

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"moves": 0, "scores": [0, 0], "secret": options.get("secret") == "yes"}

    def prompt(self, state: State) -> Prompt | None:
        if state["moves"] >= RECAP_MOVES:
            return None
        choices = (Choice("one", "Add 1"), Choice("two", "Add 2"))
        return Prompt(state["moves"] % 2, "Add to your score", choices, "1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        gain = 1 if action == "one" else 2
        state["scores"][seat] += gain
        state["moves"] += 1
        secret = [seat] if state["secret"] else None
        ctx.emit("add", f"adds {gain}", seats=secret)
        moves = state["moves"]
        if moves % 2 == 0:
            west, east = state["scores"]
            lines = ["scores are secret"] if state["secret"] else [f"West {west}", f"East {east}"]
            ctx.summary(f"Round {moves // 2} ends", lines)
            if state["secret"]:
                ctx.summary(f"West's note {moves // 2}", [f"West holds {west}"], seats=[0])
        if moves % 4 == 0:
            ctx.summary(f"Half {moves // 4} ends", [f"{RECAP_MOVES - moves} moves to go"])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        scores = [
            score if not state["secret"] or seat == index else None
            for index, score in enumerate(state["scores"])
        ]
        return {"status": f"Move {state['moves'] + 1}", "scores": scores}

    def result(self, state: State) -> Result | None:
        if state["moves"] < RECAP_MOVES:
            return None
        west, east = state["scores"]
        winners = (0,) if west >= east else (1,)
        return Result(winners, (float(west), float(east)), "The higher score wins.")


#: Choices in each of ManyChoices' prompts: more than the screen has keys for.
MANY = 40


class ManyChoices(GameDefinition):
    """One seat picks one of MANY choices, MANY times (a 5-player hint prompt has
    36): the choices beyond the screen's keys must still be reachable."""

    info = GameInfo(id="many", title="Many Choices", min_players=1, max_players=1)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Chooser",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"picks": []}

    def prompt(self, state: State) -> Prompt | None:
        if len(state["picks"]) >= MANY:
            return None
        choices = tuple(Choice(f"c{n}", f"Choice number {n}") for n in range(MANY))
        return Prompt(0, f"Pick {len(state['picks']) + 1} of {MANY}", choices, "1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["picks"].append(int(action[1:]))
        ctx.emit("pick", f"picks {action}")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"status": f"{len(state['picks'])} picked"}

    def result(self, state: State) -> Result | None:
        if len(state["picks"]) < MANY:
            return None
        return Result((0,), (float(len(state["picks"])),), "Every pick made.")


#: Climb: the top a purposeful player reaches and random play misses (test_fuzz_reach).
TOP = 8
MOVES = 24


class Climb(GameDefinition):
    """Two seats push one counter up or knock it back to 0; the game ends after MOVES
    moves. Reaching TOP needs TOP ups in a row, one choice in four each time, which
    random play almost never does."""

    info = GameInfo(id="climb", title="Climb", min_players=2, max_players=2)
    must_reach = ("top", "halfway")

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Left", "Right")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"level": 0, "moves": 0, "best": 0}

    def prompt(self, state: State) -> Prompt | None:
        if state["moves"] >= MOVES:
            return None
        downs = [Choice(f"down{n}", f"Knock it down ({n})") for n in range(3)]
        choices = (Choice("up", "Up"), *downs)
        text = f"Level {state['level']}: up or down?"
        return Prompt(state["moves"] % 2, text, choices, "§1" if state["level"] else "§2")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["level"] = state["level"] + 1 if action == "up" else 0
        state["best"] = max(state["best"], state["level"])
        state["moves"] += 1

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: State) -> Result | None:
        return Result(winners=()) if state["moves"] >= MOVES else None

    def milestones(self, state: State) -> Iterable[str]:
        if state["best"] >= TOP // 2:
            yield "halfway"
        if state["best"] >= TOP:
            yield "top"


class Climber(Bot):
    """Always up: the purposeful play that reaches the top."""

    name = "climber"
    reads_view = False

    def choose(self, game: object, view: object, prompt: Prompt, rng: object) -> Action:
        return "up"
