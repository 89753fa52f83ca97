"""Celery tasks: thin, by id, safe to run twice or at the same time (the services lock per tournament).

Faults. Both tasks acknowledge their message only when done (``acks_late``) and a task whose worker
process dies goes back to the queue (``task_reject_on_worker_lost``): running one again is safe.
A pairing also holds a lease on its ``TaskRecord`` (tournaments/services/task_records.py): it claims the
record (pending, or running under a lease that has passed), and a heartbeat thread pushes the lease
forward while it works.
A pairing whose worker is lost stops pushing; past its lease the sweep (or the next pair request)
reports it failed (tournaments/services/sweep.py). A run that finds the record finished returns
what it holds; one that finds it running under a live lease (a redelivery racing a live run) retries
when that lease would pass."""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager

from celery import Task, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation

from tournaments import refusals
from tournaments.models import TaskRecord, Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.task_records import (
    task_record_claim,
    task_record_first_attempt,
    task_record_heartbeat,
    task_record_lease_expires,
    task_record_update,
)

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
        task_record_update(task_id, status=TaskRecord.Status.FAILED,
                       error={"code": "queue_unavailable", "detail": ENQUEUE_FAILED, "attr": None})


def task_route(name, args, kwargs, options, task=None, **rest) -> dict | None:
    """Celery's router (CELERY_TASK_ROUTES): a standings recompute to its tournament's shard.

    Every recompute queued (after a result, by the sweep, by hand) goes to ``standings_queue`` of its
    tournament, so each tournament's recomputes run in one process, which keeps its inputs. The
    other tasks go to the default queue (``celery``).
    """
    if name == "tournaments.standings_recompute_task":
        from tournaments.services.standings import standings_queue

        tournament_id = args[0] if args else kwargs["tournament_id"]
        return {"queue": standings_queue(tournament_id)}
    return None


@shared_task(bind=True, acks_late=True, base=EnqueueSafeTask, name="tournaments.standings_recompute_task")
def standings_recompute_task(self, tournament_id: int) -> dict | None:
    """Recompute a tournament's standings (queued, coalesced, by ``match_result_changed``).

    Returns when the standings were computed, how long it took, and whether the kept inputs were
    brought up to date ("incremental") or everything was read ("full"), and the matches whose
    changes it took (``bench/bench_standings_lag.py`` reads them from the result backend).
    """
    from tournaments.services.standings import pending_key, standings_recompute

    # Cleared before reading: a result committed from now on queues another run.
    cache.delete(pending_key(tournament_id))
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    if getattr(settings, "FAULT_TASK_DELAY_SECONDS", 0):
        with transaction.atomic():  # the recompute's changes stay uncommitted while it waits
            snapshot = standings_recompute(tournament=tournament)
            fault_delay("standings recompute")
    else:
        snapshot = standings_recompute(tournament=tournament)
    # When this recompute ran (its standings' own time stays the last change's when it wrote nothing: ``written``).
    return {"tournament": tournament_id, "computed_at": snapshot.ran_at.isoformat(), "written": snapshot.written,
            "duration_ms": snapshot.duration_ms, "path": "incremental" if snapshot.incremental else "full",
            "changes": snapshot.changes}


def fault_delay(stage: str) -> None:
    """Wait FAULT_TASK_DELAY_SECONDS (tests and bench/probe_faults.py only: a window to kill the worker in)."""
    delay = float(getattr(settings, "FAULT_TASK_DELAY_SECONDS", 0) or 0)
    if delay > 0:
        logger.warning("fault injection: %s waits %.1f s", stage, delay)
        time.sleep(delay)


@shared_task(bind=True, acks_late=True, base=PairTask, name="tournaments.round_pair_task")
def round_pair_task(self, tournament_id: int, number: int | None = None, force: bool = False) -> dict:
    """Pair round ``number`` of a tournament, reporting progress; a refusal ends the task as failed with its reason."""
    task_id = self.request.id
    eager = bool(self.request.is_eager)
    state = task_record_claim(task_id, eager) if task_id else "missing"
    if state == "done":  # finished by an earlier run of the same request (a redelivery)
        record = TaskRecord.objects.get(pk=task_id)
        return record.result if record.status == TaskRecord.Status.SUCCEEDED else {"ok": False, "error": record.error}
    if state == "busy" and not eager:
        # Another run holds a live lease (or a dead one's has not passed yet): come back when it would have.
        expires = task_record_lease_expires(task_id)
        wait = (expires - timezone.now()).total_seconds() if expires else 1.0
        raise self.retry(countdown=max(1.0, wait + 1.0), max_retries=20)

    # Fault injection waits in a request's first run only, so that its redelivery can finish.
    first_run = bool(getattr(settings, "FAULT_TASK_DELAY_SECONDS", 0)) and (
        state != "claimed" or task_record_first_attempt(task_id))

    def progress(info: dict) -> None:
        if info.get("stage") == "loading" and first_run:
            fault_delay("pairing")
        if task_id and not eager:
            self.update_state(state="PROGRESS", meta=info)

    with task_record_heartbeat(task_id) if task_id and not eager else _nothing():
        return _pair(task_id, tournament_id, number, force, progress)


@contextmanager
def _nothing():
    yield


def _pair(task_id, tournament_id: int, number: int | None, force: bool, progress) -> dict:
    from tournaments.services.rounds import round_pair

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    try:
        if tournament is None:
            raise ServiceError("not_found", None, {"tournament": tournament_id})
        rnd = round_pair(tournament=tournament, force=force, number=number, progress=progress)
    except ServiceError as exc:
        # Stored in English, as the other failures; the API and the workspace write it in the reader's language
        # from the code and params (tournaments.refusals.stored).
        with translation.override("en"):
            detail = refusals.words(exc.code, exc.params)
        error = {"code": exc.code, "detail": detail, "attr": exc.field, "params": exc.params}
        if getattr(exc, "teams", None):
            error["teams"] = exc.teams
        task_record_update(task_id, status=TaskRecord.Status.FAILED, error=error, lease_expires_at=None)
        logger.info("pairing refused for tournament %s: %s", tournament_id, exc)
        return {"ok": False, "error": error}
    except Exception:
        # The exception's text can hold SQL, table names or data: log it, show a human reason.
        logger.exception("pairing of tournament %s (task %s) failed", tournament_id, task_id)
        task_record_update(task_id, status=TaskRecord.Status.FAILED, lease_expires_at=None,
                       error={"code": "error", "detail": PAIRING_FAILED, "attr": None})
        raise
    result = {"ok": True, "tournament": tournament_id, "round": rnd.number, "round_id": rnd.pk}
    task_record_update(task_id, status=TaskRecord.Status.SUCCEEDED, result=result, lease_expires_at=None)
    return result


@shared_task(acks_late=True, base=EnqueueSafeTask, name="tournaments.round_time_up_task", ignore_result=True)
def round_time_up_task(round_id: int) -> int:
    """At a round clock's end: finish its timed matches that have no game in play (safe early, safe twice)."""
    from tournaments.services.clock import round_time_up

    return round_time_up(round_id=round_id)


@shared_task(name="tournaments.sweep_task", ignore_result=True)
def sweep_task() -> dict:
    """The periodic sweep (Celery beat, every SWEEP_SECONDS): stale standings, lost and unstarted pairings."""
    from tournaments.services.sweep import sweep_run

    return sweep_run()
