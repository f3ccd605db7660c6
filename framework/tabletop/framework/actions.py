"""Typed actions: build and read a game's action strings through declared verbs.

An action is a string (it goes into saves and logs as it is), conventionally a verb and
its arguments joined by ``:`` (``"play:12"``, ``"move:north:3"``). Splitting those by
hand in rules, bots and solitaire procedures spreads the format over a game, lets a
misspelt verb pass silently and leaves every argument a plain string. A game declares
each verb once, with its arguments' types::

    PLAY = Verb("play", Int("card", 1, 110))
    MOVE = Verb("move", Name("army", ARMIES), Name("to", REGIONS))
    BID = Verb("bid", Seat("rival"), Member("suit", Suit))
    VERBS = Verbs(PLAY, MOVE, BID, PASS := Verb("pass"))

    PLAY(12)                        # "play:12"
    PLAY.value("play:12")           # 12, an int
    MOVE.values("move:a3:paris")    # ("a3", "paris"), each checked to be in its table
    VERBS.verb_of("move:a3:paris")  # MOVE

and rules, bots and the solo opponent share that one list. The declaration is the
whole format: building an action checks each argument against its type (``PLAY(0)``
raises: 0 is not a card), reading one parses each word into its type, and every error
says, from the declaration, what was expected ("'play:x': card must be a whole number
from 1 to 110, not 'x'"). mypy knows the types too: ``PLAY`` is a ``Verb[int]``, so
``PLAY("12")`` and ``PLAY(1, 2)`` are type errors and ``PLAY.value(action)`` is an
``int``. An argument given as a bare name (``Verb("play", "card")``, the older form) is
``Text``: any word, read as a string.

Strings stay the format, so saves do not change.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Unpack, overload

from tabletop.framework.game import Action

SEP = ":"

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E", bound=enum.Enum)
if TYPE_CHECKING:  # a default (PEP 696), so that a bare ``Verb`` annotation still checks
    from typing_extensions import TypeVarTuple

    Ts = TypeVarTuple("Ts", default=Unpack[tuple[Any, ...]])
else:
    from typing import TypeVarTuple

    Ts = TypeVarTuple("Ts")

#: Most names a ``Name`` or ``Member`` error lists before "...".
_LISTED = 12


class ActionError(ValueError):
    """An action string (or an argument for one) that does not fit its verb's
    declaration; the message says what the declaration expects."""


class Arg(Generic[T]):
    """One argument of a verb: its name, and how its value is written into an action
    and read back. Subclasses are the argument types (``Text``, ``Int``, ``Seat``,
    ``Name``, ``Member``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if not name or SEP in name:
            raise ValueError(f"an argument's name is a word without {SEP!r}: {name!r}")
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def describe(self) -> str:
        """What the argument must be, in words ("a whole number from 1 to 3")."""
        return "a word"

    def word(self, value: T) -> str:
        """``value`` as it is written in an action (ValueError when it is not one)."""
        return str(value)

    def parse(self, word: str) -> T:
        """The value ``word`` stands for (ValueError when it stands for none)."""
        raise NotImplementedError

    def _refuse(self, value: object) -> ActionError:
        return ActionError(f"{self.name} must be {self.describe()}, not {value!r}")


class Text(Arg[str]):
    """Any word (without ``:``, unless it is a ``rest`` verb's last argument). Any
    value is written as ``str(value)``, as verbs always did (``PLACE("left", 1)``);
    declare ``Int`` to have a number checked and read back as one."""

    __slots__ = ()

    def word(self, value: str) -> str:
        return str(value)

    def parse(self, word: str) -> str:
        return word


class Int(Arg[int]):
    """A whole number, optionally within ``low`` and ``high`` (both included)."""

    __slots__ = ("high", "low")

    def __init__(self, name: str, low: int | None = None, high: int | None = None) -> None:
        super().__init__(name)
        if low is not None and high is not None and low > high:
            raise ValueError(f"{name}: low {low} is above high {high}")
        self.low = low
        self.high = high

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            return f"a whole number from {self.low} to {self.high}"
        if self.low is not None:
            return f"a whole number of at least {self.low}"
        if self.high is not None:
            return f"a whole number of at most {self.high}"
        return "a whole number"

    def _check(self, value: int, shown: object) -> int:
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise self._refuse(shown)
        return value

    def word(self, value: int) -> str:
        if type(value) is not int:  # not a bool, not a float, not a numeric string
            raise self._refuse(value)
        return str(self._check(value, value))

    def parse(self, word: str) -> int:
        digits = word[1:] if word.startswith("-") else word
        if not digits.isascii() or not digits.isdigit():
            raise self._refuse(word)
        return self._check(int(word), word)


class Seat(Int):
    """A seat, by its number (0 for the first seat). The verb cannot know how many
    seats a game has: the prompt's choices say which seats may be named."""

    __slots__ = ()

    def __init__(self, name: str) -> None:
        super().__init__(name, low=0)

    def describe(self) -> str:
        return "a seat number (0 for the first seat)"


class Name(Arg[str]):
    """A name from a table the game declares (a region, a card, a unit kind): the
    table's keys, or the words of a list. The table is read once, when the verb is
    declared."""

    __slots__ = ("names",)

    def __init__(self, name: str, table: Iterable[str]) -> None:
        super().__init__(name)
        self.names = frozenset(str(key) for key in table)
        if not self.names:
            raise ValueError(f"{name}: the table of names is empty")
        bad = sorted(key for key in self.names if SEP in key)
        if bad:
            raise ValueError(f"{name}: a name in the table holds {SEP!r}: {bad[0]!r}")

    def describe(self) -> str:
        return "one of: " + _listed(sorted(self.names))

    def word(self, value: str) -> str:
        if value not in self.names:
            raise self._refuse(value)
        return value

    def parse(self, word: str) -> str:
        if word not in self.names:
            raise self._refuse(word)
        return word


class Member(Arg[E]):
    """A member of an ``enum.Enum``, written as its value (``Suit.RED`` with value
    ``"red"`` is ``red``)."""

    __slots__ = ("by_word", "enum")

    def __init__(self, name: str, kind: type[E]) -> None:
        super().__init__(name)
        self.enum = kind
        self.by_word = {str(member.value): member for member in kind}
        bad = sorted(word for word in self.by_word if SEP in word or not word)
        if bad:
            raise ValueError(f"{name}: {kind.__name__} has a value that is not a word: {bad[0]!r}")

    def describe(self) -> str:
        return "one of: " + _listed(list(self.by_word))

    def word(self, value: E) -> str:
        if not isinstance(value, self.enum):
            raise self._refuse(value)
        return str(value.value)

    def parse(self, word: str) -> E:
        member = self.by_word.get(word)
        if member is None:
            raise self._refuse(word)
        return member


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown + (", ..." if len(names) > _LISTED else "")


class Verb(Generic[*Ts]):
    """One kind of action: its word and its arguments, each a declared ``Arg`` (a bare
    name is ``Text``). ``rest=True`` lets the last argument, which must be ``Text``,
    hold separators of its own (a free-form key).

    Typed for mypy with up to four typed arguments: ``Verb("move", Name("army", A),
    Int("steps"))`` is a ``Verb[str, int]``; a verb with bare names or more arguments
    is a ``Verb[*tuple[Any, ...]]``, checked at run time only."""

    __slots__ = ("_plain", "name", "params", "prefix", "rest", "types")

    @overload
    def __init__(self: Verb[()], name: str, /, *, rest: bool = ...) -> None: ...
    @overload
    def __init__(self: Verb[A], name: str, a: Arg[A], /, *, rest: bool = ...) -> None: ...
    @overload
    def __init__(
        self: Verb[A, B], name: str, a: Arg[A], b: Arg[B], /, *, rest: bool = ...
    ) -> None: ...
    @overload
    def __init__(
        self: Verb[A, B, C], name: str, a: Arg[A], b: Arg[B], c: Arg[C], /, *, rest: bool = ...
    ) -> None: ...
    @overload
    def __init__(
        self: Verb[A, B, C, D],
        name: str,
        a: Arg[A],
        b: Arg[B],
        c: Arg[C],
        d: Arg[D],
        /,
        *,
        rest: bool = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Verb[*tuple[Any, ...]], name: str, /, *params: Arg[Any] | str, rest: bool = ...
    ) -> None: ...

    def __init__(self, name: str, /, *params: Arg[Any] | str, rest: bool = False) -> None:
        if not name or SEP in name:
            raise ValueError(f"a verb is a word without {SEP!r}: {name!r}")
        if rest and not params:
            raise ValueError("rest=True needs an argument to hold the rest")
        types = tuple(Text(param) if isinstance(param, str) else param for param in params)
        if rest and not isinstance(types[-1], Text):
            raise ValueError(f"{name}: rest=True needs a Text last argument, not {types[-1]!r}")
        names = [arg.name for arg in types]
        if len(set(names)) != len(names):
            raise ValueError(f"{name}: two arguments share a name: {names}")
        self.name = name
        self.types: tuple[Arg[Any], ...] = types
        """The arguments' declarations, in order."""
        self.params: tuple[str, ...] = tuple(names)
        """The arguments' names, in order."""
        self.rest = rest
        self.prefix = name + SEP
        #: Every argument is Text: an action is its words joined (the common case,
        #: kept short: search bots build actions thousands of times a decision).
        self._plain = all(type(arg) is Text for arg in types)

    def __repr__(self) -> str:
        return f"Verb({self.name!r}{''.join(', ' + repr(arg) for arg in self.types)})"

    @property
    def arity(self) -> int:
        """How many arguments the verb takes."""
        return len(self.types)

    def usage(self) -> str:
        """The verb's form in words, for messages: ``move:<army>:<to>``."""
        return SEP.join([self.name, *(f"<{name}>" for name in self.params)])

    def __call__(self, *args: *Ts) -> Action:
        """The action string for ``args`` (one per argument, each of its type)."""
        types = self.types
        given: tuple[Any, ...] = args
        if not given and not types:
            return self.name
        if self._plain and len(given) == 1 == len(types):
            word = str(given[0])
            if SEP in word and not self.rest:
                raise ActionError(f"{self.name}: argument {self.params[0]!r} holds {SEP!r}")
            return self.prefix + word
        if len(given) != len(types):
            raise TypeError(
                f"{self.name} takes {len(types)} argument(s) "
                f"({', '.join(self.params) or 'none'}), got {len(given)}"
            )
        words = []
        last = len(types) - 1
        for index, (arg, value) in enumerate(zip(types, given, strict=True)):
            try:
                word = arg.word(value)
            except ActionError as exc:
                raise ActionError(f"{self.name}: {exc}") from None
            if SEP in word and not (self.rest and index == last):
                raise ActionError(f"{self.name}: argument {arg.name!r} holds {SEP!r}: {word!r}")
            words.append(word)
        return SEP.join([self.name, *words])

    def matches(self, action: Action) -> bool:
        """Whether ``action`` is this verb (with any arguments)."""
        if not self.types:
            return action == self.name
        return action.startswith(self.prefix)

    def args(self, action: Action) -> tuple[str, ...]:
        """The arguments of ``action`` as they are written (words), checked to be this
        verb with the right count; ``values`` reads them into their types."""
        if not self.matches(action):
            raise ActionError(f"{action!r} is not a {self.name!r} action ({self.usage()})")
        if not self.types:
            return ()
        body = action[len(self.prefix) :]
        parts = body.split(SEP, len(self.types) - 1) if self.rest else body.split(SEP)
        if len(parts) != len(self.types):
            raise ActionError(
                f"{action!r}: {self.name} takes {len(self.types)} argument(s) ({self.usage()})"
            )
        return tuple(parts)

    def values(self, action: Action) -> tuple[*Ts]:
        """The arguments of ``action``, each read into its declared type; an
        ``ActionError`` says which argument does not fit and what it must be."""
        words = self.args(action)
        values: list[Any] = []
        for arg, word in zip(self.types, words, strict=True):
            try:
                values.append(arg.parse(word))
            except ActionError as exc:
                raise ActionError(f"{action!r}: {exc}") from None
        return tuple(values)  # each parsed by its own Arg: the declared types

    def value(self: Verb[A], action: Action) -> A:
        """The only argument of a one-argument verb, read into its type."""
        if len(self.types) != 1:
            raise TypeError(f"{self.name} takes {len(self.types)} arguments, not one")
        (value,) = self.values(action)
        return value

    def arg(self, action: Action) -> str:
        """The only argument of a one-argument verb, as it is written."""
        if len(self.types) != 1:
            raise TypeError(f"{self.name} takes {len(self.types)} arguments, not one")
        return self.args(action)[0]

    def number(self, action: Action) -> int:
        """The only argument, as a whole number (for a ``Text`` argument that holds
        one; an ``Int`` argument reads itself with ``value``)."""
        word = self.arg(action)
        try:
            return int(word)
        except ValueError:
            raise ActionError(f"{action!r}: {self.params[0]} must be a whole number") from None


class Verbs:
    """A game's list of verbs, shared by its rules, bots and solo procedure."""

    def __init__(self, *verbs: Verb[*tuple[Any, ...]]) -> None:
        self._by_name: dict[str, Verb[*tuple[Any, ...]]] = {}
        for verb in verbs:
            if verb.name in self._by_name:
                raise ValueError(f"two verbs are named {verb.name!r}")
            self._by_name[verb.name] = verb

    def __iter__(self) -> Iterator[Verb[*tuple[Any, ...]]]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Verb[*tuple[Any, ...]]:
        return self._by_name[name]

    def verb_of(self, action: Action) -> Verb[*tuple[Any, ...]]:
        """The verb ``action`` uses (``ActionError`` when the game has none by that
        word: the message lists the game's verbs)."""
        name = action.split(SEP, 1)[0]
        try:
            return self._by_name[name]
        except KeyError:
            known = _listed(sorted(self._by_name))
            raise ActionError(f"{action!r}: no verb {name!r} in this game ({known})") from None

    def parse(self, action: Action) -> tuple[Verb[*tuple[Any, ...]], tuple[str, ...]]:
        """The verb and the arguments of ``action``, as they are written."""
        verb = self.verb_of(action)
        return verb, verb.args(action)

    def read(self, action: Action) -> tuple[Verb[*tuple[Any, ...]], tuple[Any, ...]]:
        """The verb and the arguments of ``action``, each read into its declared type."""
        verb = self.verb_of(action)
        return verb, verb.values(action)


def split(action: Action) -> tuple[str, tuple[str, ...]]:
    """A verb and its arguments, for code that reads an action without its game's list
    (logs, tools)."""
    name, *rest = action.split(SEP)
    return name, tuple(rest)
