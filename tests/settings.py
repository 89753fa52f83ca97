"""The test suite's settings (pyproject's DJANGO_SETTINGS_MODULE): config/settings.py read from the same environment,
with four changes.

* Under pytest-xdist (``./dev test`` runs the suite in TEST_WORKERS processes), worker ``gw<k>`` uses Redis
  database ``N + k`` of REDIS_URL's ``/N``: the tests empty their cache (FLUSHDB), and purge and consume queues
  with real Celery workers, so two workers must never share a database. The variable itself is changed before
  config/settings.py reads it, so the worker's settings, the real processes it starts (Celery, gunicorn, the
  compose services) and the tests that read it all use that database. Each worker's Django test database is
  its own too: pytest-django names PostgreSQL's ``test_<name>_gw<k>``, and SQLite's is in each process's memory.
* No in-process sweep: without a broker, importing config.wsgi or config.asgi (the browser tests' server does) starts
  the sweep's thread, which would then query the database every SWEEP_SECONDS during every later test of the
  process, unasked (pytest-django refuses it outside a database test) and while another test runs (its tracebacks
  parsed as the test parses sources: CPython 3.11's ast.parse is not safe in two threads at once, "AST constructor
  recursion depth mismatch"). The sweep's own tests call it, and test_sweep_in_process runs the thread in a web
  process of its own.
* New passwords are hashed with MD5: PBKDF2's million iterations cost about 0.3 s a user created or signed in,
  and the suite does that thousands of times. The real hashers follow it, so a password hashed by a real process
  (config.settings) still checks here (a test about hashing itself would set the production list back).
* On PostgreSQL the test process's backend is tests/postgresql: config.postgresql, emptying the tables after a
  transactional test with DELETE instead of TRUNCATE (0.2 to 1.2 s a test on the development machine, against
  about 0.1 s).
"""

import os
from urllib.parse import urlsplit, urlunsplit

from django.conf import global_settings


def worker_redis_url(url: str, worker: str) -> str:
    """REDIS_URL's database ``/N`` moved to ``/N+k`` for the pytest-xdist worker ``gw<k>``."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
# A process the worker starts with these settings (it inherits both variables) must not move the database again.
if _worker and os.environ.get("REDIS_URL") and os.environ.get("TEST_REDIS_WORKER") != _worker:
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
    os.environ["TEST_REDIS_WORKER"] = _worker

from config.settings import *  # noqa: E402, F403

SWEEP_SECONDS = 0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]

if DATABASES["default"]["ENGINE"] == "config.postgresql":  # noqa: F405
    DATABASES = {**DATABASES, "default": {**DATABASES["default"], "ENGINE": "tests.postgresql"}}  # noqa: F405
