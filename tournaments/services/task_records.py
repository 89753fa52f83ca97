"""Task records: the pairing task's claim, lease and heartbeat, as updates of its ``TaskRecord``.

``tournaments/tasks.py`` runs these around a pairing: it claims the record (pending, or running under a
lease that has passed), a heartbeat thread pushes the lease forward while the pairing works, and the
outcome is written back, with one more try on a fresh connection when the first was cut. Lost and
unstarted records are the sweep's (tournaments/services/sweep.py).
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import connection, connections
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models import TaskRecord

logger = logging.getLogger("tournaments.tasks")  # the tasks' log, where these lines have always been


def task_record_update(task_id: str | None, **fields) -> None:
    """Update a task's record; one more try on a fresh connection when the first one was cut."""
    if not task_id:
        return
    try:
        TaskRecord.objects.filter(pk=task_id).update(**fields)
    except Exception:
        if connection.in_atomic_block:
            raise
        logger.warning("task %s: record update failed, retrying on a new connection", task_id, exc_info=True)
        connection.close()
        TaskRecord.objects.filter(pk=task_id).update(**fields)


def _lease_seconds(eager: bool) -> float:
    # An in-process (eager) run has no heartbeat: its lease covers the whole of a long pairing.
    lease = float(settings.TASK_LEASE_SECONDS)
    return lease * 10 if eager else lease


def task_record_claim(task_id: str, eager: bool) -> str:
    """Take the task's record: "claimed", "missing" (no record), "done" (finished), or "busy" (a live lease)."""
    now = timezone.now()
    free = Q(status=TaskRecord.Status.PENDING) | Q(status=TaskRecord.Status.RUNNING, lease_expires_at__lt=now)
    claimed = TaskRecord.objects.filter(free, pk=task_id).update(
        status=TaskRecord.Status.RUNNING, started_at=now, attempts=F("attempts") + 1,
        lease_expires_at=now + timedelta(seconds=_lease_seconds(eager)))
    if claimed:
        return "claimed"
    status = TaskRecord.objects.filter(pk=task_id).values_list("status", flat=True).first()
    if status is None:
        return "missing"
    return "busy" if status == TaskRecord.Status.RUNNING else "done"


@contextmanager
def task_record_heartbeat(task_id: str):
    """Push the record's lease forward every third of a lease, on a thread of its own, while the body runs."""
    lease = float(settings.TASK_LEASE_SECONDS)
    stop = threading.Event()

    def beat():
        try:
            while not stop.wait(lease / 3):
                try:
                    TaskRecord.objects.filter(pk=task_id, status=TaskRecord.Status.RUNNING).update(
                        lease_expires_at=timezone.now() + timedelta(seconds=lease))
                except Exception:
                    logger.warning("task %s: heartbeat failed", task_id, exc_info=True)
                    connections.close_all()
        finally:
            connections.close_all()  # this thread's connection

    thread = threading.Thread(target=beat, name=f"lease-{task_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


def task_record_lease_expires(task_id: str):
    """Return when the record's lease passes (None without one)."""
    return TaskRecord.objects.filter(pk=task_id).values_list("lease_expires_at", flat=True).first()


def task_record_first_attempt(task_id: str) -> bool:
    """Tell whether the record is on its first attempt."""
    return TaskRecord.objects.filter(pk=task_id, attempts=1).exists()
