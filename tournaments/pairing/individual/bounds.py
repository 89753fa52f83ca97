"""Lower bounds on the repeated meetings no draw can avoid: the report's ``*_lower_bound``.

Up to 12 players the bound is the optimum itself, found by listing every seating (``search.exact``, the
draw's own method there): no draw has fewer. Beyond, it is the largest of three relaxations of the
partition problem (``problem.py``), each provably at most the fewest counted pairs of any allowed draw of
the same players:

- per player: a player with fewer than 3 (``tables``) or 2 (``swiss``: opponents) allowed table-mates they
  have not met must sit with that many they have met; each pair counted from both ends, so halved;
- cliques (pigeonhole): k players who all met each other, spread over t tables, leave at least the
  even spread's pairs together (``tables``: C(j, 2) for j of them at one table; ``swiss``: C(j, 2) - j // 2,
  as at most j // 2 of them are partners there); edge-disjoint cliques add up;
- Lagrangian (the linear relaxation of "choose t groups covering each player once", solved by subgradient
  steps) when the groups of four can be listed (up to 100,000 of them, 40 players): it closes most gaps
  the two simple bounds leave.

``tests/tournaments/test_pairing_individual_bounds.py`` checks, against an independent listing of every
draw up to 12 players, that each relaxation never exceeds the optimum and how often they reach it: on
random fields always in the examples tried, on the positions of simulated events all but a few (the
linear relaxation's integrality gap, one pair). The benchmark prints the gap on large fields.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from .problem import Problem
from .search import EXACT_MAX_PLAYERS, exact

LAGRANGIAN_MAX_GROUPS = 100_000
LAGRANGIAN_STEPS = 300
_EPS = 1e-6


def bound_method(problem: Problem) -> str:
    """How ``lower_bound`` bounds this problem: ``exhaustive`` (the optimum) or ``relaxation``."""
    return "exhaustive" if problem.n <= EXACT_MAX_PLAYERS else "relaxation"


def lower_bound(problem: Problem, upper: int | None = None) -> int:
    """No allowed draw of these players has fewer counted pairs; ``upper`` (a draw's count) may save steps."""
    if problem.t == 0:
        return 0
    if None not in problem.bounds:  # the figure depends on the problem alone (``upper`` only saves steps)
        if bound_method(problem) == "exhaustive":
            _, cost = exact(problem)
            problem.bounds[None] = min(cost, problem.big) // problem.unit
        else:
            problem.bounds[None] = relaxation_bound(problem, upper)
    return problem.bounds[None]


def relaxation_bound(problem: Problem, upper: int | None = None) -> int:
    """The largest of the three relaxations (the Lagrangian only when the groups can be listed)."""
    if problem.t == 0:
        return 0
    bound = max(player_bound(problem), clique_bound(problem))
    if (upper is None or bound < upper) and math.comb(problem.n, 4) <= LAGRANGIAN_MAX_GROUPS:
        bound = max(bound, lagrangian_bound(problem, upper))
    return bound


def player_bound(problem: Problem) -> int:
    mates = 3 if problem.kind == "tables" else 2
    forced = 0
    for i in range(problem.n):
        free = problem.n - 1 - len(problem.counted[i] | problem.hard[i])
        forced += max(0, mates - free)
    return (forced + 1) // 2


def _spread(k: int, t: int, kind: str) -> int:
    """The fewest pairs k mutually-met players leave together over t tables (the even spread)."""
    q, s = divmod(k, t)

    def at_one(j: int) -> int:
        return j * (j - 1) // 2 - (j // 2 if kind == "swiss" else 0)

    return s * at_one(q + 1) + (t - s) * at_one(q)


def clique_bound(problem: Problem) -> int:
    t, kind, number = problem.t, problem.kind, problem.players
    adjacency = [set(c) for c in problem.counted]
    largest = max((len(a) for a in adjacency), default=0) + 1
    if _spread(min(largest, 4 * t), t, kind) == 0:
        return 0  # no clique can be large enough to count
    total = 0
    for v in sorted(range(problem.n), key=lambda v: (-len(adjacency[v]), number[v])):
        while adjacency[v]:
            clique = [v]
            candidates = set(adjacency[v])
            while candidates:
                u = min(candidates, key=lambda u: (-len(adjacency[u] & candidates), number[u]))
                clique.append(u)
                candidates &= adjacency[u]
            for a, b in combinations(clique, 2):
                adjacency[a].discard(b)
                adjacency[b].discard(a)
            total += _spread(len(clique), t, kind)
    return total


def group_costs(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Every allowed group of four (rows of player indices) and its counted pairs, vectorized."""
    n = problem.n
    counted = np.zeros((n, n), dtype=np.int64)
    hard = np.zeros((n, n), dtype=bool)
    partners = np.zeros((n, n), dtype=bool)
    for i in range(n):
        counted[i, list(problem.counted[i])] = 1
        hard[i, list(problem.hard[i])] = True
        partners[i, list(problem.partners[i])] = True
    groups = np.array(list(combinations(range(n), 4)), dtype=np.int64).reshape(-1, 4)
    a, b, c, d = groups.T
    forbidden = hard[a, b] | hard[a, c] | hard[a, d] | hard[b, c] | hard[b, d] | hard[c, d]
    if problem.kind == "tables":
        cost = counted[a, b] + counted[a, c] + counted[a, d] + counted[b, c] + counted[b, d] + counted[c, d]
    else:
        worst = np.int64(5)
        cost = np.full(len(groups), worst)
        for w, x, y, z in ((a, b, c, d), (a, c, b, d), (a, d, b, c)):
            split = counted[w, y] + counted[w, z] + counted[x, y] + counted[x, z]
            cost = np.minimum(cost, np.where(partners[w, x] | partners[y, z], worst, split))
        forbidden |= cost == worst
    keep = ~forbidden
    return groups[keep], cost[keep].astype(np.float64)


def lagrangian_bound(problem: Problem, upper: int | None = None) -> int:
    """max over y of  sum(y) + the t smallest (cost(S) - y(S)) over the allowed groups S (distinct).

    Each step aims one above the best integer proven so far (Polyak's step towards that aim), so the steps
    depend on the problem alone: ``upper`` (a draw's count, which no bound can pass) only stops them early,
    never changes the figure, and the three rounds of a cycle report the same bound.
    """
    n, t = problem.n, problem.t
    groups, costs = group_costs(problem)
    if len(groups) < t:
        return 0
    y = np.zeros(n)
    best, scale, stalled = -math.inf, 2.0, 0
    for _ in range(LAGRANGIAN_STEPS):
        reduced = costs - y[groups].sum(axis=1)
        chosen = np.argpartition(reduced, t - 1)[:t] if t < len(groups) else np.arange(len(groups))
        value = float(y.sum() + reduced[chosen].sum())
        if value > best + _EPS:
            best, stalled = value, 0
        else:
            stalled += 1
            if stalled >= 8:
                scale, stalled = scale / 2, 0
        proven = max(0, math.ceil(best - _EPS))
        if (upper is not None and proven >= upper) or scale < 1e-4:
            break
        slack = 1 - np.bincount(groups[chosen].ravel(), minlength=n)
        norm = float((slack * slack).sum())
        if norm == 0:
            break  # the chosen groups are a partition: the bound is its cost
        aim = math.floor(max(best, 0.0) + _EPS) + 1
        y = y + scale * max(aim - value, 0.5) / norm * slack
    return max(0, math.ceil(best - _EPS))
