"""Typed actions: build and read a game's action strings through named verbs.

An action is a string (it goes into saves and logs as it is), conventionally a verb and
its arguments joined by ``:`` (``"play:12"``, ``"move:north:3"``). Splitting those by
hand in rules, bots and solitaire procedures spreads the format over a game and lets a
misspelt verb pass silently. A game declares its verbs once::

    PLAY = Verb("play", "card")
    MOVE = Verb("move", "army", "to")
    VERBS = Verbs(PLAY, MOVE, PASS := Verb("pass"))

    PLAY(12)                     # "play:12"
    PLAY.matches("play:12")      # True
    MOVE.args("move:a3:paris")   # ("a3", "paris")
    PLAY.arg("play:12")          # "12"
    VERBS.verb_of("move:a3:x")   # MOVE

and rules, bots and the solo opponent share that one list. Strings stay the format, so
saves do not change.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabletop.framework.game import Action

SEP = ":"


class Verb:
    """One kind of action: its word and the names of its arguments. ``rest=True`` lets
    the last argument hold separators of its own (a free-form key)."""

    __slots__ = ("name", "params", "prefix", "rest")

    def __init__(self, name: str, *params: str, rest: bool = False) -> None:
        if not name or SEP in name:
            raise ValueError(f"a verb is a word without {SEP!r}: {name!r}")
        if rest and not params:
            raise ValueError("rest=True needs an argument to hold the rest")
        self.name = name
        self.params = params
        self.rest = rest
        self.prefix = name + SEP

    def __repr__(self) -> str:
        return f"Verb({self.name!r}{''.join(', ' + repr(p) for p in self.params)})"

    def __call__(self, *args: object) -> Action:
        """The action string for ``args`` (one per parameter)."""
        if len(args) == 1 == len(self.params):
            # The common case, kept short: search bots build prompts (and so actions)
            # thousands of times a decision.
            word = str(args[0])
            if SEP in word and not self.rest:
                raise ValueError(f"{self.name}: argument {self.params[0]!r} holds {SEP!r}")
            return self.prefix + word
        if len(args) != len(self.params):
            raise TypeError(
                f"{self.name} takes {len(self.params)} argument(s) "
                f"({', '.join(self.params) or 'none'}), got {len(args)}"
            )
        words = [str(arg) for arg in args]
        last = len(words) - 1
        for index, word in enumerate(words):
            if SEP in word and not (self.rest and index == last):
                raise ValueError(f"{self.name}: argument {self.params[index]!r} holds {SEP!r}")
        return SEP.join([self.name, *words])

    def matches(self, action: Action) -> bool:
        """Whether ``action`` is this verb (with any arguments)."""
        if not self.params:
            return action == self.name
        return action.startswith(self.prefix)

    def args(self, action: Action) -> tuple[str, ...]:
        """The arguments of ``action``, checked to be this verb with the right count."""
        if not self.matches(action):
            raise ValueError(f"{action!r} is not a {self.name!r} action")
        if not self.params:
            return ()
        body = action[len(self.prefix) :]
        parts = body.split(SEP, len(self.params) - 1) if self.rest else body.split(SEP)
        if len(parts) != len(self.params):
            raise ValueError(
                f"{action!r}: {self.name} takes {len(self.params)} argument(s) "
                f"({', '.join(self.params)})"
            )
        return tuple(parts)

    def arg(self, action: Action) -> str:
        """The only argument of a one-argument verb."""
        if len(self.params) != 1:
            raise TypeError(f"{self.name} takes {len(self.params)} arguments, not one")
        return self.args(action)[0]

    def number(self, action: Action) -> int:
        """The only argument, as a whole number."""
        return int(self.arg(action))


class Verbs:
    """A game's list of verbs, shared by its rules, bots and solo procedure."""

    def __init__(self, *verbs: Verb) -> None:
        self._by_name: dict[str, Verb] = {}
        for verb in verbs:
            if verb.name in self._by_name:
                raise ValueError(f"two verbs are named {verb.name!r}")
            self._by_name[verb.name] = verb

    def __iter__(self) -> Iterator[Verb]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Verb:
        return self._by_name[name]

    def verb_of(self, action: Action) -> Verb:
        """The verb ``action`` uses (ValueError when the game has none by that word)."""
        name = action.split(SEP, 1)[0]
        try:
            return self._by_name[name]
        except KeyError:
            raise ValueError(f"{action!r}: no verb {name!r} in this game") from None

    def parse(self, action: Action) -> tuple[Verb, tuple[str, ...]]:
        """The verb and arguments of ``action``."""
        verb = self.verb_of(action)
        return verb, verb.args(action)


def split(action: Action) -> tuple[str, tuple[str, ...]]:
    """A verb and its arguments, for code that reads an action without its game's list
    (logs, tools)."""
    name, *rest = action.split(SEP)
    return name, tuple(rest)
