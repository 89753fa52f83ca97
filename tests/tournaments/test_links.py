"""The core links to the site's pages through tournaments.links, which the site fills: it never imports web."""

import ast
from pathlib import Path

import pytest

from tests.factories import MatchFactory
from tournaments import links

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_the_site_registers_the_standings_and_the_scoreboard():
    match = MatchFactory(round__tournament__slug="gentse-beker")
    assert links.url("standings", match.round.tournament) == "/t/gentse-beker/standings/"
    assert links.url("match", match).startswith("/t/gentse-beker/") and str(match.pk) in links.url("match", match)
    assert links.url("no-such-kind", match) is None


def test_the_core_imports_no_door():
    """tournaments/ never imports web, api or webhooks (they import it)."""
    found = []
    for path in (ROOT / "tournaments").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in ("web", "api", "webhooks")]
    assert not found, found
