"""A server whose kept database connections PostgreSQL ended (a restart, an administrator, a timeout) answers
its next requests normally: the health check before each request finds the connection gone and opens a new
one (config/postgresql/base.py), where without it the request would fail with a 500."""

import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.robustness.conftest import free_port
from tests.robustness.processes import ROOT, server_env, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_sync_server_replaces_the_connections_postgresql_ended(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's connections: the suite runs on SQLite")
    port = free_port()
    env = server_env("connection-ended", 600)
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi:application", "-w", "1",
                                   "-k", "sync", "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api/v1/tournaments/"
    name = connection.settings_dict["NAME"]

    def status() -> int | None:
        try:
            return urllib.request.urlopen(url, timeout=10).status
        except urllib.error.HTTPError as e:
            return e.code
        except OSError:
            return None

    def server_pids() -> list[int]:
        with connection.cursor() as c:
            c.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name])
            return [row[0] for row in c.fetchall()]

    try:
        assert wait_for(lambda: status() == 200, timeout=60), log_path.read_text()
        for _ in range(3):
            kept = server_pids()
            assert kept, "the server keeps its connection between requests (CONN_MAX_AGE)"
            with connection.cursor() as c:
                c.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [kept])
            assert wait_for(lambda kept=kept: not set(kept) & set(server_pids()), timeout=10)
            assert [status() for _ in range(5)] == [200] * 5, log_path.read_text()[-3000:]
            assert not set(kept) & set(server_pids())
    finally:
        server.terminate()
        server.wait(timeout=20)
