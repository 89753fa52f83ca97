"""One error shape whatever raised it; tokens, sessions and throttling."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.throttling import TokenThrottle, WritesThrottle
from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def assert_shape(response, status, type_, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"type", "errors"} and body["type"] == type_
    assert all(set(e) == {"code", "attr", "detail"} for e in body["errors"])
    assert code in [e["code"] for e in body["errors"]]
    return body


def test_unknown_paths_are_404s_in_the_shape(anon):
    assert_shape(anon.get("/api/v1/nowhere/"), 404, "client_error", "not_found")
    assert_shape(anon.post("/api/v1/clubs/abc/", {}, format="json"), 404, "client_error", "not_found")
    assert_shape(anon.get("/api/v1/clubs/999999/"), 404, "client_error", "not_found")
    assert_shape(anon.get(f"/api/v1/tournaments/{10**30}/"), 404, "client_error", "not_found")


def test_a_method_not_allowed_is_a_405(anon, stranger):
    assert_shape(anon.delete("/api/v1/variants/belgian-manille/"), 405, "client_error", "method_not_allowed")
    assert_shape(client_for(stranger).put("/api/v1/hands/1/", {}, format="json"), 405, "client_error",
                 "method_not_allowed")


@pytest.mark.parametrize("body", ["{bad", '{"dealer": "N",}', "\x00", "[1, 2"])
def test_malformed_json_is_a_400(match, scorekeeper, body):
    response = client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", body,
                                            content_type="application/json")
    assert_shape(response, 400, "client_error", "parse_error")


def test_an_unsupported_media_type_is_a_415(anon):
    response = anon.post("/api/v1/variants/belgian-manille/score/", "dealer=N", content_type="text/plain")
    assert_shape(response, 415, "client_error", "unsupported_media_type")


def test_a_bad_token_is_a_401(anon):
    anon.credentials(HTTP_AUTHORIZATION="Token nope")
    assert_shape(anon.get("/api/v1/clubs/"), 401, "client_error", "authentication_failed")


@pytest.mark.parametrize("body", [
    {"dealer": "N", "tricks": {"ns": 10**40, "ew": 0}},
    {"dealer": "N", "doublings": -1},
    {"dealer": "N", "penalty": {"type": "signalling"}},
    {"dealer": "N", "play": {"hands": {"N": "10S"}, "cards": []}},
    {"dealer": "N", "trump": "H" * 50},
    {"dealer": "N", "turned_card": "\u2660"},
    {"dealer": None},
    {"dealer": "N", "score": {"ns": 1.5, "ew": 0}},
    {"dealer": "N", "number": 0},
    [summary()],
])
def test_odd_hands_are_400s_never_500s(match, scorekeeper, body):
    response = client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", body, format="json")
    assert_shape(response, 400, "validation_error", response.json()["errors"][0]["code"])


def test_token_and_me(stranger):
    stranger.set_password("s3cret-pass")
    stranger.save()
    client = APIClient()
    response = client.post("/api/v1/auth/token/", {"username": "stranger", "password": "s3cret-pass"}, format="json")
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = client.get("/api/v1/auth/me/").json()
    assert (me["username"], me["is_staff"], me["managed_clubs"]) == ("stranger", False, [])
    bad = APIClient().post("/api/v1/auth/token/", {"username": "stranger", "password": "wrong"}, format="json")
    assert_shape(bad, 400, "validation_error", "authorization")
    assert_shape(APIClient().get("/api/v1/auth/me/"), 401, "client_error", "not_authenticated")


def test_sessions_work_with_csrf(club, manager):
    client = Client(enforce_csrf_checks=True)
    client.force_login(manager)
    refused = client.patch(f"/api/v1/clubs/{club.pk}/", {"city": "Brugge"}, content_type="application/json")
    assert_shape(refused, 403, "client_error", "permission_denied")
    secret = "k" * 32  # Django checks the header against the csrftoken cookie
    client.cookies["csrftoken"] = secret
    ok = client.patch(f"/api/v1/clubs/{club.pk}/", {"city": "Brugge"}, content_type="application/json",
                      HTTP_X_CSRFTOKEN=secret)
    assert ok.status_code == 200 and ok.json()["city"] == "Brugge"


def test_writes_are_throttled(monkeypatch, match, scorekeeper):
    monkeypatch.setattr(WritesThrottle, "THROTTLE_RATES", {"writes": "2/min", "token": "20/min"})
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    assert client.post(url, summary("N"), format="json").status_code == 201
    assert client.post(url, summary("E"), format="json").status_code == 201
    body = assert_shape(client.post(url, summary("S"), format="json"), 429, "client_error", "throttled")
    assert "seconds" in body["errors"][0]["detail"]
    assert client.get(f"/api/v1/matches/{match.pk}/").status_code == 200  # reads are not throttled
    # Another user has their own allowance.
    other = UserFactory()
    match.round.tournament.scorekeepers.add(other)
    assert client_for(other).post(url, summary("S"), format="json").status_code == 201


def test_token_requests_are_throttled(monkeypatch):
    monkeypatch.setattr(TokenThrottle, "THROTTLE_RATES", {"writes": "600/min", "token": "2/min"})
    client = APIClient()
    for _ in range(2):
        client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json")
    response = client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json")
    assert_shape(response, 429, "client_error", "throttled")
    assert response["Retry-After"]
