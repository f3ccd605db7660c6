"""The search bot's hints (#14): short playouts judged by chapter 14, and a default
answer for the decisions where a Current's own interest is plain."""

from __future__ import annotations

from lrf_helpers import engine_at, fame_vote_task, fresh, hinted_attempt, jail, objectives_at, seat

from tabletop.framework import Context, State
from tabletop.framework.chance import Pcg32, dice_factory, rng_factory
from tabletop.framework.decisions import OrderedVote
from tabletop.framework.engine import Engine
from tabletop.framework.search import BotHints
from tabletop.games.la_revolution_francaise import (
    LaRevolutionFrancaise,
    RevolutionHints,
    tabletop_register_bot_hints,
)
from tabletop.games.la_revolution_francaise.bot_plan import best_plot, plottable
from tabletop.games.la_revolution_francaise.data import PERSONS

GAME = LaRevolutionFrancaise()


def test_the_plugin_registers_its_hints() -> None:
    registered: dict[str, BotHints] = {}

    def register(game_id: str, hints: BotHints) -> None:
        registered[game_id] = hints

    tabletop_register_bot_hints(register)
    assert isinstance(registered["la-revolution-francaise"], RevolutionHints)


def test_evaluate_favours_the_current_that_would_win_now() -> None:
    """At set-up the Reaction has every vote and the Feuillant out-scores the Marais
    under the Legislative (14.3.1); give the Marais forty deputies and it leads (in the
    last turn, after the last election, which would otherwise undo them: R.1.6)."""
    state = fresh()
    state["turn"] = 8
    state["last_election"] = 8
    hints = RevolutionHints()
    judged = hints.evaluate(GAME, state)
    assert judged is not None and abs(sum(judged) - 1.0) < 1e-9
    assert list(judged).index(max(judged)) == seat(state, "F")
    state["assembly"]["M"]["count"] = 40
    judged = hints.evaluate(GAME, state)
    assert judged is not None
    assert list(judged).index(max(judged)) == seat(state, "M")


def test_evaluate_leaves_a_share_to_the_automated_marais() -> None:
    """With 5 seats the automated Marais can win: the seats' chances sum below one."""
    judged = RevolutionHints().evaluate(GAME, fresh(5))
    assert judged is not None and len(judged) == 5 and sum(judged) < 0.99


def test_evaluate_a_finished_game_by_its_ranking() -> None:
    state = fresh()
    state["result"] = {"seat_rank": [2, 1, 3, 4, 5, 6], "winner": "M"}
    assert RevolutionHints().evaluate(GAME, state) == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]


def test_a_playout_is_cut_and_judged_mid_game() -> None:
    """Playouts stop after ``rollout_depth`` actions; the evaluation must then judge
    an unfinished game (the bot would otherwise play on to the end, about a thousand
    actions)."""
    hints = RevolutionHints()
    assert hints.rollout_depth is not None
    engine = Engine(
        GAME, seed=3, players=6, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )
    state, rng = engine.state, Pcg32(7)
    for _ in range(hints.rollout_depth):
        prompt = GAME.prompt(state)
        assert prompt is not None
        action = hints.rollout(GAME, state, prompt, rng)
        assert action in prompt.actions()
        GAME.apply(state, prompt.seat, action, Context(rng, dice_factory(rng), actor=prompt.seat))
    assert GAME.result(state) is None
    judged = hints.evaluate(GAME, state)
    assert judged is not None and all(0.0 <= v <= 1.0 for v in judged)


def test_defaults_pass_in_negotiations_and_back_your_own_law() -> None:
    hints = RevolutionHints()
    state = fresh()
    g = seat(state, "G")
    engine = engine_at(state, [{"kind": "negotiate", "seats": [g], "index": 0}])
    prompt = engine.prompt
    assert prompt is not None
    assert hints.candidates(GAME, engine.state, prompt)[0] == "pass"
    state = fresh()
    m, f = seat(state, "M"), seat(state, "F")
    engine = engine_at(state, [fame_vote_task("civic", "M", {m: 2, f: 2})])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == m
    assert hints.candidates(GAME, engine.state, prompt)[0] == "mod:2"  # its own law
    engine.act(m, "mod:2")
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == f
    assert hints.candidates(GAME, engine.state, prompt)[0] == "mod:0"  # not its business


def test_defaults_keep_the_best_roll() -> None:
    state = fresh()
    rolls = [{"dice": [2, 3], "letter": "C"}, {"dice": [5, 6], "letter": "A"}]
    state["tasks"] = [
        {"kind": "pick_result", "actor": "G", "segment": "plot", "rolls": rolls, "target": "Lyon"}
    ]
    prompt = GAME.prompt(state)
    assert prompt is not None
    hints = RevolutionHints()
    assert hints.candidates(GAME, state, prompt)[0] == "keep:1"
    assert hints.rollout(GAME, state, prompt, Pcg32(1)) == "keep:1"


def test_defaults_take_gifts_and_judge_by_allegiance() -> None:
    """A seat accepts money offered, finds its own Personality innocent and another's
    guilty."""
    hints = RevolutionHints()
    state = fresh()
    f, g = seat(state, "F"), seat(state, "G")
    gift = {"kind": "offer_answer", "giver": "F", "taker": "G", "amount": 100}
    engine = engine_at(state, [gift])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g
    assert hints.candidates(GAME, engine.state, prompt)[0] == "accept"
    state = fresh()
    jail(state, "Barnave")
    vote = OrderedVote.new("fate", [f, g])
    engine = engine_at(state, [{"kind": "justice_vote", "person": "Barnave", "vote": vote}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == f  # Barnave is the Feuillant's
    assert hints.candidates(GAME, engine.state, prompt)[0] == "vote:innocent"
    engine.act(f, "vote:innocent")
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g
    assert hints.candidates(GAME, engine.state, prompt)[0] == "vote:guilty"


# The turn's plan (issue 27): one objective a Current can reach, and the moves toward it.


def _plot_position(state: State, current: str = "F") -> tuple[str, str]:
    """A Personality of ``current`` off the map and a region he is influential in that
    ``current`` could take by a plot; every other Personality of ``current`` off the map."""
    for person, data in state["persons"].items():
        if data["current"] == current and person != "Louis XVI":
            data["where"] = None
    for person, data in state["persons"].items():
        if data["current"] != current or data["status"] != "free" or person == "Louis XVI":
            continue
        for region in PERSONS[person]["influential"]:
            if plottable(state, current, region):
                return person, region
    raise AssertionError(f"no plot for {current}")


def test_a_current_declares_the_plot_it_can_reach() -> None:
    """Asked for its objective, a Current that can likely take a region by plot
    declares that plot (6.4, 7.4.1): the kind first, then the best region."""
    state = fresh(4)
    state["gov"]["controller"] = "R"  # no Government objective to declare first
    f = seat(state, "F")
    engine = objectives_at(state, "F")
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == f
    plan = best_plot(engine.state, "F")
    assert plan is not None
    hints = RevolutionHints()
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["kind:plot"]
    engine.act(f, "kind:plot")
    prompt = engine.prompt
    assert prompt is not None
    assert list(hints.candidates(GAME, engine.state, prompt)) == [f"objective:plot:{plan[0]}"]


def test_personalities_go_to_the_planned_plot_and_plot_there() -> None:
    """With a declared plot, an influential Personality is placed in its region (6.5),
    the Current plots there first and pays for every roll it can (7.1)."""
    state = fresh(4)
    person, region = _plot_position(state)
    for other, data in state["persons"].items():  # the others placed: he is next
        if data["current"] == "F" and other != person:
            data["where"] = "Paris"
    state["declared"] = {"F": f"plot:{region}"}
    f = seat(state, "F")
    engine = engine_at(state, [{"kind": "placement", "order": ["F"], "index": 0}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == f
    assert engine.state["persons"][person]["where"] is None
    hints = RevolutionHints()
    assert list(hints.candidates(GAME, engine.state, prompt)) == [f"place:{region}"]
    state = fresh(4)
    person, region = _plot_position(state)
    state["persons"][person]["where"] = region
    state["declared"] = {"F": f"plot:{region}"}
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "F"}])
    prompt = engine.prompt
    assert prompt is not None and f"try:{region}" in prompt.actions()
    hinted_attempt(engine, region, rolls=None)


def test_evaluate_counts_a_declared_objective() -> None:
    """10.3: a declared objective is worth a fame point if met and costs one if not,
    so a met objective raises its Current's chances before the Interphase."""
    state = fresh(4)
    _, region = _plot_position(state)
    state["declared"] = {"F": f"plot:{region}"}
    hints = RevolutionHints()
    missed = hints.evaluate(GAME, state)
    state["achieved"].append(f"plot:{region}:F")
    met = hints.evaluate(GAME, state)
    assert missed is not None and met is not None
    assert met[seat(state, "F")] > missed[seat(state, "F")]


def test_the_bots_never_go_back_to_an_earlier_menu() -> None:
    """6.4's "choose another kind" changes nothing, so a search free to play it went
    round the menu for ever (seed 2030, issue 27): neither the searched choices nor a
    playout's move is ever that way back, though a human player keeps it."""
    state = fresh(4)
    state["gov"]["controller"] = "R"
    engine = objectives_at(state, "F", "revolt")  # a kind the plan does not choose
    prompt = engine.prompt
    assert prompt is not None and "kind:back" in prompt.actions()
    hints = RevolutionHints()
    searched = list(hints.candidates(GAME, engine.state, prompt))
    assert searched and "kind:back" not in searched
    assert set(searched) == set(prompt.actions()) - {"kind:back"}
    rng = rng_factory(7)
    played = {hints.rollout(GAME, engine.state, prompt, rng) for _ in range(300)}
    assert "kind:back" not in played and len(played) > 1
