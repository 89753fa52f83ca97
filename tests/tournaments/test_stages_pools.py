"""Pools: the seeding order, the serpentine by pots and club separation inside the pots (no database)."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stage_events import lottery
from tournaments.stages import StageError, club_pairs_bound, draw_pools, seeding_order, serpentine


def same_club_pairs(pools, clubs) -> int:
    total = 0
    for members in pools:
        for a, b in itertools.combinations(members, 2):
            total += clubs.get(a) is not None and clubs.get(a) == clubs.get(b)
    return total


def test_the_serpentine_deals_pots_back_and_forth():
    assert serpentine(10, 4) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1]
    draw = draw_pools(list(range(1, 11)), 4)
    assert draw.pools == ((1, 8, 9), (2, 7, 10), (3, 6), (4, 5))
    assert draw.pot == {e: (e - 1) // 4 + 1 for e in range(1, 11)}
    assert draw.moves == () and draw.conflicts == () and draw.separated


def test_a_club_is_kept_apart_by_swapping_inside_a_pot_only():
    # Serpentine: pool 1 = 1, 4, 5; pool 2 = 2, 3, 6. Entrants 1 and 4 share a club: pot 2 swaps 3 and 4.
    draw = draw_pools([1, 2, 3, 4, 5, 6], 2, clubs={1: "A", 4: "A"})
    assert draw.pools == ((1, 3, 5), (2, 4, 6))
    assert {(m.entrant, m.pot, m.serpentine_pool, m.pool) for m in draw.moves} == {(4, 2, 1, 2), (3, 2, 2, 1)}
    assert draw.separated and draw.conflicts_lower_bound == 0


def test_what_cannot_be_separated_is_reported():
    clubs = {1: "A", 2: "A", 3: "A"}  # three of one club over two pools: one pair must stay
    draw = draw_pools([1, 2, 3, 4], 2, clubs=clubs)
    assert not draw.separated and draw.club_pairs == 1 == draw.conflicts_lower_bound
    [conflict] = draw.conflicts
    assert conflict.club == "A" and len(conflict.entrants) == 2


def test_two_of_one_club_in_one_pot_never_share_a_pool():
    draw = draw_pools([1, 2, 3, 4, 5, 6, 7, 8], 4, clubs={1: "A", 2: "A", 5: "B", 6: "B"})
    assert draw.separated and draw.moves == ()


def test_pool_counts_refused():
    with pytest.raises(StageError) as error:
        draw_pools([1, 2, 3, 4, 5], 3)
    assert error.value.code == "pool_count" and error.value.params == {"pools": 3, "entrants": 5, "most": 2}
    with pytest.raises(StageError):
        draw_pools([1, 2, 3], 0)
    with pytest.raises(StageError) as error:
        draw_pools([1, 2, 2, 3], 2)
    assert error.value.code == "stage_inputs_invalid"


def test_the_seeding_order_by_rank_by_rating_or_by_the_lottery():
    field = [5, 3, 9, 1, 7]
    assert seeding_order(field, seed="s", rank={5: 1, 3: 2, 9: 3, 1: 4, 7: 5}) == [5, 3, 9, 1, 7]
    assert seeding_order(field, seed="s", rating={5: 1500, 3: 1700, 9: 1600}) [:3] == [3, 9, 5]
    drawn = seeding_order(field, seed="s")
    assert drawn == sorted(field, key=lambda e: lottery("s", "seeding", e))
    assert drawn == seeding_order(list(reversed(field)), seed="s")
    # The lottery hashes the public numbers, never the ids: the same numbers draw the same order.
    ids = {5: 50, 3: 30, 9: 90, 1: 10, 7: 70}
    numbers = {ids[e]: e for e in field}
    assert [numbers[i] for i in seeding_order(ids.values(), seed="s", numbers=numbers)] == drawn
    tied = seeding_order(field, seed="t", rank={5: 1, 3: 1, 9: 1, 1: 2})
    assert tied[:3] == sorted([5, 3, 9], key=lambda e: lottery("t", "seeding", e)) and tied[3:] == [1, 7]
    with pytest.raises(StageError):
        seeding_order(field, seed="s", rank={}, rating={})
    with pytest.raises(StageError):
        seeding_order(field, seed="")


@st.composite
def fields(draw, max_pools=12, max_pots=6):
    pools = draw(st.integers(1, max_pools))
    n = draw(st.integers(2 * pools, pools * max_pots))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=n, max_size=n, unique=True))
    clubs = draw(st.lists(st.one_of(st.none(), st.integers(0, draw(st.integers(0, 8)))), min_size=n, max_size=n))
    return ids, pools, dict(zip(ids, clubs))


@settings(max_examples=150, deadline=None)
@given(fields())
def test_pools_by_pots_property(case):
    order, pools, clubs = case
    result = draw_pools(order, pools, clubs=clubs)
    n = len(order)
    pots = [order[k:k + pools] for k in range(0, n, pools)]
    # Every entrant once; the pots are the seeding cut in N; each pool holds one entrant of each pot at most.
    assert sorted(e for p in result.pools for e in p) == sorted(order)
    assert len(result.pools) == pools
    pool_of = result.pool_of
    for k, pot in enumerate(pots, start=1):
        assert {result.pot[e] for e in pot} == {k}
        assert len({pool_of[e] for e in pot}) == len(pot)
    # Unequal pools only by one, as many big pools as the remainder.
    sizes = sorted(len(p) for p in result.pools)
    q, r = divmod(n, pools)
    assert sizes == [q] * (pools - r) + [q + 1] * r
    # Inside a pool, the entrants are in pot order.
    for members in result.pools:
        assert [result.pot[e] for e in members] == sorted(result.pot[e] for e in members)
    # Without clubs the pools are the serpentine itself; moves are within pots and say so.
    home = dict(zip(order, serpentine(n, pools)))
    for m in result.moves:
        assert m.serpentine_pool == home[m.entrant] + 1 and m.pool == pool_of[m.entrant] != m.serpentine_pool
    assert {m.entrant for m in result.moves} == {e for e in order if pool_of[e] != home[e] + 1}
    if all(c is None for c in clubs.values()):
        assert result.moves == ()
    # What is left is reported exactly, never below the pigeonhole bound.
    left = same_club_pairs(result.pools, clubs)
    assert left == result.club_pairs >= result.conflicts_lower_bound == club_pairs_bound(clubs.values(), pools)
    assert result.separated == (left == 0)
    # No swap of two entrants of one pot, nor a move to a pool the short pot leaves empty, keeps clubs apart better.
    for pot in pots:
        for a in pot:
            for target in range(pools):
                if target == pool_of[a] - 1:
                    continue
                moved = [list(p) for p in result.pools]
                mate = next((b for b in moved[target] if b in pot), None)
                moved[pool_of[a] - 1].remove(a)
                moved[target].append(a)
                if mate is not None:
                    moved[target].remove(mate)
                    moved[pool_of[a] - 1].append(mate)
                assert same_club_pairs(moved, clubs) >= left
    # The same inputs, the same pools; club names only matter by equality.
    assert draw_pools(order, pools, clubs=clubs) == result
    renamed = {e: None if c is None else f"club-{c}" for e, c in clubs.items()}
    assert draw_pools(order, pools, clubs=renamed).pools == result.pools


def brute_force_pairs(order, pools, clubs) -> int:
    """The fewest same-club pairs over every way of dealing each pot (the first as the serpentine deals it)."""
    pots = [order[k:k + pools] for k in range(0, len(order), pools)]
    best = None
    for choice in itertools.product(*(itertools.permutations(range(pools), len(pot)) for pot in pots[1:])):
        dealt = [[e] for e in pots[0]] + [[] for _ in range(pools - len(pots[0]))]
        for pot, places in zip(pots[1:], choice):
            for e, p in zip(pot, places):
                dealt[p].append(e)
        pairs = same_club_pairs(dealt, clubs)
        best = pairs if best is None else min(best, pairs)
    return best


@settings(max_examples=120, deadline=None, derandomize=True)
@given(fields(max_pools=3, max_pots=3))
def test_club_separation_is_the_best_possible_on_small_fields(case):
    order, pools, clubs = case
    assert draw_pools(order, pools, clubs=clubs).club_pairs == brute_force_pairs(order, pools, clubs)


def test_a_large_field_with_clubs_is_separated_as_far_as_the_bound():
    rng = random.Random(3)
    order = list(range(1, 545))
    clubs = {e: rng.randrange(40) for e in order}  # 40 clubs of about 14 teams over 136 pools
    result = draw_pools(order, 136, clubs=clubs)
    assert result.separated and result.conflicts_lower_bound == 0
    assert len(result.moves) < 544 // 2
