"""Dice adapters: fair dice on a random source, and loaded dice for tests."""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.framework.ports import Dice, RandomSource


class SeededDice(Dice):
    """Fair dice drawn from the game's random source (so they replay)."""

    def __init__(self, rng: RandomSource) -> None:
        self._rng = rng

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        if count < 0 or sides < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        return tuple(self._rng.randint(1, sides) for _ in range(count))


class LoadedDice(Dice):
    """Dice that show given faces in order: for tests of rulebook examples."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        if len(self._faces) < count:
            raise AssertionError("loaded dice ran out of faces")
        out, self._faces = tuple(self._faces[:count]), self._faces[count:]
        return out
