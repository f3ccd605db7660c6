"""What search bots get besides their view: their seat's information set, and the
optional knowledge a game gives them to search better.

A search bot (information-set Monte Carlo tree search, in ``tabletop.adapters.bots``)
plays many futures of the game before it decides. It must never read what its seat
cannot see, so it is never handed the state: it gets an ``InformationSet`` that can
only *sample* full states, each drawn by the game's own ``determinize`` for that seat
(the opponents' hands, the deck order, hidden cups resampled). The leak checks test
every game's ``determinize``; a bot that only samples cannot cheat more than that.

``BotHints`` is how a game makes bots stronger without writing a bot: a rollout policy,
an evaluation of unfinished games, an ordering and pruning of the legal choices, and
how a finished game's scores count in the search's reward (``score_range``,
``score_weight``, ``reward``).
A plugin registers one per game through the ``tabletop_register_bot_hints`` hook; every
method has a neutral default, so a game overrides only what it knows about.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tabletop.framework.context import Context
from tabletop.framework.errors import Unsupported
from tabletop.framework.game import Action, GameDefinition, Prompt, Result, State, clone
from tabletop.framework.ports import Dice, RandomSource

if TYPE_CHECKING:
    from tabletop.framework.worlds import Replay

#: The default share of a finished game's reward that its scores make
#: (``BotHints.score_weight``) in a competitive game: enough to prefer the better of
#: two wins (or losses), never enough to prefer a high-scoring loss to a win.
COMPETITIVE_SCORE_WEIGHT = 0.1
#: ... and in a cooperative game (``GameInfo.cooperative``): the team's shared score
#: and its win count alike.
COOPERATIVE_SCORE_WEIGHT = 0.5


class InformationSet:
    """The states ``seat`` cannot tell apart from the real one, to sample from.

    ``sample`` returns a fresh full state each time: the game's ``determinize`` applied to
    a copy of the real state with the caller's random source, so the sample depends only
    on what the seat knows and on that source (the hidden parts are drawn again). A game
    whose secrets all come from the framework (``secrets_from_framework``) and that has
    no ``determinize`` of its own is sampled from the worlds the framework builds by
    replaying it (``worlds.Replay``, made once from ``replay``). The real state stays
    private to this object; bots use ``sample`` only.
    """

    def __init__(
        self,
        game: GameDefinition,
        state: State,
        seat: int,
        dice_factory: Callable[[RandomSource], Dice],
        replay: Callable[[], Replay] | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self._state = state
        self._dice_factory = dice_factory
        self._frozen: bytes | None = None
        self._tried = False
        self._make_replay = replay
        self._replay: Replay | None = None
        self._last: State | None = None

    def sample(self, rng: RandomSource) -> State:
        """A full state consistent with the seat's knowledge, hidden parts drawn from
        ``rng``; the caller may change it freely."""
        if (
            self._make_replay is not None
            and self.game.secrets_from_framework
            and type(self.game).determinize is GameDefinition.determinize
        ):
            return self._replayed(rng)
        ctx = Context(rng, self._dice_factory(rng), actor=self.seat)
        return self.game.determinize(self._copy(), self.seat, ctx)

    def _replayed(self, rng: RandomSource) -> State:
        """A replayed world; when a few replays find none, the last one found again (a
        sound sample too), or ``Unsupported`` before any was found."""
        if self._replay is None:
            assert self._make_replay is not None
            self._replay = self._make_replay()
        world = self._replay.world(self.seat, rng, strict=False)
        if world is not None:
            self._last = world
        if self._last is None:
            raise Unsupported(
                f"{self.game.info.id}: no replayed world fits what seat {self.seat} was told"
            )
        copy: State = clone(self._last)
        return copy

    def _copy(self) -> State:
        """A deep copy of the real state, equal to ``clone``'s.

        A search copies the same state once per iteration, and copying was a sixth of a
        Red Flag decision. So the first copy is made by ``clone`` and the state is also
        frozen into ``marshal`` bytes; when they load back equal to that copy (JSON-like
        data: no tuple, which ``clone`` turns into a list, nothing marshal cannot write),
        every later copy is loaded from the bytes, two to four times faster than
        ``clone`` (docs/performance.md). Otherwise ``clone`` makes every copy."""
        frozen = self._frozen
        if frozen is not None:
            copy: State = marshal.loads(frozen)
            return copy
        copy = clone(self._state)
        if not self._tried:
            self._tried = True
            try:
                frozen = marshal.dumps(self._state, 4)
            except ValueError:  # something marshal cannot write: clone it is
                return copy
            if marshal.loads(frozen) == copy:
                self._frozen = frozen
        return copy


class BotHints:
    """A game's optional advice to search bots. Subclass it and override what helps.

    Every method receives a full (sampled) state: hints run inside the bot's simulations,
    never on the real game, so they may read anything in the state they are given. They
    must be deterministic for a given state and random source, and fast: they run
    thousands of times per decision.
    """

    action_cost: float = 1.0
    """What one simulated action of this game costs the search (its ``apply``, the next
    prompt, the rollout's choice, and its share of sampling and evaluation), relative to
    one of Red Flag Over Paris, the reference. The search bots' cap on simulated actions
    per decision is divided by it, so that a game with dear actions searches fewer of
    them rather than keep a player waiting; the cap stays a count, so a bot's move does
    not depend on the machine. Measure it with ``tabletop bench --bots`` (µs per
    simulated action, against Red Flag's in the same run) and write the figures down
    (docs/bots.md)."""

    rollout_depth: int | None = None
    """Stop a simulated playout after this many actions and score it with ``evaluate``
    (None: always play to the end). Long games with a good ``evaluate`` search deeper
    trees in the same time with a short playout."""

    score_range: tuple[float, float] | None = None
    """The lowest and highest score a seat (or the team) can finish with, to bring a
    game's ``Result.scores`` into [0, 1] for the search's reward (min-max). None: the
    search uses the range of the scores its own playouts reached in this decision,
    which needs no declaration but is rougher in a decision's first playouts. Only a
    solitaire's or a cooperative game's scores need it: a competitive game's scores
    count relative to the other seats' (the best score 1, the worst 0)."""

    score_weight: float | None = None
    """The share of a finished game's reward that its scores make, the rest being the
    win (a sole winner 1, k winners of a tie 1/k each; a side's win 1 for each of its
    seats; in a cooperative game a team win is 1 for every seat). None:
    ``COOPERATIVE_SCORE_WEIGHT`` for a cooperative game (its shared score is what the
    team plays for), ``COMPETITIVE_SCORE_WEIGHT`` otherwise (winning
    is what counts; the margin only tells apart games that the win alone cannot).
    A game without scores is judged by its winners alone, as before issue 27."""

    def reward(self, game: GameDefinition, result: Result) -> Sequence[float] | None:
        """Each seat's reward for a finished game, in [0, 1] and in seat order, for a
        game whose utility the default cannot express (see ``score_weight``); None
        (the default) for the search's own, from the winners and the scores."""
        return None

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        """The move a simulated player makes in a playout (default: drawn by
        ``rollout_weights``, uniformly when it gives none).

        A cheap rule of thumb that avoids obvious blunders makes playouts far more
        telling than random play."""
        weights = self.rollout_weights(game, state, prompt)
        if weights is None:
            return rng.choice(prompt.choices).action
        return rng.weighted_choice(prompt.choices, weights).action

    def rollout_weights(
        self, game: GameDefinition, state: State, prompt: Prompt
    ) -> Sequence[int] | None:
        """How much likelier each of ``prompt.choices`` is than the others in a playout,
        as whole numbers in the choices' order (0: never, while another can be played);
        None (the default) for uniform play. The usual rule of thumb needs only this:
        a simulated player who mostly builds and seldom throws a card away."""
        return None

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        """Each seat's chance of winning from this unfinished state, in [0, 1], in seat
        order; None when the game cannot judge it (the playout then goes on)."""
        return None

    def win_chances(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        """Each seat's chance of winning from this unfinished state as a person should
        read it (the hint key's "win chance"), in [0, 1], in seat order; None (the
        default) when ``evaluate`` already is one.

        Asked only where ``evaluate`` judged a cut playout. Override it when
        ``evaluate`` is tuned to steer the search rather than to be a calibrated
        probability: the search still maximises ``evaluate``, so its moves do not
        change; only the chance it reports does."""
        return None

    def reason(self, game: GameDefinition, state: State, prompt: Prompt, action: Action) -> str:
        """Why ``action`` is worth choosing at ``prompt``, in one line of the game's words
        ("Siege first: each Leader on the map costs a coin of taxes"), for the hint key
        to show under a suggestion; "" (the default) when the hints have nothing to say.

        ``state`` is one sample of the deciding seat's information set, as everywhere
        else here, so a reason can tell nothing the seat does not know. Asked only for
        the few choices a hint shows, so it may cost more than a rollout's move."""
        return ""

    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[Action]:
        """The choices worth searching, most promising first (default: all, in the
        prompt's order). Return a non-empty subset of ``prompt.actions()`` to prune
        obviously bad choices; the bot tries them in this order."""
        return prompt.actions()
