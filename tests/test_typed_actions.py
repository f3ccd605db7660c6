"""A verb declares its arguments' types and arity; building an action, reading one and
the errors come from that declaration (issue 38)."""

from __future__ import annotations

import enum
import re

import pytest

from tabletop.framework.actions import ActionError, Int, Member, Name, Seat, Text, Verb, Verbs

REGIONS = {"paris": "Paris", "lyon": "Lyon", "nantes": "Nantes"}


class Suit(enum.Enum):
    RED = "red"
    BLUE = "blue"


LOAD = Verb("load", Int("goods", 1, 3))
MOVE = Verb("move", Name("army", ["a1", "a2"]), Name("to", REGIONS))
BID = Verb("bid", Seat("rival"), Member("suit", Suit))
PASS = Verb("pass")
VERBS = Verbs(LOAD, MOVE, BID, PASS)


def test_an_action_is_built_from_typed_arguments_and_read_back_into_them() -> None:
    assert LOAD(3) == "load:3" and LOAD.value("load:3") == 3
    assert MOVE("a2", "lyon") == "move:a2:lyon"
    assert MOVE.values("move:a2:lyon") == ("a2", "lyon")
    assert BID(2, Suit.RED) == "bid:2:red"
    assert BID.values("bid:2:red") == (2, Suit.RED)
    assert VERBS.read("bid:0:blue") == (BID, (0, Suit.BLUE))
    assert (PASS(), PASS.values("pass"), PASS.arity, BID.arity) == ("pass", (), 0, 2)
    assert BID.usage() == "bid:<rival>:<suit>"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("load:4", "'load:4': goods must be a whole number from 1 to 3, not '4'"),
        ("load:x", "goods must be a whole number from 1 to 3, not 'x'"),
        ("load:+2", "not '+2'"),
        ("load:2:3", "load takes 1 argument(s) (load:<goods>)"),
        ("move:a1:rome", "to must be one of: lyon, nantes, paris, not 'rome'"),
        ("bid:-1:red", "rival must be a seat number (0 for the first seat), not '-1'"),
        ("bid:1:green", "suit must be one of: red, blue, not 'green'"),
    ],
)
def test_reading_a_bad_action_says_what_the_declaration_expects(action: str, message: str) -> None:
    with pytest.raises(ActionError, match=re.escape(message)):
        VERBS.read(action)


def test_building_a_bad_action_is_refused_where_it_is_written() -> None:
    with pytest.raises(ActionError, match="load: goods must be a whole number from 1 to 3, not 0"):
        LOAD(0)
    with pytest.raises(ActionError, match=r"goods must be .*, not '2'"):
        LOAD("2")  # type: ignore[arg-type]  # a string is not an Int: mypy says so too
    with pytest.raises(ActionError, match="not True"):
        LOAD(True)  # a bool is not a count
    with pytest.raises(ActionError, match="to must be one of"):
        MOVE("a1", "rome")
    with pytest.raises(TypeError, match="move takes 2 argument"):
        MOVE("a1")  # type: ignore[call-arg]
    with pytest.raises(ActionError, match="suit must be one of: red, blue, not 'red'"):
        BID(1, "red")  # type: ignore[arg-type]
    with pytest.raises(ActionError, match=re.escape("no verb 'play' in this game (bid, load")):
        VERBS.verb_of("play:3")


def test_the_older_bare_names_are_text_and_keep_their_behaviour() -> None:
    play = Verb("play", "card")
    assert isinstance(play.types[0], Text) and play.params == ("card",)
    assert play(12) == "play:12" and play.values("play:12") == ("12",)
    assert play.number("play:12") == 12
    with pytest.raises(ActionError, match="card must be a whole number"):
        play.number("play:x")
    with pytest.raises(ActionError):
        play("a:b")  # a separator inside an argument
    key = Verb("key", Text("path"), rest=True)
    assert key.values("key:a:b") == ("a:b",)
    assert key("a:b") == "key:a:b"


def test_a_declaration_that_cannot_work_is_refused() -> None:
    with pytest.raises(ValueError, match="low 3 is above high 1"):
        Int("n", 3, 1)
    with pytest.raises(ValueError, match="holds ':'"):
        Name("space", ["a:b"])
    with pytest.raises(ValueError, match="two arguments share a name"):
        Verb("x", Int("n"), Text("n"))
    with pytest.raises(ValueError, match="rest=True needs a Text last argument"):
        Verb("x", Int("n"), rest=True)
