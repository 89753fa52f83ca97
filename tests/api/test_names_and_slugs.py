"""Issue 13: lists name their teams and clubs, the scoreboard its players; a tournament by id or slug.

Every read stays at a constant number of queries whatever the number of teams or matches.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import client_for
from tests.factories import EntryFactory, RoundFactory, TeamFactory
from tournaments.models import Match
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _queries(client, url) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(ctx.captured_queries), response.json()


def _enter(tournament, count):
    return [EntryFactory(tournament=tournament, team=TeamFactory()).team for _ in range(count)]


def test_standings_rows_name_team_and_club_in_constant_queries(tournament, anon):
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    _enter(tournament, 2)
    standings_recompute(tournament=tournament)
    few, body = _queries(anon, url)
    _enter(tournament, 10)
    standings_recompute(tournament=tournament)
    many, body = _queries(anon, url)
    assert len(body["rows"]) == 12 and few == many <= 5
    for row in body["rows"]:
        assert row["team_detail"]["id"] == row["team"]
        assert set(row["team_detail"]) == {"id", "name", "club"} and set(row["team_detail"]["club"]) == {"id", "name"}
    assert all(c["club_name"] for c in body["clubs"])


def test_round_matches_name_their_teams_in_constant_queries(tournament, anon):
    teams = _enter(tournament, 12)
    rnd = RoundFactory(tournament=tournament, number=1)
    Match.objects.create(round=rnd, table=1, ns=teams[0], ew=teams[1])
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    few, _ = _queries(anon, url)
    for i in range(2, 12, 2):
        Match.objects.create(round=rnd, table=i // 2 + 1, ns=teams[i], ew=teams[i + 1])
    RoundFactory(tournament=tournament, number=2)
    many, body = _queries(anon, url)
    assert few == many <= 5
    first = body["results"][0]["matches"][0]
    assert first["ns"] == teams[0].pk and first["ns_detail"] == {
        "id": teams[0].pk, "name": teams[0].name, "club": {"id": teams[0].club_id, "name": teams[0].club.name}}
    assert first["ew_detail"]["id"] == teams[1].pk
    detail_queries, detail = _queries(anon, url + "1/")
    assert len(detail["matches"]) == 6 and detail_queries <= 4


def test_the_scoreboard_names_clubs_and_players_in_constant_queries(match, anon):
    queries, board = _queries(anon, f"/api/v1/matches/{match.pk}/")
    assert queries <= 4
    for side, team in (("ns", match.ns), ("ew", match.ew)):
        detail = board[f"{side}_detail"]  # the team's id under its name, the team beside it (issue 29)
        assert board[side] == detail["id"] == team.pk and detail["club"] == {"id": team.club_id, "name": team.club.name}
        assert [p["name"] for p in detail["players"]] == [team.player_1.name, team.player_2.name]


@pytest.mark.parametrize("suffix", ["", "entries/", "rounds/", "standings/"])
def test_a_tournament_is_reached_by_its_slug(tournament, anon, suffix):
    _enter(tournament, 2)
    by_id = anon.get(f"/api/v1/tournaments/{tournament.pk}/{suffix}")
    by_slug = anon.get(f"/api/v1/tournaments/{tournament.slug}/{suffix}")
    assert by_id.status_code == by_slug.status_code == 200
    assert by_id.json() == by_slug.json()


def test_writes_by_slug_and_unknown_or_private_slugs(tournament, organizer, private_tournament, anon):
    response = client_for(organizer).patch(f"/api/v1/tournaments/{tournament.slug}/", {"rounds": 9}, format="json")
    assert response.status_code == 200 and response.json()["rounds"] == 9
    team = TeamFactory()
    entered = client_for(organizer).post(f"/api/v1/tournaments/{tournament.slug}/entries/", {"team": team.pk},
                                         format="json")
    assert entered.status_code == 201
    assert anon.get("/api/v1/tournaments/no-such-tournament/").status_code == 404
    assert anon.get(f"/api/v1/tournaments/{private_tournament.slug}/").status_code == 404
    assert anon.get(f"/api/v1/tournaments/{private_tournament.slug}/standings/").status_code == 404
    body = anon.get("/api/v1/tournaments/no-such-tournament/rounds/").json()
    assert body["type"] == "client_error" and body["errors"][0]["code"] == "not_found"
