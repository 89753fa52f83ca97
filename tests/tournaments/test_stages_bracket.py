"""The knockout from the qualifiers: seeding, byes, pool-mates apart, third place and standings (no database)."""

import random

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stage_events import lottery
from tournaments.pairing.knockout import first_round, next_round, seed_order
from tournaments.stages import KnockoutMatch, StageError, bracket, knockout_standings, third_place_pairing


def tables_of(b):
    return [(p.table, p.ns, p.ew) for p in b.first_round]


def test_without_pools_the_bracket_is_the_standard_one():
    seeds = [10, 20, 30, 40, 50, 60]
    b = bracket(seeds)
    assert b.size == 8 and b.rounds == 3 and b.moves == () and b.conflicts == ()
    assert list(b.first_round) == first_round(seeds)
    assert b.slots == (10, None, 40, 50, 20, None, 30, 60)


def test_the_best_runner_up_does_not_meet_its_own_pools_winner():
    # Roeselare: 15 pool winners (seeds 1-15) and the best runner-up (seed 16), who comes from the pool of seed 1.
    seeds = list(range(101, 117))
    pools = {100 + s: s for s in range(1, 16)} | {116: 1}
    b = bracket(seeds, pools=pools)
    assert b.conflicts == ()
    opponent = {p.ns: p.ew for p in b.first_round}
    assert opponent[101] == 115 and opponent[102] == 116  # seed 15 takes seed 16's place, the nearest seed
    assert {(m.entrant, m.seed) for m in b.moves} == {(115, 15), (116, 16)}
    [table_one] = [p for p in b.first_round if p.ns == 101]
    assert table_one.why == (("knockout_seeds", {"seed": 1, "other": 15, "size": 16}),
                             ("knockout_pool_apart", {"other": 16}))


def test_byes_go_to_the_top_seeds_and_pool_mates_still_apart():
    seeds = [1, 2, 3, 4, 5, 6]  # bracket of 8: seeds 1 and 2 have byes; 3 v 6, 4 v 5
    b = bracket(seeds, pools={3: "A", 6: "A", 4: "B", 5: "C"})
    assert tables_of(b) == [(1, 1, None), (2, 4, 6), (3, 2, None), (4, 3, 5)]
    assert b.conflicts == ()


def test_an_unavoidable_meeting_is_reported():
    b = bracket([1, 2, 3, 4], pools={1: "A", 3: "A", 4: "A", 2: "B"})
    assert len(b.conflicts) == 1 and b.conflicts[0][1] == 1
    with pytest.raises(StageError) as error:
        bracket([7])
    assert error.value.code == "stage_capacity"


def test_third_place():
    p = third_place_pairing(5, 9, semi_final_round=3)
    assert (p.table, p.ns, p.ew) == (2, 5, 9) and p.why == (("knockout_third_place", {"round": 3}),)


def least_cost(seeds, pools, size):
    """The least (pool-mates meeting, lower seeds moved, distance) of any round 1, by rustworkx's matching."""
    n = len(seeds)
    order = seed_order(size)
    tables = [(order[2 * t], order[2 * t + 1]) for t in range(size // 2) if order[2 * t + 1] <= n]
    lower = [b for _, b in tables]

    def clash(a, b):
        pa, pb = pools.get(seeds[a - 1]), pools.get(seeds[b - 1])
        return pa is not None and pa == pb

    span = n + 1
    w2 = span * span + 1
    w1 = span * (w2 + span) + 1  # lexicographic: meetings, then moves, then distance
    graph = rx.PyGraph()
    graph.add_nodes_from(range(2 * len(tables)))
    costs = {}
    for i, b in enumerate(lower):
        for j, (a, standard) in enumerate(tables):
            costs[(i, len(tables) + j)] = (clash(a, b), b != standard, abs(b - standard))
            graph.add_edge(i, len(tables) + j, w1 * clash(a, b) + w2 * (b != standard) + abs(b - standard))
    big = w1 * span
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda cost: big - cost)
    chosen = [costs[(min(a, b), max(a, b))] for a, b in matching]
    return sum(c[0] for c in chosen), sum(c[1] for c in chosen)


@st.composite
def qualifiers(draw):
    n = draw(st.integers(2, 40))
    pools = draw(st.integers(1, max(1, n // 2)))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=n, max_size=n, unique=True))
    where = {e: draw(st.one_of(st.none(), st.integers(1, pools))) for e in ids}
    return ids, where


@settings(max_examples=150, deadline=None)
@given(qualifiers())
def test_bracket_property(case):
    seeds, pools = case
    n = len(seeds)
    b = bracket(seeds, pools=pools)
    size = b.size
    assert size >= n > size // 2 or (n == 2 and size == 2)
    assert sorted(e for e in b.slots if e is not None) == sorted(seeds) and len(b.slots) == size
    seed = {e: i for i, e in enumerate(seeds, start=1)}
    # The top half keeps the standard positions: 1 and 2 in opposite halves, 1-4 in different quarters...
    order = seed_order(size)
    for t, p in enumerate(b.first_round):
        assert seed[p.ns] == order[2 * t]
        assert p.ew is None or seed[p.ew] > size // 2
        assert (p.ew is None) == (order[2 * t + 1] > n)  # byes where the standard has them: the top seeds'
    # Pool-mates meet only as often as they must, and every meeting is reported.
    meetings = [(p.table, p.ns, p.ew) for p in b.first_round
                if p.ew is not None and pools.get(p.ns) is not None and pools.get(p.ns) == pools.get(p.ew)]
    assert list(b.conflicts) == meetings
    fewest, moved = least_cost(seeds, pools, size)
    assert len(meetings) == fewest and len(b.moves) == moved
    # Moves say where the standard bracket had them.
    standard = {p.ew: p.table for p in first_round(seeds) if p.ew is not None}
    for m in b.moves:
        assert standard[m.entrant] == m.standard_table != m.table and seed[m.entrant] == m.seed
    assert bracket(seeds, pools=pools) == b


def play(b, rng, third_place=False):
    """Play a bracket out with random winners; the matches as the standings read them."""
    matches, pairings, rnd = [], list(b.first_round), 1
    while True:
        winners, losers = {}, []
        for p in pairings:
            w = "ns" if p.ew is None else rng.choice(("ns", "ew"))
            matches.append(KnockoutMatch(rnd, p.table, p.ns, p.ew, w))
            winners[p.table] = p.ns if w == "ns" else p.ew
            if p.ew is not None:
                losers.append(p.ew if w == "ns" else p.ns)
        if third_place and len(pairings) == 2:
            tp = third_place_pairing(*losers, semi_final_round=rnd)
            matches.append(KnockoutMatch(rnd + 1, 2, tp.ns, tp.ew, rng.choice(("ns", "ew")), third_place=True))
        if len(winners) == 1:
            return matches
        pairings = next_round(winners, rnd)
        rnd += 1


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6), st.booleans())
def test_knockout_standings_by_round_reached_then_previous_rank(n, seed, third):
    rng = random.Random(seed)
    seeds = rng.sample(range(1, 1000), n)
    b = bracket(seeds)
    matches = play(b, rng, third_place=third and n >= 4)
    previous = {e: rng.randint(1, 5) for e in seeds}
    rows = knockout_standings(seeds, matches, seed="k", previous=previous)
    assert [r.position for r in rows] == list(range(1, n + 1)) and sorted(r.entrant for r in rows) == sorted(seeds)
    final = [m for m in matches if not m.third_place][-1]
    champion = final.ns if final.winner == "ns" else final.ew
    assert rows[0].entrant == champion and rows[0].reached == b.rounds + 1 and not rows[0].out
    assert {rows[1].entrant} == {final.ns, final.ew} - {champion} and rows[1].out
    reached = [r.reached for r in rows]
    assert reached == sorted(reached, reverse=True)
    for a, c in zip(rows, rows[1:]):
        if a.reached == c.reached and a.third_place == c.third_place:
            assert (previous[a.entrant], lottery("k", "knockout", a.entrant)) < \
                   (previous[c.entrant], lottery("k", "knockout", c.entrant))
    if third and n >= 4:
        assert [r.third_place for r in rows[2:4]] == ["won", "lost"]
    # Unfinished: nobody's last match decided yet ranks those still in ahead of those out in the same round.
    half = [m if m.round < 2 else KnockoutMatch(m.round, m.table, m.ns, m.ew, "") for m in matches]
    rows = knockout_standings(seeds, half, seed="k", previous=previous)
    if b.rounds >= 2:
        assert all(not r.out for r in rows if r.reached == 2) and all(r.out for r in rows if r.reached == 1)


def test_knockout_standings_refuse_strangers():
    with pytest.raises(StageError):
        knockout_standings([1, 2], [KnockoutMatch(1, 1, 1, 3, "ns")], seed="k")
    with pytest.raises(StageError):
        knockout_standings([1, 2], [KnockoutMatch(1, 1, 1, 2, "x")], seed="k")
