"""The check of an event's stages before anything is played: refused with a code, or the size of each stage.

``check_stages(plans, entry=..., entrants=...)`` follows the field through the stages: each stage's format
must suit the kind of event (``format_for_entry``), the field must fit the stage (``stage_capacity``: at
least two teams, four players for the individual formats, two entrants a pool; a knockout whose rounds
are fixed takes at most 2^rounds and more than 2^(rounds - 1), so that it has those rounds), a pools stage needs a pool count from 1 to half its field
(``pool_count``), each stage but the last leads on by a rule that suits it and the last by none
(``qualification_invalid``), and nothing carries over into a knockout (``carry_over_invalid``). A rule that
sends more entrants on than the next stage can take is refused there: ``stage_capacity`` names the stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import FORMATS, StageError
from .carry import check_carry
from .qualify import Rule, check_rule, pool_sizes

__all__ = ["StagePlan", "check_stages", "stage_minimum"]


@dataclass(frozen=True, slots=True)
class StagePlan:
    """A stage as the organizer plans it; ``rule`` leads into the next stage (None for the last)."""

    format: str
    rounds: int | None = None  # a knockout with fixed rounds takes 2 ** rounds entrants at most
    pools: int = 0  # a pools stage: the number of pools
    rule: Rule | None = None


def stage_minimum(entry: str, plan: StagePlan) -> int:
    """The fewest entrants a stage can be played with (a knockout of fixed rounds: enough to need them all)."""
    if plan.format == "pools":
        return 2 * max(plan.pools, 1)
    if plan.format == "knockout" and plan.rounds:
        return 2 ** (plan.rounds - 1) + 1 if plan.rounds > 1 else 2
    return 4 if entry == "individual" else 2


def check_stages(plans: Sequence[StagePlan], *, entry: str, entrants: int) -> list[int]:
    """The number of entrants of each stage for a field of ``entrants``, or ``StageError`` (see the module)."""
    if entry not in FORMATS:
        raise StageError("stage_inputs_invalid", {"field": "entry"})
    if not plans:
        raise StageError("stage_inputs_invalid", {"field": "stages"})
    sizes = []
    field = entrants
    for number, plan in enumerate(plans, start=1):
        if plan.format not in FORMATS[entry]:
            raise StageError("format_for_entry", {"format": plan.format, "known": list(FORMATS[entry])})
        if plan.format == "pools" and not 1 <= plan.pools <= field // 2:
            raise StageError("pool_count", {"pools": plan.pools, "entrants": field, "most": field // 2})
        minimum = stage_minimum(entry, plan)
        if field < minimum:
            raise StageError("stage_capacity", {"reason": "below", "stage": number, "entrants": field,
                                                "limit": minimum})
        if plan.format == "knockout" and plan.rounds is not None and field > 2 ** plan.rounds:
            raise StageError("stage_capacity", {"reason": "above", "stage": number, "entrants": field,
                                                "limit": 2 ** plan.rounds})
        sizes.append(field)
        last = number == len(plans)
        if last:
            if plan.rule is not None:
                raise StageError("qualification_invalid", {"reason": "last_stage", "stage": number})
            break
        if plan.rule is None:
            raise StageError("qualification_invalid", {"reason": "missing", "stage": number})
        field = _qualifiers(plan, field, number)
        check_carry(plan.rule.carry, plans[number].format, stage=number + 1)
    return sizes


def _qualifiers(plan: StagePlan, field: int, number: int) -> int:
    """How many entrants the stage's rule sends on (``check_rule``, the stage named in a refusal)."""
    try:
        return check_rule(plan.rule, entrants=field, format=plan.format,
                          pools=pool_sizes(field, plan.pools) if plan.format == "pools" else ())
    except StageError as error:
        error.params.setdefault("stage", number)
        raise
