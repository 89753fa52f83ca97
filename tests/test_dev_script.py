"""The README's two commands (issue 25, defect 8): ``./dev`` says what it does while it installs, keeps
setuptools' warning block out of the way, and the README names PORT next to ``./dev start``."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def install_function() -> str:
    text = (ROOT / "dev").read_text()
    return text[text.index("install() {"):text.index("\n}\n", text.index("install() {"))]


def test_the_install_says_what_it_does_before_pip_runs():
    body = install_function()
    said = body.index('echo "Installing the dependencies')
    assert said < body.index("pip install"), "a newcomer is told before the silent minute"
    assert re.search(r'echo "Installed in \$\(\(SECONDS - started\)\) s\."', body)


def test_every_pip_install_keeps_warnings_quiet():
    lines = [line for line in install_function().splitlines() if "-m pip install" in line]
    assert lines and all(line.strip().startswith("PYTHONWARNINGS=ignore ") for line in lines)


def test_the_readme_names_port_next_to_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("## The two commands"):readme.index("## Configuration")]
    assert "PORT=8001 ./dev start" in block


def test_dev_without_a_command_prints_its_usage():
    out = subprocess.run(["bash", str(ROOT / "dev")], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode != 0 and "usage: ./dev start|test" in (out.stdout + out.stderr)
