"""Round robin by the FIDE Berger tables."""

import itertools

import pytest

from tournaments.pairing.round_robin import berger_table, round_robin_pairings, rounds_needed

# FIDE Handbook C.05 Annex 1, the table for 5 or 6 players.
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]

# FIDE's table for 7 or 8 players, rounds 1, 2 and 7.
FIDE_8_SOME = {
    1: [(1, 8), (2, 7), (3, 6), (4, 5)],
    2: [(8, 5), (6, 4), (7, 3), (1, 2)],
    7: [(4, 8), (5, 3), (6, 2), (7, 1)],
}


def test_six_team_table_is_fides():
    assert berger_table(6) == FIDE_6
    assert berger_table(5) == FIDE_6


def test_eight_team_table_matches_fide_rounds():
    table = berger_table(8)
    for number, pairs in FIDE_8_SOME.items():
        assert table[number - 1] == pairs


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_once_and_everyone_plays_each_round(n):
    teams = [100 + i for i in range(n)]
    seen = set()
    byes = []
    for r in range(1, rounds_needed(n) + 1):
        pairings = round_robin_pairings(teams, r)
        in_round = [t for p in pairings for t in (p.ns, p.ew) if t is not None]
        assert sorted(in_round) == teams
        for p in pairings:
            if p.ew is None:
                byes.append(p.ns)
            else:
                key = frozenset((p.ns, p.ew))
                assert key not in seen
                seen.add(key)
    assert seen == {frozenset(c) for c in itertools.combinations(teams, 2)}
    assert sorted(byes) == (teams if n % 2 else [])


def test_five_teams_bye_comes_from_the_dummy():
    pairings = round_robin_pairings([1, 2, 3, 4, 5], 1)
    assert [(p.ns, p.ew) for p in pairings] == [(2, 5), (3, 4), (1, None)]


def test_double_round_robin_reverses_sides():
    teams = [1, 2, 3, 4]
    assert rounds_needed(4, double=True) == 6
    first = {(p.ns, p.ew) for r in range(1, 4) for p in round_robin_pairings(teams, r, double=True)}
    second = {(p.ns, p.ew) for r in range(4, 7) for p in round_robin_pairings(teams, r, double=True)}
    assert second == {(b, a) for a, b in first}


def test_round_out_of_range():
    with pytest.raises(ValueError):
        round_robin_pairings([1, 2, 3, 4], 4)
