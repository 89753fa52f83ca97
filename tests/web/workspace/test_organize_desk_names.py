"""The director's decisions name the teams (the user walk-through): the log says which team withdrew or was absent,
and the table's entry page says why its match is decided when a director's forfeit or withdrawal decided it."""

import pytest
from django.urls import reverse

from tests.web.conftest import enter_hands
from tests.web.workspace.test_organize_desk import client_of, cup, take  # noqa: F401 (fixtures)
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _first(cup):  # noqa: F811
    return Match.objects.select_related("ns", "ew").filter(round__tournament=cup).order_by("table").first()


def test_a_forfeit_names_the_absent_team_in_the_log_and_on_the_tables_page(client_of, cup):  # noqa: F811
    match = _first(cup)
    take(client_of, cup, kind="forfeit", match=match.pk, absent="ew", reason="never came")
    log = client_of.get(reverse("ws:actions", args=[cup.slug])).content.decode()
    assert f"absent: {match.ew.name}" in log
    page = client_of.get(reverse("ws:score-match", args=[cup.slug, match.pk])).content.decode()
    assert f"Decided by the director: forfeit ({match.ew.name} absent)." in page


def test_a_withdrawal_names_the_team_in_the_log_and_on_the_tables_page(client_of, cup):  # noqa: F811
    match = _first(cup)
    enter_hands(match, 2)  # a withdrawal is mid-match
    take(client_of, cup, kind="withdrawal", match=match.pk, side="ns", reason="ill")
    log = client_of.get(reverse("ws:actions", args=[cup.slug])).content.decode()
    assert f"withdrew: {match.ns.name}" in log and "withdrew: NS" not in log
    page = client_of.get(reverse("ws:score-match", args=[cup.slug, match.pk])).content.decode()
    assert f"Decided by the director: withdrawal ({match.ns.name} withdrew)." in page
