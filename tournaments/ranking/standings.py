"""Standings from plain values: rows in rank order, shared ranks, club standings (no Django).

The teams are ordered by the tournament's metrics one after the other: the first metric splits
them into groups of equal value, each group with more than one team is split by the next metric,
and so on. A group metric (direct encounter) is evaluated on the group still tied when its turn
comes. Teams equal on every metric share a rank; their rows follow the seed, then the team id.
The players of an individual event are ranked by the same machinery (``ranked``), their start
number as the seed (``tournaments.ranking.individual``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from math import lcm
from operator import attrgetter

from .metrics import (
    DEFAULT_METRICS,
    ENTRIES,
    INDIVIDUAL_TIEBREAKS,
    METRICS,
    Context,
    MatchRecord,
    Metric,
    PointsSettings,
    TeamInfo,
    Totals,
)

__all__ = ["StandingRow", "ClubRow", "StandingsRefused", "compute_standings", "rank_standings", "ranked",
           "club_standings", "resolve_metrics", "Context", "MatchRecord", "TeamInfo", "PointsSettings"]


class StandingsRefused(ValueError):
    """A refusal of the standings logic: a ``code`` and its ``params``, which the caller words.

    A ValueError, as the callers of ``resolve_metrics`` have always caught; the message is for logs.
    """

    def __init__(self, code: str, message: str, **params):
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(slots=True)
class StandingRow(Totals):
    """A team's row: its totals (``Totals``), its rank and place, and its metric values."""

    team: int = field(kw_only=True)
    rank: int = 0
    position: int = 0
    tiebreaks: dict[str, int] = field(default_factory=dict)
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class ClubRow:
    club: int
    rank: int
    teams: int
    percentage: float  # average of the teams' match-point percentages, 0-100, two decimals


def resolve_metrics(names: Sequence[str] | None, *, entry: str = "teams") -> list[Metric]:
    """The metrics for a list of names (empty: the default order of the kind of event).

    Refused (``StandingsRefused``, a ValueError): an unknown name (``unknown_metrics``), or a metric
    not defined for the kind of event (``team_only_metrics``: an individual event naming a metric of
    team events, such as Buchholz or direct encounter).
    """
    if entry not in ENTRIES:
        raise StandingsRefused("unknown_entry", f"unknown kind of event: {entry!r}", entry=entry, known=list(ENTRIES))
    names = list(names or (DEFAULT_METRICS if entry == "teams" else INDIVIDUAL_TIEBREAKS))
    unknown = [n for n in names if n not in METRICS]
    if unknown:
        raise StandingsRefused("unknown_metrics",
                               f"unknown standings metrics: {', '.join(unknown)}; known: {', '.join(sorted(METRICS))}",
                               unknown=unknown, known=sorted(METRICS))
    refused = [n for n in names if entry not in METRICS[n].entries]
    if refused:
        usable = sorted(n for n, m in METRICS.items() if entry in m.entries)
        raise StandingsRefused("team_only_metrics",
                               f"standings metrics of team events only: {', '.join(refused)}; an {entry} event "
                               f"has {', '.join(usable)}", metrics=refused, known=usable)
    return [METRICS[n] for n in names]


def compute_standings(
    teams: Iterable[TeamInfo],
    results: Iterable[MatchRecord],
    *,
    metrics: Sequence[str] | None = None,
    settings: PointsSettings | None = None,
) -> list[StandingRow]:
    """Rank the teams by the metrics and return one row a team, in rank order."""
    return rank_standings(Context.build(list(teams), results, settings or PointsSettings()), metrics)


def rank_standings(ctx: Context, metrics: Sequence[str] | None = None) -> list[StandingRow]:
    """Rank the teams of a built ``Context`` (see ``Context.replace`` to keep one up to date)."""
    totals, teams = ctx.totals, ctx.teams
    return [StandingRow(*totals_fields(totals[t]), rank, position, tiebreaks, teams[t].withdrawn, team=t)
            for position, (t, rank, tiebreaks) in enumerate(ranked(ctx, metrics), start=1)]


def ranked(ctx: Context, metrics: Sequence[str] | None = None) -> list[tuple[int, int, dict[str, int]]]:
    """The competitors of a built ``Context`` in rank order, each as (id, rank, metric values by name).

    The metrics are resolved for the context's kind of event (``resolve_metrics``).
    """
    chosen = resolve_metrics(metrics, entry=ctx.entry)
    values: dict[str, dict[int, int]] = {}
    for m in chosen:
        if not m.group:
            values[m.name] = {t: m.fn(t, ctx) for t in ctx.teams}
        else:
            values[m.name] = dict.fromkeys(ctx.teams, 0)

    ordered: list[list[int]] = []  # final tied groups in order
    if ctx.teams:
        _refine(list(ctx.teams), 0, chosen, values, ctx, ordered)

    names = [m.name for m in chosen]
    columns = [values[name] for name in names]
    out: list[tuple[int, int, dict[str, int]]] = []
    for tied in ordered:
        rank = len(out) + 1
        for t in tied:
            out.append((t, rank, dict(zip(names, [column[t] for column in columns]))))
    return out


def _refine(group: list[int], level: int, chosen: list[Metric], values: dict[str, dict[int, int]], ctx: Context,
            ordered: list[list[int]]) -> None:
    """Split a tied group by the metric of ``level`` (then the next ones); append its final groups to ``ordered``.

    Metrics of single teams that follow one another are one lexicographic sort (the same order as
    splitting by each in turn); a group metric is evaluated on the group still tied at its level.
    (A function of its own rather than a recursive closure: a closure that calls itself is a
    reference cycle, which would keep the whole context alive until the garbage collector runs.)
    """
    if len(group) == 1:
        ordered.append(group)
        return
    if level == len(chosen):
        ordered.append(sorted(group, key=lambda t: (_seed(ctx.teams[t]), t)))
        return
    m = chosen[level]
    if m.group:
        tied = frozenset(group)
        for t in group:
            values[m.name][t] = m.fn(t, ctx, tied)
        run = [m]
    else:
        run = list(takewhile(lambda x: not x.group, chosen[level:]))
    columns = []  # one list a metric, each value signed so that larger is better
    for x in run:
        vals = values[x.name]
        columns.append([vals[t] for t in group] if x.higher_is_better else [-vals[t] for t in group])
    keys = dict(zip(group, zip(*columns)))
    group = sorted(group, key=keys.__getitem__, reverse=True)
    start = 0
    for i in range(1, len(group) + 1):
        if i == len(group) or keys[group[i]] != keys[group[start]]:
            if i - start == 1:
                ordered.append([group[start]])  # alone: nothing more to split
            else:
                _refine(group[start:i], level + len(run), chosen, values, ctx, ordered)
            start = i


def _seed(info: TeamInfo) -> int:
    return info.seed if info.seed is not None else 1 << 30


totals_fields = attrgetter(*Totals.__slots__)  # a Totals' values in field order, for StandingRow's first arguments


def match_point_share(row: StandingRow, settings: PointsSettings) -> tuple[int, int] | None:
    """The match points a team earned and could have earned in the rounds it has a result for."""
    rounds = row.played + row.byes + row.forfeits_won + row.forfeits_lost
    if not rounds or not settings.points_win:
        return None
    return row.match_points, rounds * settings.points_win


def club_standings(
    rows: Iterable[StandingRow], clubs: dict[int, int | None], settings: PointsSettings | None = None
) -> list[ClubRow]:
    """Each club's teams' average match-point percentage, best first; equal averages share a rank.

    Exact, in integers: a club's average is ``num / den`` with the shares of its teams brought to
    a common denominator (the teams with the same number of rounds added first), and the clubs are
    compared on their numerators brought to the denominator common to all clubs.
    """
    settings = settings or PointsSettings()
    per_club: dict[int, dict[int, int]] = {}  # club -> {possible points: points earned, summed}
    counts: dict[int, int] = {}
    for row in rows:
        club = clubs.get(row.team)
        share = match_point_share(row, settings)
        if club is None or share is None:
            continue
        earned, possible = share
        sums = per_club.setdefault(club, {})
        sums[possible] = sums.get(possible, 0) + earned
        counts[club] = counts.get(club, 0) + 1
    averages = []  # (numerator, denominator, club)
    for club, sums in per_club.items():
        common = lcm(*sums.keys())
        averages.append((sum(e * (common // p) for p, e in sums.items()), common * counts[club], club))
    denominator = lcm(*(den for _, den, _ in averages)) if averages else 1
    keyed = sorted(((num * (denominator // den), num, den, club) for num, den, club in averages),
                   key=lambda x: (-x[0], x[3]))
    out: list[ClubRow] = []
    for i, (key, num, den, club) in enumerate(keyed):
        rank = out[-1].rank if out and keyed[i - 1][0] == key else i + 1
        out.append(ClubRow(club, rank, counts[club], round(num * 100 / den, 2)))
    return out
