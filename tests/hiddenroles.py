"""Missions: a small hidden-role game, as the outside author of issue 38 wrote one, and
the two mistakes the framework now catches.

Five or six players; two of them are spies, dealt secretly (each seat draws its role
from a bag only it sees), and the spies learn each other. Three missions. For each, the
leader (the seat after the last one) proposes a team in the open, and every seat seals
a vote on it; the votes are shown by seat. A majority of approvals sends the team (the
third proposal of a mission goes without a vote); otherwise the next seat leads. On a
mission each member seals a card: a loyal member only Success, a spy Success or Fail.
The cards are mixed before they are turned over, so the table learns how many Fails
there were, never who played them (``reveal_anonymously``). A mission with a Fail
fails; the spies win if two missions fail, the loyal players otherwise.

Every secret comes from the framework (a private draw, sealed answers), so the game
declares ``secrets_from_framework``. ``Missions`` is written correctly, with a
``determinize`` of its own (its spies drawn again to fit the Fails seen, the cards dealt
again with ``SecretChoices.resample``). Its variants are the author's two mistakes:

- ``StaleMissions`` notes who failed each mission (``failed_by``) for its own use and
  never draws it again in ``determinize``: every resampled world names the same seats,
  so no counterfactual differs. Its invariant "a Fail played by a loyal seat" breaks in
  those worlds, and a replayed world shows the note differs.
- ``TellingMissions`` also shows that note in the mission history of every view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, TypedDict

from tabletop.framework import (
    NOBODY,
    Action,
    Choice,
    Context,
    Decision,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    Sides,
    Stack,
    State,
    Step,
    Tasks,
    Verb,
    clone,
)
from tabletop.framework.actions import Name, Text
from tabletop.framework.decisions import SecretChoices

LOYAL, SPY = "Loyal", "Spy"
SIDES = Sides.dealt(LOYAL, SPY)
SPIES = 2
TEAM_SIZES = (2, 3, 2)
SUCCESS, FAIL = "success", "fail"

PROPOSE = Verb("propose", Text("team"))  # "propose:0-3", the seats in order
VOTE = Verb("vote", Name("vote", ("approve", "reject")))
CARD = Verb("card", Name("card", (SUCCESS, FAIL)))


class Task(TypedDict):
    name: str


#: The task list every rule schedules on (the tables below are built on it: the
#: correct game's and the variant's differ in one rule).
TASKS = Tasks()


def names(players: int) -> tuple[str, ...]:
    return tuple(f"Agent {n}" for n in range(1, players + 1))


def team_words(team: Sequence[int], players: int) -> str:
    return ", ".join(names(players)[seat] for seat in team)


# Proposal --------------------------------------------------------------------------


def propose_prompt(state: State, task: Task) -> Prompt:
    players = len(state["roles"])
    size = TEAM_SIZES[len(state["missions"])]
    choices = tuple(
        Choice(PROPOSE("-".join(map(str, team))), f"Team: {team_words(team, players)}")
        for team in combinations(range(players), size)
    )
    return Prompt(state["leader"], f"Propose a team of {size}", choices, rule="§2", public=True)


def propose_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    team = [int(seat) for seat in PROPOSE.value(action).split("-")]
    state["team"] = team
    ctx.emit("propose", f"proposes {team_words(team, len(state['roles']))}", team=team)
    if state["rejected"] == 2:  # the third proposal goes without a vote
        ctx.emit("vote", "the third proposal goes ahead without a vote", about=NOBODY)
        TASKS.schedule(state, TASKS.task("mission_start"))
        return
    state["vote"] = SecretChoices.new("team vote", range(len(state["roles"])))
    TASKS.schedule(state, TASKS.task("vote"), TASKS.task("vote_result"))


# The team vote: sealed, shown by seat --------------------------------------------------


def vote_prompt(state: State, task: Task) -> Prompt:
    seat = SecretChoices(state["vote"]).seat_to_ask
    team = team_words(state["team"], len(state["roles"]))
    choices = (Choice(VOTE("approve"), "Approve"), Choice(VOTE("reject"), "Reject"))
    return Prompt(seat, f"Vote on the team: {team}", choices, rule="§3")


def vote_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    assert ctx.actor is not None
    if SecretChoices(state["vote"]).choose(ctx.actor, VOTE.value(action), ctx):
        TASKS.finish(state)


def vote_result(state: State, task: Task, ctx: Context) -> None:
    """§3: the votes are shown with their voters; a majority approves."""
    votes = SecretChoices(state["vote"]).reveal_by_seat(ctx, names=names(len(state["roles"])))
    state["votes"] = {str(seat): vote for seat, vote in votes.items()}
    if sum(vote == "approve" for vote in votes.values()) * 2 > len(votes):
        TASKS.schedule(state, TASKS.task("mission_start"))
        return
    state["rejected"] += 1
    state["leader"] = (state["leader"] + 1) % len(state["roles"])
    TASKS.schedule(state, TASKS.task("propose"))


# The mission: sealed cards, shown without their owners ------------------------------------


def mission_start(state: State, task: Task, ctx: Context) -> None:
    state["cards"] = SecretChoices.new("mission", state["team"])
    TASKS.schedule(state, TASKS.task("card"), TASKS.task("mission_result"))


def card_prompt(state: State, task: Task) -> Prompt:
    seat = SecretChoices(state["cards"]).seat_to_ask
    choices = [Choice(CARD(SUCCESS), "Play Success")]
    if state["roles"][seat] == SPY:
        choices.append(Choice(CARD(FAIL), "Play Fail"))
    return Prompt(seat, "Play a mission card", tuple(choices), rule="§4")


def card_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    assert ctx.actor is not None
    if SecretChoices(state["cards"]).choose(ctx.actor, CARD.value(action), ctx):
        TASKS.finish(state)


def mission_result(state: State, task: Task, ctx: Context, *, noting: bool = False) -> None:
    """§4: the cards are mixed and turned over: the table learns how many Fails, never
    whose. Any Fail fails the mission. ``noting`` is the variant's mistake: it also
    notes who played the Fails (``failed_by``)."""
    cards = SecretChoices(state["cards"])
    shown = cards.reveal_anonymously(ctx, label=str.capitalize)
    fails = shown.count(FAIL)
    mission: dict[str, Any] = {"team": list(state["team"]), "fails": fails, "cards": cards.data}
    if noting:
        mission["failed_by"] = sorted(s for s, card in cards.answers().items() if card == FAIL)
    state["missions"].append(mission)
    state["cards"] = None
    state["team"] = []
    state["rejected"] = 0
    state["leader"] = (state["leader"] + 1) % len(state["roles"])
    failed = sum(m["fails"] > 0 for m in state["missions"])
    done = len(state["missions"])
    if failed >= 2 or done - failed >= 2:
        state["winner"] = SPY if failed >= 2 else LOYAL
        seats = names(len(state["roles"]))
        roles = ", ".join(f"{n} {role}" for n, role in zip(seats, state["roles"], strict=True))
        ctx.reveal(f"the {state['winner']} side wins; the roles were: {roles}", about=NOBODY)
        return
    TASKS.schedule(state, TASKS.task("propose"))


def next_mission(state: State, ctx: Context) -> bool:
    if state["winner"] is not None:
        return False
    TASKS.schedule(state, TASKS.task("propose"))
    return True


def table(*, noting: bool = False) -> Stack:
    """The game's rules; ``noting`` is the variant's: it notes who failed."""

    def result(state: State, task: Task, ctx: Context) -> None:
        mission_result(state, task, ctx, noting=noting)

    return Stack(
        [
            Decision[Task]("propose", propose_prompt, propose_apply),
            Decision[Task]("vote", vote_prompt, vote_apply),
            Step[Task]("vote_result", vote_result),
            Step[Task]("mission_start", mission_start),
            Decision[Task]("card", card_prompt, card_apply),
            Step[Task]("mission_result", result),
        ],
        tasks=TASKS,
        between=next_mission,
    )


class Missions(GameDefinition):
    info = GameInfo(
        id="missions",
        title="Missions",
        min_players=5,
        max_players=6,
        description="Secret spies, open proposals, sealed votes, anonymous mission cards.",
        version="1.0.0",
        hidden_information=True,
    )
    secrets_from_framework = True
    rules = table()

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return names(players)

    def sides(self, players: int, options: Mapping[str, str]) -> Sides:
        return SIDES

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        bag = [SPY] * SPIES + [LOYAL] * (players - SPIES)
        roles = [
            ctx.draw(bag, seats=[seat], reason="role", about=seat)[0] for seat in range(players)
        ]
        # the spies know each other: a reveal to them alone (the rules make it so)
        spies = [seat for seat, role in enumerate(roles) if role == SPY]
        ctx.reveal(
            f"the spies are {team_words(spies, players)}", seats=spies, about=NOBODY, spies=spies
        )
        state: State = {
            "stack": [],
            "roles": roles,
            "bag": bag,
            "leader": 0,
            "team": [],
            "vote": None,
            "votes": {},
            "rejected": 0,
            "cards": None,
            "missions": [],
            "winner": None,
        }
        self.rules.run(state, ctx)
        return state

    def prompt(self, state: State) -> Prompt | None:
        return self.rules.prompt(state)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        self.rules.apply(state, action, ctx)

    def history(self, mission: dict[str, Any]) -> dict[str, Any]:
        """A mission as every seat may see it: the team and how many Fails."""
        return {"team": list(mission["team"]), "fails": mission["fails"]}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["winner"] is not None
        roles = state["roles"]
        view: dict[str, Any] = {
            "status": "over" if over else f"mission {len(state['missions']) + 1}",
            "leader": state["leader"],
            "team": list(state["team"]),
            "votes": dict(state["votes"]),
            "missions": [self.history(mission) for mission in state["missions"]],
            "vote": SecretChoices(state["vote"]).view_for(seat) if state["vote"] else None,
            "mission_cards": None,  # not "cards": a key of the view schema
        }
        if state["cards"] is not None:
            view["mission_cards"] = SecretChoices(state["cards"]).view_for(seat)
        if over:
            view["roles"] = list(roles)
        elif seat is not None:
            view["role"] = roles[seat]
            if roles[seat] == SPY:
                view["spies"] = [s for s, role in enumerate(roles) if role == SPY]
        return view

    def result(self, state: State) -> Result | None:
        winner = state["winner"]
        if winner is None:
            return None
        roles = tuple(state["roles"])
        members = tuple(seat for seat, role in enumerate(roles) if role == winner)
        return Result(members, summary=f"the {winner} side won", side=winner, seat_sides=roles)

    def invariants(self, state: State) -> Sequence[str]:
        problems = []
        if sorted(state["roles"]).count(SPY) != SPIES:
            problems.append(f"{sorted(state['roles']).count(SPY)} spies")
        for number, mission in enumerate(state["missions"], 1):
            chosen = SecretChoices(mission["cards"])
            for seat, card in chosen.answers().items():
                if card == FAIL and state["roles"][seat] != SPY:
                    problems.append(f"mission {number}: a Fail played by a loyal seat")
            for seat in mission.get("failed_by", ()):
                if state["roles"][seat] != SPY:
                    problems.append(f"mission {number}: a Fail played by a loyal seat")
        return problems

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """What ``seat`` cannot know, drawn again: the other seats' roles (a spy knows
        the spies), the owners of every mission's cards (each Fail to a spy of its
        team), and the sealed answers not yet shown. Tries spy pairs until the Fails
        seen fit; the real pair always fits."""
        if state["winner"] is not None:
            return state
        rng = ctx.rng
        players = len(state["roles"])
        if state["roles"][seat] == LOYAL:
            others = [s for s in range(players) if s != seat]
            for _ in range(64):
                spies = set(rng.sample(others, SPIES))
                world = clone(state)
                world["roles"] = [SPY if s in spies else LOYAL for s in range(players)]
                if self._deal_cards(world, seat, rng):
                    state = world
                    break
        else:
            self._deal_cards(state, seat, rng)
        world = state
        if world["vote"] is not None:
            SecretChoices(world["vote"]).resample(seat, lambda s: self._may(world, "vote", s), rng)
        if world["cards"] is not None:
            SecretChoices(world["cards"]).resample(
                seat, lambda s: self._may(world, "cards", s), rng
            )
        return world

    def _may(self, state: State, key: str, seat: int) -> list[str]:
        if key == "vote":
            return ["approve", "reject"]
        return [SUCCESS, FAIL] if state["roles"][seat] == SPY else [SUCCESS]

    def _deal_cards(self, state: State, seat: int, rng: Any) -> bool:
        """Every finished mission's cards dealt again to its team, Fails to its spies
        only; False when the roles cannot have played the Fails seen."""
        for mission in state["missions"]:
            cards = SecretChoices(mission["cards"])
            if not cards.resample(seat, lambda s: self._may(state, "cards", s), rng):
                return False
        return True


class StaleMissions(Missions):
    """The author's mistake: who failed each mission is noted for later and never
    drawn again (``determinize`` is the correct game's: it knows nothing of the note)."""

    info = dataclasses.replace(Missions.info, id="stale-missions", title="Stale missions")
    rules = table(noting=True)


class TellingMissions(StaleMissions):
    """... and the mission history in every view names them (the finding's leak)."""

    info = dataclasses.replace(Missions.info, id="telling-missions", title="Telling missions")

    def history(self, mission: dict[str, Any]) -> dict[str, Any]:
        return {**super().history(mission), "failed_by": list(mission.get("failed_by", []))}


class ReplayedMissions(Missions):
    """The correct game with no ``determinize`` of its own: the framework's replayed
    worlds stand in for it (search bots, the checks, ``testing.sample``)."""

    info = dataclasses.replace(Missions.info, id="replayed-missions", title="Replayed missions")
    determinize = GameDefinition.determinize


class TellingReplayedMissions(ReplayedMissions):
    """No ``determinize``, and the history's note in every view: the replayed worlds
    find the leak by themselves."""

    info = dataclasses.replace(Missions.info, id="telling-replayed", title="Telling replayed")
    rules = table(noting=True)

    def history(self, mission: dict[str, Any]) -> dict[str, Any]:
        return {**super().history(mission), "failed_by": list(mission.get("failed_by", []))}
