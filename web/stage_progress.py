"""Whether a stage's rounds are all played (the workspace's dashboard and round page, the public stage pages):
its last round is finished and is its last, a Swiss, round robin or pools stage's planned number, a knockout's final
(``knockout_tables`` of one table; the match for third place beside it)."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q

from tournaments.models import Match, Round, Stage, Tournament
from tournaments.services.knockout import knockout_tables
from tournaments.services.stages import stage_entries, stage_pools


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


def stage_played(tournament: Tournament, stage: Stage) -> bool:
    """Whether every round of ``stage`` is paired and finished (two queries, a third for a pools or round robin
    stage's field)."""
    last = (Round.objects.filter(stage=stage).order_by("-number")
            .annotate(tables=Count("matches"), finished=Count("matches", filter=Q(matches__status=Match.Status.FINISHED)))
            .first())
    return last is not None and last.finished == last.tables and is_stage_last(tournament, stage, last)


def awaits_close(tournament: Tournament, stage: Stage | None, stages: int, played: bool) -> bool:
    """``pages_stages.awaiting_close`` from what a page has read already, nothing more read: ``stage``, whose rounds
    are all ``played``, is the last of the event's ``stages`` (several), running in a running event. The workspace's
    header says "All played" then, as the public pages' do."""
    return (played and stages > 1 and stage is not None and stage.number == stages
            and stage.status == Stage.Status.RUNNING and tournament.status == Tournament.Status.RUNNING)
