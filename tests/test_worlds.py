"""``determinize`` held to account (issue 38): every world it makes is checked (its
invariants, who decides, that it can be played on), and for a game whose secrets all
come from the framework, worlds built by replaying the game check the views, prompts
and events and catch a ``determinize`` that forgets a secret.

The acceptance is the outside author's hidden-role game (``tests/hiddenroles.py``): its
anonymous mission cards are revealed without naming owners, and its variant that keeps
"who failed" in the state without drawing it again is caught by ``tabletop fuzz`` in a
20-game run; the variant that also shows it in the view is caught as a leak.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from fakesite import install_games
from hiddenroles import (
    FAIL,
    SPY,
    Missions,
    ReplayedMissions,
    StaleMissions,
    TellingMissions,
    table,
)
from sessions import CliRun

from tabletop.framework import Context, Prompt, State
from tabletop.framework.chance import rng_factory
from tabletop.framework.decisions import SecretChoices
from tabletop.framework.fuzz import fuzz
from tabletop.framework.soundness import flat, forgotten
from tabletop.framework.testing import conformance_kit, new_engine, play_out, sample
from tabletop.framework.worlds import Replay
from tabletop.games.council import AGENDAS, TREASURY, Council
from tabletop.games.pig import Pig

# The acceptance, through the command ------------------------------------------------------


@pytest.fixture
def missions(site: Path) -> None:
    install_games(
        site,
        "missions",
        "hiddenroles:Missions",
        "hiddenroles:StaleMissions",
        "hiddenroles:TellingMissions",
    )


def _fuzz(cli: CliRun, game: str, tmp_path: Path) -> tuple[int, dict[str, Any]]:
    code, out, _ = cli(
        "fuzz", game, "--games", "20", "--seed", "1", "--json", "--save-dir", str(tmp_path)
    )
    return code, json.loads(out)


@pytest.mark.slow
def test_the_hidden_role_games_note_of_who_failed_is_caught_by_a_20_game_fuzz(
    cli: CliRun, missions: None, tmp_path: Path
) -> None:
    code, report = _fuzz(cli, "missions", tmp_path)
    assert code == 0 and report["completed"] == 20, report["failures"][:1]
    code, report = _fuzz(cli, "stale-missions", tmp_path)
    assert code == 1 and report["errors"] >= 1
    reason = report["failures"][0]["reason"]
    assert "determinize for seat" in reason and "failed_by" in reason
    assert "derived records included" in reason
    code, report = _fuzz(cli, "telling-missions", tmp_path)
    assert code == 1 and report["errors"] >= 1
    reason = report["failures"][0]["reason"]
    assert "leak: seat" in reason and "through its view: at missions[0].failed_by" in reason


def test_the_mission_cards_are_revealed_without_naming_their_owners() -> None:
    engine = new_engine(Missions(), seed=2, players=5)
    play_out(engine, until=lambda e: bool(e.state["missions"]))
    mission = engine.state["missions"][0]
    (reveal,) = [event for _, event in engine.history if event.text.startswith("mission revealed")]
    assert reveal.seats is None and reveal.concerns is None  # everyone's, nobody's doing
    names = engine.seat_names
    assert not any(name in reveal.text for name in names)
    assert set(reveal.data) == {"topic", "answers", "counts"}
    assert reveal.data["answers"].count(FAIL) == mission["fails"]
    owners = SecretChoices(mission["cards"]).answers()  # still in the state, hidden
    assert sorted(owners.values()) == sorted(reveal.data["answers"])


# The worlds the framework builds -------------------------------------------------------------


def _midgame(game: Missions, seed: int = 3) -> Any:
    engine = new_engine(game, seed=seed, players=5)
    play_out(
        engine, until=lambda e: len(e.state["missions"]) == 1 and e.state["missions"][0]["fails"]
    )
    return engine


def test_a_replayed_world_keeps_what_the_seat_knows_and_draws_the_rest_again() -> None:
    engine = _midgame(Missions())
    replay = Replay.of(engine)
    assert replay.state == engine.state
    roles = engine.state["roles"]
    loyal = roles.index("Loyal")
    spy = roles.index(SPY)
    seen_spies = set()
    for seed in range(12):
        world = replay.world(loyal, rng_factory(seed))
        assert world is not None
        assert world["roles"][loyal] == "Loyal"  # its own draw comes out as it did
        assert Missions().view(world, loyal) == engine.view(loyal)
        assert [m["fails"] for m in world["missions"]] == [
            m["fails"] for m in engine.state["missions"]
        ]
        seen_spies.add(tuple(s for s, role in enumerate(world["roles"]) if role == SPY))
        spy_world = replay.world(spy, rng_factory(seed), tries=100)  # the spies must match
        assert spy_world is not None and spy_world["roles"] == roles  # a spy knows them all
    assert len(seen_spies) > 1  # the loyal seat cannot know who the spies are


def test_forgotten_names_the_fields_determinize_never_draws_again() -> None:
    real = {"roles": ["a", "b"], "note": [1], "open": 3}
    world = {"roles": ["b", "a"], "note": [0], "open": 3}
    assert flat(world) == {"roles[0]": "b", "roles[1]": "a", "note[0]": 0, "open": 3}
    drawn = [{"roles": ["b", "a"], "note": [1], "open": 3}]
    assert forgotten(real, world, drawn) == ["note[0]"]
    assert forgotten(real, world, [*drawn, {**real, "note": [0]}]) == []


class ForgetfulCouncil(Council):
    """A determinize that forgets the consuls' sealed answers."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        if state["phase"] == "agendas":
            SecretChoices(state["agendas"]).resample(seat, lambda s: AGENDAS, ctx.rng)
        return state


class OldForgetfulCouncil(ForgetfulCouncil):
    """The same, for a game that does not declare where its secrets come from."""

    secrets_from_framework = False


@pytest.mark.slow
def test_a_determinize_that_forgets_a_sealed_answer_is_caught_by_the_replayed_worlds() -> None:
    report = fuzz(ForgetfulCouncil(), games=10, seed=5)
    assert report.errors >= 1
    assert "keeps consuls.chosen[" in report.failures[0].reason
    # without the replayed worlds no counterfactual differs: nothing was found before
    assert fuzz(OldForgetfulCouncil(), games=10, seed=5).errors == 0
    assert fuzz(Council(), games=10, seed=5).errors == 0
    assert set(TREASURY) == {"feast", "fleet"}


def test_the_kit_holds_determinize_to_the_replayed_worlds() -> None:
    kit = conformance_kit(Missions(), seeds=(2, 3), players=(5,))
    kit.test_nothing_a_seat_receives_leaks()
    kit.test_views_hide_hidden_information()
    stale = conformance_kit(StaleMissions(), seeds=(2, 3, 4, 5), players=(5,))
    with pytest.raises(AssertionError, match="determinize: determinize for seat"):
        stale.test_nothing_a_seat_receives_leaks()
    telling = conformance_kit(TellingMissions(), seeds=(2, 3, 4, 5), players=(5,))
    with pytest.raises(AssertionError, match="failed_by"):
        telling.test_views_hide_hidden_information()


# Without a determinize: the replayed worlds are the default ---------------------------------


@pytest.mark.slow
def test_a_game_whose_secrets_all_come_from_the_framework_needs_no_determinize() -> None:
    engine = _midgame(ReplayedMissions())
    loyal = engine.state["roles"].index("Loyal")
    worlds = [sample(engine, loyal, seed=seed) for seed in range(6)]
    assert all(ReplayedMissions().view(world, loyal) == engine.view(loyal) for world in worlds)
    assert len({tuple(world["roles"]) for world in worlds}) > 1
    assert fuzz(ReplayedMissions(), games=4, seed=2).errors == 0


def test_search_bots_play_it_from_the_replayed_worlds() -> None:
    from tabletop.adapters.bots.ismcts import Budget, IsmctsBot

    engine = new_engine(ReplayedMissions(), seed=4, players=5)
    bot = IsmctsBot(budget=Budget(iterations=8))
    play_out(engine, bot, until=lambda e: len(e.log) >= 12)
    assert bot.last.iterations > 0  # it searched, from sampled worlds


# Every determinized world is one the game can be in -------------------------------------------


class SeatSwappingPig(Pig):
    """A determinize that also hands the turn to another seat."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        state = super().determinize(state, seat, ctx)
        if state["winner"] is None:
            state["active"] = (state["active"] + 1) % len(state["banks"])
            state["stack"][-1]["seat"] = state["active"]
        return state


class OverflowingPig(Pig):
    """A determinize that draws banks past the target (the invariant "someone reached
    the target but nobody won" breaks)."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        state = super().determinize(state, seat, ctx)
        if state["secret"] and state["winner"] is None:
            state["banks"][(seat + 1) % len(state["banks"])] = state["target"]
        return state


class StuckPig(Pig):
    """A determinize whose world cannot be played on."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        state = super().determinize(state, seat, ctx)
        state["dice"] = "two"  # not a number of dice: rolling fails
        return state


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (SeatSwappingPig(), "decides where seat"),
        (OverflowingPig(), "the game's invariants break: someone reached the target"),
        (StuckPig(), "the world cannot be played on"),
    ],
)
def test_a_world_the_game_cannot_be_in_is_named(game: Pig, message: str) -> None:
    report = fuzz(game, games=2, seed=1, options={"banks": "secret"})
    assert report.errors >= 1
    assert "determinize: determinize for seat" in report.failures[0].reason
    assert message in report.failures[0].reason


class GossipMissions(ReplayedMissions):
    """No determinize, and a public event that names who failed: an ordinary event
    must read the same in every world the seat cannot tell apart."""

    info = dataclasses.replace(ReplayedMissions.info, id="gossip-missions")
    rules = table(noting=True)

    def apply(self, state: State, seat: int, action: str, ctx: Context) -> None:
        done = len(state["missions"])
        super().apply(state, seat, action, ctx)
        if len(state["missions"]) > done and state["missions"][-1]["failed_by"]:
            ctx.emit("gossip", f"word is the Fail came from {state['missions'][-1]['failed_by']}")


class WhisperingMissions(ReplayedMissions):
    """No determinize, and the leader's prompt names who failed the last mission."""

    info = dataclasses.replace(ReplayedMissions.info, id="whispering-missions")
    rules = table(noting=True)

    def prompt(self, state: State) -> Prompt | None:
        asked = super().prompt(state)
        missions = state["missions"]
        if asked is None or asked.rule != "§2" or not missions:
            return asked
        return dataclasses.replace(asked, text=f"{asked.text} (Fail: {missions[-1]['failed_by']})")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "channel"),
    [(GossipMissions(), "through its events"), (WhisperingMissions(), "through its prompt")],
)
def test_a_replayed_world_finds_a_leak_through_every_channel(game: Missions, channel: str) -> None:
    report = fuzz(game, games=12, seed=1)
    assert report.errors >= 1
    assert any(channel in failure.reason for failure in report.failures), [
        failure.reason for failure in report.failures
    ]
