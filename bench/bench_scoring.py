"""Benchmark the rules engine: complete deals checked and hand summaries scored per second.

Usage: python bench/bench_scoring.py [--deals 1000] [--repeat 5] [--seed 1] [--variants belgian-manille ...]

Random deals are played out with random legal cards beforehand (not timed). Each
timed call is one ``check_play`` of a whole deal (deal validation, every card's
obligations, tricks and points) or one ``score_hand`` of a summary (every check of
rules.md §4 plus the result); every call is timed on its own with perf_counter_ns,
``repeat`` times over the whole set, and the median per call and the throughput
(calls / total time) are reported. The process is pinned to one core when the
platform allows it.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import GameState, Hand, check_play, get_variant, score_hand  # noqa: E402

SEATS = ("N", "E", "S", "W")


def random_deal(slug: str, rng: random.Random):
    """Deal at random and play random legal cards to the end."""
    v = get_variant(slug)
    cards = list(v.cards)
    rng.shuffle(cards)
    per = len(cards) // 4
    hands = {s: cards[i * per:(i + 1) * per] for i, s in enumerate(SEATS)}
    dealer = rng.choice(SEATS)
    if v.trump_mode == "turned":
        trump = {"turned_card": rng.choice(hands[dealer])}
    else:
        trump = {"trump": rng.choice(list(v.suits) + (["none"] if v.no_trump else []))}
    played: list[str] = []
    while True:
        result = check_play(slug, dealer=dealer, hands=hands, cards=played, **trump)
        if result.complete:
            return {"dealer": dealer, "hands": hands, "cards": played, **trump}, result
        played.append(rng.choice(result.next["legal_cards"]))


def summary_case(slug: str, deal: dict, result, rng: random.Random):
    """Return (hand, state) for a summary of the played deal in a random game position."""
    v = get_variant(slug)
    extra = {}
    if v.doublings and rng.random() < 0.3:
        extra["doublings"] = rng.randint(1, 2)
    hand = Hand(dealer=deal["dealer"], trump=deal.get("trump"), turned_card=deal.get("turned_card"),
                tricks=result.tricks_won, points=result.points, **extra)
    rules = v.rules()
    previous = rules.order[rules.position[deal["dealer"]] - 1]  # the seat that dealt before
    target = v.target or 100
    state = GameState(totals={"ns": rng.randrange(target // 2), "ew": rng.randrange(target // 2)},
                      tie_pending=v.doublings and rng.random() < 0.1, previous_dealer=previous)
    return hand, state


def timed(fn, cases, repeat: int):
    """Return (per-call times in ns, total ns) over ``repeat`` passes of ``cases``."""
    per_call = []
    total = 0
    clock = time.perf_counter_ns
    for _ in range(repeat):
        gc.disable()
        for case in cases:
            t0 = clock()
            fn(case)
            dt = clock() - t0
            per_call.append(dt)
            total += dt
        gc.enable()
    return per_call, total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=["belgian-manille", "spanish-manilla"])
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"Python {sys.version.split()[0]}, {args.deals} deals x {args.repeat} passes, seed {args.seed}, one core")
    print(f"{'variant':<18} {'what':<18} {'median us':>10} {'p90 us':>9} {'per second':>12}")
    for slug in args.variants:
        rng = random.Random(args.seed)
        deals = [random_deal(slug, rng) for _ in range(args.deals)]
        summaries = [summary_case(slug, d, r, rng) for d, r in deals]

        def check(deal):
            r = check_play(slug, **deal)
            assert r.legal and r.complete

        def score(case):
            score_hand(slug, case[0], case[1])

        for what, fn, cases in (("deal checked", check, [d for d, _ in deals]),
                                ("summary scored", score, summaries)):
            fn(cases[0])  # warm caches (variant rules)
            per_call, total = timed(fn, cases, args.repeat)
            median = statistics.median(per_call) / 1000
            p90 = statistics.quantiles(per_call, n=10)[-1] / 1000
            rate = len(per_call) / (total / 1e9)
            print(f"{slug:<18} {what:<18} {median:>10.1f} {p90:>9.1f} {rate:>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
