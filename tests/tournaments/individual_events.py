"""Helpers for the individual draw's tests: whole events played with the draw, and an independent brute force.

Nothing here uses the draw's own internals: meetings are read from the rounds, the optimum by listing every
seating (the tests compare the draw and its bounds against these).
"""

from __future__ import annotations

import random
from itertools import combinations

from tournaments.pairing.individual import (
    DrawError,
    DrawInputs,
    DrawPlayer,
    DrawResult,
    PastRound,
    PastTable,
    draw,
)


def past(result: DrawResult, number: int) -> PastRound:
    return PastRound(number, tuple(PastTable(t.table, t.ns, t.ew) for t in result.tables), result.sitting_out)


def players(numbers, clubs=None, fixed=None) -> tuple[DrawPlayer, ...]:
    clubs, fixed = clubs or {}, fixed or {}
    return tuple(DrawPlayer(n, clubs.get(n), fixed.get(n)) for n in sorted(numbers))


def inputs(fmt: str, rnd: int, numbers, *, seed="seed", history=(), clubs=None, fixed=None, **extra) -> DrawInputs:
    return DrawInputs(format=fmt, round_number=rnd, players=players(numbers, clubs, fixed), seed=seed,
                      history=tuple(history), **extra)


def meetings(history) -> tuple[set[frozenset], set[frozenset]]:
    """Partner pairs and opponent pairs of these rounds, read from the seats."""
    partners, opponents = set(), set()
    for rnd in history:
        for t in rnd.tables:
            partners.add(frozenset(t.ns))
            partners.add(frozenset(t.ew))
            opponents.update(frozenset((a, b)) for a in t.ns for b in t.ew)
    return partners, opponents


def play(fmt: str, n: int, rounds: int, seed: int, *, clubs=None, kept_apart=(), fixed=None, changes=False):
    """Play an event with random results; yields (inputs, result) per round; stops at a refusal (returned)."""
    rng = random.Random(seed)
    active = set(range(1, n + 1))
    scores = {p: [0, 0, 0] for p in active}
    history: list[PastRound] = []
    next_number = n + 1
    for rnd in range(1, rounds + 1):
        new_cycle = fmt == "swiss" or rnd % 3 == 1
        if changes and rnd > 1 and new_cycle and rng.random() < 0.4:
            if len(active) > 5:
                active.discard(rng.choice(sorted(active - set(fixed or {}))))
            active.add(next_number)
            scores[next_number] = [0, 0, 0]
            next_number += 1
        current = inputs(fmt, rnd, active, seed=f"{seed}-{rnd}", history=history, clubs=clubs, fixed=fixed,
                         kept_apart=tuple(kept_apart),
                         scores=tuple((p, *scores[p]) for p in sorted(active)) if fmt == "swiss" else ())
        try:
            result = draw(current)
        except DrawError as error:
            return error
        yield current, result
        history.append(past(result, rnd))
        for t in result.tables:
            winners = t.ns if rng.random() < 0.5 else t.ew
            for p in winners:
                scores[p][0] += 2
                scores[p][1] += 1
            for p in (*t.ns, *t.ew):
                scores[p][2] += rng.randint(0, 100)
    return None


def seatings(items: list[int]):
    """Every partition of the players into groups of four."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for combo in combinations(rest, 3):
        remaining = [x for x in rest if x not in combo]
        for more in seatings(remaining):
            yield [(first, *combo), *more]


def fewest_repeats(fmt: str, playing: list[int], counted: set[frozenset], partners: set[frozenset] = frozenset(),
                   apart: set[frozenset] = frozenset(), fixed: set[int] = frozenset()) -> int | None:
    """The fewest counted pairs over every allowed draw of these players, by listing them all (None: no draw).

    ``tables``: a group's six pairs count; ``swiss``: the four opponent pairs of the group's best split
    that repeats no partnership. A kept-apart pair or two fixed players never share a group.
    """
    costs: dict[tuple, int | None] = {}

    def cost(group: tuple) -> int | None:
        if group not in costs:
            costs[group] = _group_cost(fmt, group, counted, partners, apart, fixed)
        return costs[group]

    best = None
    for seating in seatings(sorted(playing)):
        each = [cost(group) for group in seating]
        if None not in each and (best is None or sum(each) < best):
            best = sum(each)
    return best


def _group_cost(fmt, group, counted, partners, apart, fixed) -> int | None:
    pairs = [frozenset(p) for p in combinations(group, 2)]
    if any(p in apart for p in pairs) or sum(1 for p in group if p in fixed) > 1:
        return None
    if fmt == "tables":
        return sum(1 for p in pairs if p in counted)
    a, b, c, d = group
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    costs = [sum(1 for x in s for y in o if frozenset((x, y)) in counted)
             for s, o in splits if frozenset(s) not in partners and frozenset(o) not in partners]
    return min(costs) if costs else None


def run(fmt: str, n: int, rounds: int, seed: int, **options) -> tuple[list, DrawError | None]:
    """``play`` to the end: the rounds drawn and the refusal that stopped the event (or None)."""
    event = play(fmt, n, rounds, seed, **options)
    drawn = []
    while True:
        try:
            drawn.append(next(event))
        except StopIteration as stop:
            return drawn, stop.value
