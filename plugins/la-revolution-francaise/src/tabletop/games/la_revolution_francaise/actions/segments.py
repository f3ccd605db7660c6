"""7.3-7.4: the action segments, in their fixed order, and the rule each one cites."""

from __future__ import annotations

SEGMENTS = ("arrest", "persuade", "plot", "revolt", "suppress", "commune")


SEGMENT_RULES = {
    "arrest": "7.3.1",
    "persuade": "7.3.2",
    "plot": "7.4.1",
    "revolt": "7.4.2",
    "suppress": "7.4.3",
    "commune": "7.4.4",
}


REGIONAL = ("plot", "revolt", "suppress", "commune")
