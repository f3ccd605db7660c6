"""Council: Tabletop's example of decisions that several seats make.

Three rounds. In each, every councillor seals an agenda (a secret choice revealed all
at once), the council votes on a proposal drawn from a bag (in a fixed seat order,
each vote public), and the round's two consuls must agree on the treasury (sealed
answers; a die-off when they differ). Most influence after three rounds wins.

The module is organised by decision, as a rules module should be: each phase's prompt,
its handler and the automatic steps that follow sit together under one name, and one
table (``COUNCIL``, the framework's stack) lists them all. A decision several seats make
stays on top of the stack, asking the next seat, until every seat has answered; the
steps that follow (a reveal, a draw, a tally) then run by themselves. The bookkeeping of
the multi-seat decisions comes from ``tabletop.framework.decisions``, the actions are
declared verbs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from tabletop.framework import (
    NOBODY,
    Action,
    Choice,
    Context,
    Decision,
    GameDefinition,
    GameInfo,
    GameRegistrar,
    Prompt,
    Result,
    Stack,
    State,
    Step,
    Verb,
    Verbs,
    hookimpl,
    views,
)
from tabletop.framework.actions import Name
from tabletop.framework.decisions import Agreement, OrderedVote, SecretChoices

ROUNDS = 3
AGENDAS = ("grain", "walls", "temple")
AGENDA_TEXT = {
    "grain": "Grain: feed the city",
    "walls": "Walls: defend the city",
    "temple": "Temple: honour the gods",
}
TREASURY = ("feast", "fleet")
#: §2.4: what a consul's sealed use means, whichever it is.
CONSUL_DETAIL = dict.fromkeys(
    TREASURY,
    "If both consuls seal the same use, each gains 1; if not, a die-off decides and the "
    "winner gains 2.",
)
#: §2.2: the proposal bag holds each agenda twice; three are drawn in a game.
BAG = [agenda for agenda in AGENDAS for _ in range(2)]
VOTES = ("yes", "no")

#: The game's actions: seal an agenda (§2.1), vote (§2.3), seal a use of the treasury
#: (§2.4); each argument is a name from its table.
AGENDA = Verb("agenda", Name("agenda", AGENDAS))
VOTE = Verb("vote", Name("vote", VOTES))
CONSUL = Verb("consul", Name("use", TREASURY))
VERBS = Verbs(AGENDA, VOTE, CONSUL)


class Task(TypedDict):
    """A task on the stack: every rule of Council reads the state, not the task."""

    name: str


RULES = """\
# Council

## §1 Goal
Have the most influence after three rounds; a tie is a shared win.

## §2 A round

### §2.1 Agendas
Each councillor seals one agenda (grain, walls or temple). When all have sealed, the
agendas are shown together. An agenda nobody else chose is worth 2 influence; a shared
one is worth 1.

### §2.2 Proposal
One proposal is drawn at random from a bag holding each agenda twice, and shown to all.

### §2.3 Vote
Starting with the round's first councillor and going round the table, each votes yes or
no in the open. More yes than no passes the proposal: each councillor whose agenda
matches it gains 3. Otherwise it fails and each councillor who voted no gains 1.

### §2.4 Consuls
The round's first two councillors each seal a use for the treasury (feast or fleet). If
they agree, each gains 1. If not, they roll a die each (again on a tie): the higher
roller's use stands and that consul gains 2.

### §2.5 Rounds
The first councillor moves one seat to the left each round.
"""


def seat_names(players: int) -> tuple[str, ...]:
    return tuple(f"Councillor {n}" for n in range(1, players + 1))


def round_order(state: State) -> list[int]:
    """The seats from this round's first councillor round the table (§2.3, §2.5)."""
    players = len(state["influence"])
    return [(state["first"] + step) % players for step in range(players)]


# §2.1 Agendas: a secret choice revealed together ------------------------------------


def sealing(
    verb: Verb[str], label: str, values: Sequence[str], detail: Mapping[str, str]
) -> tuple[Choice, ...]:
    """The choices of a sealed answer: ``verb(value)`` for each value, with its words."""
    return tuple(Choice(verb(value), label.format(value), detail=detail[value]) for value in values)


#: What sealing each agenda means (§2.1, §2.3).
AGENDA_DETAIL = {
    agenda: f"{text}. Worth 2 influence if nobody else seals it, 1 if shared; 3 more if "
    "the round's proposal matches and passes."
    for agenda, text in AGENDA_TEXT.items()
}


def agendas_prompt(state: State, task: Task) -> Prompt:
    seat = SecretChoices(state["agendas"]).seat_to_ask
    choices = sealing(AGENDA, "Seal {}", AGENDAS, AGENDA_DETAIL)
    return Prompt(seat, "Seal your agenda for this round", choices, rule="§2.1")


def agendas_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    """Each seat seals in turn; the decision is over when every seat has sealed."""
    assert ctx.actor is not None
    if SecretChoices(state["agendas"]).choose(ctx.actor, AGENDA.value(action), ctx):
        COUNCIL.finish(state)


def agendas_reveal(state: State, task: Task, ctx: Context) -> None:
    """§2.1: the agendas are shown together, each with its councillor (the rules make
    who sealed what public: it decides who scores alone)."""
    chosen = SecretChoices(state["agendas"]).reveal_by_seat(
        ctx, names=seat_names(len(state["influence"]))
    )
    state["revealed"] = {str(s): a for s, a in chosen.items()}
    for s, agenda_of in chosen.items():
        alone = sum(a == agenda_of for a in chosen.values()) == 1
        gain = 2 if alone else 1
        state["influence"][s] += gain
        ctx.emit("score", f"gains {gain} for {agenda_of} (§2.1)", about=s, gain=gain)


# §2.2 Proposal: a public draw from a bag ------------------------------------------


def proposal_draw(state: State, task: Task, ctx: Context) -> None:
    (state["proposal"],) = ctx.draw(state["bag"], reason="proposal, §2.2")
    state["vote"] = OrderedVote.new("proposal", round_order(state))
    state["phase"] = "vote"


# §2.3 Vote: public, in seat order ---------------------------------------------------


def vote_prompt(state: State, task: Task) -> Prompt:
    seat = OrderedVote(state["vote"]).seat_to_ask
    proposal = state["proposal"]
    backers = [int(s) for s, a in state["revealed"].items() if a == proposal]
    detail = (
        f"The proposal is {proposal}. It passes with more yes than no votes; then every "
        f"councillor who sealed {proposal} gains 3 ({len(backers)} did)."
    )
    choices = (
        Choice(VOTE("yes"), "Vote yes", detail=detail),
        Choice(VOTE("no"), "Vote no", detail=detail + " If it fails, each no vote gains 1."),
    )
    return Prompt(seat, f"Vote on the proposal: {proposal}", choices, rule="§2.3")


def vote_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    """Each seat votes in the open, in order; the vote is over when all have voted."""
    assert ctx.actor is not None
    if OrderedVote(state["vote"]).vote(ctx.actor, VOTE.value(action), ctx):
        COUNCIL.finish(state)


def vote_tally(state: State, task: Task, ctx: Context) -> None:
    """§2.3: more yes than no passes (3 to each backer), else each no vote gains 1."""
    votes = OrderedVote(state["vote"]).answers()
    yes = sum(v == "yes" for v in votes.values())
    no = len(votes) - yes
    if yes > no:
        ctx.emit(
            "proposal", f"The {state['proposal']} proposal passes, {yes} to {no}", about=NOBODY
        )
        gainers = [int(s) for s, a in state["revealed"].items() if a == state["proposal"]]
        gain = 3
    else:
        ctx.emit("proposal", f"The {state['proposal']} proposal fails, {yes} to {no}", about=NOBODY)
        gainers = [s for s, v in votes.items() if v == "no"]
        gain = 1
    for s in gainers:
        state["influence"][s] += gain
        ctx.emit("score", f"gains {gain} (§2.3)", about=s, gain=gain)
    order = round_order(state)
    state["consuls"] = Agreement.new("treasury", order[:2])
    state["phase"] = "consuls"


# §2.4 Consuls: two seats who must agree ---------------------------------------------


def consuls_prompt(state: State, task: Task) -> Prompt:
    seat = Agreement(state["consuls"]).seat_to_ask
    choices = sealing(CONSUL, "Treasury to the {}", TREASURY, CONSUL_DETAIL)
    return Prompt(seat, "As consul, seal the use of the treasury", choices, rule="§2.4")


def consuls_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    assert ctx.actor is not None
    if Agreement(state["consuls"]).choose(ctx.actor, CONSUL.value(action), ctx):
        COUNCIL.finish(state)


def treasury(state: State, task: Task, ctx: Context) -> None:
    """§2.4: agreement gains each consul 1; a die-off gains its winner 2."""
    consuls = Agreement(state["consuls"])
    _, winner = consuls.settle(ctx, names=seat_names(len(state["influence"])))
    gains = {s: 1 for s in consuls.seats} if winner is None else {winner: 2}
    for s, gain in gains.items():
        state["influence"][s] += gain
        ctx.emit("score", f"gains {gain} (§2.4)", about=s, gain=gain)


# §2.5 Round end and §1 the end of the game -------------------------------------------


def round_start(state: State) -> None:
    state["agendas"] = SecretChoices.new("agenda", round_order(state))
    state["revealed"] = {}
    state["proposal"] = None
    state["vote"] = None
    state["consuls"] = None
    state["phase"] = "agendas"


def round_recap(state: State) -> list[str]:
    """The pause at a round's end: the agendas, the vote, and where influence stands
    (all public by now: the agendas were revealed, the vote was open)."""
    names = seat_names(len(state["influence"]))
    agendas = ", ".join(f"{names[int(s)]} {a}" for s, a in sorted(state["revealed"].items()))
    votes = OrderedVote(state["vote"]).answers()
    yes = sum(v == "yes" for v in votes.values())
    fate = "passed" if yes > len(votes) - yes else "failed"
    standing = ", ".join(
        f"{name} {points}" for name, points in zip(names, state["influence"], strict=True)
    )
    lines = [
        f"Agendas: {agendas} (§2.1)",
        f"The {state['proposal']} proposal {fate}, {yes} to {len(votes) - yes} (§2.3)",
        f"Influence now: {standing}",
    ]
    if state["round"] == ROUNDS:
        lines.append("The council rises: the most influence wins, a tie is shared (§1)")
    else:
        first = names[(state["first"] + 1) % len(names)]
        lines.append(f"Next: round {state['round'] + 1}, {first} first (§2.5)")
    return lines


def round_end(state: State, task: Task, ctx: Context) -> None:
    ctx.summary(f"End of round {state['round']} of {ROUNDS}", round_recap(state))
    if state["round"] == ROUNDS:
        state["phase"] = "over"
        ctx.emit("end", "The council rises (§1)", about=NOBODY)
        return
    state["round"] += 1
    state["first"] = (state["first"] + 1) % len(state["influence"])
    ctx.emit("round", f"Round {state['round']} begins (§2.5)", about=NOBODY)


#: A round's tasks, in order (§2.1-§2.5).
ROUND = (
    "agendas",
    "agendas_revealed",
    "proposal",
    "vote",
    "vote_tally",
    "consuls",
    "treasury",
    "round_end",
)


def next_round(state: State, ctx: Context) -> bool:
    """When the stack runs empty: the next round's tasks, or False once the council
    has risen (§1)."""
    if state["phase"] == "over":
        return False
    round_start(state)
    COUNCIL.schedule(state, *(COUNCIL.task(name) for name in ROUND))
    return True


#: Every rule of Council, in the order a round runs them.
COUNCIL = Stack(
    [
        Decision[Task]("agendas", agendas_prompt, agendas_apply),
        Step[Task]("agendas_revealed", agendas_reveal),
        Step[Task]("proposal", proposal_draw),
        Decision[Task]("vote", vote_prompt, vote_apply),
        Step[Task]("vote_tally", vote_tally),
        Decision[Task]("consuls", consuls_prompt, consuls_apply),
        Step[Task]("treasury", treasury),
        Step[Task]("round_end", round_end),
    ],
    between=next_round,
)


class Council(GameDefinition):
    info = GameInfo(
        id="council",
        title="Council",
        min_players=2,
        max_players=5,
        description="Seal an agenda, vote in the open, and agree as consuls or roll for it.",
        version="1.1.0",
        hidden_information=True,
    )
    #: Council's only secrets are sealed answers (the proposal is drawn in public): the
    #: framework's replayed worlds check the views and hold ``determinize`` to them.
    secrets_from_framework = True

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return seat_names(players)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        state: State = {
            "stack": [],
            "round": 1,
            "first": 0,
            "influence": [0] * players,
            "bag": list(BAG),
            "phase": "agendas",
        }
        COUNCIL.run(state, ctx)  # the first round's tasks, up to the first agenda
        return state

    def prompt(self, state: State) -> Prompt | None:
        return COUNCIL.prompt(state)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        COUNCIL.apply(state, action, ctx)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        names = seat_names(len(state["influence"]))
        over = state["phase"] == "over"
        phase = {
            "agendas": "sealing agendas",
            "vote": f"voting on {state['proposal']}",
            "consuls": "the consuls decide",
            "over": "the council has risen",
        }[state["phase"]]
        vote = OrderedVote(state["vote"]).answers() if state["vote"] else {}
        rows = [
            {
                "influence": state["influence"][s],
                "agenda": state["revealed"].get(str(s), "sealed"),
                "vote": vote.get(s, ""),
            }
            for s in range(len(names))
        ]
        view: dict[str, Any] = {
            "status": f"Round {state['round']} of {ROUNDS}: {phase}",
            "seats": views.seats(names, rows),
            "zones": [
                views.zone("Proposal bag", counts={a: state["bag"].count(a) for a in AGENDAS})
            ],
            "proposal": state["proposal"],
            "first": state["first"],
            "agendas": SecretChoices(state["agendas"]).view_for(seat),
            "consuls": Agreement(state["consuls"]).view_for(seat) if state["consuls"] else None,
        }
        if seat is not None and not over:
            you = view["agendas"]["yours"]
            view["you"] = {"agenda": state["revealed"].get(str(seat), you) or "not sealed yet"}
            if view["consuls"] is not None and view["consuls"]["yours"] is not None:
                view["you"]["treasury"] = view["consuls"]["yours"]
        return view

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        best = max(state["influence"])
        winners = tuple(s for s, v in enumerate(state["influence"]) if v == best)
        names = seat_names(len(state["influence"]))
        return Result(
            winners,
            tuple(float(v) for v in state["influence"]),
            " and ".join(names[s] for s in winners) + f" with {best} influence",
        )

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """Sealed answers of the other seats are unknown to ``seat``: any answer they
        could have given fits what it sees. The bag's contents are public."""
        if state["phase"] == "agendas":
            SecretChoices(state["agendas"]).resample(seat, lambda s: AGENDAS, ctx.rng)
        elif state["phase"] == "consuls":
            Agreement(state["consuls"]).resample(seat, lambda s: TREASURY, ctx.rng)
        return state

    def invariants(self, state: State) -> Sequence[str]:
        problems = []
        if any(v < 0 for v in state["influence"]):
            problems.append("negative influence")
        if len(state["bag"]) != len(BAG) - state["round"] + (state["proposal"] is None):
            problems.append("the bag lost or gained a proposal")
        return problems

    def describe(self, state: State) -> str:
        return f"Round {state['round']}"

    def rules_summary(self) -> str:
        return RULES


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(Council())
