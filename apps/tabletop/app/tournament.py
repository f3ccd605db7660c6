"""Tournaments: bot kinds against each other, seats rotated, win rates with intervals.

Game i plays with the batch seed ``batch_seed(seed, i)`` (as ``simulate`` and ``fuzz``
do, so any game of a tournament can be played again in the terminal UI) and with the
seat list rotated by i: with ``mcts,random`` the mcts bot plays the first seat in even
games and the second in odd ones, so no bot profits from a seat's advantage. Every game
goes through ``GameSession.run`` like the app's bots; a game that fails is counted with
the seed that reproduces it and the tournament goes on.

Each bot kind's win rate comes with a 95% Wilson score interval: it stays inside [0, 1]
and is sound for the few hundred games a tournament plays, where the normal
approximation is not. A win is always whole: a shared win (a tie, a side's win, a
cooperative team's) counts as a win for each of its winners, so every count is a number
of games and the rate of a kind is the share of its seats that won (issue 38: "12.333
of 50" said nothing). A game with sides (``GameDefinition.sides``) is also reported by
side: how often each side won, and each bot kind's wins on each side, with the same
intervals. In a cooperative game (``GameInfo.cooperative``) the report speaks of the
team. Where the game has scores, each kind's mean score comes with a 95% interval (the
normal approximation, sound for a mean over tens of games).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.adapters.collector import collector
from tabletop.adapters.headless import HeadlessUI
from tabletop.framework.bots import batch_seed
from tabletop.framework.engine import resolve_options
from tabletop.framework.fuzz import INTERRUPTED, MAX_ACTIONS, BatchReport, Watchdog
from tabletop.framework.game import GameDefinition, Result, seat_sides
from tabletop.framework.session import BotTurn, GameSession, SessionStarter

#: z for a two-sided 95% interval.
Z95 = 1.959964


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def mean_interval(count: int, total: float, squares: float, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a mean from its count, sum and sum of squares (the normal
    approximation with the sample's standard deviation; one value: that value)."""
    if count <= 0:
        return (0.0, 0.0)
    mean = total / count
    if count == 1:
        return (mean, mean)
    variance = max(0.0, (squares - total * total / count) / (count - 1))
    spread = z * math.sqrt(variance / count)
    return (mean - spread, mean + spread)


def score_json(count: int, total: float, squares: float) -> dict[str, Any]:
    """A mean score with its interval, for the reports' JSON."""
    low, high = mean_interval(count, total, squares)
    mean = total / count if count else 0.0
    return {"games": count, "mean": round(mean, 3), "ci95": [round(low, 3), round(high, 3)]}


def score_words(score: dict[str, Any]) -> str:
    low, high = score["ci95"]
    return f"{score['mean']:.2f} (95% CI {low:.2f}-{high:.2f})"


def rate_json(wins: int, games: int) -> dict[str, Any]:
    """Wins of games with the rate and its 95% interval, for the reports' JSON."""
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
    }


def rate_words(rate: dict[str, Any]) -> str:
    """``rate_json`` in words: "31/50 = 62.0% (95% CI 48.1-74.1%)"."""
    low, high = rate["ci95"]
    return (
        f"{rate['wins']}/{rate['games']} = {100 * rate['win_rate']:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
    )


@dataclass
class SideRecord:
    """One side's games over a run (a game with sides, ``GameDefinition.sides``): the
    games it played and won, and by bot kind the seats of that kind on that side and
    how many of them won."""

    side: str
    games: int = 0
    wins: int = 0
    kinds: dict[str, list[int]] = field(default_factory=dict)
    """Bot kind -> [seats of that kind on this side, of those, seats that won]."""

    def add(self, other: SideRecord) -> None:
        self.games += other.games
        self.wins += other.wins
        for kind, (games, wins) in other.kinds.items():
            tally = self.kinds.setdefault(kind, [0, 0])
            tally[0] += games
            tally[1] += wins

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            **rate_json(self.wins, self.games),
            "kinds": [
                {"kind": kind, **rate_json(wins, games)}
                for kind, (games, wins) in self.kinds.items()
            ],
        }


def count_sides(
    sides: dict[str, SideRecord],
    game: GameDefinition,
    players: int,
    options: dict[str, str],
    result: Result,
    kinds: list[str] | None = None,
) -> None:
    """Count one finished game in ``sides`` (nothing for a game without sides): each
    side that played, whether it won, and (with ``kinds``, the seats' bot kinds) each
    kind's seats on each side."""
    played = seat_sides(game, players, options, result)
    if not played:
        return
    for side in dict.fromkeys(played):
        record = sides.setdefault(side, SideRecord(side))
        record.games += 1
        record.wins += result.side == side
    for seat, kind in enumerate(kinds or []):
        tally = sides[played[seat]].kinds.setdefault(kind, [0, 0])
        tally[0] += 1
        tally[1] += seat in result.winners


def side_lines(sides: dict[str, SideRecord]) -> list[str]:
    """The sides' results in words, one side a line and its bot kinds below it."""
    out = []
    for record in sides.values():
        data = record.to_json()
        out.append(f"  side {record.side} won {rate_words(data)}")
        for kind in data["kinds"]:
            out.append(f"    {kind['kind']} as {record.side} won {rate_words(kind)}")
    return out


def rotated(seats: list[str], index: int) -> list[str]:
    """The seat list of game ``index``: shifted by one seat per game."""
    shift = index % len(seats)
    return seats[shift:] + seats[:shift]


@dataclass
class BotRecord:
    """One bot kind's games, wins and thinking time over a tournament."""

    kind: str
    games: int = 0
    """Seats this kind played (a kind in two seats of a game plays it twice)."""
    wins: int = 0
    """Of those seats, the ones that won (a shared win is a win for each winner)."""
    decisions: int = 0
    """Decisions with more than one legal choice (forced moves need no thought)."""
    seconds: float = 0.0
    slowest: float = 0.0
    scored: int = 0
    """Seats of this kind in games that ended with scores; then their total and the
    total of their squares (for the mean score and its interval)."""
    score_total: float = 0.0
    score_squares: float = 0.0

    def add(self, other: BotRecord) -> None:
        """Count ``other``'s games and decisions (the same kind, in other games)."""
        self.games += other.games
        self.wins += other.wins
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        self.scored += other.scored
        self.score_total += other.score_total
        self.score_squares += other.score_squares

    def count_score(self, score: float) -> None:
        self.scored += 1
        self.score_total += score
        self.score_squares += score * score

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            **rate_json(self.wins, self.games),
            "decisions": self.decisions,
            "mean_decision_seconds": round(self.seconds / self.decisions, 4)
            if self.decisions
            else 0.0,
            "slowest_decision_seconds": round(self.slowest, 4),
            **(
                {"score": score_json(self.scored, self.score_total, self.score_squares)}
                if self.scored
                else {}
            ),
        }


@dataclass
class TournamentReport(BatchReport):
    seats: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    rotate: bool = True
    seat_names: list[str] = field(default_factory=list)
    bots: dict[str, BotRecord] = field(default_factory=dict)
    by_seat: list[dict[str, int]] = field(default_factory=list)
    """Per seat: each kind's wins there, to show a seat's advantage."""
    sides: dict[str, SideRecord] = field(default_factory=dict)
    """A game with sides: each side's games and wins, by bot kind too."""
    cooperative: bool = False
    """The seats play as one team (``GameInfo.cooperative``): the report tells the
    team's wins and score."""
    team_wins: int = 0
    team_scored: int = 0
    """Games that ended with a team score; then their total and total of squares."""
    team_score_total: float = 0.0
    team_score_squares: float = 0.0

    def add(self, part: BatchReport) -> None:
        """Count the next games of this tournament, played elsewhere."""
        super().add(part)
        if not isinstance(part, TournamentReport):
            return
        self.cooperative = self.cooperative or part.cooperative
        self.team_wins += part.team_wins
        self.team_scored += part.team_scored
        self.team_score_total += part.team_score_total
        self.team_score_squares += part.team_score_squares
        for kind, record in part.bots.items():
            self.bots.setdefault(kind, BotRecord(kind)).add(record)
        for mine, theirs in zip(self.by_seat, part.by_seat, strict=True):
            for kind, wins in theirs.items():
                mine[kind] = mine.get(kind, 0) + wins
        for side, played in part.sides.items():
            self.sides.setdefault(side, SideRecord(side)).add(played)

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "seats": self.seats,
            "rotated": self.rotate,
            "seat_names": self.seat_names,
            "options": self.options,
            "mean_game_length": round(self.actions / self.completed, 1) if self.completed else 0,
            "bots": [record.to_json() for record in self.bots.values()],
            "wins_by_seat": [dict(seat) for seat in self.by_seat],
            **(
                {"sides": [record.to_json() for record in self.sides.values()]}
                if self.sides
                else {}
            ),
            **({"team": self._team()} if self.cooperative else {}),
            "failures": self.failures,
        }

    def _team(self) -> dict[str, Any]:
        low, high = wilson(self.team_wins, self.completed)
        team: dict[str, Any] = {
            "wins": self.team_wins,
            "win_rate": round(self.team_wins / self.completed, 4) if self.completed else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
        }
        if self.team_scored:
            team["score"] = score_json(
                self.team_scored, self.team_score_total, self.team_score_squares
            )
        return team

    def lines(self) -> list[str]:
        """The report in words, one bot kind a line."""
        data = self.to_json()
        out = [
            f"{self.game}: {self.completed}/{self.games} games completed, {self.errors} errors, "
            f"seats {','.join(self.seats)} {'rotated' if self.rotate else 'fixed'}; "
            f"mean length {data['mean_game_length']} "
            f"actions; {data['seconds']} s"
        ]
        if self.cooperative:
            team = data["team"]
            low, high = team["ci95"]
            score = f", team score {score_words(team['score'])}" if "score" in team else ""
            out.append(
                f"  the team (cooperative) won {team['wins']}/{self.completed} = "
                f"{100 * team['win_rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"
                f"{score}"
            )
        won = "in a team that won" if self.cooperative else "won"
        for bot in data["bots"]:
            score = ""
            if "score" in bot:
                score = f", {'team ' if self.cooperative else ''}score {score_words(bot['score'])}"
            out.append(
                f"  {bot['kind']:<14} {won} {rate_words(bot)}"
                f"{score}, {bot['mean_decision_seconds']:.3f} s per decision "
                f"(slowest {bot['slowest_decision_seconds']:.3f} s)"
            )
        out.extend(side_lines(self.sides))
        for name, seat in zip(self.seat_names, data["wins_by_seat"], strict=False):
            wins = ", ".join(f"{kind} {count}" for kind, count in seat.items() if count)
            out.append(
                f"  {'team wins' if self.cooperative else 'wins'} as {name}: {wins or 'none'}"
            )
        for failure in self.failures:
            out.append(f"  error with seed {failure['seed']}: {failure['error']}")
        return out


class _TimingUI(HeadlessUI):
    """Times every bot decision that has a real choice, by the seat's bot kind."""

    def __init__(self, report: TournamentReport, kinds: list[str]) -> None:
        super().__init__()
        self.report = report
        self.kinds = kinds

    def bot_thinking(self, turn: BotTurn) -> str | None:
        prompt = turn.session.engine.prompt
        started = time.perf_counter()
        action = turn.think()
        spent = time.perf_counter() - started
        if prompt is not None and len(prompt.choices) > 1:
            record = self.report.bots[self.kinds[turn.seat]]
            record.decisions += 1
            record.seconds += spent
            record.slowest = max(record.slowest, spent)
        return action


class Tournament:
    """Plays tournaments through sessions from ``sessions`` (which should not autosave)."""

    def __init__(self, sessions: SessionStarter) -> None:
        self.sessions = sessions

    def run(
        self,
        game_id: str,
        *,
        games: int,
        seed: int,
        seats: list[str],
        options: dict[str, str],
        progress: Callable[[int, int], None] | None = None,
        rotate: bool = True,
        first: int = 0,
        action_seconds: float | None = None,
    ) -> TournamentReport:
        """Play games ``first`` to ``first + games - 1`` of the tournament (``first``
        lets ``tabletop.app.parallel`` hand a chunk to a worker); ``rotate=False`` keeps
        every kind in its seat (for a seat the game plays itself, such as a solo
        opponent's, or a seat study). ``action_seconds`` limits each action, as in
        ``Simulation.run``; Ctrl+C ends the run with the report of the games played."""
        game = self.sessions.registry.get(game_id).definition
        options = resolve_options(game, options)  # a bad option is the caller's error
        report = TournamentReport(
            game_id, games, seed, seats=list(seats), options=options, rotate=rotate
        )
        report.seat_names = list(game.seat_names(len(seats), options))
        report.cooperative = game.info.cooperative
        for kind in seats:
            report.bots.setdefault(kind, BotRecord(kind))
        report.by_seat = [dict.fromkeys(report.bots, 0) for _ in seats]
        started = time.perf_counter()
        before: dict[str, BotRecord] = {}
        index = first
        try:
            with collector.tuned(), Watchdog(action_seconds) as watchdog:
                for index in range(first, first + games):
                    watchdog.beat()
                    kinds = rotated(list(seats), index if rotate else 0)
                    before = {kind: dataclasses.replace(bot) for kind, bot in report.bots.items()}
                    self._play(report, game, index, kinds, watchdog)
                    if progress is not None:
                        progress(index + 1 - first, games)
        except KeyboardInterrupt:  # a game cut short is not counted, nor its decisions
            if report.completed + report.errors <= index - first:
                report.bots = before
            report.stop(INTERRUPTED, report.completed + report.errors)
        report.seconds = time.perf_counter() - started
        return report

    def _play(
        self,
        report: TournamentReport,
        game: GameDefinition,
        index: int,
        kinds: list[str],
        watchdog: Watchdog,
    ) -> None:
        this_seed = batch_seed(report.seed, index)
        session: GameSession | None = None
        try:
            session = self.sessions.start(
                report.game,
                seed=this_seed,
                players=len(kinds),
                options=report.options,
                seats=kinds,
                ui=_TimingUI(report, kinds),
            )
            watchdog.follow(session.engine)
            played = len(session.run(MAX_ACTIONS))
            engine = session.engine
            result = engine.result
            if result is None:
                raise RuntimeError(f"no result after {played} actions")
        except Exception as exc:
            report.errors += 1
            report.failures.append(
                {"seed": this_seed, "seats": kinds, "error": f"{type(exc).__name__}: {exc}"}
            )
            return
        finally:
            if session is not None:
                session.close()
        report.completed += 1
        report.actions += played
        team = report.cooperative
        if team and result.winners:
            report.team_wins += 1
        if team and result.scores:
            best = max(result.scores)
            report.team_scored += 1
            report.team_score_total += best
            report.team_score_squares += best * best
        count_sides(report.sides, game, len(kinds), report.options, result, kinds)
        for seat, kind in enumerate(kinds):
            record = report.bots[kind]
            record.games += 1
            if result.scores and (team or seat < len(result.scores)):
                record.count_score(max(result.scores) if team else result.scores[seat])
            if seat in result.winners or (team and result.winners):
                # a win is whole for each winner: a tie's, a side's, the team's
                record.wins += 1
                report.by_seat[seat][kind] += 1
