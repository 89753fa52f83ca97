"""Carry-over: what the qualifiers take with them into the next stage, when the organizer chooses it.

The parts (``Rule.carry``): ``match_points``, ``games`` (won and lost) and ``points`` (for and against),
each the qualifier's total of the closed stage as its row shows it. They are added to the qualifier's
row in the new stage, never into a knockout (a knockout has no table of points to add them to). The
tiebreaks read the new stage's matches only: ``apply_carry`` adds the parts to a ranking ``Context``'s
totals (which the match-points, games and points metrics read), and leaves its records, scores, opponents
and adjusted scores (Buchholz, Sonneborn-Berger, direct encounter, progressive) as the new stage's
matches make them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from tournaments.ranking.metrics import Context, Totals

from .base import StageError

__all__ = ["CARRY_PARTS", "Carry", "carry_over", "apply_carry", "check_carry"]

CARRY_PARTS = ("match_points", "games", "points")


@dataclass(frozen=True, slots=True)
class Carry:
    match_points: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0


def check_carry(parts: Iterable[str], next_format: str, *, stage: int | None = None) -> None:
    """Refuse (``carry_over_invalid``) an unknown part, or any carry-over into a knockout."""
    parts = list(parts)
    for part in parts:
        if part not in CARRY_PARTS:
            raise StageError("carry_over_invalid", {"reason": "part", "part": part, "known": list(CARRY_PARTS)})
    if parts and next_format == "knockout":
        raise StageError("carry_over_invalid", {"reason": "knockout", "stage": stage})


def carry_over(totals: Mapping[int, Totals], qualified: Iterable[int], *, parts: Iterable[str],
               next_format: str) -> dict[int, Carry]:
    """What each qualifier carries (``totals``: the closed stage's rows by entrant; a missing one carries nothing)."""
    parts = tuple(parts)
    check_carry(parts, next_format)
    out = {}
    for e in qualified:
        t = totals.get(e)
        if t is None:
            out[e] = Carry()
            continue
        out[e] = Carry(t.match_points if "match_points" in parts else 0,
                       t.games_won if "games" in parts else 0, t.games_lost if "games" in parts else 0,
                       t.points_for if "points" in parts else 0, t.points_against if "points" in parts else 0)
    return out


def apply_carry(ctx: Context, carried: Mapping[int, Carry]) -> None:
    """Add the carried parts to a built ``Context``'s totals (again after each ``Context.replace``).

    Idempotent: each competitor's totals are summed again from its records before the carry is added, so
    calling it twice adds the carry once.
    """
    for e, c in carried.items():
        records = ctx.records.get(e)
        if records is None:
            continue
        base = Totals.of(records)
        ctx.totals[e] = replace(base, match_points=base.match_points + c.match_points,
                                games_won=base.games_won + c.games_won, games_lost=base.games_lost + c.games_lost,
                                points_for=base.points_for + c.points_for,
                                points_against=base.points_against + c.points_against)
