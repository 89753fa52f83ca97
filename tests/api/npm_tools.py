"""The npm tools of the schema tests (Redocly's linter, openapi-typescript, tsc), as the browser tests' chromium.

Their versions are pinned by tests/api/npm/package.json and package-lock.json; ``npm ci`` installs them once
into .cache/npm-tools/ (ignored by git) and again only when the lock file changes; a lock file keeps the suite's
parallel workers (pytest-xdist) from installing at once. Without node or npm, or when the install fails (no
network, say), the tests that need them are skipped, saying why.
"""

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).resolve().parent / "npm"
CACHE = ROOT / ".cache" / "npm-tools"
TOOLS = ("redocly", "openapi-typescript", "tsc")


def npm_tools_missing_reason() -> str | None:
    """Install the pinned tools if needed; say why they cannot be used, or None when they can."""
    for program in ("node", "npm"):
        if shutil.which(program) is None:
            return f"no {program} on PATH (apt-get install nodejs npm): the npm tools' tests skipped"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".install-lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another worker installing: wait for it, then find the tools installed
        return _install()


def _install() -> str | None:
    lock = (PINNED / "package-lock.json").read_bytes()
    digest = hashlib.sha256(lock + (PINNED / "package.json").read_bytes()).hexdigest()
    stamp = CACHE / ".installed"
    if stamp.exists() and stamp.read_text() == digest and all((CACHE / "node_modules/.bin" / t).exists()
                                                                for t in TOOLS):
        return None
    for name in ("package.json", "package-lock.json"):
        shutil.copy(PINNED / name, CACHE / name)
    try:
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=CACHE,
                              capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"npm ci failed ({exc}): the npm tools' tests skipped"
    if done.returncode != 0:
        return f"npm ci failed: {(done.stderr or done.stdout).strip()[-300:]}: the npm tools' tests skipped"
    stamp.write_text(digest)
    return None


def tool(name: str) -> str:
    """The path of an installed tool."""
    return str(CACHE / "node_modules/.bin" / name)


@pytest.fixture(scope="session")
def npm_tools():
    """Skip, saying why, unless the pinned npm tools are installed (installing them the first time)."""
    reason = npm_tools_missing_reason()
    if reason:
        pytest.skip(reason)
    return tool
