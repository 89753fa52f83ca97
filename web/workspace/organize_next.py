"""What comes next in an event's running stage, for the dashboard and a round's page: the stage's next round to
pair (round numbers count per stage), or, once its rounds are all played, closing it and starting the next stage.

A stage's rounds are all played when its last round is finished and is its last: a Swiss, round robin or pools
stage's planned number, a knockout's final (``knockout_tables`` of one table; the match for third place beside it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Round, Stage, Tournament
from tournaments.services.knockout import knockout_tables
from tournaments.services.stages import stage_entries, stage_pools


@dataclass(frozen=True)
class StageStep:
    stage: Stage | None           # the stage being played (the running one; stage 1 before the event starts)
    last: Round | None            # its last round, with ``tables`` and ``finished`` counted
    next_number: int              # the number its next round gets
    played: bool                  # every round of the stage is paired and finished
    next_stage: Stage | None      # the stage after it, if any
    stages: int                   # how many stages the event has


def stage_step(tournament: Tournament, rounds: list[Round]) -> StageStep:
    """The running stage's place: ``rounds`` are the event's, stage by stage, each with ``tables`` and ``finished``
    (``tournament_rounds``) and its stage read with it."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    stage = next((s for s in stages if s.status == Stage.Status.RUNNING), None)
    if stage is None:  # none running: the last stage that has rounds, else the first
        with_rounds = {r.stage_id for r in rounds}
        stage = next((s for s in reversed(stages) if s.pk in with_rounds), stages[0] if stages else None)
    own = [r for r in rounds if stage is not None and r.stage_id == stage.pk]
    last = own[-1] if own else None
    played = last is not None and last.finished == last.tables and is_stage_last(tournament, stage, last)
    next_stage = next((s for s in stages if stage is not None and s.number == stage.number + 1), None)
    return StageStep(stage=stage, last=last, next_number=(last.number + 1) if last else 1, played=played,
                     next_stage=next_stage, stages=len(stages))


def is_stage_last(tournament: Tournament, stage: Stage, last: Round) -> bool:
    """Whether ``last`` is the stage's last round: a knockout's final; a round robin's (each pool's) last round (a
    field of n plays n - 1 rounds, n when odd: one sits out each round); else the stage's planned number."""
    if stage.format == Stage.Format.KNOCKOUT:
        return knockout_tables(tournament, last.number, stage_id=stage.pk) <= 1
    if stage.format in (Stage.Format.ROUND_ROBIN, Stage.Format.POOLS):
        if stage.format == Stage.Format.POOLS:
            field = max(Counter(stage_pools(stage).values()).values(), default=0)
        else:
            field = len(stage_entries(stage, tournament, active_only=False))
        return last.number >= field - 1 + field % 2
    return last.number >= stage.rounds


def pair_label(tournament: Tournament, stage: Stage | None, number: int) -> str:
    """The pairing button's words: "Pair round 4", a later stage's "Pair stage 2, round 1" (individual: "Draw")."""
    if stage is not None and stage.number > 1:
        return (_("Draw stage %(stage)s, round %(n)s") if tournament.is_individual
                else _("Pair stage %(stage)s, round %(n)s")) % {"stage": stage.number, "n": number}
    return (_("Draw round %(n)s") if tournament.is_individual else _("Pair round %(n)s")) % {"n": number}
