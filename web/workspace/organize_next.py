"""What comes next in an event's running stage, for the dashboard and a round's page: the stage's next round to
pair (round numbers count per stage), or, once its rounds are all played, closing it and starting the next stage.

A stage's rounds are all played when its last round is finished and is its last (``web.stage_progress``). The
pairing button's words are ``round_words.pair_label``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Round, Stage, Tournament
from web.stage_progress import is_stage_last

from .round_words import pair_label

__all__ = ["StageStep", "is_stage_last", "pair_label", "stage_step"]


@dataclass(frozen=True)
class StageStep:
    stage: Stage | None           # the stage being played (the running one; stage 1 before the event starts)
    last: Round | None            # its last round, with ``tables`` and ``finished`` counted
    next_number: int              # the number its next round gets
    played: bool                  # every round of the stage is paired and finished
    next_stage: Stage | None      # the stage after it, if any
    stages: int                   # how many stages the event has
    stage_list: tuple[Stage, ...] = ()  # the event's stages, in order


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
                     next_stage=next_stage, stages=len(stages), stage_list=tuple(stages))
