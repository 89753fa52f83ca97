"""The rules engine's tests run without Django: no settings, no pytest-django, and nothing imports Django.

The design's promise (docs/architecture.md): ``scoring/`` imports nothing from Django, so it is tested in
microseconds and reused by anything. tests/scoring/conftest.py fails a test that imported Django when the
suite runs without it; this test runs the folder that way in a fresh interpreter.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_engine_tests_pass_without_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/scoring", "-p", "no:django", "-p", "no:cacheprovider", "-q",
         "-W", "ignore::pytest.PytestConfigWarning"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "error" not in done.stdout.splitlines()[-1]
