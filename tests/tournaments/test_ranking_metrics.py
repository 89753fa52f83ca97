"""Standings metrics on hand-made tables, with a bye and a withdrawal."""

import pytest

from tournaments.ranking import METRICS, MatchRecord, PointsSettings, TeamInfo, club_standings, compute_standings
from tournaments.ranking.metrics import Context

A, B, C, D, E = 1, 2, 3, 4, 5
S = PointsSettings(points_win=2, points_draw=1, points_bye=2)


def match(rnd, ns, ew, winner, games=(2, 0), points=(120, 80)):
    """Both teams' records of one match: winner "ns", "ew" or "draw"."""
    pts = {"ns": (2, 0), "ew": (0, 2), "draw": (1, 1)}[winner]
    out = {"ns": ("W", "L"), "ew": ("L", "W"), "draw": ("D", "D")}[winner]
    return [
        MatchRecord(rnd, ns, ew, out[0], pts[0], games[0], games[1], points[0], points[1]),
        MatchRecord(rnd, ew, ns, out[1], pts[1], games[1], games[0], points[1], points[0]),
    ]


def bye(rnd, team):
    return [MatchRecord(rnd, team, None, "B", S.points_bye)]


# R1: A beats B, C draws D, E has the bye. D withdraws after round 1.
# R2: A beats C, E beats B.   R3: E beats A, B draws C.
RESULTS = (match(1, A, B, "ns") + match(1, C, D, "draw", (1, 1), (100, 100)) + bye(1, E)
           + match(2, A, C, "ns") + match(2, E, B, "ns")
           + match(3, A, E, "ew", (1, 2), (150, 160)) + match(3, B, C, "draw", (1, 1), (90, 90)))
TEAMS = [TeamInfo(A, club=10), TeamInfo(B, club=10), TeamInfo(C, club=20), TeamInfo(D, club=20, absent_rounds=frozenset({2, 3}),
                                                                               withdrawn=True),
         TeamInfo(E, club=30)]


@pytest.fixture
def ctx():
    return Context.build(TEAMS, RESULTS, S)


def values(name, ctx):
    return {t: METRICS[name].fn(t, ctx) for t in (A, B, C, D, E)}


def test_scores_and_adjusted_scores(ctx):
    assert ctx.score == {A: 4, B: 1, C: 2, D: 1, E: 6}
    # Unplayed rounds (E's bye, D's two absences) count as draws for opponents.
    assert ctx.adjusted == {A: 4, B: 1, C: 2, D: 3, E: 5}


def test_buchholz_family(ctx):
    assert values("buchholz", ctx) == {A: 8, B: 11, C: 8, D: 4, E: 11}
    # D's voluntary unplayed rounds are cut first.
    assert values("buchholz_cut1", ctx) == {A: 7, B: 9, C: 7, D: 3, E: 10}
    assert values("median_buchholz", ctx) == {A: 2, B: 4, C: 3, D: 1, E: 4}


def test_sonneborn_berger(ctx):
    assert values("sonneborn_berger", ctx) == {A: 6, B: 2, C: 4, D: 2, E: 22}


def test_counts_and_points(ctx):
    assert values("match_points", ctx) == {A: 4, B: 1, C: 2, D: 1, E: 6}
    assert values("matches_won", ctx) == {A: 2, B: 0, C: 0, D: 0, E: 2}
    assert values("wins", ctx) == {A: 2, B: 0, C: 0, D: 0, E: 3}
    assert values("progressive", ctx) == {A: 10, B: 1, C: 4, D: 3, E: 12}
    assert values("games_won", ctx)[A] == 5 and values("games_lost", ctx)[A] == 2
    assert values("games_diff", ctx)[A] == 3
    assert values("points_for", ctx)[A] == 390 and values("points_against", ctx)[A] == 320
    assert values("points_diff", ctx)[A] == 70


def test_every_issue_metric_is_registered():
    assert set(METRICS) >= {"match_points", "matches_won", "games_won", "games_lost", "games_diff", "points_for",
                            "points_against", "points_diff", "buchholz", "buchholz_cut1", "median_buchholz",
                            "sonneborn_berger", "direct_encounter", "wins", "progressive"}
    assert not METRICS["points_against"].higher_is_better


def test_standings_order_and_rows():
    rows = compute_standings(TEAMS, RESULTS, metrics=["match_points", "buchholz"], settings=S)
    assert [(r.team, r.rank) for r in rows] == [(E, 1), (A, 2), (C, 3), (B, 4), (D, 5)]
    e = rows[0]
    assert (e.played, e.won, e.drawn, e.lost, e.byes, e.match_points) == (2, 2, 0, 0, 1, 6)
    assert e.tiebreaks == {"match_points": 6, "buchholz": 11}


def test_equal_rows_share_a_rank():
    results = match(1, 1, 2, "ns") + match(1, 3, 4, "ns")
    teams = [TeamInfo(t, seed=t) for t in (1, 2, 3, 4)]
    rows = compute_standings(teams, results, metrics=["match_points", "games_won"], settings=S)
    assert [(r.team, r.rank, r.position) for r in rows] == [(1, 1, 1), (3, 1, 2), (2, 3, 3), (4, 3, 4)]


def test_direct_encounter_breaks_a_tie_only_when_all_met():
    # All four on 2 points, but 1-3 and 2-4 never met: direct encounter cannot decide.
    results = match(1, 1, 2, "ns") + match(1, 3, 4, "ns") + match(2, 4, 1, "ns") + match(2, 2, 3, "ns")
    teams = [TeamInfo(t) for t in (1, 2, 3, 4)]
    rows = compute_standings(teams, results, metrics=["match_points", "direct_encounter"], settings=S)
    assert {(r.rank, r.tiebreaks["direct_encounter"]) for r in rows} == {(1, 0)}
    # Two teams tied who met: the winner goes first.
    results = match(1, 1, 2, "ew") + match(1, 3, 4, "ns") + match(2, 1, 4, "ns") + match(2, 3, 2, "ns")
    rows = compute_standings(teams, results, metrics=["match_points", "direct_encounter"], settings=S)
    tied = [(r.team, r.rank, r.tiebreaks["direct_encounter"]) for r in rows if r.match_points == 2]
    assert tied == [(2, 2, 2), (1, 3, 0)]


def _direct_encounter_by_definition(team, ctx, tied):
    """The metric as its docstring defines it: every pair of the tied teams has met, else 0."""
    if len(tied) < 2 or team not in tied:
        return 0
    met = {frozenset((t, r.opponent)) for t in tied for r in ctx.played(t) if r.opponent in tied}
    if len(met) < len(tied) * (len(tied) - 1) // 2:
        return 0
    return sum(r.points for r in ctx.played(team) if r.opponent in tied)


def test_direct_encounter_agrees_with_its_definition_on_random_groups():
    import itertools
    import random

    rng = random.Random(7)
    fn = METRICS["direct_encounter"].fn
    for _ in range(300):
        n = rng.randint(2, 7)
        pairs = list(itertools.combinations(range(1, n + 1), 2))
        results = []
        for rnd, (a, b) in enumerate(rng.sample(pairs, rng.randint(0, len(pairs))) * rng.choice((1, 1, 2)), 1):
            results += match(rnd, a, b, rng.choice(("ns", "ew", "draw")))
        ctx = Context.build([TeamInfo(t) for t in range(1, n + 1)], results, S)
        tied = frozenset(rng.sample(range(1, n + 1), rng.randint(2, n)))
        for team in range(1, n + 1):
            assert fn(team, ctx, tied) == _direct_encounter_by_definition(team, ctx, tied)


def test_points_against_sorts_ascending():
    results = match(1, 1, 2, "ns", points=(100, 90)) + match(1, 3, 4, "ns", points=(100, 50))
    rows = compute_standings([TeamInfo(t) for t in (1, 2, 3, 4)], results,
                             metrics=["match_points", "points_against"], settings=S)
    assert [r.team for r in rows[:2]] == [3, 1]  # 3 conceded 50, 1 conceded 90


def test_unknown_metric_rejected():
    with pytest.raises(ValueError, match="unknown standings metrics"):
        compute_standings([], [], metrics=["elo"])


def test_club_standings_average_match_point_percentage():
    rows = compute_standings(TEAMS, RESULTS, settings=S)
    clubs = club_standings(rows, {t.team: t.club for t in TEAMS}, S)
    # Club 30: E 6/6 = 100%. Club 10: A 4/6, B 1/6 -> 41.67%. Club 20: C 2/6, D 1/2 -> 41.67%.
    assert [(c.club, c.rank, c.percentage) for c in clubs] == [(30, 1, 100.0), (10, 2, 41.67), (20, 2, 41.67)]
