"""The per-team sums computed once (``Totals``) agree with the metrics' definitions record by record.

Random tournaments (byes, draws, absences, withdrawn teams' missing rounds); every row count and
every metric is checked against a plain sum over the team's records, as the FIDE-style rules in
``tournaments.ranking.metrics`` define them.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import METRICS, MatchRecord, PointsSettings, TeamInfo, compute_standings
from tournaments.ranking.metrics import Context


def tournament(seed: int, n_teams: int, n_rounds: int):
    rng = random.Random(seed)
    ids = list(range(10, 10 + n_teams))
    absent = {t: frozenset(r for r in range(1, n_rounds + 1) if rng.random() < 0.1) for t in ids}
    results = []
    for rnd in range(1, n_rounds + 1):
        playing = [t for t in ids if rnd not in absent[t]]
        rng.shuffle(playing)
        if len(playing) % 2:
            results.append(MatchRecord(rnd, playing.pop(), None, "B", 2))
        for ns, ew in zip(playing[::2], playing[1::2]):
            outcome = rng.choice(["W", "L", "D"])
            other = {"W": "L", "L": "W", "D": "D"}[outcome]
            mp = {"W": 2, "D": 1, "L": 0}
            g = (rng.randint(0, 2), rng.randint(0, 2))
            p = (rng.randint(0, 300), rng.randint(0, 300))
            results.append(MatchRecord(rnd, ns, ew, outcome, mp[outcome], g[0], g[1], p[0], p[1]))
            results.append(MatchRecord(rnd, ew, ns, other, mp[other], g[1], g[0], p[1], p[0]))
    rng.shuffle(results)
    teams = [TeamInfo(t, seed=rng.choice([None, i]), absent_rounds=absent[t]) for i, t in enumerate(ids)]
    return teams, results


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 14), st.integers(0, 6))
def test_totals_and_metrics_match_their_definitions(seed, n_teams, n_rounds):
    teams, results = tournament(seed, n_teams, n_rounds)
    s = PointsSettings(points_win=2, points_draw=1, points_bye=2)
    ctx = Context.build(teams, results, s)
    for info in teams:
        t = info.team
        recs = [r for r in results if r.team == t]
        played = [r for r in recs if r.opponent is not None]
        byes = [r for r in recs if r.opponent is None]
        assert [r.round for r in ctx.records[t]] == sorted(r.round for r in recs)
        score = sum(r.points for r in recs)
        assert ctx.score[t] == score
        assert ctx.adjusted[t] == sum(r.points for r in played) + (len(byes) + len(info.absent_rounds)) * s.points_draw
        expected = {
            "match_points": score,
            "matches_won": sum(r.outcome == "W" for r in played),
            "wins": sum(r.outcome in ("W", "B") for r in recs),
            "games_won": sum(r.games_won for r in recs),
            "games_lost": sum(r.games_lost for r in recs),
            "games_diff": sum(r.games_won - r.games_lost for r in recs),
            "points_for": sum(r.points_for for r in recs),
            "points_against": sum(r.points_against for r in recs),
            "points_diff": sum(r.points_for - r.points_against for r in recs),
            "buchholz": sum(ctx.adjusted[r.opponent] for r in played)
            + score * (len(byes) + len(info.absent_rounds)),
            "sonneborn_berger": sum((ctx.adjusted[r.opponent] if r.opponent is not None else score) * r.points
                                    for r in recs),
        }
        for name, value in expected.items():
            assert METRICS[name].fn(t, ctx) == value, name
    rows = compute_standings(teams, results, metrics=sorted(m for m in METRICS if not METRICS[m].group), settings=s)
    assert sorted(r.team for r in rows) == sorted(t.team for t in teams)
    for row in rows:
        recs = [r for r in results if r.team == row.team]
        played = [r for r in recs if r.opponent is not None]
        assert (row.played, row.won, row.drawn, row.lost, row.byes) == (
            len(played), sum(r.outcome == "W" for r in played), sum(r.outcome == "D" for r in played),
            sum(r.outcome == "L" for r in played), len(recs) - len(played))
        assert (row.match_points, row.games_won, row.games_lost, row.points_for, row.points_against) == (
            sum(r.points for r in recs), sum(r.games_won for r in recs), sum(r.games_lost for r in recs),
            sum(r.points_for for r in recs), sum(r.points_against for r in recs))
