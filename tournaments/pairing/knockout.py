"""Knockout brackets: size the next power of two, byes to the top seeds, seed order 1-8-4-5-2-7-3-6.

Round 1 table t holds seeds ``order[2t-2]`` and ``order[2t-1]``; a seed beyond the number of teams is
a bye. The winners of tables 2t-1 and 2t of a round meet at table t of the next round, the upper
table's winner as the first team (``ns``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Pairing


def bracket_size(n: int) -> int:
    """The next power of two at or above n (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def rounds_needed(n: int) -> int:
    """The number of knockout rounds for n teams."""
    return bracket_size(n).bit_length() - 1 if n >= 2 else 0


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order, e.g. 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 2 or size & (size - 1):
        raise ValueError("the bracket size must be a power of two")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(team_ids: Sequence[int]) -> list[Pairing]:
    """Round 1 for teams in seed order (best first): every table, byes (ew None) to the top seeds."""
    n = len(team_ids)
    size = bracket_size(n)
    order = seed_order(size)
    out = []
    for table in range(1, size // 2 + 1):
        a, b = order[2 * table - 2], order[2 * table - 1]
        if b > n:
            out.append(Pairing(table, team_ids[a - 1], None, (("knockout_bye", {"seed": a, "size": size}),)))
        else:
            out.append(Pairing(table, team_ids[a - 1], team_ids[b - 1],
                               (("knockout_seeds", {"seed": a, "other": b, "size": size}),)))
    return out


def next_slot(table: int) -> tuple[int, str]:
    """Where the winner of ``table`` plays next: (table of the next round, "ns" or "ew")."""
    return (table + 1) // 2, ("ns" if table % 2 else "ew")


def feeders(table: int) -> tuple[int, int]:
    """The two tables of the previous round whose winners meet at ``table``."""
    return 2 * table - 1, 2 * table


def next_round(winners: dict[int, int], round_number: int) -> list[Pairing]:
    """The tables of the next round whose two feeders are decided: winners maps table -> team."""
    out = []
    tables = max(winners, default=0)
    for table in range(1, (tables + 1) // 2 + 1):
        up, down = feeders(table)
        if up in winners and down in winners:
            out.append(Pairing(table, winners[up], winners[down],
                               (("knockout_winners", {"round": round_number, "table": up, "other": down}),)))
    return out
