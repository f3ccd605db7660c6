"""The generic game screen lets a person decide from the screen alone (issue 11), on the
test game Menu: a 16-option menu with a pass on key 0 that moves in the list, a warning,
long card text, headings, long log lines and a result that explains itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable
from toygames import LONG_TEXT, MENU_SIZE, WARNING, Secrets
from tui_support import (
    FrozenStore,
    app_on,
    current,
    engine_of,
    game_on,
    game_screen,
    pilot_test,
    press,
    run,
    screen_text,
    wait_until,
)

from tabletop.adapters.saves import JsonSaveStore
from tabletop.adapters.tui.screens.game_over import ENDED, GameOverScreen
from tabletop.adapters.tui.screens.new_game import NewGameScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.seat import SCREEN_KEYS, SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList, GameLog
from tabletop.adapters.tui.widgets.choices import choice_keys
from tabletop.app.cli import main as cli
from tabletop.framework import PASS_KEY, Choice
from tabletop.framework.testing import new_engine

OPTIONS = MENU_SIZE + 2  # the districts, the turncoat and the pass
PIG_50 = {"target": "50", "dice": "one", "banks": "open"}


def test_keys_keep_a_games_stable_key_and_number_every_other_choice() -> None:
    choices = [Choice(f"c{n}", f"choice {n}") for n in range(40)]
    choices[5] = Choice("pass", "Pass", key=PASS_KEY)
    choices[7] = Choice("undo-ish", "Uses a screen key", key="u")
    keys = choice_keys(choices, SCREEN_KEYS)
    assert keys[5] == "0" and "0" not in keys[:5] + keys[6:]  # 0 means pass only
    assert keys[7] not in SCREEN_KEYS  # a screen key is never a choice's key
    assert keys[:5] == ["1", "2", "3", "4", "5"] and keys[6] == "6"
    given = [key for key in keys if key]
    assert len(given) == len(set(given)) and not set(given) & SCREEN_KEYS
    # 9 digits, 0 and the 26 letters less the screen's own keys: the rest use arrows.
    assert len(given) == 10 + 26 - len(SCREEN_KEYS)
    assert keys[-1] == ""


@pilot_test
async def test_every_option_of_a_long_menu_is_one_key_away_at_100x30() -> None:
    """Press each option's key (then take it back): each key makes its own choice."""

    async with game_on("menu", seats=("human", "random")) as (app, pilot):
        screen = game_screen(app)
        choices = screen.query_one("#choices", ChoiceList)
        prompt = engine_of(screen).prompt
        assert prompt is not None and len(prompt.choices) == OPTIONS
        assert all(choices.keys) and len(set(choices.keys)) == OPTIONS
        for index, key in enumerate(choices.keys):
            await press(pilot, key)
            assert engine_of(screen).log[0].action == prompt.choices[index].action, key
            await press(pilot, "u")  # the choice and the bot's answer are taken back
            assert engine_of(screen).log == []


@pilot_test
async def test_the_pass_keeps_key_0_wherever_it_is_in_the_list() -> None:
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        places = []
        for _ in range(3):
            prompt = engine_of(screen).prompt
            assert prompt is not None
            places.append(prompt.actions().index("pass"))
            text = screen_text(app)
            assert "0 No bonus action" in text
            await press(pilot, "0")
            assert engine_of(screen).log[-1].action == "pass"
        assert len(set(places)) == 3  # a new place in each prompt, the same key


@pilot_test
async def test_a_warning_shows_in_the_list_and_the_details_pane_shows_the_whole_text() -> None:
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        choices = screen.query_one("#choices", ChoiceList)
        assert choices.highlighted == 0  # the turncoat is not highlighted ...
        assert "⚠ breaches your own Final" in screen_text(app)  # ... but warned of
        await press(pilot, "down", "down", "down")
        assert choices.explained_choice() == Choice("turncoat", "Turncoat", LONG_TEXT, WARNING)
        assert choices.explanation.detail_text == LONG_TEXT  # every word of it
        assert choices.explanation.consequence_text == f"⚠ {WARNING}"
        assert engine_of(screen).log == []  # reading commits nothing


@pytest.mark.parametrize(("size", "shown"), [((200, 60), OPTIONS), ((80, 24), 6)])
@pilot_test
async def test_the_decision_panel_grows_with_the_screen(size: tuple[int, int], shown: int) -> None:
    """All 16 options at 200x60 (and 100x30) with no scrolling; 80x24 scrolls the list,
    every option still on its key."""

    async with game_on("menu", seats=("human", "human"), size=size) as (app, _pilot):
        choices = game_screen(app).query_one("#choices", ChoiceList)
        text = screen_text(app)
        visible = [key for key in choices.keys if f" {key} " in text]
        assert len(visible) >= shown
        if shown == OPTIONS:
            assert choices.max_scroll_y == 0
            assert f"{choices.keys[-1]} Place a cube in district 14" in text
        else:
            assert choices.max_scroll_y > 0


def normalized(lines: list[str]) -> list[str]:
    """Words, whatever the wrapping: what must be the same in the log and the export."""
    return " ".join(lines).split()


@pytest.mark.parametrize("width", [80, 100, 160])
def test_the_log_shows_the_exports_characters_at_any_width(
    width: int, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bots play Pig: the screen shows the spectator's log, which is what
    ``tabletop export`` prints, every character of it, numbered 1 to N with no repeat
    or gap; narrowing the terminal re-wraps it with nothing lost."""

    seen: dict[str, Any] = {}

    async def main() -> None:
        store = JsonSaveStore(isolated_env / "saves")
        bots = ("random", "random")
        opened = game_on("pig", store=store, size=(width, 30), seats=bots, options=PIG_50, seed=3)
        async with opened as (app, pilot):
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), 20)
            over = app.screen
            assert isinstance(over, GameOverScreen)
            await press(pilot, "l")
            log = over.query_one("#final-log", GameLog)
            seen["shown"] = shown = log.text_lines()
            assert max(len(line.rstrip()) for line in shown) <= width - 4  # inside the box
            assert over.state.update is not None
            seen["actions"] = actions = over.state.update.seq
            numbers = [entry.number for entry in log.entries() if entry.number]
            assert numbers == list(range(1, actions + 1))
            seen["path"] = store.path_of(over.info.table)
            await pilot.resize_terminal(40, 30)
            await pilot.pause()
            narrower = log.text_lines()
            assert len(narrower) > len(shown) and normalized(narrower) == normalized(shown)

    run(main)
    capsys.readouterr()
    assert cli(["export", str(seen["path"]), "--log"]) == 0
    exported = capsys.readouterr().out.splitlines()[1:-1]  # less title and result
    assert len(exported) > seen["actions"] and normalized(seen["shown"]) == normalized(exported)


@pilot_test
async def test_a_persons_own_choices_are_logged_and_a_secret_one_only_for_its_seat() -> None:
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await pilot.press("2")  # Commune: district 2
        await pilot.pause()
        log = screen.query_one("#log", GameLog)
        words = [entry.plain for entry in log.entries()]
        assert "Commune chose: Place a cube in district 2" in words  # Versailles' view
        await press(pilot, "0")
        words = [entry.plain for entry in log.entries()]
        assert "You chose: Place a cube in district 2" in words  # Commune's again
        assert "Versailles chose: No bonus action" in words
    # Secrets hides information: the other seat reads only that a decision was made.
    engine = new_engine(Secrets())
    engine.act(0, "pass")
    assert next(line.text for line in engine.story(0)) == "You chose: Pass"
    public = [line.text for line in engine.story(1)]
    assert public[0] == "North decided." and "Pass" not in " ".join(public)


@pilot_test
async def test_the_rules_open_at_the_cited_section_quickly_reopened_without_game_keys() -> None:
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await press(pilot, "r")
        rules = app.screen
        assert isinstance(rules, RulesScreen)
        text = screen_text(app)
        assert "§2 Placing" in text.splitlines()[2]  # at the top: §2.1 is cited
        assert "Undo" not in text and "Back to the game" in text  # its own footer
        await press(pilot, "escape")
        await pilot.press("1", "1")  # two moves: the next prompt cites §3
        await pilot.pause()
        await press(pilot, "r")
        assert rules.target is not None and rules.sections[rules.target].number == "3"
        assert current(app) is rules  # made once, shown again
        assert "§3 Scoring" in screen_text(app)
        await press(pilot, "escape")
        assert current(app) is screen


@pilot_test
async def test_the_rules_screen_steps_through_sections_one_at_a_time() -> None:
    """Only the section on screen is drawn (a long summary opens fast); n and p step."""

    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        await press(pilot, "r")
        rules = app.screen
        assert isinstance(rules, RulesScreen) and rules.target is not None
        first = rules.current_section()
        assert first == rules.target
        total = len(rules.sections)
        assert f"Section {first + 1} of {total}" in screen_text(app)
        await press(pilot, "n")
        assert rules.current_section() == first + 1
        following = rules.sections[first + 1].title
        lines = screen_text(app).splitlines()
        assert following in lines[2]  # under the title and the cited line
        assert not any(rules.sections[first].title in line for line in lines[2:])
        await press(pilot, "p", "p")
        assert rules.current_section() == max(first - 1, 0)
        await press(pilot, "c")
        assert rules.current_section() == first


@pilot_test
async def test_game_over_explains_the_result_and_shows_the_final_board_and_log() -> None:
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        for key in "1212":  # districts 1 and 2, twice: Versailles 4, Commune 2
            await press(pilot, key)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        text = screen_text(app)
        assert ENDED in text and "Versailles wins!" in text
        assert "How it ended: points victory" in text
        assert "Versailles scored more points (2 to 4)" in text
        scores = app.screen.query_one("#scores", DataTable)
        rows = [[str(cell) for cell in scores.get_row_at(row)] for row in range(2)]
        assert rows == [["Commune", "human", "2", ""], ["Versailles", "human", "4", "winner"]]
        await press(pilot, "b")
        assert "Turn 5 of 4" in screen_text(app)  # the final table
        await press(pilot, "l")
        assert "Final scoring" in screen_text(app)
        log = app.screen.query_one("#final-log", GameLog)
        headings = [entry.plain for entry in log.entries() if entry.heading]
        assert headings == ["Round 1", "Round 2", "Final scoring"]
        await pilot.press("u")  # no undo after the end: the key does nothing
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


@pilot_test
async def test_a_finished_game_shows_its_winner_and_a_save_is_deleted_only_on_yes() -> None:
    store = FrozenStore()
    async with game_on("menu", store=store, seats=("human", "human")) as (app, pilot):
        for key in "1212":
            await press(pilot, key)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("enter")  # home
        await pilot.pause()
        assert "finished: Versailles won" in screen_text(app)
        await pilot.press("s", "d")  # to the saves, delete ...
        await pilot.pause()
        await pilot.press("n")  # ... no: kept
        await pilot.pause()
        assert list(store.records) == ["menu-1"]
        await press(pilot, "d")
        await press(pilot, "y")
        assert store.records == {}
        assert "No saved games yet" in screen_text(app)


@pilot_test
async def test_at_80x24_the_tables_rows_do_not_wrap_and_z_shows_the_board_whole() -> None:
    async with game_on("menu", seats=("human", "human"), size=(80, 24)) as (app, pilot):
        text = screen_text(app)
        assert "Commune (you)        0   Montmartre, B" in text  # one line, not two
        assert "Belleville" not in text.split("Montmartre, B", 1)[1].split("\n", 2)[1]
        await press(pilot, "z")
        text = screen_text(app)
        assert "Commune (you)        0   Montmartre, Belleville" in text
        assert "Mont-Valérien, Versailles HQ" in text
        await pilot.press("escape")  # back to the game, not home
        await pilot.pause()
        assert isinstance(app.screen, SeatScreen) and app.screen.maximized is None


@pilot_test
async def test_a_bot_kind_is_offered_with_its_own_one_line_description() -> None:
    async with app_on() as (app, pilot):
        await app.push_screen(NewGameScreen("secrets"))
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        said = dialog.describe_kind("crashy")  # the first line of toygames.Crashy's docstring
        assert said == "A bot whose thinking raises, quoting a secret."
        assert "random — Any legal move at random" in screen_text(app)
