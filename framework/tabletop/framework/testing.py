"""Pytest plugin (entry point ``pytest11``): the conformance kit for game authors.

Why: every game must keep the same promises (a game is a seed plus a log; saves
reload; views hide what they should; illegal input changes nothing), and each author
should not have to think up the tests for them. Subclass ``GameConformance`` in a
``Test*`` class, set ``game``, and pytest runs the whole suite against your game::

    from tabletop.framework.testing import GameConformance
    from tabletop.games.pig import Pig

    class TestPigConformance(GameConformance):
        game = Pig()

The kit covers the smallest and largest player counts and, for options, the defaults
plus each non-default value on its own (override ``players`` / ``option_sets`` to
choose). Hidden information is checked by resampling: ``hidden_variants`` returns a
state that differs from the real one only in what ``seat`` may not know (by default
the game's own ``determinize``); the seat's view and prompt must not change, and
nothing it receives from the next action (events, a public choice's line, the view
after it) may change either, except what the action reveals to that seat
(``ctx.reveal(text, seats=...)``, a draw it sees): the same rules as ``tabletop
fuzz``. Random draws are also perturbed one at a time: a draw whose effect is hidden
from a seat's view must not show in its events. A failure names the seat, the channel
and the view's key path or the event. See ``tabletop.framework.leaks`` for the
reasoning.

It imports only the framework (it is loaded in every pytest run, and a plugin's tests
need nothing but the framework distribution).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import pytest

from tabletop.framework.bots import Bot, RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.context import Context
from tabletop.framework.engine import Engine
from tabletop.framework.errors import GameOver, IllegalAction, Unsupported
from tabletop.framework.fuzz import ILLEGAL_ACTION, MAX_ACTIONS, fuzz
from tabletop.framework.game import GameDefinition, State, clone
from tabletop.framework.leaks import BadWorld, Leak, LeakChecker, first_difference
from tabletop.framework.record import GameRecord
from tabletop.framework.search import InformationSet
from tabletop.framework.soundness import json_problem
from tabletop.framework.views import check_view_schema, shared_part
from tabletop.framework.worlds import Replay

if TYPE_CHECKING:
    from tabletop.framework.ports import Dice, RandomSource

Config = tuple[int, dict[str, str]]


def default_factories() -> tuple[Callable[[int], RandomSource], Callable[[RandomSource], Any]]:
    """The reference RNG and dice (the ones saves are made with)."""
    return rng_factory, dice_factory


def new_engine(
    game: GameDefinition,
    *,
    seed: int = 1,
    players: int = 2,
    options: Mapping[str, str] | None = None,
    undo: bool = True,
    dice: Callable[[RandomSource], Dice] | None = None,
) -> Engine:
    """An engine with the default adapters: what tests usually want.

    ``undo=False`` is batch play (no undo snapshots); ``dice`` replaces the seeded dice
    (``lambda rng: LoadedDice([6, 1])`` for a rulebook example's faces).
    """
    rng_factory, dice_factory = default_factories()
    return Engine(
        game,
        seed=seed,
        players=players,
        options=options,
        rng_factory=rng_factory,
        dice_factory=dice or dice_factory,
        undo=undo,
    )


def engine_from_state(
    game: GameDefinition,
    state: State,
    *,
    players: int,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
) -> Engine:
    """An engine that plays on from a hand-made ``state`` (a rulebook situation), with
    the default adapters and the full legality checks (``Engine.from_state``)."""
    rng_factory, dice_factory = default_factories()
    return Engine.from_state(
        game,
        state,
        seed=seed,
        players=players,
        options=options,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )


def replay(
    game: GameDefinition, record: GameRecord, *, upto: int | None = None, verify: bool = True
) -> Engine:
    """``Engine.from_record`` with the default adapters (raises ReplayMismatch)."""
    rng_factory, dice_factory = default_factories()
    return Engine.from_record(
        game, record, rng_factory=rng_factory, dice_factory=dice_factory, upto=upto, verify=verify
    )


def reload(game: GameDefinition, record: GameRecord, *, verify: bool = True) -> Engine:
    """Replay a record with the default adapters after a trip through JSON text."""
    text = json.dumps(record.to_json())
    return replay(game, GameRecord.from_json(json.loads(text)), verify=verify)


def play_out(
    engine: Engine,
    bots: Bot | Sequence[Bot] | None = None,
    *,
    until: Callable[[Engine], bool] | None = None,
    limit: int = 100_000,
) -> Engine:
    """Let bots play ``engine`` on, through ``bot_move`` (the one way a bot is asked, so
    the same seed gives the same game as ``tabletop simulate``), until the game is over,
    ``until(engine)`` holds or ``limit`` actions were made; return the engine.

    ``bots`` is one bot for every seat or one per seat (default: random play).
    """
    chosen: Bot | Sequence[Bot] = RandomBot() if bots is None else bots
    for _ in range(limit):
        prompt = engine.prompt
        if prompt is None or (until is not None and until(engine)):
            return engine
        bot = chosen if isinstance(chosen, Bot) else chosen[prompt.seat]
        engine.act(prompt.seat, bot_move(engine, bot))
    raise AssertionError(f"no result after {limit} actions")


def sample(engine: Engine, seat: int, *, seed: int = 0) -> State:
    """A full state drawn from what ``seat`` knows of ``engine``'s game: exactly what a
    search bot in that seat samples (its ``InformationSet``, the game's
    ``determinize``), so a rules test can look at the worlds a seat cannot tell apart
    and check that everything hidden from it was drawn again. ``seed`` picks the draw.

    Raises ``Unsupported`` when the game cannot be sampled (hidden information and no
    ``determinize``), ValueError for a seat the game does not have."""
    if not 0 <= seat < engine.players:
        raise ValueError(f"seat {seat} is not a seat of this game (0-{engine.players - 1})")
    rng_factory, dice_factory = default_factories()

    def replay() -> Replay:
        return Replay.of(engine)

    information = InformationSet(engine.game, engine.state, seat, dice_factory, replay=replay)
    return information.sample(rng_factory(seed))


@pytest.fixture
def tabletop_engine() -> Callable[..., Engine]:
    """``tabletop_engine(game, seed=1, players=2, **options)``: an engine, default adapters."""

    def build(game: GameDefinition, seed: int = 1, players: int = 2, **options: str) -> Engine:
        return new_engine(game, seed=seed, players=players, options=options)

    return build


def _roundtrip_due(actions: int) -> bool:
    """Whether the records test reloads the game after this many actions: every 7th
    action of the first 70, then at doubling distances, and (by the caller) at the end.

    Each reload replays the whole log, so checking every 7th action of a long game
    costs the square of its length (a 600-action game took most of a minute); the
    doubling schedule keeps the total near twice one replay while the early actions,
    where most set-up and first-turn bugs are, stay densely checked.
    """
    if actions <= 70:
        return actions % 7 == 0
    return actions & (actions - 1) == 0  # a power of two


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: tests inherited from GameConformance")


class GameConformance:
    """Inherit from this in a ``Test*`` class and set ``game`` to get the suite."""

    game: ClassVar[GameDefinition]
    #: Player counts to cover (default: the smallest and largest).
    players: ClassVar[Sequence[int] | None] = None
    #: Option sets to cover (default: the defaults, then each non-default value alone).
    option_sets: ClassVar[Sequence[Mapping[str, str]] | None] = None
    #: Seeds each configuration is played with.
    seeds: ClassVar[Sequence[int]] = (1, 2, 3)
    #: Games the fuzz test plays (player counts and options vary per game).
    fuzz_games: ClassVar[int] = 40
    #: Seed of the fuzz run (its games use seeds fuzz_seed * 100003 + 0, 1, 2...).
    fuzz_seed: ClassVar[int] = 0
    #: Longest game allowed before the game is called stuck.
    max_actions: ClassVar[int] = MAX_ACTIONS
    #: How many states per game the view and refusal checks sample.
    samples: ClassVar[int] = 12

    # Hooks an author may override ----------------------------------------------------

    def hidden_variants(self, state: State, seat: int, rng: RandomSource) -> State:
        """A state that differs from ``state`` only in what ``seat`` cannot know.

        Default: the game's ``determinize``. Raise ``Unsupported`` to skip the check.
        """
        _, dice_factory = default_factories()
        return self.game.determinize(clone(state), seat, Context(rng, dice_factory(rng)))

    # Helpers -------------------------------------------------------------------------

    def configurations(self) -> list[Config]:
        info = self.game.info
        counts = self.players or sorted({info.min_players, info.max_players})
        if self.option_sets is not None:
            sets = [dict(options) for options in self.option_sets]
        else:
            sets = [{}]
            for spec in info.options:
                sets.extend({spec.key: value} for value in spec.values() if value != spec.default)
        return [(count, options) for count in counts for options in sets]

    def games(self) -> Iterator[tuple[str, Engine]]:
        """A fresh engine for every configuration and seed, with a label for messages."""
        for players, options in self.configurations():
            for seed in self.seeds:
                label = f"{self.game.info.id} seed={seed} players={players} options={options}"
                yield label, new_engine(self.game, seed=seed, players=players, options=options)

    def play_random(
        self, engine: Engine, *, seed: int, each: Callable[[Engine], None] | None = None
    ) -> list[str]:
        """Play uniformly random legal actions to the end; return the digest trail.

        ``each`` is called on the engine before the first and after every action.
        """
        rng_factory, _ = default_factories()
        chooser = rng_factory(seed ^ 0x5EED)
        trail = [engine.digest()]
        if each is not None:
            each(engine)
        while engine.prompt is not None:
            assert len(engine.log) < self.max_actions, f"no result after {self.max_actions} actions"
            prompt = engine.prompt
            engine.act(prompt.seat, chooser.choice(prompt.choices).action)
            trail.append(engine.digest())
            if each is not None:
                each(engine)
        return trail

    def sampled(self, engine: Engine, seed: int) -> list[Engine]:
        """Copies of ``engine`` at up to ``samples`` points of a random game."""
        snapshots: list[GameRecord] = []
        self.play_random(engine, seed=seed, each=lambda e: snapshots.append(e.record()))
        step = max(1, len(snapshots) // self.samples)
        chosen = [*snapshots[::step][: self.samples], snapshots[-1]]
        return [reload(self.game, record) for record in chosen]

    # The suite -----------------------------------------------------------------------

    @pytest.mark.conformance
    def test_info_is_complete(self) -> None:
        info = self.game.info
        assert info.id and info.title, "GameInfo needs an id and a title"
        assert 1 <= info.min_players <= info.max_players
        for spec in info.options:
            assert spec.default in spec.values(), f"option {spec.key}: default not a choice"
        for players, options in self.configurations():
            engine = new_engine(self.game, seed=0, players=players, options=options)
            assert len(engine.seat_names) == players, "seat_names must name every seat"
        assert isinstance(self.game.rules_summary(), str)

    @pytest.mark.conformance
    def test_same_seed_and_actions_give_the_same_game(self) -> None:
        for label, engine in self.games():
            trail = self.play_random(engine, seed=engine.seed)
            again = new_engine(
                self.game, seed=engine.seed, players=engine.players, options=engine.options
            )
            replayed = [again.digest()]
            for entry in engine.log:
                again.act(entry.seat, entry.action)
                replayed.append(again.digest())
            assert replayed == trail, f"{label}: same seed and actions, another game"

    @pytest.mark.conformance
    def test_records_round_trip_through_json(self) -> None:
        for label, engine in self.games():
            checked: list[int] = []

            def check(live: Engine, label: str = label, checked: list[int] = checked) -> None:
                if not _roundtrip_due(len(live.log)) and live.prompt is not None:
                    return
                record = live.record()
                back = reload(self.game, record)
                assert back.digest() == live.digest(), f"{label}: reload differs"
                assert back.record().to_json() == record.to_json(), f"{label}: record differs"
                checked.append(len(live.log))

            self.play_random(engine, seed=engine.seed, each=check)
            assert checked, f"{label}: no record was checked"

    @pytest.mark.conformance
    def test_state_is_plain_json(self) -> None:
        for label, engine in self.games():

            def check(live: Engine, label: str = label) -> None:
                problem = json_problem(live.state)
                assert problem is None, f"{label} after {len(live.log)} actions: {problem}"

            self.play_random(engine, seed=engine.seed, each=check)

    @pytest.mark.conformance
    def test_views_are_json_and_leave_the_state_alone(self) -> None:
        for label, engine in self.games():
            for sample in self.sampled(engine, engine.seed):
                before = sample.digest()
                for seat in [*range(sample.players), None]:
                    view = self.game.view(sample.state, seat)
                    assert isinstance(view, dict), f"{label}: view must be a dict"
                    problem = json_problem(view, "view") or check_view_schema(view, sample.players)
                    assert problem is None, f"{label}: view for seat {seat}: {problem}"
                    if self.game.fresh_views:  # the engine hands such views out uncopied
                        again = self.game.view(sample.state, seat)
                        shared = shared_part(view, sample.state, again)
                        assert shared is None, (
                            f"{label}: fresh_views is set but {shared} (seat {seat}) is "
                            "shared with the state or with the next view"
                        )
                    who = "the spectator" if seat is None else f"seat {seat}"
                    assert sample.digest() == before, (
                        f"{label}: building the view for {who} changed the state (a view "
                        "must only read it: such a game's saves never load again)"
                    )

    @pytest.mark.conformance
    def test_prompt_leaves_the_state_alone(self) -> None:
        """``prompt`` (and ``explain``) run whenever a front end asks what comes next:
        a change there is not in the log, so the save's digest could never be replayed."""
        for label, engine in self.games():
            for sample in self.sampled(engine, engine.seed):
                before = sample.digest()
                prompt = self.game.prompt(sample.state)
                assert sample.digest() == before, f"{label}: prompt() changed the state"
                if prompt is not None:
                    self.game.explain(sample.state, prompt)
                    assert sample.digest() == before, f"{label}: explain() changed the state"

    def _authored_variants(self) -> bool:
        """Whether worlds come from the author (``hidden_variants`` or ``determinize``)
        rather than from the framework's replay (a game whose secrets all come from the
        framework may write neither)."""
        return type(self).hidden_variants is not GameConformance.hidden_variants or (
            type(self.game).determinize is not GameDefinition.determinize
        )

    def _variants(self, engine: Engine, seat: int, rng: RandomSource) -> list[State]:
        """Worlds ``seat`` cannot tell apart at ``engine``'s position: the author's
        (``hidden_variants``, ``determinize``) and, for a game whose secrets all come
        from the framework, a replayed one (none when no replay found one)."""
        found = []
        if not self.game.secrets_from_framework or self._authored_variants():
            found.append(self.hidden_variants(engine.state, seat, rng))
        if self.game.secrets_from_framework:
            world = Replay.of(engine).world(seat, rng)
            if world is not None:
                found.append(world)
        return found

    @pytest.mark.conformance
    def test_views_hide_hidden_information(self) -> None:
        rng_factory, _ = default_factories()
        checked = 0
        for label, engine in self.games():
            if not self.game.hides_information(engine.options):
                continue
            for sample in self.sampled(engine, engine.seed):
                for seat in range(sample.players):
                    rng = rng_factory(engine.seed * 31 + seat)
                    try:
                        variants = self._variants(sample, seat, rng)
                    except Unsupported as exc:
                        pytest.skip(f"no way to resample hidden information: {exc}")
                    except Leak as exc:
                        raise AssertionError(
                            f"{label}, {len(sample.log)} actions: a leak: {exc}"
                        ) from None
                    seen = self.game.view(sample.state, seat)
                    for variant in variants:
                        differs = first_difference(seen, self.game.view(variant, seat))
                        assert differs is None, (
                            f"{label}, {len(sample.log)} actions: seat {seat}, through its "
                            f"view: the view changed at field {differs[0]} ({differs[1]!r} "
                            f"here, {differs[2]!r} in a resampled state) when only "
                            "information hidden from it changed (a leak)"
                        )
                        checked += 1
        if not checked:
            pytest.skip("no configuration hides information")

    @pytest.mark.conformance
    def test_nothing_a_seat_receives_leaks(self) -> None:
        """Events, the log, prompts and views after each action: every channel a seat
        (or a bot in it, or the public export) receives, checked by counterfactuals; and
        every world ``determinize`` makes, held to what the game can be in (and, for a
        game whose secrets all come from the framework, to the worlds a replay builds)."""
        rng_factory, dice_factory = default_factories()
        checked = 0
        for label, engine in self.games():
            if not self.game.hides_information(engine.options):
                continue
            checker = LeakChecker(
                self.game,
                players=engine.players,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                seed=engine.seed,
                resample=self.hidden_variants
                if type(self).hidden_variants is not GameConformance.hidden_variants
                else None,
            )
            if self.game.secrets_from_framework:
                checker.replay = Replay.of(engine)
            chooser = rng_factory(engine.seed ^ 0x5EED)
            try:
                checker.check_setup(engine.options)
                while engine.prompt is not None and len(engine.log) < self.max_actions:
                    prompt = engine.prompt
                    state, rng_state = clone(engine.state), engine.rng_state()
                    action = chooser.choice(prompt.choices).action
                    engine.act(prompt.seat, action)
                    checker.check_action(
                        state, rng_state, prompt.seat, action, salt=len(engine.log)
                    )
                    if checker.replay is not None:
                        checker.replay.extend(prompt.seat, action)
                        if len(engine.log) % 4 == 0:
                            checker.check_worlds(engine.state, salt=len(engine.log))
                    checked += 1
            except Unsupported as exc:
                pytest.skip(f"no way to resample hidden information: {exc}")
            except BadWorld as exc:
                raise AssertionError(
                    f"{label}, action {len(engine.log)}: determinize: {exc}"
                ) from None
            except Leak as exc:
                raise AssertionError(f"{label}, action {len(engine.log)}: a leak: {exc}") from None
            if not checker.supported:
                pytest.skip("no way to resample hidden information (no determinize)")
        if not checked:
            pytest.skip("no configuration hides information")

    @pytest.mark.conformance
    def test_illegal_actions_are_refused_without_change(self) -> None:
        for label, engine in self.games():
            for sample in self.sampled(engine, engine.seed):
                before = (sample.digest(), len(sample.log), len(sample.history))
                prompt = sample.prompt
                attempts: list[tuple[int, str]] = []
                if prompt is None:
                    attempts.append((0, ILLEGAL_ACTION))
                else:
                    attempts.append((prompt.seat, ILLEGAL_ACTION))
                    if sample.players > 1:
                        wrong = (prompt.seat + 1) % sample.players
                        attempts.append((wrong, prompt.choices[0].action))
                for seat, action in attempts:
                    expected = GameOver if prompt is None else IllegalAction
                    with pytest.raises(expected):
                        sample.act(seat, action)
                    after = (sample.digest(), len(sample.log), len(sample.history))
                    assert after == before, f"{label}: a refused action changed the game"

    @pytest.mark.conformance
    def test_fuzz(self) -> None:
        """``fuzz_games`` games through every fuzzer check. With ``players`` or
        ``option_sets`` set, the games are shared out over those configurations (a game
        declared for 5-6 players is fuzzed at 5 and 6 only if the kit says so); without,
        each game draws its player count and options as ``tabletop fuzz`` does."""
        rng_factory, dice_factory = default_factories()
        pinned: list[tuple[int | None, dict[str, str] | None]] = [(None, None)]
        if self.players is not None or self.option_sets is not None:
            pinned = [(count, options) for count, options in self.configurations()]
        problems: list[str] = []
        completed = 0
        first = 0
        for index, (count, options) in enumerate(pinned):
            games = self.fuzz_games // len(pinned) + (index < self.fuzz_games % len(pinned))
            report = fuzz(
                self.game,
                games=games,
                seed=self.fuzz_seed,
                first=first,
                players=count,
                options=options,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                max_actions=self.max_actions,
            )
            first += games
            completed += report.completed
            problems += [
                f"seed {f.seed} ({f.players} players, {f.options}): {f.reason}"
                for f in report.failures
            ]
        assert not problems, "fuzzing found:\n" + "\n".join(problems)
        assert completed == self.fuzz_games


def conformance_kit(
    game: GameDefinition, base: type[GameConformance] = GameConformance, **settings: Any
) -> GameConformance:
    """The suite bound to ``game`` (with class settings such as ``seeds=(1,)``), to run
    one check directly: how a test shows that a check fails for a broken game."""
    name = f"ConformanceFor{type(game).__name__}"
    kit: type[GameConformance] = type(name, (base,), {"game": game, **settings})
    return kit()
