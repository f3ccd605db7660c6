"""Bots: players that choose from the legal choices seeing only their seat's view."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from tabletop.framework import chance
from tabletop.framework.errors import TabletopError
from tabletop.framework.game import Action, GameDefinition, Prompt, State, clone
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import InformationSet

if TYPE_CHECKING:
    from tabletop.framework.engine import Engine
    from tabletop.framework.worlds import Replay


class Bot(ABC):
    """A computer player. It gets the view, never the full state, so it cannot cheat."""

    name: str = "bot"
    reads_view: bool = True
    """False for a bot that decides from the prompt alone: ``bot_move`` then never builds
    the view (a third of an action's cost in a card game) and hands it an empty dict
    that refuses to be read."""

    @abstractmethod
    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        """Pick one of ``prompt.choices``; draw any randomness from ``rng`` only."""


class RandomBot(Bot):
    """Uniformly random legal play: the baseline for fuzzing and simulation."""

    name = "random"
    reads_view = False

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        return rng.choice(prompt.choices).action


class SearchBot(Bot):
    """A bot that plays futures out before it decides (information-set MCTS).

    Besides its view it gets its seat's ``InformationSet``: full states sampled by the
    game's ``determinize``, never the real state, so it cannot see what its seat cannot.
    """

    @abstractmethod
    def search(
        self,
        game: GameDefinition,
        view: dict[str, Any],
        prompt: Prompt,
        rng: RandomSource,
        information: InformationSet,
    ) -> Action:
        """Pick one of ``prompt.choices`` from samples of ``information``."""

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        raise TabletopError(f"the {self.name} bot searches: ask it through bot_move")

    def hurried(self, seconds: float) -> SearchBot:
        """This bot thinking at most ``seconds`` of wall-clock time on a decision, for a
        table where a person is waiting (``Table(patience=...)``); by default the bot
        itself (a search whose length is bounded otherwise)."""
        return self


class SampledPolicyBot(Bot):
    """A rule-based bot whose rules read the whole state (a solitaire's steward, a
    greedy player that counts the deck): ``bot_move`` hands it one state sampled from its
    seat's information set, so it still never sees the real one. Subclasses write
    ``policy``; a forced move is played without drawing a sample."""

    @abstractmethod
    def policy(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        """Pick one of ``prompt.choices`` as if ``state`` (a sample) were the game."""

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        raise TabletopError(f"the {self.name} bot decides on a sample: ask it through bot_move")


class UnreadView(dict[str, Any]):
    """The view a bot with ``reads_view = False`` gets (a new one each time): empty, and
    reading a key says that the bot's flag is wrong rather than a bare KeyError."""

    def __missing__(self, key: str) -> Any:
        raise TabletopError(
            f"this bot declared reads_view = False but read its view ({key!r}); "
            "set reads_view = True on it"
        )


#: Makes a bot for a game. Bot kinds are registered by name through a hook.
BotFactory = Callable[[GameDefinition], Bot]


def bot_seed(seed: int, seat: int) -> int:
    """A seed for a bot's own random stream, apart from the game's so that a bot's
    thinking never changes the game's dice (replay only needs the logged actions)."""
    return (seed * 1_000_003 + 7919 * (seat + 1)) % 2**63


def batch_seed(seed: int, index: int) -> int:
    """Seed of the index-th game of a batch run (``simulate``, ``fuzz``, tournaments):
    distinct, stable, printable, and the same scheme everywhere so that a game reported
    by one command can be played again by another."""
    return seed * 100_003 + index


#: How each bot class is asked (``SearchBot``, ``SampledPolicyBot`` or plain ``Bot``),
#: found once per class.
_KINDS: dict[type[Bot], str] = {}


def _replay_of(engine: Engine) -> Callable[[], Replay] | None:
    """How an information set replays ``engine``'s game, for a game whose secrets all
    come from the framework (None for the others: nothing to replay)."""
    if not engine.game.secrets_from_framework:
        return None

    def replay() -> Replay:
        from tabletop.framework.worlds import Replay

        return Replay.of(engine)

    return replay


def bot_move(
    engine: Engine, bot: Bot, rng_factory: Callable[[int], RandomSource] = chance.bot_rng
) -> Action:
    """The action ``bot`` takes at the engine's current prompt.

    This is the one way a bot is asked for a move: the session behind the UI,
    ``tabletop simulate``, ``tabletop fuzz`` and tournaments all come through here, so the
    same seed and seats play the same game everywhere. The bot's randomness is seeded by
    the game seed, its seat and the move number (never by how many moves it made before
    in this process), so a reloaded game plays on exactly as an uninterrupted one. It
    comes from ``rng_factory``: the bots' own generator (``chance.bot_rng``) unless a
    test passes another; never the game's, whose draws a save replays.
    The bot sees its seat's view and prompt, nothing else; a ``SearchBot`` also gets
    its seat's information set, which only samples states through ``determinize``, and
    a ``SampledPolicyBot`` one state sampled from it.
    """
    prompt = engine.prompt
    if prompt is None:
        raise ValueError("the game is over: no move to make")
    rng = rng_factory(bot_seed(engine.seed, prompt.seat) + len(engine.log))
    view = engine.view(prompt.seat) if bot.reads_view else UnreadView()
    kind = _KINDS.get(type(bot))
    if kind is None:  # an ABC's isinstance is slow for what is fixed per class
        kind = _KINDS[type(bot)] = (
            "search"
            if isinstance(bot, SearchBot)
            else "sample"
            if isinstance(bot, SampledPolicyBot)
            else "view"
        )
    if kind == "view":
        return bot.choose(engine.game, view, prompt, rng)
    if kind == "sample" and len(prompt.choices) == 1:  # forced: no sample to draw
        return prompt.choices[0].action
    information = InformationSet(
        engine.game, engine.state, prompt.seat, chance.dice_factory, replay=_replay_of(engine)
    )
    if kind == "search":
        return cast(SearchBot, bot).search(engine.game, view, prompt, rng, information)
    return cast(SampledPolicyBot, bot).policy(engine.game, information.sample(rng), prompt, rng)


def prepare_bot_move(
    engine: Engine,
    bot: Bot,
    rng_factory: Callable[[int], RandomSource] = chance.bot_rng,
    *,
    seconds: float | None = None,
) -> Callable[[], Action]:
    """``bot_move`` in two halves: what the bot may read is copied now (its seat's view
    and prompt, a copy of the state for its information set, its random stream), and
    the returned callable thinks, anywhere: on a worker thread while the game goes on,
    its move is the one ``bot_move`` would have made at this position (a searching bot
    thinking at most ``seconds`` when given: ``SearchBot.hurried``)."""
    if seconds is not None and isinstance(bot, SearchBot):
        bot = bot.hurried(seconds)
    prompt = engine.prompt
    if prompt is None:
        raise ValueError("the game is over: no move to make")
    rng = rng_factory(bot_seed(engine.seed, prompt.seat) + len(engine.log))
    view = engine.view(prompt.seat) if bot.reads_view else UnreadView()
    game = engine.game
    if not isinstance(bot, SearchBot | SampledPolicyBot):
        return lambda: bot.choose(game, view, prompt, rng)
    if isinstance(bot, SampledPolicyBot) and len(prompt.choices) == 1:
        forced = prompt.choices[0].action
        return lambda: forced
    state = clone(engine.state)

    def think() -> Action:
        information = InformationSet(game, state, prompt.seat, chance.dice_factory)
        if isinstance(bot, SearchBot):
            return bot.search(game, view, prompt, rng, information)
        return bot.policy(game, information.sample(rng), prompt, rng)

    return think
