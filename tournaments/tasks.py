"""Celery tasks: thin, by id, safe to run twice or at the same time (the services lock per tournament)."""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.core.cache import cache

from tournaments.models import TaskRecord, Tournament
from tournaments.services.errors import ServiceError

logger = logging.getLogger(__name__)

#: What a failed pairing shows (its ``TaskRecord.error``): the detail goes to the log, never to users.
PAIRING_FAILED = "The pairing failed because of an internal error; the organizers can try again. " \
                 "The details are in the server log."
ENQUEUE_FAILED = "The task queue is unavailable; try again when it is back."


class EnqueueSafeTask(Task):
    """A task whose queueing never raises: a broker outage is logged (the database stays the truth).

    Tasks are queued on commit (``transaction.on_commit``), after the change is stored: raising
    there would answer a 500 for a result that was saved. When the broker (Redis) cannot be
    reached, ``apply_async`` logs the failure, lets ``on_enqueue_failed`` record it, and returns
    None. Eager (in-process) runs are not touched: there the task's own errors must propagate.
    """

    abstract = True

    def apply_async(self, args=None, kwargs=None, task_id=None, *rest, **options):
        if self.app.conf.task_always_eager:
            return super().apply_async(args, kwargs, task_id, *rest, **options)
        try:
            return super().apply_async(args, kwargs, task_id, *rest, **options)
        except Exception:
            logger.exception("task %s not queued (args %s); is the broker down?", self.name, args)
            try:
                self.on_enqueue_failed(args or (), kwargs or {}, task_id)
            except Exception:
                logger.exception("task %s: recording the queueing failure failed", self.name)
            return None

    def on_enqueue_failed(self, args, kwargs, task_id) -> None:
        """Record that the task could not be queued (nothing by default)."""


class PairTask(EnqueueSafeTask):
    abstract = True

    def on_enqueue_failed(self, args, kwargs, task_id) -> None:
        # The request's record would stay pending and block every later pairing request.
        _record_update(task_id, status=TaskRecord.Status.FAILED,
                       error={"code": "queue_unavailable", "detail": ENQUEUE_FAILED, "attr": None})


@shared_task(bind=True, acks_late=True, base=EnqueueSafeTask, name="tournaments.standings_recompute_task")
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


@shared_task(bind=True, acks_late=True, base=PairTask, name="tournaments.round_pair_task")
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
    except Exception:
        # The exception's text can hold SQL, table names or data: log it, show a human reason.
        logger.exception("pairing of tournament %s (task %s) failed", tournament_id, task_id)
        _record_update(task_id, status=TaskRecord.Status.FAILED,
                       error={"code": "error", "detail": PAIRING_FAILED, "attr": None})
        raise
    result = {"ok": True, "tournament": tournament_id, "round": rnd.number, "round_id": rnd.pk}
    _record_update(task_id, status=TaskRecord.Status.SUCCEEDED, result=result)
    return result
