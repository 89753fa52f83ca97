"""Benchmark: the standings of an individual event, 600 players after 9 rounds (pure, no database).

Simulates a ``tables`` event (a new random draw of tables of four every three rounds, the players
left over sitting out and scored by the round's mean) with timed matches (0 to 4 games a side,
game points 0 to 400), every match of rounds 1-8 finished and all but one of round 9. Then times,
as the worker would after that last result:

1. a full compute from plain values (``compute_individual_standings``: context built, every
   metric, ranked), what a recompute does after a full load;
2. the incremental path: a kept ``Context`` brought up to date with the one changed match
   (``Context.replace`` of its four records, and of the round's sit-out records, whose mean moved),
   then ranked whole (``rank_individual_standings``);
3. the club ranking (pooled and best 5) and the table winners of the last cycle, from the rows.

Times are the median of ``--repeat`` runs, wall clock and process CPU (the worker's time).

    .venv/bin/python bench/bench_individual_standings.py [--players 600] [--rounds 9] [--format tables]
"""

import argparse
import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.ranking import PointsSettings  # noqa: E402
from tournaments.ranking.individual import (  # noqa: E402
    IndividualMatch,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_club_standings,
    individual_context,
    match_records,
    rank_individual_standings,
    sit_out_record,
    sit_out_score,
    table_winners,
)


def result(rng, match_id, rnd, table, ns, ew):
    games_ns, games_ew = rng.randint(0, 4), rng.randint(0, 4)
    points_ns, points_ew = rng.randint(0, 400), rng.randint(0, 400)
    if (games_ns, points_ns) > (games_ew, points_ew):
        winner = "ns"
    elif (games_ns, points_ns) < (games_ew, points_ew):
        winner = "ew"
    else:
        winner = "draw"
    return IndividualMatch(match_id, rnd, table, ns, ew, winner, games_ns, games_ew, points_ns, points_ew)


def simulate(n_players: int, rounds: int, seed: int):
    """Players, matches and sit-outs; the last match of the last round is left unfinished."""
    rng = random.Random(seed)
    players = [PlayerInfo(1000 + p, club=p % 40 or None, number=p + 1) for p in range(n_players)]
    ids = [p.player for p in players]
    matches, sit_outs = [], []
    seated, sitting = [], []
    for rnd in range(1, rounds + 1):
        step = (rnd - 1) % 3  # A+B v C+D, A+C v B+D, A+D v B+C
        if step == 0:  # a new draw each cycle; the players left over sit the whole cycle out
            order = rng.sample(ids, len(ids))
            cut = len(order) - len(order) % 4
            seated, sitting = order[:cut], order[cut:]
        round_matches = []
        for table, k in enumerate(range(0, len(seated), 4), start=1):
            a, b, c, d = seated[k:k + 4]
            ns, ew = ((a, b), (c, d)) if step == 0 else ((a, c), (b, d)) if step == 1 else ((a, d), (b, c))
            round_matches.append(result(rng, 100_000 * rnd + table, rnd, table, ns, ew))
        matches += round_matches
        sit_outs += [SitOut(p, rnd, *sit_out_score("mean", round_matches)) for p in sitting]
    last = matches[-1]
    unfinished = IndividualMatch(last.match, last.round, last.table, last.ns, last.ew)
    matches[-1] = unfinished
    sit_outs = [s for s in sit_outs if s.round != rounds] + [
        SitOut(s.player, rounds, *sit_out_score("mean", [m for m in matches if m.round == rounds]))
        for s in sit_outs if s.round == rounds]
    return players, matches, sit_outs, last


def timed(fn, repeat):
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        out = fn()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--format", default="tables", choices=["tables", "swiss"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    settings = PointsSettings()
    players, matches, sit_outs, finished = simulate(args.players, args.rounds, args.seed)
    after = [finished if m.match == finished.match else m for m in matches]
    round_after = [m for m in after if m.round == args.rounds]
    sit_after = [s for s in sit_outs if s.round != args.rounds] + [
        SitOut(s.player, s.round, *sit_out_score("mean", round_after)) for s in sit_outs if s.round == args.rounds]
    print(f"{len(players)} players, {args.rounds} rounds, {len(matches)} matches, {len(sit_outs)} sit-outs, "
          f"format {args.format}")

    wall, cpu, rows = timed(lambda: compute_individual_standings(players, after, sit_after, format=args.format,
                                                                 settings=settings), args.repeat)
    print(f"full compute after one more result:        {wall:7.2f} ms wall, {cpu:7.2f} ms CPU")

    def incremental():
        # The kept context is built outside the timing (the previous recompute left it); each run swaps
        # the changed match's records and the last round's sit-outs, then ranks whole.
        ctx = contexts.pop()
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        ctx.replace(match_records(unfinished, settings), match_records(finished, settings))
        ctx.replace([sit_out_record(s) for s in sit_outs if s.round == args.rounds],
                    [sit_out_record(s) for s in sit_after if s.round == args.rounds])
        ranked = rank_individual_standings(ctx, format=args.format)
        return time.process_time() - cpu, time.perf_counter() - wall, ranked

    unfinished = next(m for m in matches if m.match == finished.match)
    contexts = [individual_context(players, matches, sit_outs, settings=settings) for _ in range(args.repeat)]
    runs = [incremental() for _ in range(args.repeat)]
    assert runs[-1][2] == rows, "the incremental path must give the full compute's rows"
    print(f"incremental (kept context, one match):     {statistics.median(r[1] for r in runs) * 1000:7.2f} ms wall, "
          f"{statistics.median(r[0] for r in runs) * 1000:7.2f} ms CPU")

    wall, cpu, _ = timed(lambda: individual_context(players, after, sit_after, settings=settings), args.repeat)
    print(f"  of the full compute, building the context: {wall:7.2f} ms wall, {cpu:7.2f} ms CPU")
    wall, cpu, _ = timed(lambda: individual_club_standings(rows, players), args.repeat)
    print(f"club ranking, pooled:                      {wall:7.2f} ms wall, {cpu:7.2f} ms CPU")
    wall, cpu, _ = timed(lambda: individual_club_standings(rows, players, best_n=5), args.repeat)
    print(f"club ranking, best 5:                      {wall:7.2f} ms wall, {cpu:7.2f} ms CPU")
    cycle = range(args.rounds - (args.rounds - 1) % 3, args.rounds + 1)
    wall, cpu, winners = timed(lambda: table_winners(players, after, rows, cycle_rounds=cycle), args.repeat)
    print(f"table winners of rounds {cycle.start}-{cycle.stop - 1} ({len(winners)} tables): "
          f"{wall:7.2f} ms wall, {cpu:7.2f} ms CPU")


if __name__ == "__main__":
    main()
