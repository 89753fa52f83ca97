"""The lower bound on repeated opponents, checked against an independent listing of every draw (up to 12 players).

Each relaxation must never exceed the optimum (a bound that did would call a good draw bad); together they
reach it (are tight) on random meeting graphs, and on the positions of events played with the draw in all
but about one in three hundred (the linear relaxation's integrality gap, by one pair). Up to 12 players the
draw and the report's bound are the optimum itself (exhaustive); the benchmark (bench/bench_draw.py)
reports the gap on large fields.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.individual_events import fewest_repeats, meetings, past, run
from tournaments.pairing.individual.bounds import (
    clique_bound,
    lagrangian_bound,
    lower_bound,
    player_bound,
    relaxation_bound,
)
from tournaments.pairing.individual.problem import Problem
from tournaments.pairing.individual.search import exact


def graph(pairs):
    out = {}
    for pair in pairs:
        a, b = tuple(pair)
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def problem(fmt, playing, counted, partners=(), apart=(), fixed=None):
    return Problem(kind=fmt, players=list(playing), counted=graph(counted), hard=graph(apart), clubs={},
                   fixed=fixed or {}, partners=graph(partners))


def random_field(fmt, n, seed, density, apart):
    rng = random.Random(seed)
    pairs = [frozenset((a, b)) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    counted = {p for p in pairs if rng.random() < density}
    partners = {p for p in pairs if fmt == "swiss" and rng.random() < density / 2}
    kept = {p for p in pairs if rng.random() < apart}
    return counted, partners, kept


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(["tables", "swiss"]), n=st.sampled_from([4, 8, 12]), seed=st.integers(0, 10**6),
       density=st.floats(0, 0.9), apart=st.floats(0, 0.08))
def test_every_bound_is_at_most_the_optimum(fmt, n, seed, density, apart):
    counted, partners, kept = random_field(fmt, n, seed, density, apart)
    best = fewest_repeats(fmt, list(range(1, n + 1)), counted, partners, kept)
    if best is None:
        return  # no allowed draw at all: nothing to bound
    found = problem(fmt, range(1, n + 1), counted, partners, kept)
    assert player_bound(found) <= best
    assert clique_bound(found) <= best
    assert lagrangian_bound(found, None) <= best
    assert lagrangian_bound(found, best + 3) <= best  # aimed too high: still a bound
    assert relaxation_bound(found, best) <= best
    _, cost = exact(found)
    assert cost // found.unit == best  # the exhaustive draw reaches the optimum
    assert lower_bound(problem(fmt, range(1, n + 1), counted, partners, kept), best) == best


def test_the_relaxation_is_tight_on_random_fields():
    """300 random fields of 4, 8 and 12 players (fixed seeds): the relaxation reaches the optimum on each."""
    gaps = []
    for k in range(300):
        fmt, n = ("tables", "swiss")[k % 2], (4, 8, 12)[k % 3]
        counted, partners, kept = random_field(fmt, n, k, density=(k % 10) / 10, apart=0.03)
        best = fewest_repeats(fmt, list(range(1, n + 1)), counted, partners, kept)
        if best is not None:
            gaps.append(best - relaxation_bound(problem(fmt, range(1, n + 1), counted, partners, kept), best))
    print(f"random fields: {len(gaps)} with a draw, gaps {sorted(set(gaps))}")
    assert len(gaps) > 250 and set(gaps) == {0}


def test_events_up_to_twelve_players_the_draw_is_optimal_and_the_bound_tight():
    """Every draw of events of 4-12 players played with the draw (both formats, 10 rounds, 3 seeds each).

    The draw and the report's bound (exhaustive up to 12 players) equal the independent optimum; the
    relaxation alone (what larger fields get) never exceeds it and reaches it in all but a few positions.
    """
    positions, gaps = 0, []
    for fmt in ("tables", "swiss"):
        for n in range(4, 13):
            for seed in range(3):
                apart = {frozenset((1, 2))} if n > 8 else set()
                drawn, _ = run(fmt, n, 10, seed, kept_apart=[tuple(p) for p in apart])
                history = []
                for value, result in drawn:
                    rnd = value.round_number
                    if fmt == "swiss" or rnd % 3 == 1:
                        playing = sorted(p for t in result.tables for p in (*t.ns, *t.ew))
                        partners, opponents = meetings(history)
                        if fmt == "tables":
                            counted, partners = partners | opponents, set()
                        else:
                            counted = opponents
                        best = fewest_repeats(fmt, playing, counted, partners, apart)
                        report = result.report
                        assert report["repeated_opponents"] == report["opponents_lower_bound"] == best
                        assert report["bound"] == "exhaustive"
                        relaxed = relaxation_bound(problem(fmt, playing, counted, partners, apart), best)
                        positions += 1
                        gaps.append(best - relaxed)
                    history.append(past(result, rnd))
    misses = [g for g in gaps if g]
    print(f"event positions {positions}: relaxation below the optimum in {len(misses)}, by {sorted(set(misses))}")
    assert min(gaps) >= 0 and max(gaps) <= 1
    assert len(misses) <= positions // 50  # 2 of 299 when written


def test_the_pigeonhole_is_counted():
    """Twelve players after one cycle: three old tables of four over three tables, one pair met at each."""
    tables = [range(1, 5), range(5, 9), range(9, 13)]
    met = {frozenset((a, b)) for t in tables for a in t for b in t if a < b}
    found = problem("tables", range(1, 13), met)
    assert clique_bound(found) == 3 == fewest_repeats("tables", list(range(1, 13)), met)
    assert player_bound(found) == 0


def test_the_linear_relaxation_closes_what_the_simple_bounds_miss():
    """Eight players, 13 pairs who met (6, 7 and 8 met almost everyone): the simple bounds say 2, the best is 4."""
    met = {frozenset(p) for p in [(1, 6), (2, 6), (2, 7), (3, 6), (3, 8), (4, 6), (4, 7), (5, 6), (5, 7), (5, 8),
                                  (6, 7), (6, 8), (7, 8)]}
    best = fewest_repeats("tables", list(range(1, 9)), met)
    found = problem("tables", range(1, 9), met)
    assert max(player_bound(found), clique_bound(found)) == 2
    assert lagrangian_bound(found, best) == best == 4
    assert lagrangian_bound(found, None) == 4


def test_larger_fields_keep_a_valid_bound():
    """Sixteen to twenty-four players deep into an event: the bound stays at or below the draw's count."""
    for n, rounds in ((16, 13), (20, 16), (24, 19)):
        drawn, refusal = run("tables", n, rounds, seed=n)
        assert refusal is None
        report = drawn[-1][1].report
        assert 0 < report["opponents_lower_bound"] <= report["repeated_opponents"]


def test_the_three_rounds_of_a_cycle_report_the_same_figures():
    drawn, _ = run("tables", 20, 18, seed=3)
    keys = ("repeated_meetings", "meetings_lower_bound", "repeated_opponents", "opponents_lower_bound", "bound")
    for start in range(0, 18, 3):
        figures = [tuple(result.report[k] for k in keys) for _, result in drawn[start:start + 3]]
        assert figures[0] == figures[1] == figures[2]
    assert drawn[-1][1].report["opponents_lower_bound"] > 0
