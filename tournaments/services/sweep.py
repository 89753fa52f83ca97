"""The periodic sweep: what a lost task, a dead worker or a broker outage left undone gets done.

Every ``SWEEP_SECONDS`` (5 s by default):

* **Standings.** A tournament with a ``StandingsChange`` row older than ``STANDINGS_STALE_SECONDS``
  (10 s; a recompute is normally queued 2 s after a result and takes well under a second) has
  waited too long: its recompute was lost (the broker was down when the result was stored, the
  worker was killed mid-recompute, its database connection was cut: the recompute's transaction,
  which deletes the rows, was rolled back). The sweep recomputes it, in its own process.
* **Lost pairings.** A running ``TaskRecord`` whose lease has passed was lost with its worker (the
  worker's heartbeat pushes the lease forward every third of ``TASK_LEASE_SECONDS``): it is
  reported failed with a human reason (``worker_lost``), which lets a new request in.
* **Pair requests that never started** (the message was lost, e.g. a Redis restarted without
  persistence): queued again, with the same id, every ``TASK_LEASE_SECONDS``; the task starts
  once only (tournaments/tasks.py claims the record). One still not started after
  ``PENDING_GIVE_UP_SECONDS`` is reported failed (``not_started``): no worker is running.

* **Results confirmed automatically.** A result entered longer ago than its tournament's
  ``auto_confirm_minutes`` without a dispute is confirmed (``confirmation.results_auto_confirm``).
* **Where a result's steps came from, forgotten.** The phone and the address of each ``ResultEvent``
  older than ``RESULT_EVENTS_KEEP_DAYS`` (400) are blanked, at most once an hour
  (``result_events_expire``); the step itself, its player or account and its time stay with the match.

So every result reaches the standings within ``STANDINGS_STALE_SECONDS + SWEEP_SECONDS`` (plus one
recompute) once the fault is over, and no pairing blocks a tournament longer than its lease.

Who runs it. With a broker, Celery beat (``celery -A config beat``, ``./dev beat``) queues
``sweep_task`` on the default queue (``celery``): it only reads and queues. Without a broker (the
zero-setup run, tasks in-process), the web process runs it on a daemon thread (``sweep_thread_start``,
called by config/wsgi.py and config/asgi.py). The pair request itself also expires its tournament's
lost tasks first (``task_records_expire``), so a new request is accepted as soon as the lease has
passed, sweep or no sweep.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.models import Min, Q
from django.utils import timezone

from tournaments import queue
from tournaments.models import ResultEvent, StandingsChange, TaskRecord, Tournament
from tournaments.services.confirmation import results_auto_confirm

logger = logging.getLogger(__name__)

#: What a pairing lost with its worker says (``TaskRecord.error``; stored, as tasks.PAIRING_FAILED, in English:
#: the pages show their own text for each code).
WORKER_LOST = ("The worker running this pairing stopped before it finished (it was restarted or lost); "
               "nothing was saved. Ask for the pairing again.")
NOT_STARTED = "No worker started this pairing; check that the worker is running, then ask again."
PENDING_GIVE_UP_SECONDS = 600


def _seconds(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def task_records_expire(*, tournament: Tournament | None = None) -> int:
    """Report failed the pairings lost with their worker, and those no worker started in time; how many."""
    now = timezone.now()
    records = TaskRecord.objects.all() if tournament is None else TaskRecord.objects.filter(tournament=tournament)
    lease = timedelta(seconds=_seconds("TASK_LEASE_SECONDS", 30))
    # A record without a lease (written before leases existed) is lost when untouched for one.
    lost = records.filter(Q(lease_expires_at__lt=now) | Q(lease_expires_at=None, updated_at__lt=now - lease),
                          status=TaskRecord.Status.RUNNING)
    count = lost.update(status=TaskRecord.Status.FAILED, lease_expires_at=None, updated_at=now,
                        error={"code": "worker_lost", "detail": WORKER_LOST, "attr": None})
    stale = records.filter(status=TaskRecord.Status.PENDING,
                           created_at__lt=now - timedelta(seconds=PENDING_GIVE_UP_SECONDS))
    count += stale.update(status=TaskRecord.Status.FAILED, updated_at=now,
                          error={"code": "not_started", "detail": NOT_STARTED, "attr": None})
    if count:
        logger.warning("sweep: %s pairing task(s) reported failed (worker lost or never started)", count)
    return count


def task_records_requeue() -> int:
    """Queue again the pair requests that have waited a lease without starting; how many."""
    now = timezone.now()
    waited = now - timedelta(seconds=_seconds("TASK_LEASE_SECONDS", 30))
    count = 0
    for record in TaskRecord.objects.filter(status=TaskRecord.Status.PENDING, kind=TaskRecord.Kind.ROUND_PAIR,
                                            updated_at__lt=waited):
        # updated_at marks the attempt: the next one comes a lease later.
        if not TaskRecord.objects.filter(pk=record.pk, status=TaskRecord.Status.PENDING,
                                         updated_at__lt=waited).update(updated_at=now):
            continue
        params = record.params or {}
        queue.task_queue(queue.ROUND_PAIR, (record.tournament_id,),
                         {"number": params.get("number"), "force": bool(params.get("force"))},
                         task_id=str(record.pk))
        count += 1
    if count:
        logger.warning("sweep: %s pair request(s) that never started queued again", count)
    return count


def standings_stale(*, older_than: float | None = None) -> list[int]:
    """The tournaments whose oldest standings change has waited longer than ``older_than`` seconds."""
    if older_than is None:
        older_than = _seconds("STANDINGS_STALE_SECONDS", 10)
    cutoff = timezone.now() - timedelta(seconds=older_than)
    return list(StandingsChange.objects.values("tournament_id").annotate(oldest=Min("created_at"))
                .filter(oldest__lt=cutoff).order_by("oldest").values_list("tournament_id", flat=True))


def swept_key(tournament_id: int) -> str:
    return f"standings:swept:{tournament_id}"


def standings_sweep(*, older_than: float | None = None) -> list[int]:
    """Have every tournament whose standings changes waited too long recomputed; their ids.

    Each recompute is queued to its tournament's shard (``standings_recompute_task``, routed by
    ``tournaments.tasks.task_route``), never run here: the worker of that shard keeps the
    tournament's inputs, and the next recomputes there can reuse them. A tournament is queued at
    most once every ``STANDINGS_STALE_SECONDS`` (a flag in the cache), so a busy shard is not
    handed one more recompute of the same tournament by every pass. Without a broker (tasks
    in-process) the recompute runs here, at once.
    """
    eager = queue.eager(queue.STANDINGS_RECOMPUTE)
    again = _seconds("STANDINGS_STALE_SECONDS", 10) if older_than is None else older_than
    done = []
    for tournament_id in standings_stale(older_than=older_than):
        if not Tournament.objects.filter(pk=tournament_id).exists():  # deleted meanwhile (its rows go with it)
            continue
        if not eager:
            try:
                if not cache.add(swept_key(tournament_id), 1, timeout=max(again, 1)):
                    continue  # queued by an earlier pass that has not had its turn yet
            except Exception:  # the cache is down: queue anyway
                logger.exception("sweep: the cache is unavailable for tournament %s", tournament_id)
        try:
            if queue.task_queue(queue.STANDINGS_RECOMPUTE, (tournament_id,)) is None:
                continue  # not queued (the broker is down): logged; the next pass tries again
        except Exception:
            logger.exception("sweep: recomputing the standings of tournament %s failed", tournament_id)
            continue
        done.append(tournament_id)
    if done:
        logger.warning("sweep: %s the stale standings of tournament(s) %s",
                       "recomputed" if eager else "queued the recomputes of", done)
    return done


def clocks_sweep() -> int:
    """Finish the timed matches of rounds whose clock is over (the task queued at the clock's end may be lost,
    or tasks run in-process, where a task's time is not kept)."""
    from django.utils import timezone

    from tournaments.models import Match, Round, Tournament
    from tournaments.services.clock import round_time_up

    rounds = (Round.objects.filter(stage__match_length=Tournament.MatchLength.TIMED, clock_paused_left=None,
                                   clock_ends_at__lte=timezone.now())
              .filter(pk__in=Match.objects.exclude(status=Match.Status.FINISHED).values("round_id"))
              .values_list("pk", flat=True)[:100])
    return sum(round_time_up(round_id=pk) for pk in rounds)


#: How often the sweep looks for result steps to forget (seconds): their age is counted in days.
RESULT_EVENTS_EVERY = 3600
RESULT_EVENTS_KEY = "sweep:result-events"


def result_events_expire(*, now=None, force: bool = False) -> int:
    """Blank the phone and the address of the result steps older than ``RESULT_EVENTS_KEEP_DAYS`` (none when it is
    0); how many. At most once every ``RESULT_EVENTS_EVERY`` seconds unless ``force`` (a flag in the cache)."""
    days = int(getattr(settings, "RESULT_EVENTS_KEEP_DAYS", 400))
    if days <= 0:
        return 0
    if not force:
        try:
            if not cache.add(RESULT_EVENTS_KEY, 1, timeout=RESULT_EVENTS_EVERY):
                return 0
        except Exception:  # the cache is down: the update finds nothing most times, and costs one indexed query
            logger.exception("sweep: the cache is unavailable for the result steps")
    cutoff = (now or timezone.now()) - timedelta(days=days)
    count = (ResultEvent.objects.filter(at__lt=cutoff).filter(~Q(device="") | Q(address__isnull=False))
             .update(device="", address=None))
    if count:
        logger.info("sweep: the phone and address of %s result step(s) older than %s days forgotten", count, days)
    return count


def sweep_run() -> dict:
    """One pass of the sweep; each part on its own, so one failing does not stop the others."""
    report = {}
    for name, part in (("tasks_failed", task_records_expire), ("tasks_requeued", task_records_requeue),
                       ("standings", standings_sweep), ("clocks", clocks_sweep),
                       ("results_confirmed", results_auto_confirm), ("result_steps", result_events_expire)):
        try:
            report[name] = part()
        except Exception:
            logger.exception("sweep: %s failed", name)
            report[name] = None
    return report


_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def sweep_thread_start() -> bool:
    """Start the in-process sweep (a daemon thread) when there is no broker to run Celery beat; True if started."""
    global _thread
    if not settings.CELERY_TASK_ALWAYS_EAGER or _seconds("SWEEP_SECONDS", 5) <= 0:
        return False
    with _thread_lock:
        if _thread is not None and _thread.is_alive():
            return False
        _thread = threading.Thread(target=_sweep_forever, name="manille-sweep", daemon=True)
        _thread.start()
    return True


def _sweep_forever() -> None:
    interval = _seconds("SWEEP_SECONDS", 5)
    while True:
        time.sleep(interval)
        try:
            sweep_run()
        except Exception:  # never let the thread die
            logger.exception("sweep: pass failed")
        finally:
            connections.close_all()  # this thread's own connections: none held between passes
