"""The zero-setup run (SQLite): two writers at once both succeed; none fails at once with "database is locked".

A transaction that reads, then writes (a hand entered: the match read, then the hand inserted) holds a
shared lock SQLite cannot upgrade while another transaction writes: with SQLite's default (deferred)
transactions it fails at once, whatever the busy timeout. The settings begin every transaction
IMMEDIATE, so the second writer waits for the first (up to the timeout) instead.
"""

import json
import subprocess
import sys

from tests.robustness.processes import ROOT

SCRIPT = r"""
import json, os, sys, threading, time
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
from django.conf import settings

base = settings.DATABASES["default"]  # the project's SQLite settings (no DATABASE_URL)
for alias in ("default", "w0", "w1"):
    settings.DATABASES[alias] = {**base, "NAME": sys.argv[1]}
import django
django.setup()
from django.db import connections, transaction

with connections["default"].cursor() as c:
    c.execute("CREATE TABLE t (n INTEGER)")
connections["default"].close()
errors, together = [], threading.Barrier(2)

def read_then_write(alias):
    try:
        together.wait()
        with transaction.atomic(using=alias):
            c = connections[alias].cursor()
            c.execute("SELECT count(*) FROM t")  # a read first...
            time.sleep(0.3)
            c.execute("INSERT INTO t VALUES (1)")  # ...then a write
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}")
    finally:
        connections[alias].close()

threads = [threading.Thread(target=read_then_write, args=(alias,)) for alias in ("w0", "w1")]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"mode": base["OPTIONS"].get("transaction_mode"), "errors": errors}))
"""


def test_two_writers_at_once_both_succeed(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "VAR_DIR": str(tmp_path), "SECRET_KEY": "sqlite-writers"}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "two.sqlite3")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"mode": "IMMEDIATE", "errors": []}
