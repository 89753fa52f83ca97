"""Project configuration: settings, root urls, the Celery app, wsgi/asgi."""

from .celery import app as celery_app

__all__ = ("celery_app",)
