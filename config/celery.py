"""The Celery app: configured from Django settings (CELERY_* names)."""

import gc
import os

from celery import Celery
from celery.signals import setup_logging, worker_process_init

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
