"""Playable from the screen alone (issue 25): every choice says what it does, passing is
key 0, a law vote tells the law's effect, a kept roll's letter tells its outcome, and
what nobody did is credited to no seat."""

from __future__ import annotations

import random
import re
from functools import cache

from lrf_helpers import context, engine_at, fresh, law_vote_task, place, seat

from tabletop.adapters.tui.presenting import cited_section, rules_sections
from tabletop.framework import NOBODY, PASS_KEY, SUMMARY, Event, Prompt
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.actions.marais import marais_plot
from tabletop.games.la_revolution_francaise.initial.effects import describe_fx
from tabletop.games.la_revolution_francaise.render import render_board
from tabletop.games.la_revolution_francaise.setup import run_turn_start
from tabletop.games.la_revolution_francaise.tasks import PickResult, RollRecord
from tabletop.games.la_revolution_francaise.words import law_effect, objective_words

GAME = LaRevolutionFrancaise()

#: Labels of the choices that do nothing more: they must take key 0.
PASSING = re.compile(
    r"^(Pass$|Done|No more|Propose no law|No action|No coup|Raise no more|"
    r"Stay at|Let it be|Let them move|Back neither|Keep the)"
)


def explained(prompt: Prompt) -> bool:
    return all(c.detail or c.consequence for c in prompt.choices)


@cache
def random_prompts(seeds: range) -> list[Prompt]:
    """The explained prompts of random games, 4, 5 and 6 seats, both scenarios (played
    once for the tests that read them)."""
    seen: list[Prompt] = []
    for seed in seeds:
        players = (4, 5, 6)[seed % 3]
        scenario = ("historical", "open")[seed % 2]
        engine = Engine(
            GAME,
            seed=seed,
            players=players,
            options={"scenario": scenario},
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        pick = random.Random(seed)
        for _ in range(3000):
            prompt = engine.explained_prompt
            if prompt is None:
                break
            seen.append(prompt)
            engine.act(prompt.seat, pick.choice(prompt.choices).action)
    return seen


def test_every_choice_says_what_it_does_in_random_play() -> None:
    prompts = [p for p in random_prompts(range(6)) if len(p.choices) >= 2]
    full = sum(1 for p in prompts if explained(p))
    ratio = full / len(prompts)
    print(f"explained in full: {full} of {len(prompts)} ({ratio:.1%})")
    assert len(prompts) > 500
    assert ratio >= 0.95


def test_passing_takes_key_0_everywhere() -> None:
    wrong = {
        (p.text, c.label)
        for p in random_prompts(range(6))
        for c in p.choices
        if PASSING.match(c.label) and c.key != PASS_KEY
    }
    assert not wrong, sorted(wrong)[:5]


def test_a_law_vote_tells_what_the_law_does() -> None:
    state = fresh()
    voters = [seat(state, c) for c in ("F", "G", "M", "R", "MT", "SC")]
    engine = engine_at(state, [law_vote_task("anti_emigrants", "F", voters)])
    prompt = engine.explained_prompt
    assert prompt is not None
    yes, no = prompt.choices
    assert "Coalition +3, Clergy +3, Commune -3" in yes.detail
    assert "Coalition +3" in no.detail and "against" in no.detail
    assert yes.consequence == ""  # the treasury (2300) pays 50 at Economy level I


def test_a_law_that_would_bankrupt_the_government_warns() -> None:
    state = fresh()
    state["gov"]["money"] = 10
    voters = [seat(state, c) for c in ("F", "G", "M", "R", "MT", "SC")]
    engine = engine_at(state, [law_vote_task("maximum", "F", voters)])
    prompt = engine.explained_prompt
    assert prompt is not None
    assert "bankrupt" in prompt.choices[0].consequence


def test_law_effects_name_costs_and_tracks_in_words() -> None:
    assert law_effect("maximum").startswith("Maximum of Goods and Wages (13.1.1): ")
    assert "Economy -5, Commune +3" in law_effect("maximum")
    assert "Coalition marker goes to 20" in law_effect("war")
    assert "prison" in law_effect("outlaw_hebertistes")


def test_a_kept_roll_tells_what_its_letter_does() -> None:
    state = fresh()
    rolls = [RollRecord(dice=[3, 5], letter="B"), RollRecord(dice=[6, 6], letter="A")]
    pick = PickResult(
        kind="pick_result", actor="R", segment="plot", target="Brest", persons=[], rolls=rolls
    )
    engine = engine_at(state, [pick])
    prompt = engine.explained_prompt
    assert prompt is not None
    b, a = prompt.choices
    assert b.detail == "B: Brest becomes or stays neutral."
    assert a.detail == "A: the Royaliste takes Brest."
    events = engine.act(seat(state, "R"), "keep:0")
    assert any(e.text.startswith("plot Brest: B, Brest becomes or stays neutral") for e in events)


def test_the_automated_marais_is_credited_to_no_seat() -> None:
    """15.2.1.1: a roll of 7 gives the Marais Nevers and Nîmes; the log must not credit them
    to whichever seat acted last."""
    state = fresh(5)
    ctx = context([3, 4])
    ctx.actor = 2
    marais_plot(state, {"kind": "marais_plot"}, ctx)
    control = [e for e in ctx.events if e.kind == "control"]
    assert control and all(e.about == NOBODY for e in control)
    assert all("Marais" in e.text for e in control)


def test_objectives_read_in_words() -> None:
    assert objective_words("plot:Brest") == "Take Brest by a plot"
    assert objective_words("arrest:Hébert") == "Arrest Hébert"
    assert objective_words("law:maximum") == "Pass Maximum of Goods and Wages"
    assert objective_words("raise_commune") == "Raise the Commune"


def first_turn_events(players: int = 4, seed: int = 1) -> tuple[Engine, list[Event]]:
    """A random game played to the start of turn 2, with every event it logged."""
    engine = Engine(
        GAME,
        seed=seed,
        players=players,
        options={},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )
    pick = random.Random(seed)
    events: list[Event] = []
    while engine.state["turn"] == 1:
        prompt = engine.prompt
        assert prompt is not None
        events += engine.act(prompt.seat, pick.choice(prompt.choices).action)
    return engine, events


def test_a_turn_ends_with_summaries_in_words() -> None:
    """The objectives' reveal, the Military Phase and the Interphase each pause on a
    public summary (issue 25): income, fame, objectives in words, the regime."""
    _, events = first_turn_events()
    summaries = {e.text: e.data["lines"] for e in events if e.kind == SUMMARY}
    assert list(summaries) == [
        "Turn 1: the objectives (6.4)",
        "Turn 1: after the Military Phase (9)",
        "Turn 1 ends: the Interphase (10)",
    ]
    assert all(e.seats is None for e in events if e.kind == SUMMARY)
    interphase = summaries["Turn 1 ends: the Interphase (10)"]
    assert any(line.startswith("Income: Royaliste +") for line in interphase)
    assert any(line.startswith("Regime: the Legislative") for line in interphase)
    assert any(re.search(r": (met|missed)", line) for line in interphase)


def test_automatic_lines_credit_no_seat_and_read_as_words() -> None:
    """Control changes, the objectives' reveal and fame for objectives read in words,
    and what no seat did is about nobody."""
    _, events = first_turn_events()
    control = [e for e in events if e.kind == "control"]
    assert control and all(e.about == NOBODY for e in control)
    reveal = next(e for e in events if e.text.startswith("objectives revealed"))
    assert reveal.about == NOBODY
    codes = re.compile(r"\b(plot|arrest|persuade|law|revolt|suppress|regime):\S")
    assert not [e.text for e in events if codes.search(e.text)]


def test_event_effects_read_as_words() -> None:
    assert describe_fx("commune_rises none") == "the Commune rises, leaderless"
    assert describe_fx("commune_rises G") == "the Commune rises under the Gironde"
    assert "none" not in describe_fx("commune_calms")
    assert describe_fx("unless_outlawed hebertiste fame MT -2") == (
        "at the Interphase, unless the Hébertist faction is outlawed: Montagne fame -2"
    )


def test_the_board_tables_every_current_and_the_declared_objectives() -> None:
    """The Currents' table has a heading for every column (# is the turn order), a row
    for the automated Marais, rows that fit 38 columns, and the revealed objectives in
    words; another seat's sealed objective never shows."""
    engine, _ = first_turn_events()
    while engine.state["phase"] != "placement":
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, prompt.choices[0].action)
    board = render_board(engine.view(0))
    lines = board.splitlines()
    head = lines.index(" Current        Fame     $ Reg  Dep  #")
    assert any(line.startswith(" Marais (auto)") for line in lines[head : head + 8])
    assert all(len(line) <= 38 for line in lines[head : head + 8])
    assert "Objectives this turn (6.4):" in board
    declared = engine.state["declared"]
    assert all(objective_words(value) in board for value in declared.values())


def test_the_board_hides_sealed_objectives_until_the_reveal() -> None:
    engine = Engine(
        GAME, seed=3, players=4, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )
    while engine.state["phase"] != "objectives":
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, prompt.choices[0].action)
    prompt = engine.prompt
    assert prompt is not None
    first = prompt.seat
    while engine.prompt is not None and engine.prompt.seat == first:
        engine.act(first, engine.prompt.choices[1].action)
    value = next(
        v for data in engine.state["objectives"].values() for v in data["chosen"] if v is not None
    )
    mine = " ".join(render_board(engine.view(first)).split())
    other = " ".join(render_board(engine.view((first + 1) % 4)).split())
    assert objective_words(value) in mine
    assert objective_words(value) not in other and "sealed" in other


def test_every_cited_rule_opens_its_own_section() -> None:
    """Over random play with 4, 5 and 6 seats and both scenarios, every citation opens
    the summary's section for it: the section's number leads the citation's, and a
    regime rule (R.x) opens a regime section, never the chapter of the same number."""
    sections = rules_sections(GAME.rules_summary())
    cited = {p.rule for p in random_prompts(range(6)) if p.rule}
    assert len(cited) >= 25
    wrong = []
    for rule in sorted(cited):
        index = cited_section(sections, rule)
        if index is None:
            wrong.append(f"{rule}: no section")
            continue
        section = sections[index]
        number = rule.split(" ")[0].split(".")  # a regime rule's R kept, as the section's
        if number[: len(section.number.split("."))] != section.number.split("."):
            wrong.append(f"{rule}: opens {section.title}")
        if rule.startswith("R.") != section.title.startswith("R."):
            wrong.append(f"{rule}: opens {section.title}")
    assert not wrong, wrong


def test_the_rules_summary_names_no_developer_file_and_is_the_documented_one() -> None:
    text = GAME.rules_summary()
    assert not re.findall(r"\b[\w-]+\.(?:md|json|py)\b", text)
    assert "Maximum of Goods and Wages (100; proposer fame -1; Economy -5, Commune +3)" in (
        " ".join(text.split())
    )


def test_a_target_tells_each_letter_to_a_person_and_not_to_the_bots() -> None:
    """The plot's target names what A, B and C would do (7.4.1) in the explained
    prompt; the prompt the searches build leaves those words out (they cost)."""
    state = fresh()
    place(state, Cadoudal="Brest")
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "R"}])
    explained = engine.explained_prompt
    plain = engine.prompt
    assert explained is not None and plain is not None
    brest = next(c for c in explained.choices if c.action == "try:Brest")
    assert "A: the Royaliste takes Brest; B: Brest becomes or stays neutral" in brest.detail
    assert (
        "A: the Royaliste" not in next(c for c in plain.choices if c.action == "try:Brest").detail
    )


def test_the_game_ends_on_a_recap_of_the_winner_and_the_points() -> None:
    engine = Engine(
        GAME, seed=2, players=5, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )
    pick = random.Random(2)
    last: list[Event] = []
    while not engine.over:
        prompt = engine.prompt
        assert prompt is not None
        last = engine.act(prompt.seat, pick.choice(prompt.choices).action)
    [recap] = [e for e in last if e.kind == SUMMARY and e.text.startswith("The game ends")]
    assert recap.text == "The game ends: the Marais wins (14)"
    assert "under the Legislative (14.2.2, 14.3)" in recap.data["lines"][0]
    assert recap.data["lines"][1].startswith("Victory points: Royaliste ")


def test_the_board_rewraps_to_its_width() -> None:
    """Zoomed to the full screen the board's lines use the width (they were cut at 44
    columns whatever the width); narrow, they stay within it."""
    import asyncio

    from textual.app import App, ComposeResult

    from tabletop.games.la_revolution_francaise.widget import RevolutionBoard

    view = Engine(
        GAME, seed=1, players=4, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    ).view(0)

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield RevolutionBoard(view)

    async def widths() -> tuple[int, int]:
        app = Host()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            wide = max(
                len(line) for line in str(app.query_one(RevolutionBoard).render()).split("\n")
            )
            await pilot.resize_terminal(50, 40)
            await pilot.pause()
            narrow = max(
                len(line) for line in str(app.query_one(RevolutionBoard).render()).split("\n")
            )
            return wide, narrow

    wide, narrow = asyncio.run(widths())
    assert wide > 60 and narrow <= 48


def test_an_arrest_or_persuasion_is_told_once_by_its_result_line() -> None:
    """7.3: the result line says what the kept letter did ("persuade Pétion: A, Pétion
    joins the Montagne"); the outcome is not logged a second time in other words."""
    results = 0
    for seed in range(1, 5):
        engine = Engine(
            GAME,
            seed=seed,
            players=4,
            options={},
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        pick = random.Random(seed)
        while not engine.over:
            prompt = engine.prompt
            assert prompt is not None
            events = engine.act(prompt.seat, pick.choice(prompt.choices).action)
            for index, event in enumerate(events):
                found = re.match(r"(arrest|persuade) \S.*?: [ABC], (.*) \(7\.3", event.text)
                if event.kind != "result" or found is None:
                    continue
                results += 1
                effect = found.group(2)
                later = [e.text for e in events[index + 1 :]]
                assert not any(text.startswith(effect) for text in later), (event.text, later)
    assert results >= 5


def test_a_personality_returning_to_play_is_nobodys_deed() -> None:
    """The turn's start brings back the fled (7.3.1 B) and ends a lapsed outlawry
    (12.2.1) by itself: the lines name no seat, whoever answered the last question."""
    state = fresh(players=4)
    state["persons"]["Laclos"].update({"status": "fled", "where": None})
    state["outlawed"].append("G")
    state["outlaw_until"]["G"] = 0
    ctx = context()
    ctx.actor = seat(state, "G")
    run_turn_start(state, {"kind": "turn_start"}, ctx)
    lines = [e for e in ctx.events if e.kind in ("return", "outlaw")]
    assert [e.text for e in lines] == [
        "Laclos returns to play",
        "the Gironde is no longer outlawed (12.2.1)",
    ]
    assert all(e.about == NOBODY for e in lines)
