"""The rule-of-thumb bot: legal, and it prefers what its scores say."""

from __future__ import annotations

from cme_helpers import GAME

from tabletop.framework import Choice, Prompt
from tabletop.framework.chance import Pcg32
from tabletop.framework.testing import new_engine
from tabletop.games.charlemagne_master_of_europe import StewardBot
from tabletop.games.charlemagne_master_of_europe.bot import SAFE_ARMY, score


def test_prefers_a_marquis_and_good_odds() -> None:
    bot = StewardBot()
    prompt = Prompt(
        0,
        "Choose",
        (
            Choice("act:charlemagne:aachen:suppress", "Suppress", detail="Roll above 6 ..."),
            Choice("act:charlemagne:reims:suppress", "Suppress", detail="Roll above 2 ..."),
            Choice("end", "End"),
        ),
    )
    assert bot.choose(GAME, {}, prompt, Pcg32(1)) == "act:charlemagne:reims:suppress"
    with_marquis = Prompt(
        0, "Choose", (*prompt.choices, Choice("act:charlemagne:reims:marquis", "Marquis"))
    )
    assert bot.choose(GAME, {}, with_marquis, Pcg32(1)) == "act:charlemagne:reims:marquis"


def test_plays_whole_games_with_legal_actions() -> None:
    bot = StewardBot()
    for seed in (1, 2, 3):
        engine = new_engine(GAME, seed=seed, players=1)
        rng = Pcg32(seed)
        while engine.prompt is not None:
            engine.act(0, bot.choose(GAME, {}, engine.prompt, rng))  # refuses an illegal one
        assert GAME.result(engine.state) is not None


def test_attacks_the_easier_kill() -> None:
    prompt = Prompt(
        0,
        "Attack which?",
        (
            Choice(
                "target:0", "The 6-6", detail="A roll above 4 flips it; the top face eliminates it."
            ),
            Choice("target:1", "The 3-4 (reduced)", detail="A roll above 2 eliminates it; ..."),
        ),
    )
    assert StewardBot().choose(GAME, {}, prompt, Pcg32(1)) == "target:1"


def test_fights_for_the_iron_crown_only_with_an_army_that_fills_both_wings() -> None:
    """A wing left empty routs the army (the game is lost): no battle with few units."""
    prompt = Prompt(
        0,
        "Choose",
        (
            Choice("act:charlemagne:reims:suppress", "Suppress", detail="Roll above 3 ..."),
            Choice("act:charlemagne:lombardy:battle", "Battle", detail="A pitched battle"),
            Choice("act:charlemagne:aachen:forced_march:fulda", "Forced March"),
        ),
    )
    bot = StewardBot()
    army = [{"id": n, "kind": "infantry", "level": 2, "new": False} for n in range(20)]
    chosen = bot.choose(GAME, {"army": army}, prompt, Pcg32(1))
    assert chosen == "act:charlemagne:lombardy:battle"
    few = army[: SAFE_ARMY - 1]
    assert bot.choose(GAME, {"army": few}, prompt, Pcg32(1)) == "act:charlemagne:reims:suppress"


def test_a_raid_is_a_last_resort() -> None:
    raid = Choice("act:charlemagne:veleti:raid", "Raid", detail="Pay 3 coins")
    suppress = Choice("act:charlemagne:reims:suppress", "Suppress", detail="Roll above 6 ...")
    assert score(raid) < score(suppress)
