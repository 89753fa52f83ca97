"""Swiss pairing: hand-made cases and an exhaustive check of the weight priorities on small fields."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing.swiss import _Field, matching_weight, pair_swiss
from tournaments.pairing.types import TeamState


def teams_at(scores, **extra):
    return [TeamState(i + 1, score=s, rank=i, **extra) for i, s in enumerate(scores)]


def pairs_of(result):
    return {(p.ns, p.ew) for p in result.pairings}


def test_round_one_top_half_meets_bottom_half():
    result = pair_swiss(teams_at([0] * 8))
    assert pairs_of(result) == {(1, 5), (2, 6), (3, 7), (4, 8)}
    assert [p.table for p in result.pairings] == [1, 2, 3, 4]
    assert all(p.why[0][0] == "swiss_same_score" for p in result.pairings)


def test_odd_field_bye_to_lowest_ranked_without_bye():
    teams = teams_at([0] * 7)
    result = pair_swiss(teams)
    assert (7, None) in pairs_of(result)
    teams[6] = TeamState(7, score=0, rank=6, had_bye=True)
    result = pair_swiss(teams)
    assert (6, None) in pairs_of(result)
    assert result.pairings[-1].why[0][0] == "swiss_bye"


def test_bye_goes_to_the_bottom_group_not_to_save_a_float():
    # Top group of 3 (odd) and bottom group of 4: the top floats one team down, the bye stays at the bottom.
    result = pair_swiss(teams_at([4, 4, 4, 0, 0, 0, 0]))
    byes = [p.ns for p in result.pairings if p.ew is None]
    assert byes == [7]
    assert result.cost[0] == 16


def test_rematches_are_never_made():
    teams = [TeamState(1, 0, 0, opponents=frozenset({3})), TeamState(2, 0, 1), TeamState(3, 0, 2, opponents=frozenset({1})),
             TeamState(4, 0, 3)]
    result = pair_swiss(teams)
    assert pairs_of(result) == {(1, 4), (2, 3)}


def test_forbidden_pairs_are_hard_rules():
    result = pair_swiss(teams_at([0] * 4), forbidden=[(1, 3)])
    assert pairs_of(result) == {(1, 4), (2, 3)}


def test_impossible_pairing_is_reported_not_rematched():
    # Team 1 has met every other team.
    teams = [TeamState(1, 6, 0, opponents=frozenset({2, 3, 4})), TeamState(2, 2, 1, opponents=frozenset({1})),
             TeamState(3, 2, 2, opponents=frozenset({1})), TeamState(4, 2, 3, opponents=frozenset({1}))]
    result = pair_swiss(teams)
    assert 1 in result.unpaired
    assert all(1 not in (p.ns, p.ew) for p in result.pairings)
    assert not result.complete


def test_clubs_kept_apart_when_asked():
    teams = [TeamState(i + 1, 0, i, club=c) for i, c in enumerate([1, 2, 3, 4, 1, 5, 6, 7])]
    assert (1, 5) in pairs_of(pair_swiss(teams))
    apart = pair_swiss(teams, separate_clubs=True)
    assert all({p.ns, p.ew} != {1, 5} for p in apart.pairings)
    assert any(code == "swiss_club_apart" for p in apart.pairings for code, _params in p.why)


def test_float_explained():
    result = pair_swiss(teams_at([2, 2, 2, 0, 0, 0]))
    floats = [p for p in result.pairings if p.why[0][0].startswith("swiss_float")]
    assert len(floats) == 1 and floats[0].why[0][0] == "swiss_float_odd"


def test_deterministic():
    rng = random.Random(7)
    teams = [TeamState(i, rng.randint(0, 8), i, club=rng.randint(1, 9)) for i in range(151)]
    assert pair_swiss(teams).pairings == pair_swiss(list(reversed(teams))).pairings


def test_sparse_graph_finds_the_full_graph_optimum():
    rng = random.Random(3)
    teams = [TeamState(i, rng.choice([0, 2, 2, 4, 4, 4, 6, 6, 8]), i, had_bye=rng.random() < 0.2) for i in range(301)]
    sparse = pair_swiss(teams, candidates=16)
    full = pair_swiss(teams, full_graph=True)
    assert sparse.candidates == 16 and full.candidates == 0
    assert sparse.weight == full.weight and sparse.cost == full.cost
    assert matching_weight(teams, pairs_of(sparse)) == sparse.weight


# -- exhaustive check of the priorities -----------------------------------------------------------

def all_matchings(vertices, allowed):
    """Every maximum-cardinality matching (as lists of pairs) of a small graph."""
    best: list[list[tuple[int, int]]] = []
    best_size = -1

    def rec(free, acc):
        nonlocal best, best_size
        if not free:
            if len(acc) > best_size:
                best, best_size = [], len(acc)
            if len(acc) == best_size:
                best.append(list(acc))
            return
        v, rest = free[0], free[1:]
        rec(rest, acc)  # v unmatched
        for k, u in enumerate(rest):
            if allowed(v, u):
                rec(rest[:k] + rest[k + 1:], acc + [(v, u)])

    rec(list(vertices), [])
    return best


@st.composite
def small_fields(draw):
    n = draw(st.integers(2, 9))
    scores = draw(st.lists(st.sampled_from([0, 1, 2, 3, 4, 6]), min_size=n, max_size=n))
    clubs = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    byes = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    played = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    opponents = {i: set() for i in range(n)}
    for a, b in played:
        if a != b:
            opponents[a].add(b + 1)
            opponents[b].add(a + 1)
    order = draw(st.permutations(range(n)))
    return [TeamState(i + 1, scores[i], order[i], clubs[i], byes[i], frozenset(opponents[i])) for i in range(n)], \
        draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_fields())
def test_matching_is_lexicographically_optimal(case):
    teams, separate = case
    result = pair_swiss(teams, separate_clubs=separate)
    field = _Field(teams, (), separate)
    vertices = list(range(field.n)) + ([field.bye] if field.has_bye else [])

    def allowed(i, j):
        if j == field.bye:
            return not field.teams[i].had_bye
        return field.allowed(i, j)

    def key(matching):
        totals = [0, 0, 0, 0]
        for i, j in matching:
            for k, t in enumerate(field.terms(min(i, j), max(i, j))):
                totals[k] += t
        return tuple(totals)

    candidates = all_matchings(vertices, allowed)
    best = min(key(m) for m in candidates)
    assert result.cost == best
    matched_pairs = len(result.pairings)
    assert matched_pairs == len(candidates[0])
    # No rematch, no second bye.
    by_id = {t.id: t for t in teams}
    for p in result.pairings:
        if p.ew is None:
            assert not by_id[p.ns].had_bye
        else:
            assert p.ew not in by_id[p.ns].opponents
