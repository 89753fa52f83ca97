"""Property tests of the Swiss pairing over whole simulated tournaments (5-200 teams, many rounds)."""

import random

import rustworkx as rx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.types import TeamState


def perfect_matching_exists(teams):
    """Can the field be paired with no rematch and no second bye (checked independently, on the full graph)?"""
    n = len(teams)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    for i in range(n):
        for j in range(i + 1, n):
            if teams[j].id not in teams[i].opponents:
                graph.add_edge(i, j, 1)
        if n % 2 and not teams[i].had_bye:
            graph.add_edge(i, n, 1)
    return len(rx.max_weight_matching(graph, max_cardinality=True)) == (n + 1) // 2


def best_score_cost(teams):
    """The least sum of squared score differences (byes: twice the squared distance to the lowest score)."""
    n = len(teams)
    low = min(t.score for t in teams)
    worst = 2 * (max(t.score for t in teams) - low) ** 2 + 1
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    for i in range(n):
        for j in range(i + 1, n):
            if teams[j].id not in teams[i].opponents:
                graph.add_edge(i, j, (teams[i].score - teams[j].score) ** 2)
        if n % 2 and not teams[i].had_bye:
            graph.add_edge(i, n, 2 * (teams[i].score - low) ** 2)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda c: worst - c)
    return sum(graph.get_edge_data(a, b) for a, b in matching)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(5, 200), rounds=st.integers(3, 11), seed=st.integers(0, 10**6),
       draws=st.sampled_from([0.0, 0.1, 0.3]), changes=st.booleans())
def test_simulated_tournament(n, rounds, seed, draws, changes):
    rng = random.Random(seed)
    active = list(range(1, n + 1))
    score = {t: 0 for t in active}
    opponents = {t: set() for t in active}
    byes = {t: 0 for t in active}
    next_id = n + 1
    for rnd in range(1, min(rounds, n - 1) + 1):
        if changes and rnd > 1 and rng.random() < 0.3:  # a withdrawal, a late entry
            active.remove(rng.choice(active))
            score[next_id], opponents[next_id], byes[next_id] = 0, set(), 0
            active.append(next_id)
            next_id += 1
        order = sorted(active, key=lambda t: (-score[t], t))
        teams = [TeamState(t, score[t], k, had_bye=byes[t] > 0, opponents=frozenset(opponents[t]))
                 for k, t in enumerate(order)]
        result = pair_swiss(teams)
        if result.unpaired:
            # Only when no pairing without rematch (or second bye) exists at all.
            assert not perfect_matching_exists(teams)
            return
        seen = [t for p in result.pairings for t in (p.ns, p.ew) if t is not None]
        assert sorted(seen) == sorted(active)  # every team paired once
        bye_matches = [p for p in result.pairings if p.ew is None]
        assert len(bye_matches) == len(active) % 2  # the one bye, only when the count is odd
        for p in bye_matches:
            assert byes[p.ns] == 0  # at most one bye per team
        for p in result.pairings:
            if p.ew is not None:
                assert p.ew not in opponents[p.ns]  # no rematch
        assert result.cost[0] == best_score_cost(teams)  # score groups: no float more or bigger than needed
        for p in result.pairings:
            if p.ew is None:
                score[p.ns] += 2
                byes[p.ns] += 1
                continue
            opponents[p.ns].add(p.ew)
            opponents[p.ew].add(p.ns)
            x = rng.random()
            if x < draws:
                score[p.ns] += 1
                score[p.ew] += 1
            elif x < (1 + draws) / 2:
                score[p.ns] += 2
            else:
                score[p.ew] += 2


def test_score_groups_in_order_round_two():
    # After round 1 the winners meet winners and the losers losers.
    teams = [TeamState(i, 2 if i <= 8 else 0, i - 1, opponents=frozenset({i + 8 if i <= 8 else i - 8}))
             for i in range(1, 17)]
    result = pair_swiss(teams)
    assert result.cost[0] == 0
    for p in result.pairings:
        assert (p.ns <= 8) == (p.ew <= 8)
