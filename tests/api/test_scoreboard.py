"""The match scoreboard: games, hands with running totals, the next deal; ETag, 304, constant queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import client_for
from tests.api.deals import summary
from tournaments import versions
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db

SEATS = "NESW"


def enter(match, count, start=0, ns=37):
    for i in range(start, start + count):
        hand_enter(match=match, data=summary(SEATS[i % 4], ns))


def test_the_scoreboard_shows_every_hand_with_running_totals(match, anon):
    enter(match, 3)
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    ns = match.ns
    assert board["ns"] == match.ns_id and board["ew"] == match.ew_id  # the ids, the teams beside them (issue 29)
    assert board["ns_detail"] == {"id": match.ns_id, "name": "De Manilles",
                                  "club": {"id": ns.club_id, "name": ns.club.name},
                                  "players": [{"id": ns.player_1_id, "name": ns.player_1.name},
                                              {"id": ns.player_2_id, "name": ns.player_2.name}]}
    assert board["ew_detail"]["name"] == "De Muulen" and len(board["ew_detail"]["players"]) == 2
    assert (board["status"], board["games_won"], board["winner"], board["best_of"]) == (
        "playing", {"ns": 0, "ew": 0}, None, 3)
    assert (board["next_dealer"], board["next_multiplier"], board["current_game"]) == ("W", 1, 1)
    game = board["games"][0]
    assert [h["totals"] for h in game["hands"]] == [{"ns": 7, "ew": 0}, {"ns": 14, "ew": 0}, {"ns": 21, "ew": 0}]
    assert [h["dealer"] for h in game["hands"]] == ["N", "E", "S"]


def test_after_a_tie_the_next_hand_is_worth_double(match, anon):
    hand_enter(match=match, data=summary("N", 30, tricks=(4, 4)))
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    assert board["tie_pending"] is True and board["next_multiplier"] == 2


def test_etag_and_304(match, anon, scorekeeper):
    enter(match, 2)
    url = f"/api/v1/matches/{match.pk}/"
    first = anon.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and "no-cache" in first["Cache-Control"]
    again = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    assert anon.get(url, HTTP_IF_NONE_MATCH=f'"other", {etag}').status_code == 304
    assert anon.get(url, HTTP_IF_NONE_MATCH='"stale"').status_code == 200
    # A new hand (or a correction) changes the ETag.
    client_for(scorekeeper).post(f"{url}hands/", summary("S"), format="json")
    changed = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_number_of_queries_does_not_grow_with_the_hands(match, anon, scorekeeper):
    url = f"/api/v1/matches/{match.pk}/"
    enter(match, 1)
    _queries(anon, url)  # a visitor's first request learns the match's tournament and that it is public
    versions.bump_now(versions.match_key(match.pk))  # the body is built again, as after a change
    few = _queries(anon, url)
    enter(match, 9, start=1, ns=50)  # 20 a hand: the first boam ends at the sixth hand
    many = _queries(anon, url)
    board = anon.get(url).json()
    assert len(board["games"]) == 2 and sum(len(g["hands"]) for g in board["games"]) == 10
    assert few == many <= 4
    assert _queries(client_for(scorekeeper), url) <= 5  # plus the token lookup


def test_a_missing_match_is_a_404(anon):
    assert anon.get("/api/v1/matches/999999/").status_code == 404
    assert anon.get(f"/api/v1/matches/{10**30}/").status_code == 404
