"""Standings metrics: each a small named function in ``METRICS`` (pure Python, no Django).

A metric takes a team id and the ``Context`` of the whole tournament and returns an integer (the
group metric ``direct_encounter`` also gets the set of teams still tied). ``higher_is_better``
says which way it sorts.

Unplayed rounds, as FIDE C.07 (Tie-Break Regulations, 2024, art. 16) handles them; the rule
chosen here:

* A team's unplayed rounds are its byes (pairing-allocated byes, worth ``points_bye``) and the
  rounds it was absent from (before a late entry, after a withdrawal; worth 0). Absences are the
  "voluntary unplayed rounds" (VUR) of C.07; a pairing-allocated bye is not one.
* Opponents' scores (Buchholz family, Sonneborn-Berger) use the opponent's *adjusted* score: each
  of the opponent's unplayed rounds counts as a draw (``points_draw``) instead of what it gave, so
  beating a team that later withdrew or had a bye is worth what the rounds it played were worth.
* A team's own unplayed round counts in its Buchholz as a game against a dummy opponent whose
  score is the team's own (final) score, and in Sonneborn-Berger as that dummy score times the
  points the round gave (a bye: ``points_bye``; an absence: 0).
* Cuts (Buchholz cut-1, median) first remove the contributions of voluntary unplayed rounds, then
  the lowest (and for the median the highest) values.
* A withdrawn team's played results stand for everyone.

Match points are integers (win/draw/bye values are tournament settings), so every metric is an
integer: Sonneborn-Berger is the opponent's adjusted score times the match points earned against
it (twice the classic value with 2/1/0 points), which orders teams the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

DEFAULT_METRICS = ["match_points", "games_won", "points_diff", "buchholz", "direct_encounter"]


class MatchRecord(NamedTuple):
    """One team's result in one round: a bye has no ``opponent`` and the outcome "B"."""

    round: int
    team: int
    opponent: int | None
    outcome: str  # "W", "D", "L", or "B" for a bye
    points: int  # match points earned
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0


class TeamInfo(NamedTuple):
    """A team entered in the tournament and the rounds it was absent from."""

    team: int
    club: int | None = None
    seed: int | None = None
    absent_rounds: frozenset[int] = frozenset()
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PointsSettings:
    points_win: int = 2
    points_draw: int = 1
    points_bye: int = 2


@dataclass(slots=True)
class Totals:
    """A team's results summed once: the counts of its standings row, read by the simple metrics."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    played_points: int = 0  # match points earned over the table (byes excluded)
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0

    @classmethod
    def of(cls, records: list[MatchRecord]) -> Totals:
        if not records:
            return cls()
        _, _, opponents, outcomes, points, games_won, games_lost, points_for, points_against = zip(*records)
        byes = opponents.count(None)
        match_points = sum(points)
        bye_points = sum(p for o, p in zip(opponents, points) if o is None) if byes else 0
        return cls(played=len(records) - byes, won=outcomes.count("W"), drawn=outcomes.count("D"),
                   lost=outcomes.count("L"), byes=byes, match_points=match_points,
                   played_points=match_points - bye_points, games_won=sum(games_won),
                   games_lost=sum(games_lost), points_for=sum(points_for), points_against=sum(points_against))


_by_round = attrgetter("round")


@dataclass
class Context:
    """Everything the metrics read, precomputed once per standings computation."""

    teams: dict[int, TeamInfo]
    records: dict[int, list[MatchRecord]]
    settings: PointsSettings
    totals: dict[int, Totals] = field(default_factory=dict)
    score: dict[int, int] = field(default_factory=dict)
    adjusted: dict[int, int] = field(default_factory=dict)
    opponents: dict[int, list[int]] = field(default_factory=dict)  # the teams met over the table, in round order

    @classmethod
    def build(cls, teams, results, settings: PointsSettings) -> Context:
        """Index results by team (in round order), sum them, and compute each score and adjusted score."""
        info = {t.team: t for t in teams}
        records: dict[int, list[MatchRecord]] = {t: [] for t in info}
        for r in results:
            recs = records.get(r.team)
            if recs is not None:
                recs.append(r)
        ctx = cls(info, records, settings)
        for t in records:
            ctx._sum(t)
        return ctx

    def replace(self, old: Iterable[MatchRecord], new: Iterable[MatchRecord]) -> None:
        """Swap some results for others (a match's records before and after its result changed).

        The teams' records, sums, scores and adjusted scores are brought up to date, exactly as
        ``build`` would compute them from the new results.
        """
        touched: set[int] = set()
        for r in old:
            recs = self.records.get(r.team)
            if recs is not None:
                recs.remove(r)
                touched.add(r.team)
        for r in new:
            recs = self.records.get(r.team)
            if recs is not None:
                recs.append(r)
                touched.add(r.team)
        for t in touched:
            self._sum(t)

    def _sum(self, team: int) -> None:
        """Sort a team's records by round and compute its totals, score and adjusted score."""
        recs = self.records[team]
        recs.sort(key=_by_round)
        sums = self.totals[team] = Totals.of(recs)
        self.opponents[team] = [r.opponent for r in recs if r.opponent is not None]
        self.score[team] = sums.match_points
        self.adjusted[team] = sums.played_points + self.unplayed(team) * self.settings.points_draw

    def played(self, team: int) -> list[MatchRecord]:
        return [r for r in self.records[team] if r.opponent is not None]

    def unplayed(self, team: int) -> int:
        """Rounds without an opponent: byes and absences."""
        return self.totals[team].byes + len(self.teams[team].absent_rounds)

    def opponent_values(self, team: int) -> list[tuple[int, bool]]:
        """Buchholz contributions of every round: (value, is a voluntary unplayed round)."""
        own = self.score[team]
        values = [(self.adjusted[r.opponent], False) if r.opponent is not None else (own, False)
                  for r in self.records[team]]
        values += [(own, True) for _ in self.teams[team].absent_rounds]
        return values


@dataclass(frozen=True, slots=True)
class Metric:
    name: str
    fn: Callable
    higher_is_better: bool = True
    group: bool = False  # needs the tied group (direct encounter)
    label: str = ""


METRICS: dict[str, Metric] = {}


def metric(name: str, *, lower_is_better: bool = False, group: bool = False, label: str = ""):
    """Register a metric function under ``name``."""

    def register(fn):
        METRICS[name] = Metric(name, fn, not lower_is_better, group, label or fn.__doc__ or name)
        return fn

    return register


def _cut(values: list[tuple[int, bool]], low: int, high: int = 0) -> int:
    """Sum after cutting ``low`` least and ``high`` most significant values, voluntary unplayed rounds first."""
    vur = sorted(v for v, voluntary in values if voluntary)
    rest = sorted(v for v, voluntary in values if not voluntary)
    n_vur = min(low, len(vur))
    kept = vur[n_vur:] + rest
    kept.sort()
    kept = kept[low - n_vur:]
    if high:
        kept = kept[:-high] if len(kept) > high else []
    return sum(kept)


@metric("match_points")
def match_points(team: int, ctx: Context) -> int:
    """Match points (wins, draws and byes at the tournament's values)."""
    return ctx.score[team]


@metric("matches_won")
def matches_won(team: int, ctx: Context) -> int:
    """Matches won over the table (byes not counted)."""
    return ctx.totals[team].won


@metric("wins")
def wins(team: int, ctx: Context) -> int:
    """Rounds won, byes included."""
    return ctx.totals[team].won + ctx.totals[team].byes


@metric("games_won")
def games_won(team: int, ctx: Context) -> int:
    """Games (boams, sets) won."""
    return ctx.totals[team].games_won


@metric("games_lost", lower_is_better=True)
def games_lost(team: int, ctx: Context) -> int:
    """Games (boams, sets) lost."""
    return ctx.totals[team].games_lost


@metric("games_diff")
def games_diff(team: int, ctx: Context) -> int:
    """Games won minus games lost."""
    return games_won(team, ctx) - games_lost(team, ctx)


@metric("points_for")
def points_for(team: int, ctx: Context) -> int:
    """Game points scored, summed over the team's games."""
    return ctx.totals[team].points_for


@metric("points_against", lower_is_better=True)
def points_against(team: int, ctx: Context) -> int:
    """Game points conceded."""
    return ctx.totals[team].points_against


@metric("points_diff")
def points_diff(team: int, ctx: Context) -> int:
    """Game points scored minus conceded."""
    return points_for(team, ctx) - points_against(team, ctx)


@metric("buchholz")
def buchholz(team: int, ctx: Context) -> int:
    """Sum of the opponents' adjusted scores (own unplayed rounds: a dummy with the team's score)."""
    return sum(map(ctx.adjusted.__getitem__, ctx.opponents[team])) + ctx.unplayed(team) * ctx.score[team]


@metric("buchholz_cut1")
def buchholz_cut1(team: int, ctx: Context) -> int:
    """Buchholz without the least significant value (voluntary unplayed rounds cut first)."""
    return _cut(ctx.opponent_values(team), 1)


@metric("median_buchholz")
def median_buchholz(team: int, ctx: Context) -> int:
    """Buchholz without the lowest and the highest value."""
    return _cut(ctx.opponent_values(team), 1, 1)


@metric("sonneborn_berger")
def sonneborn_berger(team: int, ctx: Context) -> int:
    """Sum over rounds of the opponent's adjusted score times the match points earned."""
    own = ctx.score[team]
    return sum((ctx.adjusted[r.opponent] if r.opponent is not None else own) * r.points for r in ctx.records[team])


@metric("progressive")
def progressive(team: int, ctx: Context) -> int:
    """Sum of the running score after each round (absences add the unchanged score)."""
    gained = {r.round: 0 for r in ctx.records[team]}
    for r in ctx.records[team]:
        gained[r.round] += r.points
    for rnd in ctx.teams[team].absent_rounds:
        gained.setdefault(rnd, 0)
    total = running = 0
    for rnd in sorted(gained):
        running += gained[rnd]
        total += running
    return total


@metric("direct_encounter", group=True)
def direct_encounter(team: int, ctx: Context, tied: frozenset[int] = frozenset()) -> int:
    """Match points scored against the other tied teams, if every pair of them has met (else 0)."""
    if len(tied) < 2 or team not in tied:
        return 0
    # Every pair met only if every team met all the others, this one first: a team that has played
    # fewer rounds than there are other tied teams ends the check at once. A large tied group (half a
    # 1,024-team field after one round) then costs one look per team instead of a pass over the group.
    others = len(tied) - 1
    mine = [r for r in ctx.played(team) if r.opponent in tied]
    if len({r.opponent for r in mine}) < others:
        return 0
    for t in tied:
        if t != team and len({r.opponent for r in ctx.played(t) if r.opponent in tied}) < others:
            return 0
    return sum(r.points for r in mine)
