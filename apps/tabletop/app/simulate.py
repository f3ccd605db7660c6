"""Headless simulation: many bot games, counted, timed and digested.

Each game is a ``GameSession`` played by ``run`` with a headless UI, the same loop the
Textual app's bots use and with the same per-game seeds as ``tabletop fuzz``
(``batch_seed``), so game i of a simulation is the game the UI or the fuzzer plays
with that seed and those seats. An exception inside a game is a result, not a crash:
it is counted in ``errors`` with the seed that reproduces it, and the run goes on; so
is a game that cannot be saved (a state that is not JSON, a ``describe`` that raises).

Where the game has scores the report gives each seat's mean score with a 95% interval;
a cooperative game's (``GameInfo.cooperative``) is the team's: its wins and its one
score, and its outcomes say "the team" rather than naming every seat. A game with sides
(``GameDefinition.sides``) is also reported by side: how often each side won, and each
bot kind's wins on each side, with 95% intervals (whole wins, as in tournaments).

Saves are named by the game, a tag of the run's settings (seats and options) and the
game's seed, so two runs with other settings never replace each other's saves in one
directory, while running the same settings again rewrites the same (identical) games.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.adapters.collector import collector
from tabletop.adapters.headless import HeadlessUI
from tabletop.app.tournament import (
    SideRecord,
    count_sides,
    score_json,
    score_words,
    side_lines,
    wilson,
)
from tabletop.framework.bots import batch_seed
from tabletop.framework.engine import resolve_options
from tabletop.framework.fuzz import INTERRUPTED, MAX_ACTIONS, BatchReport, Watchdog
from tabletop.framework.game import Result
from tabletop.framework.ports import SaveStore, UserInterface
from tabletop.framework.record import digest_of
from tabletop.framework.session import GameSession, SessionStarter


@dataclass
class SimulationReport(BatchReport):
    seats: list[str] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    digest: str = ""
    game_digests: list[str] = field(default_factory=list)
    """Each game's final digest ("" for a game that failed), in order; not in the JSON."""
    unsaved: int = 0
    """Games that could not be saved (each also in ``failures``)."""
    seat_names: list[str] = field(default_factory=list)
    cooperative: bool = False
    team_wins: int = 0
    """A cooperative game's wins (the team's)."""
    scores: list[list[float]] = field(default_factory=list)
    """Per seat (the team's alone in a cooperative game): games that ended with a
    score for it, their total and the total of their squares."""
    sides: dict[str, SideRecord] = field(default_factory=dict)
    """A game with sides: each side's games and wins, by bot kind too."""

    def add(self, part: BatchReport) -> None:
        """Count the next games of this run. The digest is not made again here (over
        every game so far, at each of thousands of chunks, the merge of a big run was
        quadratic): ``seal`` makes it once, when the last part is in."""
        super().add(part)
        if isinstance(part, SimulationReport):
            if not self.seat_names:
                self.seat_names = list(part.seat_names)
            self.cooperative = self.cooperative or part.cooperative
            self.team_wins += part.team_wins
            for index, tally in enumerate(part.scores):
                if index == len(self.scores):
                    self.scores.append([0, 0.0, 0.0])
                for slot in range(3):
                    self.scores[index][slot] += tally[slot]
            self.unsaved += part.unsaved
            for side, record in part.sides.items():
                self.sides.setdefault(side, SideRecord(side)).add(record)
            outcomes = Counter(self.outcomes)
            outcomes.update(part.outcomes)
            self.outcomes = dict(sorted(outcomes.items()))
            self.game_digests.extend(part.game_digests)

    def seal(self) -> None:
        """The run's digest over every game added, in time linear in their number."""
        self.digest = games_digest(self.game_digests, self.seed)

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "seats": self.seats,
            "outcomes": self.outcomes,
            "digest": self.digest,
            "unsaved": self.unsaved,
            **self._scores_json(),
            **(
                {"sides": [record.to_json() for record in self.sides.values()]}
                if self.sides
                else {}
            ),
            "failures": self.failures,
        }

    def _scores_json(self) -> dict[str, Any]:
        """The team's result, or each seat's mean score; nothing for a game that
        neither is cooperative nor has scores (its report is as before issue 27)."""
        data: dict[str, Any] = {}
        if self.cooperative:
            low, high = wilson(self.team_wins, self.completed)
            team: dict[str, Any] = {"wins": self.team_wins, "ci95": [round(low, 4), round(high, 4)]}
            if self.scores and self.scores[0][0]:
                team["score"] = score_json(int(self.scores[0][0]), *self.scores[0][1:])
            data["team"] = team
        elif any(tally[0] for tally in self.scores):
            data["scores"] = [
                {"seat": name, **score_json(int(tally[0]), *tally[1:])}
                for name, tally in zip(self.seat_names, self.scores, strict=False)
            ]
        return data

    def score_lines(self) -> list[str]:
        """The team's result or the mean scores in words, then the sides' results, for
        the command's report."""
        return self._score_lines() + side_lines(self.sides)

    def _score_lines(self) -> list[str]:
        data = self._scores_json()
        if "team" in data:
            team = data["team"]
            low, high = team["ci95"]
            rate = team["wins"] / self.completed if self.completed else 0.0
            line = (
                f"  the team (cooperative) won {team['wins']}/{self.completed} = "
                f"{100 * rate:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"
            )
            if "score" in team:
                line += f", team score {score_words(team['score'])}"
            return [line]
        return [
            f"  mean score of {seat['seat']}: {score_words(seat)}"
            for seat in data.get("scores", [])
        ]

    def count_result(self, result: Result) -> None:
        """Count one finished game's team win and scores."""
        scores = result.scores
        if self.cooperative:
            self.team_wins += bool(result.winners)
            scores = (max(scores),) if scores else ()
        for index, score in enumerate(scores):
            while len(self.scores) <= index:
                self.scores.append([0, 0.0, 0.0])
            tally = self.scores[index]
            tally[0] += 1
            tally[1] += score
            tally[2] += score * score


def games_digest(game_digests: Sequence[str], seed: int, first: int = 0) -> str:
    """The run's digest: each game's final digest in game order (a failed game, "",
    counts by its seed), so a run cut into parts has the digest of the run played in
    one go. ``first`` is the number of the first game."""
    digests = hashlib.sha256()
    for index, digest in enumerate(game_digests, start=first):
        digests.update(
            digest.encode("ascii") if digest else f"error:{batch_seed(seed, index)}".encode()
        )
    return digests.hexdigest()


def settings_tag(seats: list[str], options: dict[str, str]) -> str:
    """Eight hex digits naming a run's settings (seats, resolved options)."""
    return digest_of({"seats": list(seats), "options": dict(options)})[:8]


def save_id_for(game_id: str, seats: list[str], options: dict[str, str], seed: int) -> str:
    """The save name of one simulated game: unique per game, seats, options and seed."""
    return f"{game_id}-{settings_tag(seats, options)}-seed{seed}"


class Simulation:
    """Plays bot games through sessions from ``sessions`` (which should not autosave:
    a simulation saves each finished game once, if asked) and a UI from ``ui``."""

    def __init__(
        self, sessions: SessionStarter, ui: Callable[[], UserInterface] = HeadlessUI
    ) -> None:
        self.sessions = sessions
        self.ui = ui

    def run(
        self,
        game_id: str,
        *,
        games: int,
        seed: int,
        seats: list[str],
        options: dict[str, str],
        store: SaveStore | None = None,
        progress: Callable[[int, int], None] | None = None,
        first: int = 0,
        action_seconds: float | None = None,
    ) -> SimulationReport:
        """Play games ``first`` to ``first + games - 1`` of the run with this ``seed``
        (``first`` lets ``tabletop.app.parallel`` hand a chunk of a run to a worker).

        ``action_seconds`` limits each action (``Watchdog``): a game stuck past it is a
        failure with its seed (and its save, with ``store``). Ctrl+C ends the run with
        the report of the games finished so far, marked ``stopped``."""
        game = self.sessions.registry.get(game_id).definition
        options = resolve_options(game, options)  # a bad option is the caller's error
        report = SimulationReport(game_id, games, seed, seats=list(seats))
        report.seat_names = list(game.seat_names(len(seats), options))
        report.cooperative = game.info.cooperative
        outcomes: Counter[str] = Counter()
        started = time.perf_counter()
        try:
            with collector.tuned(), Watchdog(action_seconds) as watchdog:
                for index in range(games):
                    watchdog.beat()
                    this_seed = batch_seed(seed, first + index)
                    session: GameSession | None = None
                    try:
                        session = self.sessions.start(
                            game_id,
                            seed=this_seed,
                            players=len(seats),
                            options=options,
                            seats=list(seats),
                            ui=self.ui(),
                        )
                        watchdog.follow(session.engine)  # each action, not each game
                        report.actions += len(session.run(MAX_ACTIONS))
                        engine = session.engine
                        if not engine.over:
                            raise RuntimeError(f"no result after {MAX_ACTIONS} actions")
                        result = engine.result
                        assert result is not None
                        names = [engine.seat_name(seat) for seat in result.winners]
                        who = " & ".join(names) if names else "nobody"
                        if report.cooperative:
                            who = "the team won" if names else "the team lost"
                        elif result.side and who != result.side:
                            who = f"{result.side}: {who}"
                        report.count_result(result)
                        count_sides(report.sides, game, len(seats), options, result, seats)
                        outcomes[f"{who} ({result.outcome})" if result.outcome else who] += 1
                        report.game_digests.append(engine.digest())
                        report.completed += 1
                    except Exception as exc:
                        report.errors += 1
                        report.failures.append(
                            {
                                "seed": this_seed,
                                "error": f"{type(exc).__name__}: {exc}",
                                "actions": len(session.engine.log) if session is not None else 0,
                            }
                        )
                        report.game_digests.append("")
                    finally:
                        if session is not None:
                            session.close()
                    if store is not None and session is not None:
                        watchdog.beat()  # saving a game that ran out of time has its own
                        self._save(
                            store,
                            session,
                            save_id_for(game_id, seats, options, this_seed),
                            report,
                            this_seed,
                        )
                    if progress is not None:
                        progress(index + 1, games)
        except KeyboardInterrupt:  # a game cut short is not counted
            report.stop(INTERRUPTED, len(report.game_digests))
        report.seconds = time.perf_counter() - started
        report.outcomes = dict(sorted(outcomes.items()))
        report.digest = games_digest(report.game_digests, seed, first)
        return report

    @staticmethod
    def _save(
        store: SaveStore, session: GameSession, save_id: str, report: SimulationReport, seed: int
    ) -> None:
        """Save one game; a game that cannot be saved is reported, not fatal."""
        try:
            store.save(session.record(), save_id)
        except Exception as exc:  # a non-JSON state, a raising describe(), a full disk
            report.unsaved += 1
            problem = f"not saved: {type(exc).__name__}: {exc}"
            for failure in report.failures:
                if failure["seed"] == seed:
                    failure["save_error"] = problem
                    return
            report.errors += 1
            report.failures.append(
                {"seed": seed, "error": problem, "actions": len(session.engine.log)}
            )
