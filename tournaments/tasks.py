"""Celery tasks: thin, by id, safe to run twice or at the same time (the services lock per tournament)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.cache import cache

from tournaments.models import TaskRecord, Tournament
from tournaments.services.errors import ServiceError

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, name="tournaments.standings_recompute_task")
def standings_recompute_task(self, tournament_id: int) -> dict | None:
    """Recompute a tournament's standings (queued, coalesced, by ``match_result_changed``)."""
    from tournaments.services.standings import pending_key, standings_recompute

    # Cleared before reading: a result committed from now on queues another run.
    cache.delete(pending_key(tournament_id))
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    snapshot = standings_recompute(tournament=tournament)
    return {"tournament": tournament_id, "computed_at": snapshot.computed_at.isoformat(),
            "duration_ms": snapshot.duration_ms}


def _record_update(task_id: str | None, **fields) -> None:
    if task_id:
        TaskRecord.objects.filter(pk=task_id).update(**fields)


@shared_task(bind=True, acks_late=True, name="tournaments.round_pair_task")
def round_pair_task(self, tournament_id: int, number: int | None = None, force: bool = False) -> dict:
    """Pair round ``number`` of a tournament, reporting progress; a refusal ends the task as failed with its reason."""
    from tournaments.services.rounds import round_pair

    task_id = self.request.id
    _record_update(task_id, status=TaskRecord.Status.RUNNING)

    def progress(info: dict) -> None:
        if task_id and not self.request.is_eager:
            self.update_state(state="PROGRESS", meta=info)

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    try:
        if tournament is None:
            raise ServiceError("not_found", f"no tournament {tournament_id}")
        rnd = round_pair(tournament=tournament, force=force, number=number, progress=progress)
    except ServiceError as exc:
        error = {"code": exc.code, "detail": exc.message, "attr": exc.field}
        if getattr(exc, "teams", None):
            error["teams"] = exc.teams
        _record_update(task_id, status=TaskRecord.Status.FAILED, error=error)
        logger.info("pairing refused for tournament %s: %s", tournament_id, exc.message)
        return {"ok": False, "error": error}
    except Exception as exc:
        _record_update(task_id, status=TaskRecord.Status.FAILED,
                       error={"code": "error", "detail": f"{type(exc).__name__}: {exc}", "attr": None})
        raise
    result = {"ok": True, "tournament": tournament_id, "round": rnd.number, "round_id": rnd.pk}
    _record_update(task_id, status=TaskRecord.Status.SUCCEEDED, result=result)
    return result
