"""Round robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1), single or double.

Teams are numbered 1..n in seed order; an odd field gets a dummy number n + 1 and whoever meets
the dummy has the bye. In each round the last number plays at table 1 (first team in odd rounds,
second team in even rounds) and the others pair around the circle, exactly as the printed tables.
A double round robin plays the cycle twice with the sides reversed in the second cycle.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Pairing


def berger_size(n: int) -> int:
    """The table size for n teams: n rounded up to even."""
    return n + (n % 2)


def rounds_needed(n: int, *, double: bool = False) -> int:
    """The number of rounds a (double) round robin of n teams takes."""
    if n < 2:
        return 0
    return (berger_size(n) - 1) * (2 if double else 1)


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based) of the Berger table for n numbers (even): (first, second) pairs."""
    if n % 2 or n < 2:
        raise ValueError("the Berger table needs an even number of players")
    last = n - 1
    if not 1 <= round_number <= last:
        raise ValueError(f"round {round_number} is not in a {last}-round table")
    x = ((round_number - 1) * (n // 2)) % last + 1
    pairs = [(x, n) if round_number % 2 else (n, x)]
    for k in range(1, n // 2):
        a = (x - 1 + k) % last + 1
        b = (x - 1 - k) % last + 1
        pairs.append((a, b))
    return pairs


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The whole Berger table for n teams (a dummy n + 1 added when n is odd)."""
    size = berger_size(n)
    return [berger_round(size, r) for r in range(1, size)]


def round_robin_pairings(team_ids: Sequence[int], round_number: int, *, double: bool = False) -> list[Pairing]:
    """The pairings of one round for teams in seed order; the team drawn against the dummy gets a bye."""
    n = len(team_ids)
    total = rounds_needed(n, double=double)
    if not 1 <= round_number <= total:
        raise ValueError(f"a round robin of {n} teams has rounds 1 to {total}")
    size = berger_size(n)
    cycle, r = divmod(round_number - 1, size - 1)
    pairs = berger_round(size, r + 1)
    out: list[Pairing] = []
    bye: int | None = None
    for first, second in pairs:
        if cycle:
            first, second = second, first
        if first > n or second > n:
            bye = team_ids[min(first, second) - 1]
            continue
        why = ("berger_second_cycle" if cycle else "berger", {"round": r + 1, "place": first, "other": second})
        out.append(Pairing(len(out) + 1, team_ids[first - 1], team_ids[second - 1], (why,)))
    if bye is not None:
        out.append(Pairing(len(out) + 1, bye, None, (("berger_bye", {"round": r + 1}),)))
    return out
