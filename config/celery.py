"""The Celery app: configured from Django settings (CELERY_* names)."""

import gc
import os

from celery import Celery
from celery.signals import setup_logging, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("manille")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _log_as_django_does(**kwargs):
    """Keep the settings' LOGGING in the worker and beat: one handler on the root logger, one line per record.

    Without this receiver Celery puts its own handlers on the root and task loggers (and ignores LOGGING's
    format); with it Celery configures nothing. The level is LOG_LEVEL's, not --loglevel's.
    """
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


@worker_process_init.connect
def _freeze_startup_objects(**kwargs):
    """Move what start-up allocated out of the garbage collector's view.

    A standings recompute creates tens of thousands of small records; the full collections it
    triggers then scan only its own objects, not Django's and Celery's, which cuts its pauses.
    """
    gc.freeze()


@worker_ready.connect
def _check_standings_queues(sender=None, **kwargs):
    """Warn when this worker consumes a standings queue that STANDINGS_SHARDS sends nothing to.

    A worker started with another STANDINGS_SHARDS than the web processes (or for a shard that no
    longer exists) would wait on a queue no recompute goes to. Draining an old queue after the number
    of shards changed is the one good reason to do so (README "Many events at once").
    """
    import logging

    from tournaments.services.standings import standings_queues_unused

    unused = standings_queues_unused(list(app.amqp.queues.consume_from))
    if unused:
        from django.conf import settings

        logging.getLogger("config.celery").warning(
            "this worker consumes %s, to which no standings recompute goes with STANDINGS_SHARDS=%s; "
            "every process must have the same STANDINGS_SHARDS (unless this worker drains an old queue)",
            ", ".join(unused), settings.STANDINGS_SHARDS)
