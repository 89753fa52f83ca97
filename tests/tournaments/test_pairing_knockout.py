"""Knockout brackets."""

import pytest

from tournaments.pairing.knockout import bracket_size, feeders, first_round, next_round, next_slot, rounds_needed, seed_order


def test_seed_order():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError):
        seed_order(6)


@pytest.mark.parametrize("n,size,rounds", [(2, 2, 1), (3, 4, 2), (5, 8, 3), (8, 8, 3), (9, 16, 4), (1000, 1024, 10)])
def test_bracket_size(n, size, rounds):
    assert bracket_size(n) == size
    assert rounds_needed(n) == rounds


def test_byes_go_to_the_top_seeds():
    teams = [10, 20, 30, 40, 50]  # seeds 1..5 in a bracket of 8
    pairings = first_round(teams)
    assert [(p.table, p.ns, p.ew) for p in pairings] == [(1, 10, None), (2, 40, 50), (3, 20, None), (4, 30, None)]


def test_every_seed_once_and_top_seeds_meet_last():
    teams = list(range(1, 17))
    pairings = first_round(teams)
    assert sorted(t for p in pairings for t in (p.ns, p.ew)) == teams
    # Seeds 1 and 2 are in different halves, 1-4 in different quarters.
    half = {p.ns: (p.table - 1) // 4 for p in pairings}
    assert half[1] != half[2]
    quarter = {p.ns: (p.table - 1) // 2 for p in pairings}
    assert len({quarter[s] for s in (1, 2, 3, 4)}) == 4


def test_winners_advance_to_the_next_slot():
    assert next_slot(1) == (1, "ns") and next_slot(2) == (1, "ew") and next_slot(7) == (4, "ns")
    assert feeders(3) == (5, 6)
    pairings = next_round({1: 10, 2: 40, 3: 20}, 1)
    assert [(p.table, p.ns, p.ew) for p in pairings] == [(1, 10, 40)]
