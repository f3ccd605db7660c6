"""Liar's Dice, written correctly and in the three ways a new author made it leak.

Each seat rolls its dice in secret; in turn a seat raises the bid ("at least Q dice on
the table show face F") or challenges the last bid. On a challenge every cup is lifted
(a reveal); whoever was wrong loses a die, everyone rolls again, and the last seat with
dice wins. The leaky variants are the cases the framework's leak checks must catch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toygames import renamed

from tabletop.framework import (
    Action,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    State,
)

DICE = 2
FACES = 6
BIDS_OFFERED = 4


class LiarsDice(GameDefinition):
    info = GameInfo(
        id="liars-dice",
        title="Liar's Dice",
        min_players=2,
        max_players=3,
        hidden_information=True,
    )

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        state: State = {
            "dice": [[] for _ in range(players)],
            "counts": [DICE] * players,
            "bid": None,
            "bidder": None,
            "turn": 0,
            "round": 1,
            "winner": None,
        }
        self.roll_all(state, ctx)
        return state

    # The one place the variants differ: how the cups are rolled -----------------------

    def roll_all(self, state: State, ctx: Context) -> None:
        for seat, count in enumerate(state["counts"]):
            faces = ctx.roll(count, FACES, reason="cup", about=seat, seats=[seat])
            state["dice"][seat][:] = list(faces)  # in place: the same list object

    def announce_bid(self, state: State, quantity: int, face: int, ctx: Context) -> None:
        ctx.emit("bid", f"bids {quantity} x {face}", quantity=quantity, face=face)

    # Rules --------------------------------------------------------------------------

    def prompt(self, state: State) -> Prompt | None:
        if state["winner"] is not None:
            return None
        total = sum(state["counts"])
        quantity, face = state["bid"] or (0, FACES)
        bids: list[Choice] = []
        while len(bids) < BIDS_OFFERED:
            face += 1
            if face > FACES:
                quantity, face = quantity + 1, 1
            if quantity > total:
                break
            bids.append(Choice(f"bid:{quantity}:{face}", f"Bid {quantity} x {face}"))
        if state["bid"] is not None:
            # Public (issue 26): the table sees the challenge, and no event of the game says
            # it; a bid stays a secret choice, since its own "bids" event tells it already.
            bids.append(
                Choice(
                    "challenge",
                    "Challenge the last bid",
                    consequence="a die is lost",
                    public=True,
                )
            )
        return Prompt(state["turn"], "Raise the bid or challenge", tuple(bids), rule="§2")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "challenge":
            self.challenge(state, seat, ctx)
            return
        _, quantity, face = action.split(":")
        state["bid"] = [int(quantity), int(face)]
        state["bidder"] = seat
        self.announce_bid(state, int(quantity), int(face), ctx)
        state["turn"] = self.next_seat(state, seat)

    def challenge(self, state: State, seat: int, ctx: Context) -> None:
        quantity, face = state["bid"]
        shown = sum(die == face for cup in state["dice"] for die in cup)
        ctx.reveal(f"all cups lifted: {shown} x {face}", dice=state["dice"])
        loser = seat if shown >= quantity else state["bidder"]
        state["counts"][loser] -= 1
        ctx.emit("lose", "loses a die", about=loser)
        alive = [s for s, count in enumerate(state["counts"]) if count > 0]
        if len(alive) == 1:
            state["winner"] = alive[0]
            return
        state["bid"] = state["bidder"] = None
        state["round"] += 1
        state["turn"] = loser if state["counts"][loser] else self.next_seat(state, loser)
        self.roll_all(state, ctx)

    def next_seat(self, state: State, seat: int) -> int:
        players = len(state["counts"])
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if state["counts"][candidate] > 0:
                return candidate
        return seat

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["winner"] is not None
        return {
            "status": f"Round {state['round']}",
            "you": {"dice": list(state["dice"][seat])} if seat is not None else {},
            "counts": list(state["counts"]),
            "bid": state["bid"],
            "bidder": state["bidder"],
            "turn": state["turn"],
            "cups": [list(cup) for cup in state["dice"]] if over else None,
        }

    def result(self, state: State) -> Result | None:
        if state["winner"] is None:
            return None
        return Result((state["winner"],), summary="the last seat with dice")

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """Every other cup is unknown to ``seat``: roll it again."""
        if state["winner"] is not None:
            return state
        for other, count in enumerate(state["counts"]):
            if other != seat:
                state["dice"][other] = [ctx.rng.randint(1, FACES) for _ in range(count)]
        return state


def bid_position(opponent_cup: list[int]) -> State:
    """Seat 1 must answer seat 0's bid of three sixes holding one six itself: the
    right answer depends on the opponent's hidden cup, so the bot tests use it to show
    that a search does not peek."""
    return {
        "dice": [list(opponent_cup), [6, 1]],
        "counts": [2, 2],
        "bid": [3, 6],
        "bidder": 0,
        "turn": 1,
        "round": 1,
        "winner": None,
    }


class PublicRollLiars(LiarsDice):
    """Leak: the cups are rolled with a public roll (``seats=`` forgotten on the roll)."""

    info = renamed(LiarsDice.info, "liars-public-roll", "Leaky")

    def roll_all(self, state: State, ctx: Context) -> None:
        for seat, count in enumerate(state["counts"]):
            state["dice"][seat][:] = list(ctx.roll(count, FACES, reason="cup", about=seat))


class DroppedSeatsLiars(LiarsDice):
    """Leak: the dice are drawn in private but the event telling each seat its dice has
    lost its ``seats=[seat]``."""

    info = renamed(LiarsDice.info, "liars-dropped-seats", "Leaky")

    def roll_all(self, state: State, ctx: Context) -> None:
        for seat, count in enumerate(state["counts"]):
            faces = [ctx.rng.randint(1, FACES) for _ in range(count)]
            state["dice"][seat][:] = faces
            ctx.emit("cup", f"your dice: {faces}", about=seat, faces=faces)


class LiveStateLiars(LiarsDice):
    """Leak: each bid's event carries the live table (every cup) in its data."""

    info = renamed(LiarsDice.info, "liars-live-state", "Leaky")

    def announce_bid(self, state: State, quantity: int, face: int, ctx: Context) -> None:
        ctx.emit("bid", f"bids {quantity} x {face}", quantity=quantity, face=face, table=state)
