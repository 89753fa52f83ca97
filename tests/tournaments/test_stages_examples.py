"""Two real formats worked through the stages' logic alone (no database): Roeselare's duo championship and a
44-player individual championship. The services and the API play the same events end to end elsewhere."""

import random

from tests.tournaments.stage_events import S, lottery, play_pool, play_tables, tables_standings
from tournaments.pairing.knockout import next_round
from tournaments.ranking import DEFAULT_METRICS, TeamInfo, compute_standings
from tournaments.ranking.individual import individual_metrics
from tournaments.stages import (
    KnockoutMatch,
    Rule,
    StagePlan,
    StageResult,
    bracket,
    check_stages,
    cycle_tables,
    draw_pools,
    event_ranking,
    knockout_standings,
    qualify,
    rows_of,
    seeding_order,
    third_place_pairing,
)


def roeselare_pools(rng):
    """60 pairs (ids 1001-1060) of 12 clubs, seeded by rating, in 15 pools of 4."""
    pairs = list(range(1001, 1061))
    clubs = {p: f"club-{(p * 7) % 12}" for p in pairs}
    rating = {p: 1200 + rng.randrange(800) for p in pairs}
    order = seeding_order(pairs, seed="roeselare-2025", rating=rating)
    return pairs, clubs, order, draw_pools(order, 15, clubs=clubs)


def test_roeselare_pools_of_four_then_a_sixteen_team_knockout():
    rng = random.Random(2025)
    plans = [StagePlan("pools", pools=15, rule=Rule("pools", per_pool=1, best_next=1)),
             StagePlan("knockout", rounds=4)]
    assert check_stages(plans, entry="teams", entrants=60) == [60, 16]
    pairs, clubs, order, pools = roeselare_pools(rng)
    assert [len(p) for p in pools.pools] == [4] * 15 and pools.separated  # 12 clubs of 5 over 15 pools
    assert [pools.pot[e] for e in order[:15]] == [1] * 15 and pools.pools[0][0] == order[0]
    assert all(sorted(pools.pot[e] for e in members) == [1, 2, 3, 4] for members in pools.pools)
    # Each pool a round robin of three rounds; the stronger pair wins. Pool 1's pairs are made the strongest
    # of the field, so the best runner-up is pool 1's, and would meet its own winner, seed 1, in round 1.
    strength = dict(zip(pairs, rng.sample(range(100), len(pairs))))
    for rank, p in enumerate(pools.pools[0]):
        strength[p] = 1000 - 100 * rank
    rows = []
    for number, members in enumerate(pools.pools, start=1):
        records = play_pool(rng, list(members), metrics=DEFAULT_METRICS, strength=strength)
        assert len(records) == 12  # 3 rounds of 2 matches, two records a match
        standings = compute_standings([TeamInfo(t) for t in members], records, metrics=DEFAULT_METRICS, settings=S)
        rows += rows_of(standings, DEFAULT_METRICS, pool=number)
    rule = plans[0].rule
    stage1 = qualify(rule, rows, seed="roeselare-pools", metrics=DEFAULT_METRICS,
                     previous={e: i for i, e in enumerate(order, start=1)})
    winners = [q for q in stage1.qualifiers if q.how == "pool_place"]
    assert len(winners) == 15 and len(stage1.qualifiers) == 16
    best_runner_up = stage1.qualifiers[-1]
    assert best_runner_up.how == "next_place" and best_runner_up.pool == 1 and best_runner_up.seed == 16
    assert stage1.qualifiers[0].pool == 1  # pool 1's winner: 3 wins, the largest margins (points difference)
    # The knockout: 16 teams, no byes; seed 16 moves off seed 1's table.
    knockout = bracket(stage1.entrants, pools=stage1.pools, third_place=True)
    assert knockout.size == 16 and knockout.rounds == 4 and knockout.conflicts == ()
    opponents = {p.ns: p.ew for p in knockout.first_round}
    assert opponents[stage1.entrants[0]] == stage1.entrants[14]
    assert opponents[stage1.entrants[1]] == best_runner_up.entrant
    assert all(p.ew is not None for p in knockout.first_round)
    # Played out: the higher seed wins every match but the final; a match for third place.
    seed_of = {e: i for i, e in enumerate(stage1.entrants, start=1)}
    matches = []
    current = list(knockout.first_round)
    for rnd in range(1, 5):
        winners_by_table = {}
        losers = []
        for p in current:
            ns_wins = (seed_of[p.ns] < seed_of[p.ew]) != (rnd == 4)
            matches.append(KnockoutMatch(rnd, p.table, p.ns, p.ew, "ns" if ns_wins else "ew"))
            winners_by_table[p.table] = p.ns if ns_wins else p.ew
            losers.append(p.ew if ns_wins else p.ns)
        if rnd == 3:
            third = third_place_pairing(*losers, semi_final_round=3)
            assert (seed_of[third.ns], seed_of[third.ew]) == (4, 3)  # the losers of semi-final tables 1 and 2
            matches.append(KnockoutMatch(4, third.table, third.ns, third.ew, "ns", third_place=True))
        current = next_round(winners_by_table, rnd)
    final = knockout_standings(stage1.entrants, matches, seed="roeselare-knockout")
    assert [r.entrant for r in final[:4]] == [stage1.entrants[1], stage1.entrants[0], stage1.entrants[3],
                                              stage1.entrants[2]]  # 2 beat 1 in the final; 4 beat 3 for third
    assert [r.reached for r in final] == [5, 4, 3, 3] + [2] * 4 + [1] * 8
    assert [r.third_place for r in final[2:4]] == ["won", "lost"]
    # The event's ranking: the 16 of the knockout, then the 44 left in the pools, by their pool rank.
    ranking = event_ranking([stage1.stage_result(1), StageResult(2, tuple(r.entrant for r in final))])
    assert [r.entrant for r in ranking[:16]] == [r.entrant for r in final]
    assert [r.stage for r in ranking] == [2] * 16 + [1] * 44
    out = [r for r in ranking if r.stage == 1]
    assert [r.path[0].rank for r in out] == sorted(r.path[0].rank for r in out)
    assert all(r.path[0].pool is not None and not r.path[0].qualified for r in out)


def test_roeselare_a_pool_winner_withdraws_before_the_knockout():
    rng = random.Random(7)
    _, _, order, pools = roeselare_pools(rng)
    rows = []
    for number, members in enumerate(pools.pools, start=1):
        records = play_pool(rng, list(members), metrics=DEFAULT_METRICS)
        standings = compute_standings([TeamInfo(t) for t in members], records, metrics=DEFAULT_METRICS, settings=S)
        rows += rows_of(standings, DEFAULT_METRICS, pool=number)
    rule = Rule("pools", per_pool=1, best_next=1)
    before = qualify(rule, rows, seed="r", metrics=DEFAULT_METRICS)
    leaving = before.qualifiers[4].entrant  # a pool winner
    gone = [r if r.entrant != leaving else type(r)(r.entrant, r.rank, r.values, r.pool, r.totals, True) for r in rows]
    after = qualify(rule, gone, seed="r", metrics=DEFAULT_METRICS)
    assert len(after.qualifiers) == 16 and leaving not in after.entrants
    [replacement] = after.replacements
    assert replacement.withdrawn == leaving and replacement.by in after.entrants
    assert replacement.by not in before.entrants
    ranking = event_ranking([after.stage_result(1), StageResult(2, tuple(after.entrants))])
    row = next(r for r in ranking if r.entrant == leaving)
    assert row.stage == 1 and row.path[0].withdrew and row.path[0].replaced_by == replacement.by


def test_a_44_player_championship_qualification_semi_final_and_final():
    rng = random.Random(44)
    players = list(range(1, 45))
    plans = [StagePlan("tables", rule=Rule("top", count=16)), StagePlan("tables", rule=Rule("table_winners")),
             StagePlan("tables")]
    assert check_stages(plans, entry="individual", entrants=44) == [44, 16, 4]
    metrics = individual_metrics("tables")
    # The qualification: one cycle of three rounds at 11 tables, drawn from the published seed.
    matches, sitting = play_tables(players, seed="bk-qualification", rng=rng)
    assert len(matches) == 33 and sitting == ()
    standings = tables_standings(players, matches)
    rows = rows_of(standings, metrics)
    stage1 = qualify(Rule("top", count=16), rows, seed="bk-qualification", metrics=metrics)
    assert len(stage1.entrants) == 16
    for tie in stage1.ties:  # a tie at the cut says how it was broken, naming both sides of the cut
        assert tie.at == 16 and tie.tied[:len(tie.qualified)] == tie.qualified
    cut_order = sorted(players, key=lambda p: (next(r.rank for r in rows if r.entrant == p),
                                               lottery("bk-qualification", "cut", p)))
    assert stage1.entrants == cut_order[:16]
    # The semi-final: the 16 at 4 tables for a cycle, the previous stage's ranks kept for its ties.
    semi_players = sorted(stage1.entrants)
    semi_matches, _ = play_tables(semi_players, seed="bk-semi", rng=rng, first_match=100)
    tables = cycle_tables(semi_matches, (1, 2, 3))
    assert len(tables) == 4 and all(len(t) == 4 for t in tables.values())
    semi_rows = rows_of(tables_standings(semi_players, semi_matches), metrics)
    previous = {e: stage1.ranks[e] for e in semi_players}
    stage2 = qualify(Rule("table_winners"), semi_rows, seed="bk-semi", metrics=metrics, previous=previous,
                     tables=tables)
    assert len(stage2.entrants) == 4 and {q.table for q in stage2.qualifiers} == {1, 2, 3, 4}
    by_id = {r.entrant: r for r in semi_rows}
    for q in stage2.qualifiers:
        assert all(by_id[q.entrant].rank <= by_id[p].rank for p in tables[q.table])
    # The final: the 4 table winners at one table for a cycle.
    final_matches, _ = play_tables(sorted(stage2.entrants), seed="bk-final", rng=rng, first_match=200)
    final_rows = rows_of(tables_standings(sorted(stage2.entrants), final_matches), metrics)
    stage3 = qualify(Rule("all"), final_rows, seed="bk-final", metrics=metrics,
                     previous={e: stage2.ranks[e] for e in stage2.entrants})
    ranking = event_ranking([stage1.stage_result(1), stage2.stage_result(2), stage3.stage_result(3)])
    assert [r.stage for r in ranking] == [3] * 4 + [2] * 12 + [1] * 28
    assert [r.entrant for r in ranking[:4]] == list(stage3.order)
    champion = ranking[0]
    assert [s.stage for s in champion.path] == [1, 2, 3] and champion.path[1].qualified
    assert [r.entrant for r in ranking[16:]] == [e for e in stage1.order if e not in stage1.entrants]
