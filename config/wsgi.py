"""WSGI entry point (gunicorn config.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Without a broker (tasks in-process) the web process runs the periodic sweep itself.
from tournaments.services.sweep import sweep_thread_start  # noqa: E402

sweep_thread_start()
