"""Static game data loaded once from the JSON files beside this module.

The data lives in JSON (not code) so that an owner of the physical game can correct a
reconstructed value (an event, a track split) by editing one file; see
docs/games/red-flag-over-paris/reconstructed.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.framework.packaged import package_json, package_text

VERSAILLES = 0
COMMUNE = 1
SIDES = ("versailles", "commune")
SIDE_NAMES = ("Versailles", "Commune")
#: The sides as a sentence names them ("the Commune decides...").
SIDE_NOUNS = ("Versailles", "the Commune")


def _load(name: str) -> dict[str, Any]:
    return package_json(__package__, "data", name)


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    dimension: str | None
    kind: str | None
    """"political" or "military"; None for Versailles HQ and Prussian Occupied Territory."""
    pivotal: bool
    adjacent: tuple[str, ...]
    """Spaces this space is adjacent TO (printed arrows are directed)."""
    always_present: int | None


@dataclass(frozen=True)
class Card:
    id: int
    title: str
    faction: int | None
    """Seat whose colour the card has; None for gray (neutral) and objective cards."""
    ops: int
    kind: str
    """"strategy", "final_crisis" or "objective"."""
    space: str | None
    event: dict[str, Any]


MAP = _load("map.json")
TRACKS = _load("tracks.json")
CARDS_DATA = _load("cards.json")

DIMENSIONS: dict[str, dict[str, Any]] = {d["id"]: d for d in MAP["dimensions"]}


def _side(name: str | None) -> int | None:
    return None if name in (None, "neutral") else SIDES.index(name)


SPACES: dict[str, Space] = {}
for _raw in MAP["spaces"]:
    _dim = _raw["dimension"]
    SPACES[_raw["id"]] = Space(
        id=_raw["id"],
        name=_raw["name"],
        dimension=_dim,
        kind=None if _dim is None else DIMENSIONS[_dim]["kind"],
        pivotal=_raw["pivotal"],
        adjacent=tuple(_raw["adjacent"]),
        always_present=_side(_raw["always_present"]),
    )

HQ = "versailles_hq"
POT = "prussian_territory"
#: Spaces that can hold pieces (all but Versailles HQ and Prussian Occupied Territory).
BOARD = tuple(s for s in SPACES if SPACES[s].dimension is not None)
DIM_SPACES: dict[str, tuple[str, ...]] = {
    d: tuple(s for s in BOARD if SPACES[s].dimension == d) for d in DIMENSIONS
}
PIVOTALS = tuple(s for s in BOARD if SPACES[s].pivotal)
PIVOT_OF: dict[str, str] = {SPACES[p].dimension or "": p for p in PIVOTALS}

CARDS: dict[int, Card] = {}
for _group, _kind in (
    ("strategy", "strategy"),
    ("commune", "strategy"),
    ("neutral", "strategy"),
    ("final_crisis", "final_crisis"),
):
    for _raw in CARDS_DATA[_group]:
        CARDS[_raw["id"]] = Card(
            _raw["id"],
            _raw["title"],
            _side(_raw["faction"]),
            _raw["ops"],
            _kind,
            None,
            _raw["event"],
        )
for _raw in CARDS_DATA["objectives"]:
    CARDS[_raw["id"]] = Card(
        _raw["id"], _raw["title"], None, 0, "objective", _raw["space"], _raw["event"]
    )

STRATEGY_IDS = tuple(sorted(c for c in CARDS if CARDS[c].kind == "strategy"))
OBJECTIVE_IDS = tuple(sorted(c for c in CARDS if CARDS[c].kind == "objective"))
FINAL_CRISIS_CARD = (17, 34)

CUBES_PER_SIDE: int = TRACKS["cubes_per_side"]["value"]
DISCS_PER_SIDE: int = TRACKS["discs_per_side"]["value"]
CUBE_LIMIT: int = TRACKS["cube_limit"]["value"]
VP_CAP: int = TRACKS["vp_cap"]["value"]
MOMENTUM_MAX: int = TRACKS["momentum_max"]["value"]
ZONES: tuple[str, ...] = tuple(TRACKS["crisis_zones"]["value"])
FINAL_ZONE = len(ZONES) - 1
PRUSSIAN_CUBES: tuple[int, ...] = tuple(TRACKS["prussian_collaboration_cubes"]["value"])
COMMUNE_POOL: tuple[int, ...] = tuple(TRACKS["commune_pool_capacity"]["value"])
MOMENTUM_DIM: tuple[str, str] = (
    TRACKS["momentum_opponent_dimension"]["versailles"]["value"],
    TRACKS["momentum_opponent_dimension"]["commune"]["value"],
)
MOMENTUM_VP: tuple[str, str] = (
    TRACKS["momentum_vp_kind"]["versailles"]["value"],
    TRACKS["momentum_vp_kind"]["commune"]["value"],
)
HAND_SIZE: int = TRACKS["hand_size"]["value"]
PLAYS: int = TRACKS["plays_per_round"]["value"]
ROUNDS: int = TRACKS["rounds"]["value"]
MOMENTUM_NAMES = ("Prussian Collaboration", "Revolutionary Momentum")
DISC_NAMES = ("Fortification", "Barricade")


#: A space's name and a card's title, by id: a dict's own lookup, no Python call (most
#: log lines and choices name a card or a space).
space_name: Callable[[str], str] = {s: space.name for s, space in SPACES.items()}.__getitem__
card_name: Callable[[int], str] = {c: card.title for c, card in CARDS.items()}.__getitem__


def rules_text() -> str:
    """The rules summary in the author's words (a package data file)."""
    return package_text(__package__, "rules-summary.md")
