"""The per-team sums computed once (``Totals``) agree with the metrics' definitions record by record.

Random tournaments (byes, draws, absences, withdrawn teams' missing rounds); every row count and
every metric is checked against a plain sum over the team's records, as the FIDE-style rules in
``tournaments.ranking.metrics`` define them.
"""

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import METRICS, MatchRecord, PointsSettings, TeamInfo, club_standings, compute_standings
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


def reference_order(teams, results, names, s):
    """The ranking by splitting the tied groups one metric at a time (the definition), as (team, rank) pairs."""
    ctx = Context.build(teams, results, s)
    out = []

    def split(group, level):
        if len(group) == 1 or level == len(names):
            rank = len(out) + 1
            seed = {t.team: (t.seed if t.seed is not None else 1 << 30) for t in teams}
            out.extend((t, rank) for t in sorted(group, key=lambda t: (seed[t], t)))
            return
        m = METRICS[names[level]]
        value = {t: (m.fn(t, ctx, frozenset(group)) if m.group else m.fn(t, ctx)) * (1 if m.higher_is_better else -1)
                 for t in group}
        for v in sorted(set(value.values()), reverse=True):
            split([t for t in group if value[t] == v], level + 1)

    split([t.team for t in teams], 0)
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 16), st.integers(0, 6),
       st.lists(st.sampled_from(sorted(METRICS)), min_size=1, max_size=6, unique=True))
def test_the_order_is_the_metrics_one_after_the_other(seed, n_teams, n_rounds, names):
    teams, results = tournament(seed, n_teams, n_rounds)
    s = PointsSettings(points_win=2, points_draw=1, points_bye=2)
    rows = compute_standings(teams, results, metrics=names, settings=s)
    assert [(r.team, r.rank) for r in rows] == reference_order(teams, results, names, s)
    assert [r.position for r in rows] == list(range(1, len(rows) + 1))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 16), st.integers(0, 6), st.integers(1, 5), st.integers(0, 3))
def test_club_standings_are_the_exact_average_of_the_teams_shares(seed, n_teams, n_rounds, n_clubs, win):
    teams, results = tournament(seed, n_teams, n_rounds)
    s = PointsSettings(points_win=win, points_draw=min(1, win), points_bye=win)
    rows = compute_standings(teams, results, settings=s)
    rng = random.Random(seed)
    clubs = {t.team: rng.choice([None, *range(1, n_clubs + 1)]) for t in teams}
    shares: dict[int, list[Fraction]] = {}
    for row in rows:
        rounds = row.played + row.byes
        if clubs[row.team] is not None and rounds and win:
            shares.setdefault(clubs[row.team], []).append(Fraction(row.match_points, rounds * win))
    average = {club: sum(f) / len(f) for club, f in shares.items()}
    got = club_standings(rows, clubs, s)
    assert [c.club for c in got] == sorted(average, key=lambda c: (-average[c], c))
    for c in got:
        assert c.teams == len(shares[c.club])
        assert c.percentage == round(float(average[c.club] * 100), 2)
        assert c.rank == 1 + sum(a > average[c.club] for a in average.values())
