"""The entry point: ``draw(inputs)`` checks the inputs and runs the format's draw."""

from __future__ import annotations

from .field import Field
from .inputs import DrawInputs, DrawResult
from .swiss import draw_swiss
from .tables import draw_tables


def draw(inputs: DrawInputs) -> DrawResult:
    """The round's draw from its inputs alone; ``DrawError(code, params)`` on bad input, nothing half-drawn."""
    field = Field(inputs)
    if inputs.format == "tables":
        return draw_tables(field)
    return draw_swiss(field)


def opponents_lower_bound(inputs: DrawInputs) -> int:
    """The fewest repeated opponents any allowed draw of this round could have (given its sit-outs).

    The same figure as the draw's ``report["opponents_lower_bound"]``; ``bounds.lower_bound`` computes it on
    the round's partition problem.
    """
    return draw(inputs).report["opponents_lower_bound"]
