"""Qualification rules: the cuts, across pools per match played, the ties and how they were broken (no database)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stage_events import ADDITIVE, S, lottery, per_match, pools_rows
from tournaments.ranking import TeamInfo, compute_standings
from tournaments.ranking.metrics import Context, MatchRecord, Totals
from tournaments.ranking.standings import rank_standings
from tournaments.stages import (
    Carry,
    Row,
    Rule,
    StageError,
    Tie,
    apply_carry,
    carry_over,
    check_rule,
    qualify,
)

METRICS = ["match_points", "games_won", "points_diff"]


def row(entrant, rank, values=(), pool=None, withdrawn=False, **totals):
    return Row(entrant, rank, tuple(values), pool, Totals(**totals) if totals else None, withdrawn)


def test_top_n_a_tie_at_the_cut_goes_to_the_previous_rank_then_to_the_draw():
    rows = [row(1, 1, (6, 3, 40)), row(2, 2, (4, 2, 10)), row(3, 2, (4, 2, 10)), row(4, 2, (4, 2, 10)),
            row(5, 5, (2, 1, -50))]
    done = qualify(Rule("top", count=2), rows, seed="s", metrics=METRICS, previous={2: 7, 3: 4, 4: 9})
    assert done.entrants == [1, 3]
    assert done.ties == (Tie("top", 2, (3, 2, 4), (3,), "previous_rank"),)
    assert [(q.entrant, q.seed, q.how) for q in done.qualifiers] == [(1, 1, "top"), (3, 2, "top")]
    # Without previous ranks, the draw of the published seed decides, and says so.
    done = qualify(Rule("top", count=2), rows, seed="s", metrics=METRICS)
    drawn = sorted([2, 3, 4], key=lambda e: lottery("s", "cut", e))
    assert done.entrants == [1, drawn[0]]
    assert done.ties == (Tie("top", 2, tuple(drawn), (drawn[0],), "draw"),)
    # Partly by the previous rank: two level on it too go to the draw, and the report names only those two.
    done = qualify(Rule("top", count=2), rows, seed="s", metrics=METRICS, previous={2: 3, 3: 3, 4: 1})
    assert done.entrants == [1, 4]
    done = qualify(Rule("top", count=3), rows, seed="s", metrics=METRICS, previous={2: 3, 3: 3, 4: 1})
    pair = sorted([2, 3], key=lambda e: lottery("s", "cut", e))
    assert done.entrants == [1, 4, pair[0]] and done.ties == (Tie("top", 3, tuple(pair), (pair[0],), "draw"),)


def test_the_draw_reads_public_numbers_never_ids():
    rows = [row(e, 1, (4, 2, 10)) for e in (11, 12, 13, 14)]
    by_number = qualify(Rule("top", count=2), rows, seed="s", metrics=METRICS)
    relabelled = [row(e * 100, 1, (4, 2, 10)) for e in (11, 12, 13, 14)]
    by_id = qualify(Rule("top", count=2), relabelled, seed="s", metrics=METRICS,
                    numbers={e * 100: e for e in (11, 12, 13, 14)})
    assert [e // 100 for e in by_id.entrants] == by_number.entrants
    assert qualify(Rule("top", count=2), list(reversed(rows)), seed="s", metrics=METRICS) == by_number


def test_a_cut_decided_by_a_later_metric_says_which():
    rows = [row(1, 1, (6, 3, 40)), row(2, 2, (4, 3, 10)), row(3, 3, (4, 2, 90)), row(4, 4, (4, 2, 5)),
            row(5, 5, (2, 1, 0))]
    done = qualify(Rule("top", count=2), rows, seed="s", metrics=METRICS)
    assert done.ties == (Tie("top", 2, (2, 3, 4), (2,), "metric", "games_won"),)
    done = qualify(Rule("top", count=3), rows, seed="s", metrics=METRICS)
    assert done.ties == (Tie("top", 3, (3, 4), (3,), "metric", "points_diff"),)
    assert qualify(Rule("top", count=4), rows, seed="s", metrics=METRICS).ties == ()  # apart on match points


def pool_row(entrant, pool, rank, *, played, played_points, byes=0, games_won=0, games_lost=0, points_for=0,
             points_against=0, withdrawn=False):
    totals = Totals(played=played, byes=byes, match_points=played_points + 2 * byes, played_points=played_points,
                    games_won=games_won, games_lost=games_lost, points_for=points_for, points_against=points_against)
    values = (totals.match_points, games_won, points_for - points_against)
    return Row(entrant, rank, values, pool, totals, withdrawn)


def test_unequal_pools_compare_their_runners_up_per_match_played():
    # Pool 1 of four (3 matches): the runner-up has 4 points. Pool 2 of five (4 matches and a bye worth 2):
    # the runner-up has 5 points over the table, 7 with the bye. Per match: 4/3 > 5/4.
    rows = [pool_row(1, 1, 1, played=3, played_points=6), pool_row(2, 1, 2, played=3, played_points=4),
            pool_row(3, 1, 3, played=3, played_points=2), pool_row(4, 1, 4, played=3, played_points=0),
            pool_row(5, 2, 1, played=4, played_points=8, byes=1), pool_row(6, 2, 2, played=4, played_points=5, byes=1),
            pool_row(7, 2, 3, played=4, played_points=4, byes=1), pool_row(8, 2, 4, played=4, played_points=2, byes=1),
            pool_row(9, 2, 5, played=4, played_points=1, byes=1)]
    done = qualify(Rule("pools", per_pool=1, best_next=1), rows, seed="s", metrics=METRICS)
    assert done.entrants == [1, 5, 2] or done.entrants == [5, 1, 2]
    assert [(q.entrant, q.how, q.place, q.pool) for q in done.qualifiers][-1] == (2, "next_place", 2, 1)
    assert done.ties == ()  # apart on match points per match: no tie


def test_equal_per_match_goes_to_the_next_metric_per_match_then_previous_rank_then_draw():
    def rows(games=(3, 4), diffs=(30, 40)):
        return [pool_row(1, 1, 1, played=3, played_points=6, games_won=6, points_for=300),
                pool_row(2, 1, 2, played=3, played_points=3, games_won=games[0], points_for=100 + diffs[0],
                         points_against=100),
                pool_row(3, 1, 3, played=3, played_points=0),
                pool_row(4, 2, 1, played=4, played_points=8, games_won=8, points_for=400),
                pool_row(5, 2, 2, played=4, played_points=4, games_won=games[1], points_for=100 + diffs[1],
                         points_against=100),
                pool_row(6, 2, 3, played=4, played_points=0),
                pool_row(7, 2, 4, played=4, played_points=0)]
    rule = Rule("pools", per_pool=1, best_next=1)
    # 3/3 = 4/4 match points a match; games a match 3/3 < 4/4: pool 2's runner-up.
    done = qualify(rule, rows(games=(3, 5)), seed="s", metrics=METRICS)
    assert done.entrants[-1] == 5 and done.ties == (Tie("next_place", 1, (5, 2), (5,), "per_match", "games_won"),)
    # Games level a match too (3/3, 4/4); points difference a match 30/3 = 10 < 40/4 = 10? equal; then previous.
    done = qualify(rule, rows(), seed="s", metrics=METRICS, previous={2: 9, 5: 12})
    assert done.entrants[-1] == 2 and done.ties == (Tie("next_place", 1, (2, 5), (2,), "previous_rank"),)
    done = qualify(rule, rows(), seed="s", metrics=METRICS)
    first = min((2, 5), key=lambda e: lottery("s", "cut", e))
    assert done.entrants[-1] == first and done.ties[0].by == "draw"
    # The winners are seeded across the pools the same way: 6/3 = 8/4 points, 6/3 = 8/4 games, 300/3 = 400/4.
    done = qualify(rule, rows(), seed="s", metrics=METRICS, previous={1: 2, 4: 1})
    assert done.entrants[:2] == [4, 1]


def test_a_pool_tie_inside_the_pool_is_reported_with_its_pool():
    rows = [pool_row(1, 1, 1, played=2, played_points=2), pool_row(2, 1, 1, played=2, played_points=2),
            pool_row(3, 1, 3, played=2, played_points=2), pool_row(4, 2, 1, played=2, played_points=4),
            pool_row(5, 2, 2, played=2, played_points=2), pool_row(6, 2, 3, played=2, played_points=0)]
    done = qualify(Rule("pools", per_pool=1, best_next=0), rows, seed="s", metrics=METRICS, previous={1: 5, 2: 3})
    assert set(done.entrants) == {2, 4} and done.ties == (Tie("pool", 1, (2, 1), (2,), "previous_rank"),)


def test_table_winners_by_the_stages_order():
    rows = [row(e, r, (v,)) for e, r, v in [(1, 1, 300), (2, 2, 280), (3, 3, 250), (4, 3, 250), (5, 5, 200),
                                           (6, 6, 100), (7, 7, 90), (8, 8, 80)]]
    tables = {1: (5, 6, 7, 8), 2: (3, 4, 1, 2)}
    done = qualify(Rule("table_winners"), rows, seed="s", metrics=["points_for"], tables=tables)
    assert [(q.entrant, q.table, q.seed) for q in done.qualifiers] == [(1, 2, 1), (5, 1, 2)]
    tables = {1: (5, 6, 7, 8), 2: (3, 4), 3: (1, 2)}
    done = qualify(Rule("table_winners"), rows, seed="s", metrics=["points_for"], tables=tables, previous={4: 1})
    assert done.entrants == [1, 4, 5]
    assert done.ties == (Tie("table", 2, (4, 3), (4,), "previous_rank"),)
    with pytest.raises(StageError) as error:
        qualify(Rule("table_winners"), rows, seed="s", metrics=["points_for"], tables={1: (1, 2), 2: (2, 3)})
    assert error.value.params["field"] == "tables"


def test_a_withdrawn_qualifier_is_replaced_by_the_next_best_and_recorded():
    rows = [row(e, e, (10 - e,)) for e in range(1, 7)]
    rows[1] = row(2, 2, (8,), withdrawn=True)
    done = qualify(Rule("top", count=3), rows, seed="s", metrics=["match_points"])
    assert done.entrants == [1, 3, 4]
    assert [(r.withdrawn, r.by) for r in done.replacements] == [(2, 4)]
    assert done.order == (1, 2, 3, 4, 5, 6)  # the withdrawn keeps its place in the stage's order
    # In pools, the runner-up of the withdrawn winner's pool moves up; the best runner-up is then another.
    rows = [pool_row(1, 1, 1, played=3, played_points=6, withdrawn=True), pool_row(2, 1, 2, played=3, played_points=4),
            pool_row(3, 1, 3, played=3, played_points=2), pool_row(4, 2, 1, played=3, played_points=6),
            pool_row(5, 2, 2, played=3, played_points=3), pool_row(6, 2, 3, played=3, played_points=0)]
    done = qualify(Rule("pools", per_pool=1, best_next=1), rows, seed="s", metrics=METRICS)
    assert sorted(done.entrants) == [2, 4, 5]
    assert [(r.withdrawn, r.by) for r in done.replacements] == [(1, 5)]
    assert [q.how for q in done.qualifiers if q.entrant == 2] == ["pool_place"]


def test_all_and_the_stage_result():
    rows = [row(e, 2 * ((e + 1) // 2) - 1, (6 - (e + 1) // 2,)) for e in range(1, 6)]  # ranks 1, 1, 3, 3, 5
    done = qualify(Rule("all"), rows, seed="s", metrics=["match_points"])
    pairs = [sorted(pair, key=lambda e: lottery("s", "cut", e)) for pair in ([1, 2], [3, 4])]
    assert done.entrants == [*pairs[0], *pairs[1], 5] and done.ranks == {1: 1, 2: 1, 3: 3, 4: 3, 5: 5}
    assert done.ties == ()  # nobody is cut
    result = done.stage_result(2)
    assert result.number == 2 and result.qualified == frozenset(range(1, 6)) and result.pools is None


@pytest.mark.parametrize("rule,pools,reason", [
    (Rule("best"), (), "unknown"), (Rule("top", count=0), (), "count"), (Rule("top", count=9), (), "count"),
    (Rule("pools", per_pool=0), (4, 4), "per_pool"), (Rule("pools", per_pool=4), (4, 3), "per_pool"),
    (Rule("pools", per_pool=2, best_next=2), (3, 2), "next_place"),
    (Rule("pools", per_pool=1, best_next=-1), (3, 3), "next_place"),
])
def test_malformed_rules_are_refused(rule, pools, reason):
    with pytest.raises(StageError) as error:
        check_rule(rule, entrants=8, pools=pools)
    assert (error.value.code, error.value.params["reason"]) == ("qualification_invalid", reason)


def test_a_rule_not_suiting_the_stage_and_bad_rows_are_refused():
    with pytest.raises(StageError) as error:
        check_rule(Rule("table_winners"), entrants=8, format="swiss")
    assert error.value.params == {"reason": "format", "rule": "table_winners", "format": "swiss"}
    assert check_rule(Rule("pools", per_pool=2, best_next=1), entrants=9, pools=(5, 4)) == 5
    with pytest.raises(StageError) as error:
        qualify(Rule("top", count=1), [row(1, 1, (1,)), row(1, 2, (1,))], seed="s", metrics=["match_points"])
    assert error.value.code == "stage_inputs_invalid"
    with pytest.raises(StageError):
        qualify(Rule("top", count=1), [row(1, 1, (1, 2))], seed="s", metrics=["match_points"])
    with pytest.raises(StageError):
        qualify(Rule("pools", per_pool=1), [row(1, 1, (1,)), row(2, 2, (1,))], seed="s", metrics=["match_points"])
    with pytest.raises(StageError):
        qualify(Rule("table_winners"), [row(1, 1, (1,))], seed="s", metrics=["match_points"])


# -- carry-over ------------------------------------------------------------------------------------------

def test_carry_over_adds_to_the_qualifiers_rows_and_leaves_the_tiebreaks_to_the_new_matches():
    before = {1: Totals(match_points=6, games_won=5, games_lost=1, points_for=500, points_against=300),
              2: Totals(match_points=2, games_won=2, games_lost=4, points_for=350, points_against=400),
              3: Totals(match_points=3)}
    carried = carry_over(before, [1, 2, 3, 5], parts=["match_points"], next_format="round_robin")
    assert carried == {1: Carry(6), 2: Carry(2), 3: Carry(3), 5: Carry()}
    assert carry_over(before, [2], parts=["games", "points"], next_format="swiss") == {2: Carry(0, 2, 4, 350, 400)}
    with pytest.raises(StageError) as error:
        carry_over(before, [1], parts=["match_points"], next_format="knockout")
    assert error.value.params["reason"] == "knockout"
    with pytest.raises(StageError) as error:
        carry_over(before, [1], parts=["buchholz"], next_format="swiss")
    assert error.value.params["reason"] == "part"
    # The new stage: 2 beat 1, 3 beat 4, 1 beat 4, 3 a bye. Carried, 1 leads on match points; the Buchholz (3's
    # bye counted at its own score) stays the new stage's.
    records = [MatchRecord(1, 2, 1, "W", 2, 1, 0, 100, 80), MatchRecord(1, 1, 2, "L", 0, 0, 1, 80, 100),
               MatchRecord(1, 3, 4, "W", 2, 1, 0, 100, 90), MatchRecord(1, 4, 3, "L", 0, 0, 1, 90, 100),
               MatchRecord(2, 1, 4, "W", 2, 1, 0, 100, 70), MatchRecord(2, 4, 1, "L", 0, 0, 1, 70, 100),
               MatchRecord(2, 3, None, "B", 2)]
    teams = [TeamInfo(t) for t in (1, 2, 3, 4)]
    plain = compute_standings(teams, records, metrics=["match_points", "buchholz"], settings=S)
    ctx = Context.build(teams, records, S)
    apply_carry(ctx, carried)
    apply_carry(ctx, carried)  # idempotent
    rows = rank_standings(ctx, ["match_points", "buchholz"])
    assert [r.team for r in rows][0] == 1 and rows[0].match_points == 2 + 6
    assert {r.team: r.tiebreaks["buchholz"] for r in rows} == {r.team: r.tiebreaks["buchholz"] for r in plain}


# -- properties --------------------------------------------------------------------------------------------

@st.composite
def pool_stages(draw):
    pools = draw(st.integers(1, 8))
    sizes = [draw(st.integers(2, 6)) for _ in range(pools)]
    metrics = draw(st.sampled_from([["match_points", "games_won", "points_diff"],
                                    ["match_points", "points_diff", "buchholz", "direct_encounter"],
                                    ["match_points"], ["wins", "games_diff", "points_for", "points_against"]]))
    k = draw(st.integers(1, min(sizes)))
    with_next = sum(1 for s in sizes if s > k)
    m = draw(st.integers(0, with_next))
    return sizes, metrics, k, m, draw(st.integers(0, 10**6)), draw(st.booleans())


@settings(max_examples=120, deadline=None)
@given(pool_stages())
def test_pools_rule_property(case):
    sizes, metrics, k, m, seed, withdrawals = case
    rng = random.Random(seed)
    ids = rng.sample(range(1, 10**5), sum(sizes))
    pools, start = {}, 0
    for p, size in enumerate(sizes, start=1):
        pools[p] = ids[start:start + size]
        start += size
    gone = set(rng.sample(ids, rng.randint(1, min(3, len(ids))))) if withdrawals else set()
    rows = pools_rows(rng, pools, metrics, withdrawn=gone)
    previous = {e: rng.randint(1, 6) for e in ids if rng.random() < 0.7}  # ties and gaps in the previous ranks
    done = qualify(Rule("pools", per_pool=k, best_next=m), rows, seed=f"s{seed}", metrics=metrics, previous=previous)
    by_id = {r.entrant: r for r in rows}

    def inside(e):  # the order inside a pool, as the module's rules state it
        return by_id[e].rank, (0, previous[e]) if e in previous else (1, 0), lottery(f"s{seed}", "cut", e)

    def across(e):
        values = per_match(by_id[e], metrics)
        return (1,) if values is None else (0, *(-v for v in values)), inside(e)[1:]

    places = {p: sorted((e for e in members if e not in gone), key=inside) for p, members in pools.items()}
    expected_first = {e for members in places.values() for e in members[:k]}
    candidates = sorted((members[k] for members in places.values() if len(members) > k), key=across)
    expected = expected_first | set(candidates[:m])
    assert set(done.entrants) == expected and not expected & gone
    assert [q.seed for q in done.qualifiers] == list(range(1, len(expected) + 1))
    # Seeding: place by place, each place compared across pools, the next place last.
    key = {q.entrant: (q.place, across(q.entrant)) for q in done.qualifiers}
    assert [q.entrant for q in done.qualifiers] == sorted(done.entrants, key=key.__getitem__)
    assert {q.entrant for q in done.qualifiers if q.how == "next_place"} == set(candidates[:m])
    # Every tie report is a group level before its criterion, split by the cut.
    for tie in done.ties:
        assert tie.by in ("metric", "per_match", "previous_rank", "draw")
        assert 0 < len(tie.qualified) < len(tie.tied) and tie.tied[:len(tie.qualified)] == tie.qualified
        through = {q.entrant for q in done.qualifiers if q.how == ("pool_place" if tie.cut == "pool" else "next_place")}
        assert set(tie.qualified) <= through and not set(tie.tied[len(tie.qualified):]) & through
        if tie.cut == "pool":
            assert {by_id[e].pool for e in tie.tied} == {tie.at}
        if tie.by in ("previous_rank", "draw"):
            level = {per_match(by_id[e], metrics) if tie.cut == "next_place" else by_id[e].rank for e in tie.tied}
            assert len(level) == 1
        if tie.by == "draw":
            assert len({previous.get(e) for e in tie.tied}) == 1
    # Withdrawn qualifiers are replaced, in order, by newcomers.
    assert {r.withdrawn for r in done.replacements} <= gone
    assert {r.by for r in done.replacements} - {None} <= set(done.entrants)
    # The stage's order holds everyone; ranks are positions of the first of each level.
    assert sorted(done.order) == sorted(ids)
    for position, e in enumerate(done.order, start=1):
        assert done.ranks[e] <= position
    # Neither the rows' order nor the ids (with their public numbers kept) change the outcome.
    again = qualify(Rule("pools", per_pool=k, best_next=m), list(reversed(rows)), seed=f"s{seed}", metrics=metrics,
                    previous=previous)
    assert again == done


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6), st.booleans())
def test_top_rule_property(n, seed, withdrawals):
    rng = random.Random(seed)
    metrics = ["match_points", "games_won"]
    values = {e: (rng.choice((0, 2, 4)), rng.choice((1, 2))) for e in range(1, n + 1)}
    ordered = sorted(values, key=lambda e: (-values[e][0], -values[e][1]))
    rows = []
    for e in ordered:
        rank = next(i for i, f in enumerate(ordered, start=1) if values[f] == values[e])
        rows.append(Row(e, rank, values[e], withdrawn=withdrawals and rng.random() < 0.1))
    count = rng.randint(1, n)
    previous = {e: rng.randint(1, 3) for e in values if rng.random() < 0.5}
    done = qualify(Rule("top", count=count), rows, seed="x", metrics=metrics, previous=previous)
    by_id = {r.entrant: r for r in rows}

    def key(e):
        return by_id[e].rank, (0, previous[e]) if e in previous else (1, 0), lottery("x", "cut", e)

    eligible = sorted((e for e in values if not by_id[e].withdrawn), key=key)
    assert done.entrants == eligible[:count]
    assert done.order == tuple(sorted(values, key=key))
    for tie in done.ties:
        last, out = eligible[count - 1], eligible[count]
        assert tie.at == count and last in tie.tied and out in tie.tied
        if tie.by == "metric":
            assert tie.metric == "games_won" and values[last][0] == values[out][0]
        else:
            assert by_id[last].rank == by_id[out].rank
    cut_level = len(eligible) > count and values[eligible[count - 1]][0] == values[eligible[count]][0]
    assert bool(done.ties) == cut_level
    # Relabelled ids keeping their public numbers give the same qualifiers.
    relabel = {e: 1000 + 7 * e for e in values}
    moved = [Row(relabel[r.entrant], r.rank, r.values, withdrawn=r.withdrawn) for r in rows]
    again = qualify(Rule("top", count=count), moved, seed="x", metrics=metrics,
                    previous={relabel[e]: p for e, p in previous.items()}, numbers={v: e for e, v in relabel.items()})
    assert again.entrants == [relabel[e] for e in done.entrants]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_every_summed_metric_is_compared_per_match(seed):
    """Doubling every result of a pool that played twice as many matches changes nothing across the pools."""
    rng = random.Random(seed)
    metrics = ADDITIVE
    base = Totals(played=3, won=rng.randint(0, 3), played_points=rng.randint(0, 6), match_points=0,
                  games_won=rng.randint(0, 6), games_lost=rng.randint(0, 6), points_for=rng.randint(0, 300),
                  points_against=rng.randint(0, 300))
    double = Totals(played=6, won=2 * base.won, played_points=2 * base.played_points, match_points=0,
                    games_won=2 * base.games_won, games_lost=2 * base.games_lost, points_for=2 * base.points_for,
                    points_against=2 * base.points_against)
    zeros = (0,) * len(metrics)
    rows = [Row(1, 1, zeros, 1, Totals(played=3, played_points=6)), Row(2, 2, zeros, 1, base),
            Row(3, 1, zeros, 2, Totals(played=6, played_points=12)), Row(4, 2, zeros, 2, double)]
    done = qualify(Rule("pools", per_pool=1, best_next=1), rows, seed="z", metrics=metrics, previous={2: 2, 4: 1})
    assert done.entrants[-1] == 4 and done.ties[-1].by == "previous_rank"
