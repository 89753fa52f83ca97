"""The production ASGI server (gunicorn with uvicorn workers) keeps PostgreSQL's connections few under load.

Django's ASGI handler runs each request's sync code in a thread of its own; a persistent connection
(CONN_MAX_AGE > 0) would stay open, unused, after its thread, until PostgreSQL refuses new clients
("too many clients already": the fault probe's 500s). config/asgi.py closes it after every request.
"""

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.robustness.processes import ROOT, server_env, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_connections(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name])
        return cursor.fetchone()[0]


def test_an_asgi_server_does_not_pile_up_database_connections(tmp_path):
    """20 clients reading at once, 300 requests: every answer a 200 (before: 500s, too many clients)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's connection count: the suite runs on SQLite")
    port = free_port()
    env = server_env("asgi-connections", 60)
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.asgi:application", "-k",
                               "config.uvicorn_worker.Worker", "-w", "1", "-b", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    name = connection.settings_dict["NAME"]
    url = f"http://127.0.0.1:{port}/api/v1/tournaments/"

    def answers() -> bool:
        try:
            return urllib.request.urlopen(url, timeout=5).status == 200
        except OSError:
            return False

    try:
        assert wait_for(answers, timeout=60), (tmp_path / "server.log").read_text()
        seen, statuses = [], []

        def reader():
            for _ in range(15):  # each reads the database
                try:
                    statuses.append(urllib.request.urlopen(url, timeout=30).status)
                except urllib.error.HTTPError as e:
                    statuses.append(e.code)

        threads = [threading.Thread(target=reader) for _ in range(20)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            seen.append(server_connections(name))
            time.sleep(0.05)
        assert statuses.count(200) == 300, sorted(set(statuses))
        assert max(seen) <= 25, (max(seen), (tmp_path / "server.log").read_text()[-2000:])
    finally:
        os.killpg(server.pid, 15)
        server.wait(30)
        log.close()
