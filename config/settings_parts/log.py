"""LOGGING: one handler, on the root logger, and every logger propagates to it, so each line is written once.

Django's own "django" and "django.server" handlers, which wrote a line a second time next to the root's,
are dropped; Celery keeps this configuration too (config/celery.py). Times in TIME_ZONE with its offset,
as the API writes them (docs/api.md). gunicorn's own error and access logs keep gunicorn's handlers.
"""


def logging_config(level: str) -> dict:
    """Return the LOGGING dictionary, every logger at ``level`` (the database's at WARNING)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s",
                                "datefmt": "%Y-%m-%dT%H:%M:%S%z"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Levels set here, not inherited: Django's defaults put "django" at INFO, and a record that
            # propagates is written whatever the root's level.
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.server": {"handlers": [], "level": level, "propagate": True},
            "django.db.backends": {"level": "WARNING"},
            "celery": {"handlers": [], "propagate": True},
        },
    }
