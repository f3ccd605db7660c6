"""What a player is told: choices' detail and consequence (and that they come true),
who each event is about, private events for hidden cards, the view schema, and
determinize keeping what a seat knows."""

from __future__ import annotations

import re

import pytest
from rfop_helpers import GAME, C, Driver, V, at_play, clear_board, new_engine, play_out, set_cubes

from tabletop.framework import Context
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.views import check_view_schema
from tabletop.games.red_flag_over_paris import board
from tabletop.games.red_flag_over_paris.data import (
    CARDS,
    FINAL_CRISIS_CARD,
    FINAL_ZONE,
    OBJECTIVE_IDS,
    SIDE_NAMES,
    STRATEGY_IDS,
)
from tabletop.games.red_flag_over_paris.rules import deck, tasks
from tabletop.games.red_flag_over_paris.verbs import KEEP

# Consequences announced before committing, and what apply() then does -------------


def _only_final_zone_left(d: Driver, *, fc_first: int | None, political: int) -> None:
    """Versailles' next cube comes from its Final Crisis zone (§8.1): pool and the
    inner zones are empty (their cubes are parked out of play to stay counted)."""
    st = d.state
    st["out"][V] += sum(st["track"][V][:FINAL_ZONE]) + st["pool"][V]
    st["track"][V][:FINAL_ZONE] = [0] * FINAL_ZONE
    st["pool"][V] = 0
    st["fc_first"] = fc_first
    if fc_first == C:
        st["breached"][C][FINAL_ZONE] = True
    st["vp"]["political"] = political


def _announced_loss(consequence: str) -> int:
    found = re.search(r"-(\d+) Political VP", consequence)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize(
    ("fc_first", "political", "words", "loss"),
    [
        (None, 0, "first: -1 Political VP (§8.3)", 1),
        (None, -5, "nothing more to lose", 0),  # the shared track stops at 5 (§2.5)
        (C, 0, "second: its bonus cubes leave play (§8.3)", 0),
    ],
)
def test_breaching_your_final_crisis_zone_is_announced_and_comes_true(
    fc_first: int | None, political: int, words: str, loss: int
) -> None:
    d = at_play(1, V, [15, 4])  # Jules Favre: place up to 3 cubes in Institutional spaces
    st = d.state
    _only_final_zone_left(d, fc_first=fc_first, political=political)
    bonus = st["bonus"][V][FINAL_ZONE]
    d.act("ev:15")
    choice = d.choice("put:national_assembly")
    assert words in choice.consequence
    assert _announced_loss(choice.consequence) == loss
    out_before, before = st["out"][V], board.vp_of(st, V, "political")
    d.act("put:national_assembly")
    d.act("stop")  # the play ends: breaches resolve now (§8.2)
    assert before - board.vp_of(st, V, "political") == loss
    breach = [e for e in d.events if e.kind == "breach"]
    assert breach and all(e.concerns == V for e in breach)
    if fc_first is None:
        assert st["pool"][V] == bonus  # the first breacher takes the bonus
        assert "both Final Crisis zones" not in choice.consequence
    else:
        assert st["out"][V] == out_before + bonus and st["pool"][V] == 0
        # the second breach completes the pair: the Final Crisis follows (§12.1)
        assert "the Final Crisis follows this round (§12.1)" in choice.consequence
        assert board.final_crisis_due(st)


def test_a_breach_of_an_inner_zone_is_detail_not_a_warning() -> None:
    d = at_play(1, V, [15, 4])
    st = d.state
    st["out"][V] += st["track"][V][0]
    st["track"][V][0] = 0  # the next cube is the first of Escalation
    d.act("ev:15")
    choice = d.choice("put:national_assembly")
    assert choice.consequence == ""
    assert "Escalation zone: a breach" in choice.detail
    assert f"its {st['bonus'][V][1]} bonus cube(s) reach your pool" in choice.detail


def test_momentum_reaching_two_announces_the_opponents_cube() -> None:
    d = at_play(1, V, [4, 5])
    st = d.state
    assert d.choice("mom:4").consequence == ""  # 0 -> 1 hands nothing over (§9.3)
    st["momentum"][V] = 1
    choice = d.choice("mom:4")
    assert choice.consequence == (
        "Prussian Collaboration reaches 2: the Commune may place 1 cube in Public Opinion (§9.3)"
    )
    assert "Prussian Collaboration 1 -> 2" in choice.detail
    assert f"{st['prussian'][1]} Prussian cube(s)" in choice.detail
    d.act("mom:4")
    assert d.seat == C and st["stack"][-1]["name"] == "momentum_placement"
    assert st["stack"][-1]["dimension"] == "public_opinion"


def test_an_event_that_raises_momentum_announces_it() -> None:
    d = at_play(1, C, [30, 18])  # Karl Marx: Revolutionary Momentum +1, then a cube
    d.state["momentum"][C] = 2
    choice = d.choice("ev:30")
    assert "Revolutionary Momentum reaches 3: Versailles may place 1 cube in Institutional" in (
        choice.consequence
    )
    assert CARDS[30].event["text"] in choice.detail and "2 OP" in choice.detail
    d.state["momentum"][C] = 3
    assert "already at 3: that part has no effect" in d.choice("ev:30").consequence


def test_a_final_crisis_event_whose_condition_fails_says_it_will_do_nothing() -> None:
    # the Commune's own card: its condition needs Versailles cubes in Butte Montmartre
    d = at_play(2, C, [22, 18], rnd=3)
    st = d.state
    st["fc"] = True
    set_cubes(st, "butte_montmartre", 0, 1)
    choice = d.choice("ev:22")
    assert choice.consequence == "its condition does not hold now: it will have no effect (§7.1)"
    d.act("ev:22")
    assert st["cubes"]["butte_montmartre"] == [0, 1]
    assert any("no effect" in t for t in d.texts())
    # Versailles plays it: the owner is not even asked, and the warning says so
    d = at_play(2, V, [22, 4], rnd=3)
    st = d.state
    st["fc"] = True
    set_cubes(st, "butte_montmartre", 0, 0)
    assert "decides" not in d.choice("ev:22").consequence
    d.act("ev:22")
    assert st["stack"][-1]["name"] != "event_consent"
    # with the condition met, the warning is that the Commune decides (§12.3)
    d = at_play(2, V, [22, 4], rnd=3)
    d.state["fc"] = True
    set_cubes(d.state, "butte_montmartre", 1, 0)
    assert d.choice("ev:22").consequence == "the Commune decides whether it applies (§12.3)"
    d.act("ev:22")
    assert d.state["stack"][-1]["name"] == "event_consent" and d.seat == C


def test_discarding_the_opponents_colour_warns_of_its_reuse() -> None:
    d = at_play(1, V, [26, 4])  # Gaston Crémieux is a Commune card
    st = d.state
    st["plays"][C] = 0
    st["deck"].remove(27)
    st["hands"][C] = [27]  # Louise Michel, 2 OP: enough to use Crémieux (§7.6)
    choice = d.choice("ops:26")
    assert "the Commune may then use Gaston Crémieux's event" in choice.consequence
    assert d.choice("ops:4").consequence == ""  # own colour: nothing to give away
    assert "will not join your Final Crisis hand (§12.2)" in d.choice("fc:4").consequence
    d.act("ops:26")
    d.act("kind:political")
    while d.seat == V:
        acts = d.prompt_actions()
        d.act(next((a for a in acts if a in ("toplace", "done")), acts[0]))
    assert "reuse:27" in d.prompt_actions()


def test_de_escalating_into_a_full_commune_pool_warns_the_cube_leaves_play() -> None:
    d = Driver()
    st = d.state
    st["stack"] = [tasks.de_escalate(C, "public_opinion")]
    assert board.pool_capacity(st, C) == 0  # no momentum: no pool space (§9.2)
    choice = d.choice("own:press")
    assert choice.consequence == "your pool has no free space: this cube leaves play (§8.4)"
    out = st["out"][C]
    d.act("own:press")
    assert st["out"][C] == out + 1


def test_steps_that_can_do_nothing_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    d = at_play(1, V, [2, 4])  # The Murder of Vincenzini: remove Commune cubes
    clear_board(d.state)
    d.act("ev:2")
    assert "The Murder of Vincenzini: no Commune cube to remove there, no effect (§7.1)" in (
        d.texts()
    )
    assert d.events[-1].concerns == V and d.state["stack"][-1]["name"] == "card_play"
    # a conditional step whose condition fails is announced, then logged
    conditional = {
        "do": "place_cubes",
        "count": 1,
        "dims": ["paris"],
        "if": {"check": "controls", "space": "press"},
    }
    monkeypatch.setitem(CARDS[1].event, "steps", [conditional])
    d = at_play(1, V, [1, 4])
    set_cubes(d.state, "press", 0, 1)
    assert "will have no effect" in d.choice("ev:1").consequence
    d.act("ev:1")
    assert any("the condition of this part does not hold, no effect" in t for t in d.texts())


def test_every_card_choice_carries_its_event_text() -> None:
    d = at_play(1, V, [11, 35, 4])
    for action in d.prompt_actions():
        card = int(action.split(":")[1])
        if action.startswith("reuse:"):
            continue
        detail = d.choice(action).detail
        assert CARDS[card].event["text"] in detail and f"{CARDS[card].ops} OP" in detail
    d.act("ev:11")  # Adolphe Thiers: choose one
    assert all(CARDS[11].event["text"] in d.choice(a).detail for a in d.prompt_actions())
    objective = Driver(3)
    for action in objective.prompt_actions():
        card = int(action.split(":")[1])
        assert CARDS[card].event["text"] in objective.choice(action).detail


# Who: actor and about ----------------------------------------------------------------


def test_events_name_the_seat_they_concern() -> None:
    d = at_play(1, V, [7, 4])  # Général Espivent lowers Revolutionary Momentum
    d.state["momentum"][C] = 1
    engine = Engine.from_state(
        GAME, d.state, players=2, rng_factory=rng_factory, dice_factory=dice_factory
    )
    events = engine.act(V, "ev:7")
    lines = [engine.event_line(e) for e in events]
    # The card play is public: the choice line names it, and no event says it again.
    told = engine.choice_line(engine.log[-1], C)
    assert told == "Versailles chose: Event: Général Espivent (1 OP, Versailles)"
    assert not any("plays Général Espivent" in line for line in lines)
    assert "Commune: Revolutionary Momentum 1 -> 0 (§9)" in lines
    momentum = next(e for e in events if e.kind == "momentum")
    assert momentum.actor == V and momentum.about == C


def test_the_table_reads_every_decision_but_the_objective_kept() -> None:
    """Issue 26: every decision is public but the objective a side keeps (§5.2), so the
    other side's log names the choice instead of "Versailles decided."; an event that
    would only repeat a choice (a card played, a cube placed) is left out."""
    for seed in (3, 8):
        engine = play_out(new_engine(seed), seed)
        kept = [entry for entry in engine.log if KEEP.matches(entry.action)]
        assert kept and all(not entry.public for entry in kept)
        assert all(entry.public for entry in engine.log if entry not in kept)
        spectator = [line.text for line in engine.story(None) if line.event is None]
        assert sum(text.endswith(" decided.") for text in spectator) == len(kept)
        assert any(text.startswith("Commune chose: Place a cube in ") for text in spectator)
        repeated = ("plays ", "places a cube", "removes a ", "discards ", "applies ")
        texts = [event.text for _, event in engine.history]
        assert not [text for text in texts if text.startswith(repeated)]


def test_the_solo_opponent_is_still_told_by_its_events() -> None:
    """The solo opponent answers no prompt, so it has no choice line: its placements
    and its initiative choice stay in the log as events."""
    engine = Engine(
        GAME,
        seed=2,
        players=2,
        options={"solo": "versailles"},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )
    player = RandomBot()
    while (prompt := engine.prompt) is not None:
        engine.act(prompt.seat, bot_move(engine, player, rng_factory))
    by_bot = [event.text for _, event in engine.history if event.actor == V]
    assert any(text.startswith("places a cube in ") for text in by_bot)
    assert all(entry.seat == C for entry in engine.log)


def test_no_event_repeats_the_name_the_log_line_already_gives() -> None:
    for seed in (3, 8):
        engine = play_out(new_engine(seed), seed)
        abouts = set()
        for _, event in engine.history:
            line = engine.event_line(event)
            if event.concerns is not None:
                name = SIDE_NAMES[event.concerns]
                assert not re.match(rf"{name}: (the )?{name}\b", line, re.IGNORECASE), line
            if event.about is not None and event.about != event.actor:
                abouts.add(event.kind)
            if event.private:
                assert event.seats is not None and event.concerns in event.seats, line  # told to it
        # scoring, breaches, momentum and the deal often concern the other seat
        assert {"score", "deal"} <= abouts


def test_hidden_cards_travel_only_in_private_events() -> None:
    titles = {CARDS[c].title for c in (*STRATEGY_IDS, *OBJECTIVE_IDS)}
    fc_titles = {CARDS[c].title for c in FINAL_CRISIS_CARD}
    for seed in (3, 5):
        engine = play_out(new_engine(seed), seed)
        kinds = {"deal", "aside", "final_crisis"}
        for _, event in engine.history:
            keeps = event.kind == "objective" and event.text.startswith("keeps")
            if event.kind not in kinds and not keeps:
                continue
            if event.private:
                continue
            named = {t for t in titles | fc_titles if t in event.text}
            assert named <= fc_titles, event.text  # a Final Crisis card is face up (§4)
        private_kinds = {e.kind for _, e in engine.history if e.private}
        # the deal tells each side its cards by a reveal to it alone (§5.1)
        assert {"reveal", "objective", "aside", "final_crisis"} <= private_kinds
        dealt = [e for _, e in engine.history if e.kind == "reveal" and "receives" in e.text]
        assert dealt and all(e.seats == frozenset({e.about}) for e in dealt)


# View schema -------------------------------------------------------------------------


def test_view_speaks_the_schema() -> None:
    engine = new_engine(4)
    st = engine.state
    for seat in (V, C, None):
        view = engine.view(seat)
        assert check_view_schema(view, 2) is None
        assert view["status"] == "Round 1 of 3, Versailles to decide; Initiative Player: Commune"
        assert [row["name"] for row in view["seats"]] == list(SIDE_NAMES)
        assert view["seats"][C]["fields"]["cards in hand"] == 4
        assert {t["name"] for t in view["tracks"]} >= {
            "Prussian Collaboration",
            "Revolutionary Momentum",
        }
        if seat is None:
            assert "you" not in view and all(c["where"] != "hand" for c in view["cards"])
            continue
        mine = [CARDS[c].title for c in st["hands"][seat]]
        assert [label.split(" (")[0] for label in view["you"]["hand"]] == mine
        assert [c["name"].split(" (")[0] for c in view["cards"] if c["where"] == "hand"] == mine
        assert len(view["you"]["objectives to choose from"]) == 2
    assert engine.view(None)["card_names"]["17"] == CARDS[17].title


# Determinize keeps what the seat knows -----------------------------------------------


def test_determinize_keeps_a_known_final_crisis_card_in_the_opponents_hand() -> None:
    d = Driver(2)
    st = d.state
    st["fc_card"][C] = False
    st["deck"].extend(st["hands"][C][1:])
    st["hands"][C] = [*st["hands"][C][:1], FINAL_CRISIS_CARD[C]]  # taken up at §12.2
    assert GAME.invariants(st) == []
    for salt in range(20):
        rng = rng_factory(salt)
        sample = GAME.determinize(st, V, Context(rng, dice_factory(rng)))
        assert FINAL_CRISIS_CARD[C] in sample["hands"][C]
        assert FINAL_CRISIS_CARD[C] not in sample["deck"]


def test_determinize_never_moves_a_card_drawn_before_a_reshuffle_into_the_deck() -> None:
    d = Driver(6)
    st = d.state
    # the rest of the deck is played out: it all lies in the discard pile
    st["discard"] = [[card, V, 1] for card in st["deck"]]
    st["deck"] = []
    st["aside"][C], st["hands"][C] = st["hands"][C][:2], st["hands"][C][2:]
    before = set(st["hands"][C] + st["aside"][C])
    ctx = d.ctx(C)
    for _ in range(2):
        card = deck.draw(st, ctx)  # the first draw reshuffles the discards
        assert card is not None
        st["hands"][C].append(card)
    assert any(e.kind == "deck" and not e.private for e in ctx.events)
    reshuffled = set(st["reshuffles"][0])
    assert GAME.invariants(st) == []
    changed = False
    for salt in range(30):
        rng = rng_factory(salt)
        sample = GAME.determinize(st, V, Context(rng, dice_factory(rng)))
        held = set(sample["hands"][C] + sample["aside"][C])
        assert held - reshuffled == before  # the old cards stay with the Commune
        assert len(held & reshuffled) == 2  # and two of the new ones, whichever
        assert set(sample["deck"]) <= reshuffled
        assert sample["hands"][V] == st["hands"][V] and sample["discard"] == st["discard"]
        changed |= sample["deck"] != st["deck"]
    assert changed
