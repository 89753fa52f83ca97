"""Standings of individual events: players ranked by the team standings' machinery (no Django).

Issue 26's rules, on plain values. A player's match is their side's result: ``points_for`` the game
points of the player's side summed, ``points_against`` the other side's, games won and lost
likewise, match points at the tournament's win and draw values. Each finished match is four
``MatchRecord`` rows in a ``Context`` whose competitors are players (``entry="individual"``): the
record names the partner and both opponents, so the team metrics that make sense for a player work
unchanged (match points, games, points, progressive...), the individual-doubles Buchholz
``opponents_minus_partner`` reads partners and opponents, and the team-only ones (Buchholz family,
Sonneborn-Berger, direct encounter) are refused with the code ``team_only_metrics``. Ranking, shared
ranks and the incremental path (``Context.replace``, then ``rank_individual_standings``) are the
team standings' own.

The order of a format:

* ``tables``: points for, then games won, then the tournament's tiebreak list;
* ``swiss``: match points, then the tiebreak list.

The tiebreak list defaults to ``INDIVIDUAL_TIEBREAKS`` (opponents minus partner, points for, games
won: swissDouble's order after the score, then the championships' selection keys); a name already
among the format's keys is not repeated. Players equal on every metric share a rank; their rows
follow the start number (``PlayerInfo.number``), and only players with the same start number fall
back on their id, so start numbers should be distinct.

A sit-out is a round a player did not play: it adds its house-rule score (``sit_out_score``, worked
out by the caller per round) to the player's match points, games won and points for, is not a
match played (not in ``played``, ``won``, ``drawn``, ``lost``; counted in ``sit_outs``) and gives
the player neither partner nor opponent in the tiebreaks. Players' ``points_for`` as their rows
show them, sit-out scores included, are what ``opponents_minus_partner`` sums.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .metrics import INDIVIDUAL_TIEBREAKS, Context, MatchRecord, PointsSettings, TeamInfo, Totals
from .standings import StandingsRefused, ranked, resolve_metrics, totals_fields

__all__ = ["FORMATS", "SIT_OUT_RULES", "PlayerInfo", "IndividualMatch", "SitOut", "IndividualRow",
           "IndividualClubRow", "compute_individual_standings", "individual_context", "individual_metrics",
           "rank_individual_standings", "match_records", "sit_out_record", "sit_out_score", "forfeit_sitting",
           "individual_club_standings", "table_winners"]

FORMATS: dict[str, tuple[str, ...]] = {"tables": ("points_for", "games_won"), "swiss": ("match_points",)}
SIT_OUT_RULES = ("nothing", "mean", "fixed")
_WINNERS = ("ns", "ew", "draw", "")  # "": not finished, ignored


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """An entered player: the club (None: none) and the start number (the final order of equal rows)."""

    player: int
    club: int | None = None
    number: int = 0
    withdrawn: bool = False
    #: The director's deductions from the player's standings totals: (metric, amount) each.
    deductions: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class IndividualMatch:
    """One table's match in one round: two partnerships of player ids, and its result when finished."""

    match: int
    round: int
    table: int
    ns: tuple[int, int]
    ew: tuple[int, int]
    winner: str = ""  # "ns", "ew", "draw", or "" (not finished: ignored)
    games_ns: int = 0
    games_ew: int = 0
    points_ns: int = 0
    points_ew: int = 0
    #: A forfeit (the director's desk): the players absent. They lose it, the players of the other side win it
    #: (when none of theirs is absent), and a present partner of an absent player sits the round out, scored as
    #: the house rule scores a sit-out (a ``SitOut`` the caller gives: ``forfeit_sitting``).
    absent: tuple[int, ...] = ()
    #: A withdrawal mid-match (the director's desk): the player who left. The match stands as the desk decided it
    #: (the withdrawing player's side loses what it was awarded); the player who left has the match's record, and
    #: the partner, who did not leave, sits the round out as a forfeit's present partner does (``forfeit_sitting``).
    withdrawn: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SitOut:
    """A round a player sat out, with the house rule's score (``sit_out_score``) worked out by the caller."""

    player: int
    round: int
    match_points: int = 0
    games_won: int = 0
    points_for: int = 0


@dataclass(slots=True)
class IndividualRow(Totals):
    """A player's row: the numeric fields of a team's ``StandingRow``, with ``player`` for ``team``."""

    player: int = field(kw_only=True)
    rank: int = 0
    position: int = 0
    tiebreaks: dict[str, int] = field(default_factory=dict)
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class IndividualClubRow:
    """A club's place in the club ranking from individuals.

    ``players``: the players whose results make the percentage (pooled: every player of the club who
    played a match; best N: the N best, or all of them when fewer); ``won`` and ``played``: their
    matches, summed; ``complete``: False for a club with fewer than N such players (ranked after).
    """

    club: int
    rank: int
    players: int
    percentage: float  # 0-100, rounded half up to two decimals for display; ranks compare exact values
    won: int = 0
    played: int = 0
    complete: bool = True


def individual_metrics(format: str, metrics: Sequence[str] | None = None) -> list[str]:
    """The metric names that rank an individual event: its format's keys, then its tiebreak list.

    ``metrics`` is the tournament's tiebreak list (empty or None: ``INDIVIDUAL_TIEBREAKS``); a name
    is kept once, at its first place. Refused (``StandingsRefused``): an unknown format
    (``unknown_format``), an unknown metric, a metric of team events only (``team_only_metrics``).
    """
    keys = FORMATS.get(format)
    if keys is None:
        raise StandingsRefused("unknown_format", f"unknown individual format: {format!r}", format=format,
                               known=sorted(FORMATS))
    names = list(keys)
    for name in metrics or INDIVIDUAL_TIEBREAKS:
        if name not in names:
            names.append(name)
    resolve_metrics(names, entry="individual")
    return names


def _match_points(winner: str, settings: PointsSettings) -> tuple[str, int, str, int]:
    """(outcome, match points) of the ns side, then of the ew side, of a finished match."""
    win, draw = settings.points_win, settings.points_draw
    if winner == "ns":
        return "W", win, "L", 0
    if winner == "ew":
        return "L", 0, "W", win
    return "D", draw, "D", draw


def match_records(match: IndividualMatch, settings: PointsSettings) -> tuple[MatchRecord, ...]:
    """The four players' records of a finished match; none for an unfinished one.

    The records a ``Context`` of an individual event holds: after a result changes, the caller swaps
    the match's old records for its new ones (``Context.replace``).
    """
    if match.winner not in _WINNERS:
        raise StandingsRefused("unknown_winner", f"match {match.match}: unknown winner {match.winner!r}",
                               match=match.match, winner=match.winner)
    if not match.winner and not match.absent:
        return ()
    if match.absent:
        return _forfeit_records(match, settings)
    o_ns, mp_ns, o_ew, mp_ew = _match_points(match.winner, settings)
    rnd, (a, b), (c, d) = match.round, match.ns, match.ew
    ns = (o_ns, mp_ns, match.games_ns, match.games_ew, match.points_ns, match.points_ew)
    ew = (o_ew, mp_ew, match.games_ew, match.games_ns, match.points_ew, match.points_ns)
    records = (MatchRecord(rnd, a, c, *ns, b, d), MatchRecord(rnd, b, c, *ns, a, d),
               MatchRecord(rnd, c, a, *ew, d, b), MatchRecord(rnd, d, a, *ew, c, b))
    sitting = forfeit_sitting(match)  # a withdrawn player's partner: a sit-out instead
    return tuple(r for r in records if r.team not in sitting)


def forfeit_sitting(match: IndividualMatch) -> tuple[int, ...]:
    """The players of a forfeit who sit the round out: the present partners of the absent players; of a withdrawal
    mid-match, the partner of the player who left (when the match was decided: an unfinished one has no records)."""
    gone = set(match.absent) | (set(match.withdrawn) if match.winner else set())
    return tuple(p for pair in (match.ns, match.ew) if set(pair) & gone for p in pair if p not in gone)


def _forfeit_records(match: IndividualMatch, settings: PointsSettings) -> tuple[MatchRecord, ...]:
    """A forfeit's records, unplayed for everyone (no opponent, as ``tournaments.ranking.metrics`` says): "-" for
    the absent players, "+" with the match's games and points for the players of a side without an absentee."""
    rnd, out = match.round, []
    for pair, other, games, lost, points, against in (
            (match.ns, match.ew, match.games_ns, match.games_ew, match.points_ns, match.points_ew),
            (match.ew, match.ns, match.games_ew, match.games_ns, match.points_ew, match.points_ns)):
        whole = not set(pair) & set(match.absent)
        for p in pair:
            if p in match.absent:
                out.append(MatchRecord(rnd, p, None, "-", 0))
            elif whole:
                out.append(MatchRecord(rnd, p, None, "+", settings.points_win, games, lost, points, against))
    return tuple(out)


def sit_out_record(sit_out: SitOut) -> MatchRecord:
    """A sit-out's record: its score, no opponent nor partner, the outcome "S" (not a match played)."""
    return MatchRecord(sit_out.round, sit_out.player, None, "S", sit_out.match_points, sit_out.games_won, 0,
                       sit_out.points_for, 0)


def individual_context(
    players: Iterable[PlayerInfo],
    matches: Iterable[IndividualMatch],
    sit_outs: Iterable[SitOut] = (),
    *,
    settings: PointsSettings | None = None,
) -> Context:
    """The ``Context`` of an individual event: one competitor a player, the start number as its seed.

    Refused (``StandingsRefused``) rather than ranked wrong: a player listed twice
    (``player_listed_twice``), a match or sit-out naming a player who is not entered
    (``unknown_player``), a match whose four seats are not four players (``player_twice_in_match``),
    a player seated twice in one round or seated and sitting out (``player_twice_in_round``), an
    unknown winner (``unknown_winner``).
    """
    settings = settings or PointsSettings()
    infos: dict[int, TeamInfo] = {}
    for p in players:
        if p.player in infos:
            raise StandingsRefused("player_listed_twice", f"player {p.player} listed twice", player=p.player)
        infos[p.player] = TeamInfo(p.player, p.club, p.number, withdrawn=p.withdrawn, deductions=p.deductions)
    seated: set[tuple[int, int]] = set()  # (round, player)
    records: list[MatchRecord] = []
    for m in matches:
        four = (*m.ns, *m.ew)
        if len(four) != 4 or len(set(four)) != 4:
            raise StandingsRefused("player_twice_in_match", f"match {m.match}: seats {four}", match=m.match,
                                   players=list(four))
        sitting = forfeit_sitting(m)
        for p in four:
            if p not in sitting:  # seated by its sit-out
                _seat(p, m.round, infos, seated, match=m.match)
        records += match_records(m, settings)
    for s in sit_outs:
        _seat(s.player, s.round, infos, seated, match=None)
        records.append(sit_out_record(s))
    return Context.build(list(infos.values()), records, settings, entry="individual")


def _seat(player: int, rnd: int, infos: dict, seated: set, *, match: int | None) -> None:
    if player not in infos:
        raise StandingsRefused("unknown_player", f"player {player} is not entered", player=player, match=match,
                               round=rnd)
    if (rnd, player) in seated:
        raise StandingsRefused("player_twice_in_round", f"player {player} twice in round {rnd}", player=player,
                               round=rnd)
    seated.add((rnd, player))


def rank_individual_standings(ctx: Context, *, format: str, metrics: Sequence[str] | None = None
                              ) -> list[IndividualRow]:
    """Rank the players of a built (or kept up to date) individual ``Context``: one row a player, in rank order."""
    names = individual_metrics(format, metrics)
    totals, players = ctx.totals, ctx.teams
    return [IndividualRow(*totals_fields(totals[p]), rank, position, tiebreaks, players[p].withdrawn, player=p)
            for position, (p, rank, tiebreaks) in enumerate(ranked(ctx, names), start=1)]


def compute_individual_standings(
    players: Iterable[PlayerInfo],
    matches: Iterable[IndividualMatch],
    sit_outs: Iterable[SitOut] = (),
    *,
    format: str,
    metrics: Sequence[str] | None = None,
    settings: PointsSettings | None = None,
) -> list[IndividualRow]:
    """The standings of an individual event: one row a player, in rank order (see the module's rules)."""
    individual_metrics(format, metrics)  # a refused list is refused before any work
    ctx = individual_context(players, matches, sit_outs, settings=settings)
    return rank_individual_standings(ctx, format=format, metrics=metrics)


def _half_up(num: int, den: int) -> int:
    """num / den rounded half up (towards +infinity), in integers: floor(num / den + 1/2)."""
    return (2 * num + den) // (2 * den)


def sit_out_score(
    rule: str,
    round_matches: Iterable[IndividualMatch],
    *,
    fixed: tuple[int, int, int] | None = None,
    settings: PointsSettings | None = None,
) -> tuple[int, int, int]:
    """A sit-out's (match points, games won, points for) in a round, by the organizer's house rule.

    ``nothing``: (0, 0, 0). ``fixed``: the ``fixed`` score. ``mean``: the mean over the players who
    played the round (the four of each finished match of ``round_matches``) of their match points,
    games won and points for, each rounded half up in integers (no float); (0, 0, 0) while no match
    of the round is finished. A new result in a round changes that round's mean: its sit-outs'
    records are to be worked out again.
    """
    if rule == "nothing":
        return 0, 0, 0
    if rule == "fixed":
        if fixed is None or len(fixed) != 3:
            raise StandingsRefused("sit_out_fixed_score_missing", "the fixed sit-out rule needs its score",
                                   fixed=fixed)
        return int(fixed[0]), int(fixed[1]), int(fixed[2])
    if rule != "mean":
        raise StandingsRefused("unknown_sit_out_rule", f"unknown sit-out rule: {rule!r}", rule=rule,
                               known=list(SIT_OUT_RULES))
    settings = settings or PointsSettings()
    rounds: set[int] = set()
    players = match_points = games = points = 0
    for m in round_matches:
        rounds.add(m.round)
        if m.winner not in _WINNERS:
            raise StandingsRefused("unknown_winner", f"match {m.match}: unknown winner {m.winner!r}",
                                   match=m.match, winner=m.winner)
        if not m.winner:
            continue
        _, mp_ns, _, mp_ew = _match_points(m.winner, settings)
        players += 4  # two a side, each with the side's values
        match_points += 2 * (mp_ns + mp_ew)
        games += 2 * (m.games_ns + m.games_ew)
        points += 2 * (m.points_ns + m.points_ew)
    if len(rounds) > 1:
        raise StandingsRefused("sit_out_mixed_rounds", "the matches of one round are needed",
                               rounds=sorted(rounds))
    if not players:
        return 0, 0, 0
    return _half_up(match_points, players), _half_up(games, players), _half_up(points, players)


def _percent(share: Fraction) -> float:
    """A share as a percentage rounded half up to two decimals (exact until the last step)."""
    hundredths = (share * 20000 + 1) // 2  # floor(share * 10000 + 1/2)
    return hundredths / 100


def individual_club_standings(
    rows: Iterable[IndividualRow], players: Iterable[PlayerInfo], *, best_n: int | None = None
) -> list[IndividualClubRow]:
    """The club ranking from individuals, best first; equal shares share a rank (then the club id).

    Pooled (``best_n`` None): a club's matches won over its matches played, summed over its
    players (sit-outs are not matches: they count in neither). ``best_n``: the mean of the
    percentages (won / played) of the club's N best players, so that a large delegation has no
    better odds; clubs with fewer than N players who played come after those with N, ranked among
    themselves by the mean of all their players. Exact (fractions); rounded for display only.
    Players without a club, and players who played no match, are left out.
    """
    if best_n is not None and (not isinstance(best_n, int) or best_n < 1):
        raise StandingsRefused("invalid_best_n", f"best_n must be a positive integer, not {best_n!r}",
                               best_n=best_n)
    club_of = {p.player: p.club for p in players}
    members: dict[int, list[tuple[int, int]]] = {}  # club -> [(won, played)] of its players who played
    for row in rows:
        club = club_of.get(row.player)
        if club is not None and row.played:
            members.setdefault(club, []).append((row.won, row.played))
    keyed = []  # (complete, share, club, counted players' results)
    for club, results in members.items():
        if best_n is None:
            counted = results
            share = Fraction(sum(w for w, _ in counted), sum(p for _, p in counted))
        else:
            counted = sorted(results, key=lambda r: Fraction(*r), reverse=True)[:best_n]
            share = sum((Fraction(w, p) for w, p in counted), Fraction(0)) / len(counted)
        keyed.append((best_n is None or len(counted) == best_n, share, club, counted))
    keyed.sort(key=lambda k: (not k[0], -k[1], k[2]))
    out: list[IndividualClubRow] = []
    for i, (complete, share, club, counted) in enumerate(keyed):
        tied = i and keyed[i - 1][:2] == (complete, share)
        out.append(IndividualClubRow(club, out[-1].rank if tied else i + 1, len(counted), _percent(share),
                                     sum(w for w, _ in counted), sum(p for _, p in counted), complete))
    return out


def table_winners(
    players: Iterable[PlayerInfo],
    matches: Iterable[IndividualMatch],
    rows: Iterable[IndividualRow],
    *,
    cycle_rounds: Sequence[int],
) -> list[int]:
    """Each table's winner over a ``tables`` cycle, tables in number order (a qualification rule).

    A table's players are those seated at it in any of ``cycle_rounds``; its winner is the first of
    them in ``rows``, the stage's standings (whose order is already its metric list, then the start
    number). A player without a row comes after those with one, by start number. Tables without a
    match in the cycle have no winner.
    """
    position = {r.player: r.position for r in rows}
    number = {p.player: p.number for p in players}
    rounds = set(cycle_rounds)
    tables: dict[int, set[int]] = {}
    for m in matches:
        if m.round in rounds:
            tables.setdefault(m.table, set()).update((*m.ns, *m.ew))
    last = len(position) + 1

    def order(player: int) -> tuple[int, int, int]:
        return position.get(player, last), number.get(player, 0), player

    return [min(tables[t], key=order) for t in sorted(tables)]
