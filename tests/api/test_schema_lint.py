"""Redocly's linter (its `recommended` rules, redocly.yaml) passes on the schema (issue 29); skipped without npm."""

import re
import subprocess

import yaml

from tests.api.npm_tools import ROOT, npm_tools  # noqa: F401 - the fixture

MAX_RULES_OFF = 5


def test_at_most_five_rules_are_off_each_explained_in_the_docs():
    config = yaml.safe_load((ROOT / "redocly.yaml").read_text())
    assert config["extends"] == ["recommended"]
    off = [rule for rule, level in config.get("rules", {}).items() if level in ("off", False)]
    assert len(off) <= MAX_RULES_OFF, off
    docs = (ROOT / "docs" / "schema.md").read_text()
    for rule in off:
        assert re.search(rf"`{re.escape(rule)}`", docs), f"docs/schema.md does not explain why {rule} is off"


def test_the_schema_passes_redoclys_recommended_rules(npm_tools, schema_file):  # noqa: F811
    done = subprocess.run([npm_tools("redocly"), "lint", str(schema_file), "--config", str(ROOT / "redocly.yaml"),
                           "--format=summary"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-5000:]
    assert "0 errors" in report or "Woohoo" in report or "valid" in report.lower(), report[-2000:]
    assert not re.search(r"^\s*warning\s", report, re.M), report[-2000:]
