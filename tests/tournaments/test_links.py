"""The core links to the site's pages through tournaments.links, which the site fills: it never imports web
(tests/test_layers.py holds that rule)."""

import pytest

from tests.factories import MatchFactory
from tournaments import links


@pytest.mark.django_db
def test_the_site_registers_the_standings_and_the_scoreboard():
    match = MatchFactory(round__tournament__slug="gentse-beker")
    assert links.url("standings", match.round.tournament) == "/t/gentse-beker/standings/"
    assert links.url("match", match).startswith("/t/gentse-beker/") and str(match.pk) in links.url("match", match)
    assert links.url("no-such-kind", match) is None

