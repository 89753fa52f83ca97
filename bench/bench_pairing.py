"""Benchmark: Swiss pairing of 2,048 teams in round 14 of a simulated tournament.

Simulates rounds 1-13 with the pairing itself (random results, 10% draws, 2/1/0 points), then
times round 14 on the sparse candidate graph and checks that its total weight equals the optimum
on the full graph (about two million edges).

    .venv/bin/python bench/bench_pairing.py [--teams 2048] [--round 14] [--seed 1]
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.types import TeamState  # noqa: E402


def field(score, opponents, byes):
    order = sorted(score, key=lambda t: (-score[t], t))
    return [TeamState(t, score[t], k, club=t % 97, had_bye=t in byes, opponents=frozenset(opponents[t]))
            for k, t in enumerate(order)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=2048)
    parser.add_argument("--round", type=int, default=14)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    teams = range(1, args.teams + 1)
    score = dict.fromkeys(teams, 0)
    opponents = {t: set() for t in teams}
    byes: set[int] = set()
    times = []
    for rnd in range(1, args.round):
        started = time.perf_counter()
        result = pair_swiss(field(score, opponents, byes))
        times.append(time.perf_counter() - started)
        assert result.complete, f"round {rnd}: unpaired {result.unpaired}"
        for p in result.pairings:
            if p.ew is None:
                score[p.ns] += 2
                byes.add(p.ns)
                continue
            opponents[p.ns].add(p.ew)
            opponents[p.ew].add(p.ns)
            x = rng.random()
            if x < 0.1:
                score[p.ns] += 1
                score[p.ew] += 1
            elif x < 0.55:
                score[p.ns] += 2
            else:
                score[p.ew] += 2
    teams_now = field(score, opponents, byes)
    runs = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        sparse = pair_swiss(teams_now)
        runs.append(time.perf_counter() - started)
    started = time.perf_counter()
    full = pair_swiss(teams_now, full_graph=True)
    full_time = time.perf_counter() - started
    groups = len({t.score for t in teams_now})
    print(f"teams={args.teams} round={args.round} score groups={groups}")
    print(f"rounds 1-{args.round - 1}: median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    print(f"round {args.round} sparse (candidates {sparse.candidates}): median {statistics.median(runs) * 1000:.0f} ms, "
          f"max {max(runs) * 1000:.0f} ms over {args.repeat} runs")
    print(f"round {args.round} full graph: {full_time:.2f} s")
    print(f"cost (score, club, bye, rank): sparse {sparse.cost} full {full.cost}")
    print(f"weight equal to the full-graph optimum: {sparse.weight == full.weight}")
    return 0 if sparse.weight == full.weight and max(runs) < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
