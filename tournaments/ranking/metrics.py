"""Standings metrics: each a small named function in ``METRICS`` (pure Python, no Django).

A metric takes a competitor's id and the ``Context`` of the whole tournament and returns an integer
(the group metric ``direct_encounter`` also gets the set of competitors still tied).
``higher_is_better`` says which way it sorts. A competitor is a team, or in an individual event
(``Context.entry == "individual"``) a player: its records then name its partner and both opponents
(``MatchRecord.partner``, ``opponent``, ``opponent_2``), and a round it sat out is a record with the
outcome "S" and no opponent. ``Metric.entries`` says for which kind of event a metric is defined:
the opponent-score metrics of team events (the Buchholz family, Sonneborn-Berger, direct encounter)
read one opponent a round and a dummy opponent for an unplayed one, which has no meaning when a
player meets two opponents and a partner and a sit-out has neither, so an individual event refuses
them (``tournaments.ranking.standings.resolve_metrics``); it has ``opponents_minus_partner``.

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
* A forfeit (the director's desk: a side absent) is an unplayed round for both sides, as C.07 art. 16
  treats one: the winner's is worth its match points (outcome "+") and the loser's nothing (outcome "-"),
  each counts against the virtual opponent (the side's own score) in its Buchholz, and a forfeit loss is a
  voluntary unplayed round for the cuts. Its games and game points count as the director's award fixed
  them. Forfeits are counted apart from matches played (``forfeits_won``, ``forfeits_lost``).
* A deduction (the director's desk: a penalty on an entrant's standings total) comes off the named
  total, ``match_points`` or ``points_for``, before anything is ranked (``TeamInfo.deductions``).

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
ENTRIES = ("teams", "individual")  # the kinds of event (a tournament's ``entry``)
# An individual event's tiebreaks when the tournament names none, after its format's own keys (see
# ``tournaments.ranking.individual``): swissDouble's order (score, then opponents minus partners),
# then the championships' selection keys, game points and games won.
INDIVIDUAL_TIEBREAKS = ["opponents_minus_partner", "points_for", "games_won"]


class MatchRecord(NamedTuple):
    """One competitor's result in one round: a bye has no ``opponent`` and the outcome "B".

    In an individual event ``team`` is the player, ``opponent`` and ``opponent_2`` the two players
    of the other side and ``partner`` the player's partner (all None in a team event but
    ``opponent``); a round the player sat out has no opponent nor partner and the outcome "S".
    """

    round: int
    team: int
    opponent: int | None
    outcome: str  # "W", "D", "L", "B" for a bye, "S" for an individual event's sit-out, "+"/"-" a forfeit won/lost
    points: int  # match points earned
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    partner: int | None = None
    opponent_2: int | None = None


class TeamInfo(NamedTuple):
    """A team entered in the tournament and the rounds it was absent from."""

    team: int
    club: int | None = None
    seed: int | None = None
    absent_rounds: frozenset[int] = frozenset()
    withdrawn: bool = False
    #: The director's deductions from the standings totals: (metric, amount) each (``DEDUCTIBLE``).
    deductions: tuple[tuple[str, int], ...] = ()


#: The totals a director's deduction may come off.
DEDUCTIBLE = ("match_points", "points_for")


@dataclass(frozen=True, slots=True)
class PointsSettings:
    points_win: int = 2
    points_draw: int = 1
    points_bye: int = 2


@dataclass(slots=True)
class Totals:
    """A competitor's results summed once: the counts of its standings row, read by the simple metrics.

    A bye, a sit-out or a forfeit (a record without an opponent) is not a match played: it adds its
    match points, games and game points, not to ``played``, ``won``, ``drawn`` nor ``lost``; a forfeit
    counts in ``forfeits_won`` or ``forfeits_lost``.
    """

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    played_points: int = 0  # match points earned over the table (byes and sit-outs excluded)
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    sit_outs: int = 0  # rounds sat out in an individual event (scored by the house rule)
    forfeits_won: int = 0  # matches won by forfeit (the director's desk), not played
    forfeits_lost: int = 0  # matches lost by forfeit, not played

    @classmethod
    def of(cls, records: list[MatchRecord]) -> Totals:
        if not records:
            return cls()
        _, _, opponents, outcomes, points, games_won, games_lost, points_for, points_against, *_ = zip(*records)
        unplayed = opponents.count(None)
        byes = outcomes.count("B")
        forfeits_won, forfeits_lost = (outcomes.count("+"), outcomes.count("-")) if unplayed else (0, 0)
        match_points = sum(points)
        unplayed_points = sum(p for o, p in zip(opponents, points) if o is None) if unplayed else 0
        return cls(played=len(records) - unplayed, won=outcomes.count("W"), drawn=outcomes.count("D"),
                   lost=outcomes.count("L"), byes=byes, match_points=match_points,
                   played_points=match_points - unplayed_points, games_won=sum(games_won),
                   games_lost=sum(games_lost), points_for=sum(points_for), points_against=sum(points_against),
                   sit_outs=unplayed - byes - forfeits_won - forfeits_lost, forfeits_won=forfeits_won,
                   forfeits_lost=forfeits_lost)


_by_round = attrgetter("round")


@dataclass
class Context:
    """Everything the metrics read, precomputed once per standings computation.

    Keyed by competitor: a team, or a player in an individual event (``entry``), whose ``TeamInfo``
    then carries the player's club and start number (as ``seed``, the final order of equal rows).
    """

    teams: dict[int, TeamInfo]
    records: dict[int, list[MatchRecord]]
    settings: PointsSettings
    totals: dict[int, Totals] = field(default_factory=dict)
    score: dict[int, int] = field(default_factory=dict)
    adjusted: dict[int, int] = field(default_factory=dict)
    opponents: dict[int, list[int]] = field(default_factory=dict)  # the competitors met over the table, in round order
    entry: str = "teams"  # "teams" or "individual": which metrics apply (``Metric.entries``)

    @classmethod
    def build(cls, teams, results, settings: PointsSettings, *, entry: str = "teams") -> Context:
        """Index results by competitor (in round order), sum them, and compute each score and adjusted score."""
        info = {t.team: t for t in teams}
        records: dict[int, list[MatchRecord]] = {t: [] for t in info}
        for r in results:
            recs = records.get(r.team)
            if recs is not None:
                recs.append(r)
        ctx = cls(info, records, settings, entry=entry)
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
        for name, amount in self.teams[team].deductions:
            if name == "match_points":
                sums.match_points -= amount
                sums.played_points -= amount
            elif name == "points_for":
                sums.points_for -= amount
        if self.entry == "teams":
            self.opponents[team] = [r.opponent for r in recs if r.opponent is not None]
        else:  # both players of the other side
            self.opponents[team] = [o for r in recs for o in (r.opponent, r.opponent_2) if o is not None]
        self.score[team] = sums.match_points
        self.adjusted[team] = sums.played_points + self.unplayed(team) * self.settings.points_draw

    def played(self, team: int) -> list[MatchRecord]:
        return [r for r in self.records[team] if r.opponent is not None]

    def unplayed(self, team: int) -> int:
        """Rounds without an opponent: byes, sit-outs, forfeits and absences."""
        sums = self.totals[team]
        return (sums.byes + sums.sit_outs + sums.forfeits_won + sums.forfeits_lost
                + len(self.teams[team].absent_rounds))

    def opponent_values(self, team: int) -> list[tuple[int, bool]]:
        """Buchholz contributions of every round: (value, is a voluntary unplayed round)."""
        own = self.score[team]
        values = [(self.adjusted[r.opponent], False) if r.opponent is not None else (own, r.outcome == "-")
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
    entries: frozenset[str] = frozenset(ENTRIES)  # the kinds of event it is defined for


METRICS: dict[str, Metric] = {}
TEAMS_ONLY = ("teams",)


def metric(name: str, *, lower_is_better: bool = False, group: bool = False, label: str = "",
           entries: tuple[str, ...] = ENTRIES):
    """Register a metric function under ``name``."""

    def register(fn):
        METRICS[name] = Metric(name, fn, not lower_is_better, group, label or fn.__doc__ or name, frozenset(entries))
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
    """Match points (wins, draws and byes at the tournament's values; a stage's carried points included)."""
    return ctx.totals[team].match_points


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


@metric("buchholz", entries=TEAMS_ONLY)
def buchholz(team: int, ctx: Context) -> int:
    """Sum of the opponents' adjusted scores (own unplayed rounds: a dummy with the team's score)."""
    return sum(map(ctx.adjusted.__getitem__, ctx.opponents[team])) + ctx.unplayed(team) * ctx.score[team]


@metric("buchholz_cut1", entries=TEAMS_ONLY)
def buchholz_cut1(team: int, ctx: Context) -> int:
    """Buchholz without the least significant value (voluntary unplayed rounds cut first)."""
    return _cut(ctx.opponent_values(team), 1)


@metric("median_buchholz", entries=TEAMS_ONLY)
def median_buchholz(team: int, ctx: Context) -> int:
    """Buchholz without the lowest and the highest value."""
    return _cut(ctx.opponent_values(team), 1, 1)


@metric("sonneborn_berger", entries=TEAMS_ONLY)
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


@metric("opponents_minus_partner")
def opponents_minus_partner(team: int, ctx: Context) -> int:
    """Sum over the matches of both opponents' points for minus the partner's (individual-doubles Buchholz)."""
    # swissDouble's "opponents minus partners", on game points as issue 26 defines it: each player's
    # ``points_for`` as its row shows it (a sit-out's house score included). A round sat out adds
    # nothing (no partner, no opponent). A team has one opponent a match and no partner: the sum of
    # its opponents' points for.
    totals = ctx.totals
    return (sum(totals[o].points_for for o in ctx.opponents[team])
            - sum(totals[r.partner].points_for for r in ctx.records[team] if r.partner is not None))


@metric("direct_encounter", group=True, entries=TEAMS_ONLY)
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
