"""Finding a cheap partition: exhaustive for small fields, a seeded local search for the others.

Every limit is a count of evaluations, never a time, so the same inputs always give the same draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from .problem import Problem

#: Up to this many players the draw is exhaustive (5,775 partitions of twelve): it is the optimum.
EXACT_MAX_PLAYERS = 12
MATRIX_MAX_PLAYERS = 300
PATIENCE = 50  # swiss restarts stop after this many (or a quarter of their count) without a better draw


def exact(problem: Problem) -> tuple[list[tuple[int, ...]], int]:
    """The cheapest partition (the first in the seeded order among equals) and its cost, by branch and bound."""
    best: list = [None, None]
    chosen: list[tuple[int, ...]] = []

    def walk(remaining: tuple[int, ...], partial: int) -> None:
        if not remaining:
            if best[1] is None or partial < best[1]:
                best[0], best[1] = list(chosen), partial
            return
        first, rest = remaining[0], remaining[1:]
        for combo in combinations(rest, 3):
            group = (first, *combo)
            cost = partial + problem.group(group)[0]
            if best[1] is not None and cost >= best[1]:
                continue
            chosen.append(group)
            walk(tuple(x for x in rest if x not in combo), cost)
            chosen.pop()

    walk(tuple(range(problem.n)), 0)
    return best[0], best[1]


class TableSearch:
    """``tables``: a seeded first seating, then swaps of two players while they lower the cost.

    Groups are indexed by table (index = table - 1); a player fixed to a table is put there and never moved.
    """

    def __init__(self, problem: Problem, rng: random.Random):
        self.p = problem
        self.rng = rng
        t = problem.t
        self.groups: list[list[int]] = [[] for _ in range(t)]
        self.pinned = [f is not None for f in problem.fixed]
        for i, table in enumerate(problem.fixed):
            if table is not None:
                self.groups[table - 1].append(i)
        free = iter(i for i in range(problem.n) if not self.pinned[i])
        for group in self.groups:
            while len(group) < 4:
                group.append(next(free))
        self.where = [0] * problem.n
        for g, group in enumerate(self.groups):
            for i in group:
                self.where[i] = g
        self.rows: list[list[int]] | None = None
        self.pair = problem.pair_cost
        if problem.n <= MATRIX_MAX_PLAYERS:  # small fields: every pair's cost looked up, not computed
            self.rows = [[problem.pair_cost(i, j) for j in range(problem.n)] for i in range(problem.n)]

    def cost_in(self, u: int, g: int, without: int | None = None) -> int:
        pc = self.pair
        return sum(pc(u, w) for w in self.groups[g] if w != u and w != without)

    def total(self) -> int:
        return sum(self.p.group(g)[0] for g in self.groups)

    def swap(self, u: int, v: int) -> None:
        g, h = self.where[u], self.where[v]
        self.groups[g][self.groups[g].index(u)] = v
        self.groups[h][self.groups[h].index(v)] = u
        self.where[u], self.where[v] = h, g

    def descend(self, budget: int) -> int:
        """Swap while some swap lowers the cost (first improvement, scanning from a seeded table)."""
        t = self.p.t
        improved = True
        while improved and budget > 0:
            improved = False
            for g in range(t):
                for u in list(self.groups[g]):
                    if self.pinned[u] or self.where[u] != g:
                        continue
                    moved, budget = self._move(u, g, budget)
                    improved |= moved
            if budget <= 0:
                break
        return budget

    def _move(self, u: int, g: int, budget: int) -> tuple[bool, int]:
        """The first swap of u with a player of another table that lowers the cost (u in conflict)."""
        t, groups, pinned = self.p.t, self.groups, self.pinned
        mine = groups[g]
        if self.rows is not None:
            row = self.rows[u]
            here = row[mine[0]] + row[mine[1]] + row[mine[2]] + row[mine[3]] - row[u]
        else:
            here = self.cost_in(u, g)
        if here == 0:
            return False, budget
        if self.rows is None:  # large fields: u's row only when u is in conflict
            row = [self.pair(u, w) for w in range(self.p.n)]
        start = self.rng.randrange(t)
        for step in range(1, t):
            h = (start + step) % t
            if h == g:
                continue
            other = groups[h]
            there = row[other[0]] + row[other[1]] + row[other[2]] + row[other[3]]
            for v in other:
                if pinned[v]:
                    continue
                budget -= 1
                if self.rows is not None:
                    rv = self.rows[v]
                    v_mine = rv[mine[0]] + rv[mine[1]] + rv[mine[2]] + rv[mine[3]]
                    v_there = rv[other[0]] + rv[other[1]] + rv[other[2]] + rv[other[3]] - rv[v]
                else:
                    v_mine = self.cost_in(v, g)
                    v_there = self.cost_in(v, h)
                # u moves to h (without v), v to g (without u); row[v] == rv[u] is the pair itself
                if there - row[v] + v_mine - row[v] < here + v_there:
                    self.swap(u, v)
                    return True, budget
        return False, budget

    def kick(self, kicks: int, budget: int, floor: int = 0) -> None:
        """Iterated local search: a seeded swap of a player in conflict, a descent, kept unless it is worse.

        Stops at ``floor`` (a lower bound of the cost: nothing better exists) or when the counts run out.
        """
        best = self.total()
        saved = [list(g) for g in self.groups]
        movable = [i for i in range(self.p.n) if not self.pinned[i]]
        for _ in range(kicks):
            if best <= floor or budget <= 0 or len(movable) < 2:
                break
            bad = [u for u in movable if self.cost_in(u, self.where[u]) > 0]
            if not bad:
                break
            u = self.rng.choice(bad)
            v = self.rng.choice(movable)
            if self.where[v] == self.where[u]:
                continue
            self.swap(u, v)
            budget = self.descend(budget)
            total = self.total()
            if total <= best:
                best, saved = total, [list(g) for g in self.groups]
            else:
                self._restore(saved)
        self._restore(saved)

    def _restore(self, groups: list[list[int]]) -> None:
        self.groups = [list(g) for g in groups]
        for g, group in enumerate(self.groups):
            for i in group:
                self.where[i] = g


def reoptimize_pairs(problem: Problem, groups: list[list[int]], *, bad: Callable[[list[int]], bool],
                     better: Callable[[int, int, list[int], list[int]], bool], pinned: bool, budget: int) -> int:
    """Re-seat the eight players of two tables in their best way, for each table still in conflict.

    ``bad(group)`` says which tables to try; ``better(old_cost, new_cost, old_pair, new_pair)`` whether to take
    the new seating; with ``pinned`` a player fixed to a table stays at that group's index (index = table - 1).
    Returns the budget left.
    """
    t = len(groups)
    for g in range(t):
        if budget <= 0:
            break
        if not bad(groups[g]):
            continue
        for h in sorted(range(t), key=lambda h: (abs(h - g), h)):
            if h == g:
                continue
            eight = groups[g] + groups[h]
            old = problem.group(groups[g])[0] + problem.group(groups[h])[0]
            found = None
            for combo in combinations(eight[1:], 3):
                budget -= 1
                x = [eight[0], *combo]
                y = [i for i in eight[1:] if i not in combo]
                if pinned:  # each fixed player of the two tables is already at its own index, g or h
                    x_at = [problem.fixed[i] - 1 for i in x if problem.fixed[i] is not None]
                    y_at = [problem.fixed[i] - 1 for i in y if problem.fixed[i] is not None]
                    if h in x_at or g in y_at:
                        x, y, x_at, y_at = y, x, y_at, x_at
                    if h in x_at or g in y_at:
                        continue
                cost = problem.group(x)[0] + problem.group(y)[0]
                if (found is None or cost < found[0]) and better(old, cost, [groups[g], groups[h]], [x, y]):
                    found = (cost, x, y)
            if found is not None:
                groups[g], groups[h] = found[1], found[2]
                if not bad(groups[g]):
                    break
            if budget <= 0:
                break
    return budget


class GroupSearch:
    """``swiss``: swaps of two players between tables while the counted pairs fall (each table re-split).

    The cost of a table is its best split's repeated opponents (``Problem.primary``); a forbidden table costs
    more than any draw. Tables are unnumbered here (the seats come later), so nothing is pinned.
    """

    def __init__(self, problem: Problem, groups: list[list[int]], rng: random.Random):
        self.p = problem
        self.rng = rng
        self.groups = [list(g) for g in groups]
        self.forbidden = 4 * problem.t + 1
        self._costs: dict[tuple[int, ...], int] = {}

    def cost(self, group: list[int]) -> int:
        key = tuple(sorted(group))
        found = self._costs.get(key)
        if found is None:
            primary = self.p.primary(key)
            if primary is None:  # forbidden: the more kept-apart pairs, the worse (a slope for the swaps)
                hard = self.p.hard
                primary = self.forbidden * (1 + sum(1 for a in key for b in key if b in hard[a]))
            found = self._costs[key] = primary
        return found

    def total(self) -> int:
        return sum(self.cost(g) for g in self.groups)

    def descend(self, budget: int) -> int:
        t = len(self.groups)
        improved = True
        while improved and budget > 0:
            improved = False
            for g in range(t):
                if self.cost(self.groups[g]) == 0:
                    continue
                start = self.rng.randrange(t)
                for step in range(1, t):
                    h = (start + step) % t
                    if h == g:
                        continue
                    budget -= 16
                    if self._improve(g, h):
                        improved = True
                        if self.cost(self.groups[g]) == 0:
                            break
            if budget <= 0:
                break
        return budget

    def _improve(self, g: int, h: int) -> bool:
        x, y = self.groups[g], self.groups[h]
        old = self.cost(x) + self.cost(y)
        for a in range(4):
            for b in range(4):
                nx, ny = list(x), list(y)
                nx[a], ny[b] = y[b], x[a]
                if self.cost(nx) + self.cost(ny) < old:
                    self.groups[g], self.groups[h] = nx, ny
                    return True
        return False

    def kick(self, kicks: int, budget: int, floor: int = 0) -> None:
        """Seeded swaps then descents, as ``TableSearch.kick``; they also stop after ``PATIENCE`` restarts (or a
        quarter of ``kicks``) in a row without a better draw, a swiss table's cost being dearer to compute."""
        best = self.total()
        saved = [list(g) for g in self.groups]
        t = len(self.groups)
        idle = 0
        for _ in range(kicks):
            if best <= floor or budget <= 0 or t < 2 or idle > max(PATIENCE, kicks // 4):
                break
            bad = [g for g in range(t) if self.cost(self.groups[g]) > 0]
            g = self.rng.choice(bad)
            h = self.rng.randrange(t - 1)
            h += h >= g
            a, b = self.rng.randrange(4), self.rng.randrange(4)
            self.groups[g][a], self.groups[h][b] = self.groups[h][b], self.groups[g][a]
            budget = self.descend(budget)
            total = self.total()
            idle = 0 if total < best else idle + 1
            if total <= best:
                best, saved = total, [list(x) for x in self.groups]
            else:
                self.groups = [list(x) for x in saved]
        self.groups = [list(x) for x in saved]
