"""A knockout from the qualifiers: the seeded bracket, pool-mates kept apart, third place, its standings.

**The bracket.** Its size is the next power of two; the seeds take the standard positions
(``tournaments.pairing.knockout.seed_order``: 1-8-4-5-2-7-3-6...), so seeds 1 and 2 are in opposite
halves, 1-4 in different quarters, 1-8 in different eighths, and the byes go to the top seeds (seed s
meets seed size + 1 - s, a bye when there is no such seed). Round 1 table t holds slots 2t - 1 and 2t;
the services' knockout (``next_slot``, ``feeders``) takes the winners on from there.

**Pool-mates apart.** Two entrants of one pool (a pool's winner and its runner-up) never meet in round 1
when it can be helped. Only the lower half's seeds move (size/2 + 1 .. n): they are one band of the
seeding, each facing one top-half seed, so exchanging them keeps every guarantee above, and any round-1
pairing of the top half with the lower half can be reached this way (moving a top seed would change
which halves and quarters it meets later and nothing more in round 1). The lower seeds are given to the
top seeds' tables by a least-cost assignment: pool-mates meeting first, then the seeds moved, then how far
(in seed numbers), so the standard bracket stands wherever it can. What cannot be helped is reported
(``Bracket.conflicts``), never silenced.

**Third place.** ``third_place_pairing``: the semi-finals' losers, as table 2 of the final's round.

**Standings** (``knockout_standings``): by the round reached (winning a match reaches the next round; the
champion reaches one past the final), then the match for third place, then the previous stage's rank,
then the stage's lottery.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.knockout import bracket_size, seed_order
from tournaments.pairing.types import Pairing

from .assign import assignment
from .base import Lottery, StageError, entrants_once

__all__ = ["Bracket", "BracketMove", "KnockoutMatch", "KnockoutRow", "bracket", "third_place_pairing",
           "knockout_standings"]


@dataclass(frozen=True, slots=True)
class BracketMove:
    """A lower-half seed moved to another table to keep pool-mates apart."""

    entrant: int
    seed: int
    table: int  # its table in round 1
    standard_table: int  # the table the standard bracket gives it


@dataclass(frozen=True, slots=True)
class Bracket:
    """A seeded bracket: ``slots`` in bracket order (table t of round 1 holds slots 2t - 1 and 2t; None a bye)."""

    size: int
    seeds: tuple[int, ...]  # the entrants by seed, seed 1 first
    slots: tuple[int | None, ...]
    first_round: tuple[Pairing, ...]
    moves: tuple[BracketMove, ...]
    conflicts: tuple[tuple[int, int, int], ...]  # (table, entrant, entrant) of one pool meeting in round 1
    third_place: bool = False

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1


def bracket(seeds: Sequence[int], *, pools: Mapping[int, Hashable] | None = None,
            third_place: bool = False) -> Bracket:
    """The bracket of ``seeds`` (the qualifiers, seed 1 first), pool-mates apart in round 1 where possible.

    ``pools``: each entrant's pool (absent: none). Refused (``StageError``): fewer than two entrants
    (``stage_capacity``), an entrant twice (``stage_inputs_invalid``).
    """
    seeds = list(seeds)
    entrants_once(seeds, "seeds")
    n = len(seeds)
    if n < 2:
        raise StageError("stage_capacity", {"reason": "below", "entrants": n, "limit": 2})
    size = bracket_size(n)
    order = seed_order(size)
    tables = size // 2
    pools = pools or {}
    top = [order[2 * t] for t in range(tables)]  # the top-half seed of each table
    standard = [order[2 * t + 1] for t in range(tables)]  # its standard opponent (a bye when > n)
    playing = [t for t in range(tables) if standard[t] <= n]  # tables with two entrants
    lower = [standard[t] for t in playing]  # the lower-half seeds that play round 1

    def pool(s: int):
        return pools.get(seeds[s - 1])

    def clash(a: int, b: int) -> bool:
        return pool(a) is not None and pool(a) == pool(b)

    opponent = dict(zip(range(tables), standard))
    if any(clash(top[t], standard[t]) for t in playing):
        span = len(lower) + 1
        move_weight = span * span + 1
        clash_weight = span * (move_weight + span) + 1
        matrix = [[clash_weight * clash(top[t], b) + move_weight * (b != standard[t]) + abs(b - standard[t])
                   for t in playing] for b in lower]
        for b, column in zip(lower, assignment(matrix)):
            opponent[playing[column]] = b
    slots: list[int | None] = []
    pairings = []
    moves = []
    conflicts = []
    standard_table = {standard[t]: t + 1 for t in playing}
    for t in range(tables):
        a, b = top[t], opponent[t]
        ns = seeds[a - 1]
        if b > n:
            slots += [ns, None]
            pairings.append(Pairing(t + 1, ns, None, (("knockout_bye", {"seed": a, "size": size}),)))
            continue
        ew = seeds[b - 1]
        slots += [ns, ew]
        why = [("knockout_seeds", {"seed": a, "other": b, "size": size})]
        if b != standard[t]:
            moves.append(BracketMove(ew, b, t + 1, standard_table[b]))
            if clash(a, standard[t]):
                why.append(("knockout_pool_apart", {"other": standard[t]}))
        if clash(a, b):
            conflicts.append((t + 1, ns, ew))
        pairings.append(Pairing(t + 1, ns, ew, tuple(why)))
    return Bracket(size, tuple(seeds), tuple(slots), tuple(pairings), tuple(moves), tuple(conflicts), third_place)


def third_place_pairing(loser_up: int, loser_down: int, *, semi_final_round: int) -> Pairing:
    """The match for third place: the loser of semi-final table 1 against the loser of table 2, at table 2."""
    return Pairing(2, loser_up, loser_down, (("knockout_third_place", {"round": semi_final_round}),))


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """A knockout match as the standings read it: ``ew`` None for a bye; ``winner`` "ns", "ew" or "" (undecided)."""

    round: int
    table: int
    ns: int
    ew: int | None = None
    winner: str = ""
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class KnockoutRow:
    """An entrant's place in a knockout: ``reached`` the round reached, ``out`` whether it lost its last match."""

    entrant: int
    position: int
    reached: int
    out: bool
    third_place: str = ""  # "won", "lost" or "" (no match for third place)


def knockout_standings(entrants: Sequence[int], matches: Sequence[KnockoutMatch], *, seed: str,
                       previous: Mapping[int, int] | None = None,
                       numbers: Mapping[int, int] | None = None) -> list[KnockoutRow]:
    """The knockout's standings, best first (see the module's rules).

    ``entrants``: the bracket's seeds (seed 1 first); ``previous``: the previous stage's ranks (absent: the
    seed, which is the previous stage's order). A bye is a match won. An entrant still in the running ranks
    ahead of those who lost in the round it has reached. Refused: an entrant twice, a match naming an entrant
    who is not in the bracket, an unknown winner (``stage_inputs_invalid``).
    """
    entrants = list(entrants)
    entrants_once(entrants, "entrants")
    lottery = Lottery(seed, numbers)
    seed_of = {e: i for i, e in enumerate(entrants, start=1)}
    previous = previous or seed_of
    reached = dict.fromkeys(entrants, 1)
    out = dict.fromkeys(entrants, False)
    third = dict.fromkeys(entrants, "")
    for m in sorted(matches, key=lambda m: (m.round, m.table)):
        for e in (m.ns, m.ew):
            if e is not None and e not in seed_of:
                raise StageError("stage_inputs_invalid", {"field": "matches", "entrant": e})
        if m.winner not in ("ns", "ew", ""):
            raise StageError("stage_inputs_invalid", {"field": "winner", "entrant": m.ns})
        if m.third_place:
            if m.winner:
                won, lost = (m.ns, m.ew) if m.winner == "ns" else (m.ew, m.ns)
                third[won], third[lost] = "won", "lost"
            continue
        winner = m.ns if m.ew is None else {"ns": m.ns, "ew": m.ew}.get(m.winner)
        for e in (m.ns, m.ew):
            if e is None:
                continue
            if winner is None:
                reached[e], out[e] = max(reached[e], m.round), False
            elif e == winner:
                reached[e], out[e] = max(reached[e], m.round + 1), False
            elif m.round >= reached[e]:
                reached[e], out[e] = m.round, True
    rank_third = {"won": 0, "lost": 1, "": 2}

    def key(e: int):
        prev = (0, previous[e]) if e in previous else (1, 0)
        return -reached[e], out[e], rank_third[third[e]], prev, lottery.key("knockout", e)

    ordered = sorted(entrants, key=key)
    return [KnockoutRow(e, position, reached[e], out[e], third[e]) for position, e in enumerate(ordered, start=1)]
