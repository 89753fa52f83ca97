"""Results counted before the opponents confirm them (``unconfirmed: count``, issue 28): the public standings, the
round's page and the scoreboard mark what counts one, with a legend; the API's standings rows say how many
(``unconfirmed``). Nothing is marked once confirmed, nor when the tournament waits or asks for no confirmation."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.individual import make_individual
from tests.tournaments.test_confirmation import finish, world
from tournaments.models import Match, RoundSeat, Tournament
from tournaments.services.confirmation import acting, result_confirm
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]

MARK = 'data-unconfirmed='
LEGEND = "Counts a result the opponents have not confirmed yet (entered or disputed): it may still change."


def pages(client, tournament, match):
    return {name: client.get(url).content.decode() for name, url in (
        ("standings", f"/t/{tournament.slug}/standings/"), ("round", f"/t/{tournament.slug}/rounds/1/"),
        ("match", f"/t/{tournament.slug}/matches/{match.pk}/"))}


def api_rows(tournament):
    return {r["team"]: r for r in APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["rows"]}


def test_an_entered_result_is_marked_until_it_is_confirmed(client):
    tournament, match, other, codes = world()
    finish(match, device="phone-a")
    standings_recompute(tournament=tournament)
    shown = pages(client, tournament, match)
    assert shown["standings"].count(MARK) == 2 and LEGEND in shown["standings"]  # both teams of the match
    assert shown["round"].count(MARK) == 1 and LEGEND in shown["round"]  # its table, not the other one
    assert MARK in shown["match"] and LEGEND in shown["match"]
    assert MARK not in client.get(f"/t/{tournament.slug}/matches/{other.pk}/").content.decode()
    rows = api_rows(tournament)
    assert rows[match.ns_id]["unconfirmed"] == 1 and rows[match.ew_id]["unconfirmed"] == 1
    assert rows[other.ns_id]["unconfirmed"] == 0
    ew = match.ew.player_1
    with acting(device="phone-b"):
        result_confirm(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk])
    standings_recompute(tournament=tournament)
    cache.clear()
    shown = pages(client, tournament, match)
    assert all(MARK not in page and LEGEND not in page for page in shown.values())
    assert api_rows(tournament)[match.ns_id]["unconfirmed"] == 0


def test_a_disputed_result_is_marked_too_and_translated(client):
    tournament, match, _other, codes = world()
    finish(match, device="phone-a")
    Match.objects.filter(pk=match.pk).update(result_status="disputed")
    standings_recompute(tournament=tournament)
    page = client.get(f"/t/{tournament.slug}/standings/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert page.count(MARK) == 2 and LEGEND not in page
    assert "nog niet bevestigd" in page


@pytest.mark.parametrize("mode,unconfirmed", [("opponents", "wait"), ("off", "count")])
def test_nothing_is_marked_when_the_standings_wait_or_nobody_confirms(client, mode, unconfirmed):
    tournament, match, _other, _codes = world(mode, unconfirmed)
    finish(match, device="phone-a")
    standings_recompute(tournament=tournament)
    shown = pages(client, tournament, match)
    assert all(MARK not in page and LEGEND not in page for page in shown.values())
    assert all("unconfirmed" not in row for row in api_rows(tournament).values())  # the field is absent


def test_an_individual_events_players_are_marked(client):
    tournament = make_individual(8, drawn=1, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", unconfirmed="count")
    tournament.refresh_from_db()
    first = Match.objects.get(round__tournament=tournament, table=1)
    Match.objects.filter(pk=first.pk).update(status="finished", result_status="entered", winner="ns",
                                             games_won_ns=1, points_ns=101, points_ew=40)
    standings_recompute(tournament=tournament)
    seated = set(RoundSeat.objects.filter(match=first).values_list("player_id", flat=True))
    rows = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["rows"]
    assert {r["player"] for r in rows if r["unconfirmed"]} == seated and len(seated) == 4
    assert client.get(f"/t/{tournament.slug}/standings/").content.decode().count(MARK) == 4
    assert client.get(f"/t/{tournament.slug}/rounds/1/").content.decode().count(MARK) == 1
