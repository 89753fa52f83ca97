"""Both draws as one problem: the playing players into groups of four, each group costed.

A draw is a partition of the playing players (4t of them) into t groups of four. In ``tables`` a group's
cost counts its six pairs; in ``swiss`` a group is also split into two partnerships (``a+b v c+d``, the best
of its three splits) and its cost counts the four opponent pairs of that split. Costs are integers whose
terms are in strict priority (each unit outweighs any sum of the terms below it over a whole draw):

``tables``: a kept-apart pair (``hard``), a pair that already met (``counted``), a pair of one club.
``swiss``: a kept-apart pair or a group with no split free of repeated partnerships (``hard``), an opponent
pair that already met as opponents (``counted``), the score distance (partners' match points squared, plus
the partnerships' combined match points squared), a pair of one club.

``primary(group)`` is the counted term alone (None when the group is forbidden): what the lower bound bounds.
Players are indices 0..n-1 in the draw's seeded order.
"""

from __future__ import annotations

from collections.abc import Sequence

from .field import Graph

SPLITS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))  # a+b v c+d, a+c v b+d, a+d v b+c


class Problem:
    def __init__(self, *, kind: str, players: Sequence[int], counted: Graph, hard: Graph,
                 clubs: dict[int, str | None], fixed: dict[int, int], partners: Graph | None = None,
                 points: dict[int, int] | None = None):
        self.kind = kind
        self.players = list(players)
        self.n = len(self.players)
        self.t = self.n // 4
        index = {p: i for i, p in enumerate(self.players)}

        def local(graph: Graph | None) -> list[frozenset[int]]:
            graph = graph or {}
            return [frozenset(index[q] for q in graph.get(p, ()) if q in index) for p in self.players]

        self.counted = local(counted)
        self.hard = local(hard)
        self.partners = local(partners)
        self.club = [clubs.get(p) for p in self.players]
        self.fixed = [fixed.get(p) for p in self.players]
        self.mp = [(points or {}).get(p, 0) for p in self.players]
        t = max(self.t, 1)
        if kind == "tables":
            self.unit = 6 * t + 1  # one met pair outweighs every club pair of the draw
            self.big = self.unit * (6 * t + 1)
        else:
            spread = max(self.mp, default=0) - min(self.mp, default=0)
            self.score_unit = 6 * t + 1
            self.unit = self.score_unit * (6 * spread * spread * t + 1)
            self.big = self.unit * (4 * t + 1)
        self._cache: dict[tuple[int, ...], tuple[int, tuple[int, int, int, int]]] = {}
        self.bounds: dict[None, int] = {}  # the lower bound, once found (bounds.py)

    def club_pair(self, i: int, j: int) -> bool:
        return self.club[i] is not None and self.club[i] == self.club[j]

    def pair_cost(self, i: int, j: int) -> int:
        """``tables``: the cost of seating i and j at one table."""
        return ((self.big if j in self.hard[i] else 0) + (self.unit if j in self.counted[i] else 0)
                + (1 if self.club[i] is not None and self.club[i] == self.club[j] else 0))

    def group_hard(self, g: Sequence[int]) -> bool:
        return any(g[b] in self.hard[g[a]] for a in range(4) for b in range(a + 1, 4))

    def split_cost(self, a: int, b: int, c: int, d: int) -> int | None:
        """``swiss``: the cost of a+b v c+d without its club term, None when it repeats a partnership."""
        if b in self.partners[a] or d in self.partners[c]:
            return None
        repeated = (c in self.counted[a]) + (d in self.counted[a]) + (c in self.counted[b]) + (d in self.counted[b])
        mp = self.mp
        score = (mp[a] - mp[b]) ** 2 + (mp[c] - mp[d]) ** 2 + (mp[a] + mp[b] - mp[c] - mp[d]) ** 2
        return repeated * self.unit + score * self.score_unit

    def group(self, g: Sequence[int]) -> tuple[int, tuple[int, int, int, int]]:
        """The cost of a group and its arrangement (``swiss``: the split a+b v c+d; ``tables``: as given)."""
        key = tuple(sorted(g))
        found = self._cache.get(key)
        if found is not None:
            return found
        if self.kind == "tables":
            cost = sum(self.pair_cost(key[a], key[b]) for a in range(4) for b in range(a + 1, 4))
            found = (cost, key)
        else:
            found = self._swiss_group(key)
        self._cache[key] = found
        return found

    def _swiss_group(self, key: tuple[int, ...]) -> tuple[int, tuple[int, int, int, int]]:
        # the fixed player (if any) first, so that it heads the first partnership of every split
        g = sorted(key, key=lambda i: (self.fixed[i] is None, i))
        clubs = sum(self.club_pair(g[a], g[b]) for a in range(4) for b in range(a + 1, 4))
        if self.group_hard(g):
            return self.big + clubs, (g[0], g[1], g[2], g[3])
        best: tuple[int, tuple[int, int, int, int]] | None = None
        for s in SPLITS:
            order = (g[s[0]], g[s[1]], g[s[2]], g[s[3]])
            cost = self.split_cost(*order)
            if cost is not None and (best is None or cost < best[0]):
                best = (cost, order)
        if best is None:
            return self.big + clubs, (g[0], g[1], g[2], g[3])
        return best[0] + clubs, best[1]

    def primary(self, g: Sequence[int]) -> int | None:
        """The counted pairs of the group's best arrangement; None when the group is forbidden."""
        cost, _ = self.group(g)
        if cost >= self.big:
            return None
        return cost // self.unit

    def total(self, groups: Sequence[Sequence[int]]) -> int:
        return sum(self.group(g)[0] for g in groups)
