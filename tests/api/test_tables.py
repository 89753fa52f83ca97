"""A whole round's tables and the live matches in one request (issue 29, point 4): names, points, ETag, 304."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.factories import MatchFactory, RoundFactory, TeamFactory
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def test_every_table_of_a_round_with_names_players_and_points(match, tournament, anon):
    hand_enter(match=match, data=summary("N"))
    bye = MatchFactory(round=match.round, table=2, ns=TeamFactory(name="Troef Zot", club=match.ns.club), ew=None)
    body = anon.get(f"/api/v1/tournaments/{tournament.slug}/rounds/1/tables/").json()
    assert (body["number"], body["status"]) == (1, "playing")
    first, second = body["tables"]
    assert first["id"] == match.pk and first["table"] == 1 and first["round"] == 1 and first["bye"] is False
    assert first["ns"] == match.ns.pk and first["ns_detail"] == {
        "id": match.ns.pk, "name": "De Manilles", "club": {"id": match.ns.club_id, "name": "De Zwarte Kat"}}
    assert first["ew_detail"]["name"] == "De Muulen"
    assert first["players"]["ns"] == [{"id": p.pk, "name": p.name} for p in (match.ns.player_1, match.ns.player_2)]
    assert len(first["players"]["ew"]) == 2
    assert first["status"] == "playing" and first["result_status"] is None and first["winner"] is None
    assert first["games_won"] == {"ns": 0, "ew": 0}
    assert first["game"] == {"number": 1, "status": "playing", "totals": {"ns": 7, "ew": 0}}
    assert first["points"] == {"ns": 7, "ew": 0}
    assert second["id"] == bye.pk and second["bye"] is True and second["ew"] is None
    assert second["players"]["ew"] == [] and second["game"] is None


def test_a_finished_match_is_final(match, tournament, anon):
    bye = MatchFactory(round=match.round, table=2, ns=TeamFactory(club=match.ns.club), ew=None)
    from tournaments.services.games import match_refresh_result

    match_refresh_result(bye)
    tables = anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/").json()["tables"]
    assert tables[1]["status"] == "finished" and tables[1]["result_status"] == "final"
    assert tables[1]["winner"] == "ns"


def test_the_tables_answer_an_etag_that_changes_with_every_hand(match, tournament, anon, scorekeeper):
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/"
    first = anon.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    with CaptureQueriesContext(connection) as ctx:
        again = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and len(ctx.captured_queries) == 0
    client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", summary("N"), format="json")
    changed = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["tables"][0]["game"]["totals"] == {"ns": 7, "ew": 0}
    # By slug, signed in: the same answer.
    keeper = client_for(scorekeeper)
    by_slug = keeper.get(f"/api/v1/tournaments/{tournament.slug}/rounds/1/tables/")
    assert by_slug.json() == changed.json()
    assert keeper.get(f"/api/v1/tournaments/{tournament.slug}/rounds/1/tables/",
                      HTTP_IF_NONE_MATCH=by_slug["ETag"]).status_code == 304


def test_a_renamed_team_changes_the_tables(match, tournament, anon):
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/"
    etag = anon.get(url)["ETag"]
    match.ns.name = "De Nieuwe Manilles"
    match.ns.save()
    renamed = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert renamed.status_code == 200 and renamed.json()["tables"][0]["ns_detail"]["name"] == "De Nieuwe Manilles"


def _round_of(tournament, number, tables):
    rnd = RoundFactory(tournament=tournament, number=number)
    for table in range(1, tables + 1):
        match = MatchFactory(round=rnd, table=table, ns=TeamFactory(), ew=TeamFactory())
        hand_enter(match=match, data=summary("N"))
    return rnd


@pytest.mark.parametrize("who", ["visitor", "scorekeeper"])
def test_the_query_count_does_not_grow_with_the_tables(tournament, scorekeeper, who):
    _round_of(tournament, 1, 2)
    _round_of(tournament, 2, 30)
    client = client_for(scorekeeper if who == "scorekeeper" else None)
    client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/")  # a visitor: whether it is public is then kept
    counts = {}
    for number in (1, 2):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/{number}/tables/")
        assert response.status_code == 200
        counts[number] = len(ctx.captured_queries)
        assert len(response.json()["tables"]) == (2 if number == 1 else 30)
    # The tournament (visible), the round, its matches with teams, clubs and players, their games; and the
    # token's lookup for a signed-in client: 4 queries for 2 tables as for 30 (5 signed in).
    assert counts[1] == counts[2] == (5 if who == "scorekeeper" else 4), counts
    with CaptureQueriesContext(connection) as ctx:
        live = client.get(f"/api/v1/tournaments/{tournament.pk}/live/")
    assert len(live.json()["tables"]) == 32
    assert len(ctx.captured_queries) == (4 if who == "scorekeeper" else 3)  # no round to read


def test_the_live_matches_are_those_being_played(match, tournament, anon, scorekeeper):
    url = f"/api/v1/tournaments/{tournament.slug}/live/"
    assert anon.get(url).json() == {"tables": []}
    etag = anon.get(url)["ETag"]
    client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", summary("N"), format="json")
    live = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert live.status_code == 200
    [row] = live.json()["tables"]
    assert row["id"] == match.pk and row["status"] == "playing" and row["players"]["ns"][0]["name"]
    assert anon.get(url, HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 304


def test_private_tournaments_stay_hidden(private_match, private_tournament, anon, staff, stranger):
    for path in ("rounds/1/tables/", "live/"):
        url = f"/api/v1/tournaments/{private_tournament.pk}/{path}"
        etag = client_for(staff).get(url)["ETag"]
        assert anon.get(url).status_code == 404
        assert anon.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
        assert client_for(stranger).get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
        assert client_for(stranger).get(url).status_code == 404


def test_an_unknown_round_is_a_404_and_writes_are_refused(tournament, anon, organizer):
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/9/tables/").status_code == 404
    assert client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/live/", {}).status_code == 405
