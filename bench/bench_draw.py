"""Benchmark: both individual draws (``tables`` and ``swiss``) over a simulated championship.

Plays rounds 1..R (default 10) for N players (default 600) with the draw itself: clubs of realistic sizes
(a tenth of the players without a club), a few kept-apart pairs and players fixed to a table, random results
(swiss: 2/1/0 match points, games won and points for). Each round's draw is timed (median of --repeat runs:
the draw is deterministic, so the runs give the same draw) and checked: no repeated partnership in swiss, no
kept-apart pair at one table, fixed players at seat N of their table. Printed per round: the time, repeated
partnerships (must be 0 in swiss; in tables a pair who partnered before and is drawn together again),
repeated opponents against the lower bound and the gap, club conflicts against their bound.

Round 9 is the goal's "history of 8 rounds"; in ``tables`` it is the cycle's third round (a rotation, no
search), so rounds 7 and 10 (new cycles, after 6 and 9 rounds) are the ones that draw tables.

    .venv/bin/python bench/bench_draw.py [--players 600] [--rounds 10] [--seed 1] [--repeat 3]
    .venv/bin/python bench/bench_draw.py --players 2000
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.pairing.individual import (  # noqa: E402
    DrawInputs,
    DrawPlayer,
    PastRound,
    PastTable,
    draw,
)


def entrants(n: int, rng: random.Random) -> tuple[DrawPlayer, ...]:
    """Clubs of 1 to 17 players (a tenth of the field without a club), 3 players fixed to tables."""
    players, club, left = [], 0, 0
    fixed = {5: 1, 17: 2, 40: 9}
    for number in range(1, n + 1):
        if rng.random() < 0.1:
            players.append(DrawPlayer(number, None, fixed.get(number)))
            continue
        if left == 0:
            club, left = club + 1, rng.randint(1, 17)
        left -= 1
        players.append(DrawPlayer(number, f"club-{club}", fixed.get(number)))
    return tuple(players)


def play(fmt: str, args) -> int:
    rng = random.Random(args.seed)
    players = entrants(args.players, rng)
    kept_apart = tuple((a, a + 1) for a in range(2, min(args.players, 60), 6))
    history: list[PastRound] = []
    scores = {p.number: [0, 0, 0] for p in players}
    failures = 0
    print(f"\n{fmt}: {args.players} players, {len(kept_apart)} kept-apart pairs, 3 fixed tables")
    print("round  time (ms)  method     rep.partners  rep.opponents  bound  gap  clubs  club bound")
    for rnd in range(1, args.rounds + 1):
        inputs = DrawInputs(format=fmt, round_number=rnd, players=players, seed=f"bench-{args.seed}-{rnd}",
                            history=tuple(history), kept_apart=kept_apart,
                            scores=tuple((n, *s) for n, s in sorted(scores.items())) if fmt == "swiss" else ())
        runs = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            result = draw(inputs)
            runs.append(time.perf_counter() - started)
        r = result.report
        gap = r["repeated_opponents"] - r["opponents_lower_bound"]
        print(f"{rnd:5d}  {statistics.median(runs) * 1000:9.0f}  {r['method']:9s}  {r['repeated_partners']:12d}  "
              f"{r['repeated_opponents']:13d}  {r['opponents_lower_bound']:5d}  {gap:3d}  {r['club_conflicts']:5d}  "
              f"{r['club_conflicts_lower_bound']:10d}")
        failures += check(fmt, result, players, kept_apart)
        history.append(PastRound(rnd, tuple(PastTable(t.table, t.ns, t.ew) for t in result.tables),
                                 result.sitting_out))
        for table in result.tables:
            winners, losers = (table.ns, table.ew) if rng.random() < 0.5 else (table.ew, table.ns)
            won = rng.randint(1, 3)
            for p in winners:
                scores[p][0] += 2
                scores[p][1] += won
                scores[p][2] += rng.randint(90, 200)
            for p in losers:
                scores[p][1] += rng.randint(0, won - 1)
                scores[p][2] += rng.randint(20, 150)
    return failures


def check(fmt: str, result, players, kept_apart) -> int:
    bad = 0
    fixed = {p.number: p.fixed_table for p in players if p.fixed_table}
    for table in result.tables:
        four = set(table.ns) | set(table.ew)
        bad += sum(1 for a, b in kept_apart if a in four and b in four)
        bad += sum(1 for p, at in fixed.items() if p in four and (at != table.table or table.seats["N"] != p))
    if fmt == "swiss":
        bad += result.report["repeated_partners"]
    if bad:
        print(f"  !! {bad} broken rule(s)")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--format", choices=["tables", "swiss", "both"], default="both")
    args = parser.parse_args()
    formats = ["tables", "swiss"] if args.format == "both" else [args.format]
    failures = sum(play(fmt, args) for fmt in formats)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
