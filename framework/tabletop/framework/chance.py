"""The reference chance: PCG32 (O'Neill's permuted congruential generator) and dice.

Written out here rather than taken from ``random.Random`` so that the bit stream is
fixed by this file alone, identical on every Python version and machine, and the
whole state is two ints that fit in a save or a digest.

Why it lives in the core and not with the adapters: a save names its generator
(``"rng": "pcg32"``) and its digest depends on every bit drawn, so the generator is part
of the save format. A game author who depends on the framework alone must be able to
replay a save and run the conformance kit; both need exactly this generator. It is pure
computation (no I/O), so the core stays free of the outside world. The app still
chooses it through its container, so another generator could be wired in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletop.framework.ports import Dice, RandomSource

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005


class Pcg32(RandomSource):
    algorithm = "pcg32"

    def __init__(self, seed: int) -> None:
        # PCG's reference seeding (state 0, step, add the seed, step) with the two steps
        # written out, after SplitMix64 spreads the seed over 64 bits (so that seeds 1,
        # 2, 3 give unrelated streams; twice, inline: the seed, then its mix). Bots make
        # a generator per move, so this is on the hot path (tests/test_rng.py holds the
        # reference form).
        value = ((seed & _MASK64) + 0x9E3779B97F4A7C15) & _MASK64
        value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
        mixed = value ^ (value >> 31)
        value = (mixed + 0x9E3779B97F4A7C15) & _MASK64
        value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
        inc = ((value ^ (value >> 31)) << 1 | 1) & _MASK64
        self._inc = inc
        self._state = (((inc + mixed) & _MASK64) * _MULT + inc) & _MASK64

    def next_u32(self) -> int:
        old = self._state
        self._state = (old * _MULT + self._inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def randbelow(self, n: int) -> int:
        """``RandomSource.randbelow`` with the generator's step written out for the
        common case (a bound below 2**32): every bot move and shuffle comes here. The
        same draws, so the same streams, as the base class's rejection sampling."""
        if n <= 1 or n > 4294967296:
            return super().randbelow(n)
        limit = (4294967296 // n) * n
        inc = self._inc
        while True:
            old = self._state
            self._state = (old * _MULT + inc) & _MASK64
            xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
            rot = old >> 59
            value = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32
            if value < limit:
                return value % n

    def getstate(self) -> list[int]:
        return [self._state, self._inc]

    def setstate(self, state: Sequence[int]) -> None:
        self._state, self._inc = int(state[0]), int(state[1])


class SplitMix64(RandomSource):
    """SplitMix64 (Steele, Lea and Flood; Vigna's reference constants): a counter
    passed through a 64-bit mixer, the high 32 bits of each mix drawn.

    The bots' generator (``bot_rng``), not the games': ``bot_move`` starts one per bot
    move, seeded by the game seed, the seat and the move number, so that a reloaded game
    plays on exactly as an uninterrupted one. Starting one is storing the seed, where a
    ``Pcg32`` mixes it twice first: a tenth of the instructions of a Red Flag action
    played by random bots. Its streams are part of no save (bots' moves are logged as
    actions), only of what ``simulate`` and tournaments play for a seed."""

    algorithm = "splitmix64"

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next_u32(self) -> int:
        self._state = value = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (value ^ (value >> 31)) >> 32

    def randbelow(self, n: int) -> int:
        """``RandomSource.randbelow`` with the step written out for a bound below
        2**32 (a bot's every draw): the same draws as the base class's."""
        if n <= 1 or n > 4294967296:
            return super().randbelow(n)
        limit = (4294967296 // n) * n
        while True:
            self._state = value = (self._state + 0x9E3779B97F4A7C15) & _MASK64
            value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = (value ^ (value >> 31)) >> 32
            if value < limit:
                return value % n

    def getstate(self) -> list[int]:
        return [self._state]

    def setstate(self, state: Sequence[int]) -> None:
        self._state = int(state[0]) & _MASK64


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


def rng_factory(seed: int) -> RandomSource:
    """The default random source for a seed (what saves made by Tabletop use)."""
    return Pcg32(seed)


def bot_rng(seed: int) -> RandomSource:
    """The bots' random source for a seed (``bot_move`` makes one per move)."""
    return SplitMix64(seed)


def dice_factory(rng: RandomSource) -> Dice:
    """The default dice: fair dice on the game's random source."""
    return SeededDice(rng)
