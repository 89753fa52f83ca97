"""The event's ranking across its stages: the stage reached first, then that stage's rank.

Championships publish it that way: whoever reached the final is ahead of everyone who did not, whatever
they scored before. Each stage hands over its order (every entrant who played it, best first), its ranks
(shared where the stage's own criteria are equal) and who went on; ``event_ranking`` gives each entrant one
row with its path through the stages, including a qualifier who withdrew before the next stage and the
entrant who took their place (``Replacement``, recorded by the qualification).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .base import StageError

__all__ = ["Replacement", "StageResult", "Step", "EventRow", "event_ranking"]


@dataclass(frozen=True, slots=True)
class Replacement:
    """A qualifier who withdrew before the next stage and the entrant who went on in their place (None: nobody)."""

    withdrawn: int
    by: int | None


@dataclass(frozen=True, slots=True)
class StageResult:
    """One stage as the event's ranking reads it.

    ``order``: every entrant who played the stage, best first; ``ranks``: their ranks (shared when equal;
    None: the positions); ``qualified``: those who go on; ``pools``: each entrant's pool, if any.
    """

    number: int
    order: tuple[int, ...]
    ranks: Mapping[int, int] | None = None
    qualified: frozenset[int] = frozenset()
    pools: Mapping[int, int] | None = None
    replacements: tuple[Replacement, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """An entrant's passage through one stage."""

    stage: int
    rank: int
    pool: int | None = None
    qualified: bool = False
    withdrew: bool = False  # qualified, then withdrew before the next stage
    replaced_by: int | None = None  # who went on in their place
    replacing: int | None = None  # the withdrawn qualifier whose place they took


@dataclass(frozen=True, slots=True)
class EventRow:
    entrant: int
    rank: int  # shared when the stage reached and that stage's rank are equal
    position: int
    stage: int  # the number of the last stage played
    stage_rank: int
    path: tuple[Step, ...] = field(default=())


def event_ranking(stages: Sequence[StageResult]) -> list[EventRow]:
    """One row an entrant, best first: by the last stage played (the later the better), then its rank there.

    Refused (``stage_inputs_invalid``): two stages with one number, an entrant twice in a stage's order.
    """
    stages = sorted(stages, key=lambda s: s.number)
    numbers = [s.number for s in stages]
    if len(set(numbers)) != len(numbers):
        raise StageError("stage_inputs_invalid", {"field": "stages"})
    paths: dict[int, list[Step]] = {}
    last: dict[int, tuple[int, int, int]] = {}  # entrant -> (stage, position, rank) of its last stage
    for stage in stages:
        if len(set(stage.order)) != len(stage.order):
            raise StageError("stage_inputs_invalid", {"field": f"stages[{stage.number}].order"})
        replaced = {r.withdrawn: r.by for r in stage.replacements}
        replacing = {r.by: r.withdrawn for r in stage.replacements if r.by is not None}
        for position, e in enumerate(stage.order, start=1):
            rank = stage.ranks[e] if stage.ranks is not None else position
            pool = stage.pools.get(e) if stage.pools else None
            paths.setdefault(e, []).append(Step(stage.number, rank, pool, e in stage.qualified, e in replaced,
                                                replaced.get(e), replacing.get(e)))
            last[e] = (stage.number, position, rank)
    ordered = sorted(last, key=lambda e: (-last[e][0], last[e][1]))
    rows: list[EventRow] = []
    for position, e in enumerate(ordered, start=1):
        stage, _, rank = last[e]
        shared = rows and (rows[-1].stage, rows[-1].stage_rank) == (stage, rank)
        rows.append(EventRow(e, rows[-1].rank if shared else position, position, stage, rank, tuple(paths[e])))
    return rows
