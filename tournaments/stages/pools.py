"""Pools: a seeding order, then a serpentine over pots of N, then club separation inside each pot.

``seeding_order`` ranks the field for the draw: by the previous stage's rank, or by rating, or by the
lottery alone (a published draw seed); the ties of the first two go to the lottery. ``draw_pools`` cuts the
order into pots of N (the best N, the next N...) and deals each pot over the N pools in a serpentine: pot 1
to pools 1..N, pot 2 to pools N..1, and so on. When N does not divide the field the last pot is short and
the pools it reaches have one entrant more (unequal pools, sizes q and q+1).

Club separation moves entrants only inside their pot: each pool keeps one entrant of each pot, so the pools
stay as strong as the serpentine made them. The pots are placed one after the other, pot 1 as the serpentine
deals it; each next pot goes to the pools by a least-cost assignment (``assign.assignment``) whose cost is,
in this order of importance, the entrants of the same club already in the pool, the entrants moved off
their serpentine pool, and how far they moved. When some same-club pairs remain, passes from the last pot
to the first place each pot again against all the others while that lowers the cost (each pass is exact for
its pot, so it ends). What could not be separated is reported, never silenced: ``conflicts`` (pool, club,
entrants) and ``conflicts_lower_bound``, the pigeonhole bound of the clubs' sizes (no draw of these pools,
pots or not, has fewer same-club pairs). The result depends only on its inputs: same inputs, same pools.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .assign import assignment
from .base import Lottery, StageError, entrants_once

__all__ = ["PoolDraw", "Move", "Conflict", "seeding_order", "serpentine", "draw_pools", "club_pairs_bound"]


def seeding_order(entrants: Iterable[int], *, seed: str, rank: Mapping[int, int] | None = None,
                  rating: Mapping[int, int | float] | None = None,
                  numbers: Mapping[int, int] | None = None) -> list[int]:
    """The field in seeding order, best first.

    ``rank``: the previous stage's rank (1 best); ``rating``: a rating (higher better); neither: the lottery
    alone. Entrants without a rank or rating come after those with one; ties go to the lottery of ``seed``
    (purpose ``seeding``; ``numbers``: the entrants' public numbers). Refused: both ``rank`` and ``rating``.
    """
    field = list(entrants)
    entrants_once(field, "entrants")
    if rank is not None and rating is not None:
        raise StageError("stage_inputs_invalid", {"field": "seeding"})
    lottery = Lottery(seed, numbers)
    if rank is not None:
        def basis(e):
            return (0, rank[e]) if e in rank else (1, 0)
    elif rating is not None:
        def basis(e):
            return (0, -rating[e]) if e in rating else (1, 0)
    else:
        def basis(e):
            return (0, 0)
    return sorted(field, key=lambda e: (basis(e), lottery.key("seeding", e)))


def serpentine(count: int, pools: int) -> list[int]:
    """The pool (0-based) of each place of a seeding order of ``count`` entrants over ``pools`` pools."""
    out = []
    for place in range(count):
        pot, i = divmod(place, pools)
        out.append(i if pot % 2 == 0 else pools - 1 - i)
    return out


@dataclass(frozen=True, slots=True)
class Move:
    """An entrant placed off its serpentine pool to keep clubs apart (pools numbered from 1)."""

    entrant: int
    pot: int
    serpentine_pool: int
    pool: int


@dataclass(frozen=True, slots=True)
class Conflict:
    """Entrants of one club left in one pool (pools numbered from 1)."""

    pool: int
    club: Hashable
    entrants: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PoolDraw:
    """The pools (each in pot order, pool 1 first), the pot of each entrant, what moved and what is left."""

    pools: tuple[tuple[int, ...], ...]
    pot: dict[int, int]  # entrant -> pot (1 = the best N)
    moves: tuple[Move, ...]
    conflicts: tuple[Conflict, ...]
    conflicts_lower_bound: int

    @property
    def pool_of(self) -> dict[int, int]:
        return {e: p for p, members in enumerate(self.pools, start=1) for e in members}

    @property
    def club_pairs(self) -> int:
        """Same-club pairs left in the pools."""
        return sum(len(c.entrants) * (len(c.entrants) - 1) // 2 for c in self.conflicts)

    @property
    def separated(self) -> bool:
        """Whether every club is kept apart (no same-club pair in any pool)."""
        return not self.conflicts


def club_pairs_bound(clubs: Iterable[Hashable | None], pools: int) -> int:
    """Pigeonhole: k entrants of one club over p pools leave at least the even spread's same-club pairs."""
    total = 0
    for club, k in Counter(clubs).items():
        if club is not None:
            q, s = divmod(k, pools)
            total += s * (q + 1) * q // 2 + (pools - s) * q * (q - 1) // 2
    return total


def draw_pools(order: Sequence[int], pools: int, *, clubs: Mapping[int, Hashable | None] | None = None) -> PoolDraw:
    """Deal ``order`` (the seeding, best first) over ``pools`` pools: serpentine by pots, clubs kept apart.

    ``clubs``: each entrant's club (None or absent: none; only equality counts). Refused
    (``StageError``): an entrant twice (``stage_inputs_invalid``), fewer than one pool or more pools than
    half the field, since a pool needs two entrants (``pool_count``).
    """
    order = list(order)
    entrants_once(order, "order")
    n = len(order)
    if not 1 <= pools <= n // 2:
        raise StageError("pool_count", {"pools": pools, "entrants": n, "most": n // 2})
    clubs = clubs or {}
    club = [clubs.get(e) for e in order]
    pots = [list(range(start, min(start + pools, n))) for start in range(0, n, pools)]  # places by pot
    home = serpentine(n, pools)
    where = list(home)  # the pool of each place
    if any(c is not None for c in club):
        _separate(pots, club, home, where, pools)
    members: list[list[int]] = [[] for _ in range(pools)]
    for place in range(n):
        members[where[place]].append(place)
    moves = tuple(Move(order[place], place // pools + 1, home[place] + 1, where[place] + 1)
                  for place in range(n) if where[place] != home[place])
    conflicts = []
    for p, places in enumerate(members, start=1):
        by_club: dict[Hashable, list[int]] = {}
        for place in places:
            if club[place] is not None:
                by_club.setdefault(club[place], []).append(order[place])
        conflicts += [Conflict(p, c, tuple(es)) for c, es in by_club.items() if len(es) > 1]
    return PoolDraw(tuple(tuple(order[place] for place in places) for places in members),
                    {e: place // pools + 1 for place, e in enumerate(order)}, tuple(moves), tuple(conflicts),
                    club_pairs_bound(club, pools))


def _separate(pots: list[list[int]], club: list, home: list[int], where: list[int], pools: int) -> None:
    """Place each pot by least cost (clubs, then moves, then distance); improve while pairs remain."""
    count: list[Counter] = [Counter() for _ in range(pools)]  # clubs in each pool

    def add(place: int, sign: int) -> None:
        if club[place] is not None:
            count[where[place]][club[place]] += sign

    def cost_of(pool: int, place: int, weights: tuple[int, int]) -> int:
        clash = count[pool][club[place]] if club[place] is not None else 0
        moved = pool != home[place]
        return weights[0] * clash + weights[1] * moved + abs(pool - home[place])

    def place_pot(places: list[int]) -> bool:
        """Assign one pot against the pools as they stand without it; True when it changed."""
        move_weight = pools * pools + 1  # above any sum of distances of one pot
        weights = (pools * (move_weight + pools) + 1, move_weight)  # a clash above any moves and distances
        matrix = [[cost_of(pool, place, weights) for pool in range(pools)] for place in places]
        now = sum(matrix[i][where[place]] for i, place in enumerate(places))
        if now == 0:
            return False
        chosen = assignment(matrix)
        if sum(matrix[i][pool] for i, pool in enumerate(chosen)) >= now:
            return False
        for i, place in enumerate(places):
            where[place] = chosen[i]
        return True

    for k, places in enumerate(pots):  # pot by pot, each against the pots placed before it
        if k:
            place_pot(places)
        for place in places:
            add(place, +1)
    while sum(v * (v - 1) // 2 for c in count for v in c.values()) > 0:
        changed = False
        for places in reversed(pots):  # the weakest pots move first
            for place in places:
                add(place, -1)
            changed |= place_pot(places)
            for place in places:
                add(place, +1)
        if not changed:
            break
