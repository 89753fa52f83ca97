"""config/settings.py LOGGING: one handler, so each record is written once, with DEBUG on or off (#13)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import logging, django
django.setup()
logging.getLogger("django.request").warning("probe django.request")
logging.getLogger("django.server").info("probe django.server")
logging.getLogger("tournaments.tasks").warning("probe tournaments")
logging.getLogger("celery.app.trace").info("probe celery")
from config.celery import app  # importing the Celery app changes nothing
logging.getLogger("django").info("probe django after celery")
"""


@pytest.mark.parametrize("debug", ["1", "0"])
def test_each_record_is_written_once_in_one_format(debug):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG=debug, SECRET_KEY="logging-test", SECURE_HTTPS="0",
               TIME_ZONE="Europe/Brussels", LOG_LEVEL="INFO")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    lines = [line for line in out.stderr.splitlines() if " probe " in line]
    assert [line.split(" probe ", 1)[1] for line in lines] == [
        "django.request", "django.server", "tournaments", "celery", "django after celery"], out.stderr
    for line in lines:
        stamp, level, logger = line.split(" ")[:3]
        assert stamp[-5:] in ("+0100", "+0200"), "the configured zone, with its offset"
        assert level in ("INFO", "WARNING") and logger.startswith(("django", "tournaments", "celery"))


def test_log_level_applies_to_django_and_celery_too():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", SECRET_KEY="logging-test", LOG_LEVEL="WARNING")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    assert [line.split(" probe ", 1)[1] for line in out.stderr.splitlines() if " probe " in line] == [
        "django.request", "tournaments"]
