"""Stages of one event: pools, cuts, knockouts and the event's ranking (pure Python over plain values, no Django).

An event runs as stages, each with its format, standings and a qualification rule into the next
(docs/stages.md). This package is the logic between two stages; the services load the rows and save what
comes back:

* ``pools``: the seeding order (previous rank, rating or the lottery) and the serpentine by pots into N
  pools, clubs kept apart by moves inside a pot (``seeding_order``, ``draw_pools``);
* ``qualify``: the rules ``top``, ``pools``, ``table_winners``, ``all`` over a closed stage's rows, the ties
  at each cut and how they were broken, withdrawn qualifiers replaced (``qualify``);
* ``carry``: match points, games and points carried to the qualifiers' rows (never into a knockout);
* ``bracket``: the knockout from the qualifiers (standard seeding, byes to the top seeds, pool-mates apart
  in round 1, the match for third place) and its standings by round reached;
* ``event``: the event's ranking by stage reached, then that stage's rank, with each entrant's path;
* ``check``: the stages of an event checked before anything is played.

Refusals are ``StageError(code, params)``; ``tournaments.refusals`` words them. Every draw comes from the
stage's published seed (``Lottery``), never from an entry id.
"""

from .base import FORMATS, STAGES_VERSION, Lottery, StageError
from .bracket import (
    Bracket,
    BracketMove,
    KnockoutMatch,
    KnockoutRow,
    bracket,
    knockout_standings,
    third_place_pairing,
)
from .carry import CARRY_PARTS, Carry, apply_carry, carry_over, check_carry
from .check import StagePlan, check_stages, stage_minimum
from .event import EventRow, Replacement, StageResult, Step, event_ranking
from .pools import Conflict, Move, PoolDraw, club_pairs_bound, draw_pools, seeding_order, serpentine
from .qualify import (
    PER_MATCH,
    RULES,
    Qualification,
    Qualifier,
    Row,
    Rule,
    Tie,
    check_rule,
    cycle_tables,
    pool_sizes,
    qualify,
    rows_of,
)

__all__ = [
    "FORMATS", "STAGES_VERSION", "Lottery", "StageError",
    "Bracket", "BracketMove", "KnockoutMatch", "KnockoutRow", "bracket", "knockout_standings", "third_place_pairing",
    "CARRY_PARTS", "Carry", "apply_carry", "carry_over", "check_carry",
    "StagePlan", "check_stages", "stage_minimum",
    "EventRow", "Replacement", "StageResult", "Step", "event_ranking",
    "Conflict", "Move", "PoolDraw", "club_pairs_bound", "draw_pools", "seeding_order", "serpentine",
    "PER_MATCH", "RULES", "Qualification", "Qualifier", "Row", "Rule", "Tie", "check_rule", "cycle_tables",
    "pool_sizes", "qualify", "rows_of",
]
