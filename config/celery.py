"""The Celery app: configured from Django settings (CELERY_* names)."""

import gc
import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("manille")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_startup_objects(**kwargs):
    """Move what start-up allocated out of the garbage collector's view.

    A standings recompute creates tens of thousands of small records; the full collections it
    triggers then scan only its own objects, not Django's and Celery's, which cuts its pauses.
    """
    gc.freeze()
