"""Real Celery processes for the fault tests: a worker or beat started as a subprocess, killed with SIGKILL.

The subprocess runs the project's own command line (``celery -A config worker|beat``) against the
test database (the one pytest-django created, so a transactional test's committed rows are what it
sees) and a private redis-server; settings come from its environment, as in production.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def worker_database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def server_env(secret_key: str, conn_max_age: int) -> dict:
    """The environment of a production web server (gunicorn) on the test database, without Redis."""
    env = {**os.environ, "DATABASE_URL": worker_database_url(), "CONN_MAX_AGE": str(conn_max_age), "DEBUG": "0",
           "SECRET_KEY": secret_key, "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING", "SWEEP_SECONDS": "0"}
    env.pop("REDIS_URL", None)
    return env


@contextlib.contextmanager
def production_set(env: dict, port: int, **options):
    """bench/_servers.Production started (nginx, web and live as docker-compose runs them), its process groups
    SIGKILLed when the test is done.

    No test that uses it is about stopping a server: gunicorn's graceful stop of web took about 3 s a test (its
    arbiter and worker wait out their loops), with nothing left to do (each answer was read, each write committed
    before its answer).
    """
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    from _servers import Production

    production = Production(env, port, **options).start()
    try:
        yield production
    finally:
        for process in production.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        production.stop()


class CeleryProcess:
    """``celery -A config worker`` (or ``beat``) in a process group of its own, its output in a log file."""

    def __init__(self, kind: str, redis_url: str, log_dir: Path, *, pool: str = "solo",
                 queues: str = "celery,standings", **env: str | float):
        self.kind, self.pool, self.queues = kind, pool, queues
        self.log = log_dir / f"{kind}-{uuid.uuid4().hex[:8]}.log"
        self.env = {**os.environ, "DATABASE_URL": worker_database_url(), "REDIS_URL": redis_url,
                    "DJANGO_SETTINGS_MODULE": "config.settings", "CELERY_TASK_ALWAYS_EAGER": "0", "LOG_LEVEL": "INFO",
                    **{k: str(v) for k, v in env.items()}}
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> CeleryProcess:
        if self.kind == "worker":
            args = ["worker", f"--pool={self.pool}", "--concurrency=1", f"--queues={self.queues}",
                    "--without-gossip", "--without-mingle", "--without-heartbeat",
                    f"--hostname=fault-{uuid.uuid4().hex[:8]}@localhost", "--loglevel=INFO"]
            ready = "ready."
        else:
            args = ["beat", "--loglevel=INFO", f"--schedule={self.log.with_suffix('.schedule')}"]
            ready = "beat: Starting..."
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                                         env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        if not wait_for(lambda: ready in self.output() or self.proc.poll() is not None, timeout):
            raise RuntimeError(f"celery {self.kind} did not start:\n{self.output()[-3000:]}")
        if self.proc.poll() is not None:
            raise RuntimeError(f"celery {self.kind} exited:\n{self.output()[-3000:]}")
        return self

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def children(self) -> list[int]:
        """The worker's pool processes (prefork)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.proc.pid:
                    found.append(int(entry.name))
        return found

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def supervise(self) -> bool:
        """Start the process again if it exited, as its supervisor would (docker-compose's restart policy); True if so."""
        if self.alive():
            return False
        self.start()
        return True

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown, no acknowledgement, nothing cleaned up."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def __enter__(self) -> CeleryProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()
