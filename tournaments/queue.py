"""Queueing Celery tasks by name: the one module services queue through, so no service imports a tasks module.

Every arrow points one way: ``tournaments/tasks.py`` calls services, services queue through this module,
and this module imports neither. A task is looked up by its name in the Celery app's registry, which
the apps fill when Django starts (``TournamentsConfig.ready`` and ``WebhooksConfig.ready`` import their
tasks modules). The task found is the registered object itself, so its class's behaviour is kept
(``EnqueueSafeTask``: a broker outage is logged, never raised), and it runs in-process when tasks are
eager (the zero-setup run and the tests).
"""

from __future__ import annotations

from celery import current_app

STANDINGS_RECOMPUTE = "tournaments.standings_recompute_task"
ROUND_PAIR = "tournaments.round_pair_task"
ROUND_TIME_UP = "tournaments.round_time_up_task"
WEBHOOK_EVENT = "webhooks.event_task"
WEBHOOK_DELIVER = "webhooks.deliver_task"


def task(name: str):
    """Return the registered task called ``name``."""
    return current_app.tasks[name]


def eager(name: str) -> bool:
    """Tell whether the task called ``name`` runs in-process (no broker)."""
    return bool(task(name).app.conf.task_always_eager)


def task_queue(name: str, args: tuple = (), kwargs: dict | None = None, **options):
    """Queue the task called ``name`` with ``apply_async``'s options; return what it returns (None: not queued)."""
    return task(name).apply_async(args, kwargs, **options)
