"""What three actions carry, as data with a type: a declared objective (6.4), the target
of an attempt (7.3-7.4) and a coup's plan (12.1-12.3).

Each is written as a phrase that may hold ``:`` (``arrest:Barnave``, ``raise:Paris``,
``convention:Amiens:2``): saves, the state's records and the action strings keep these
phrases as they always were. The rules, the words and the bots read a phrase here, once
(``Objective.read``, ``CoupPlan.read``), and the verbs check one with ``fits`` before it
becomes an action (``verbs.Phrase``), so no module splits the phrase itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import LAWS, PERSONS, REGIMES, REGION_NAMES

SEP = ":"

# Objectives (6.4) -----------------------------------------------------------------------

#: What each kind of objective names (6.4.1, 6.4.2): a Personality, a region, a law, a
#: regime, or nothing (the Commune's). The tables the target must come from.
OBJECTIVE_TARGETS: dict[str, frozenset[str]] = {
    "arrest": frozenset(PERSONS),
    "persuade": frozenset(PERSONS),
    "suppress": frozenset(REGION_NAMES),
    "destroy": frozenset(REGION_NAMES),
    "plot": frozenset(REGION_NAMES),
    "revolt": frozenset(REGION_NAMES),
    "law": frozenset(LAWS),
    "regime": frozenset(REGIMES),
    "crush_commune": frozenset(),
    "raise_commune": frozenset(),
    "suppress_commune": frozenset(),
}
#: The kinds met only by the declarer's own deed (or its ally's): the record of a plot
#: or a persuasion names who did it (``Objective.deed``).
OWN_DEEDS = ("plot", "persuade")


@dataclass(frozen=True)
class Objective:
    """A declared objective: its ``kind`` and what it names (``target``, "" for the
    Commune's). ``value`` is the phrase the state, the sealed choice and the
    ``objective`` action hold (``arrest:Barnave``, ``raise_commune``)."""

    kind: str
    target: str = ""

    @classmethod
    def read(cls, value: str) -> Objective:
        """The objective a phrase declares (read as written; ``fits`` checks it)."""
        kind, _, target = value.partition(SEP)
        return cls(kind, target)

    @staticmethod
    def fits(value: str) -> bool:
        """Whether ``value`` is an objective of a known kind naming what its kind names."""
        kind, sep, target = value.partition(SEP)
        names = OBJECTIVE_TARGETS.get(kind)
        if names is None:
            return False
        return target in names if names else not sep

    @property
    def value(self) -> str:
        return f"{self.kind}{SEP}{self.target}" if self.target else self.kind

    def deed(self, by: str) -> str:
        """The record (``state["achieved"]``) of the deed that meets this objective when
        ``by`` does it: a plot or a persuasion names its author (6.4: it must profit the
        declarer), any other deed meets it whoever does it."""
        return f"{self.value}{SEP}{by}" if self.kind in OWN_DEEDS else self.value


# Targets of an attempt (7.3-7.4) --------------------------------------------------------

#: The Commune's actions (7.4.4), the only targets that hold a ``:``.
RAISE_TARGET = "raise:Paris"
SUPPRESS_TARGET = "suppress:Paris"


def is_target(value: str) -> bool:
    """A Personality (arrests, persuasion), a region (plots, revolts, suppressions) or
    one of the Commune's actions: what a ``try`` action may name."""
    return value in PERSONS or value in REGION_NAMES or value in (RAISE_TARGET, SUPPRESS_TARGET)


def commune_action(target: str) -> str:
    """``raise`` or ``suppress``: the Commune's action a target names (7.4.4)."""
    return target.partition(SEP)[0]


# Coups (12.1-12.3) ----------------------------------------------------------------------

#: What a coup may aim at: seizing the Government, or a regime (Vendémiaire included).
COUP_AIMS = frozenset({"gov", *REGIMES})


@dataclass(frozen=True)
class CoupPlan:
    """A Current's answer to a coup offer: no coup (``aim`` None), or a coup to ``aim``
    with ``count`` Personalities (12.1, 12.2) or, for a military coup, ``count`` armies
    rallied at ``region`` (12.3). ``word`` is the phrase of the ``coup`` action
    (``none``, ``gov:2``, ``convention:Amiens:1``)."""

    aim: str | None
    count: int = 0
    region: str | None = None

    @classmethod
    def read(cls, word: str) -> CoupPlan:
        if word == "none":
            return cls(None)
        parts = word.split(SEP)
        if len(parts) == 2:
            return cls(parts[0], int(parts[1]))
        aim, region, count = parts
        return cls(aim, int(count), region)

    @staticmethod
    def fits(word: str) -> bool:
        """``none``, ``<aim>:<n>`` or ``<aim>:<region>:<n>``, n a whole number from 1."""
        if word == "none":
            return True
        parts = word.split(SEP)
        if len(parts) not in (2, 3) or parts[0] not in COUP_AIMS:
            return False
        if len(parts) == 3 and parts[1] not in REGION_NAMES:
            return False
        return parts[-1].isdigit() and int(parts[-1]) >= 1

    @property
    def word(self) -> str:
        if self.aim is None:
            return "none"
        if self.region is None:
            return f"{self.aim}{SEP}{self.count}"
        return f"{self.aim}{SEP}{self.region}{SEP}{self.count}"


NO_COUP = CoupPlan(None)
