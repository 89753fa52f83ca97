"""The IETF draft's RateLimit-Policy and RateLimit header fields on throttled endpoints (issue 29, point 5)."""

import pytest

from api.throttling import TokenThrottle, WritesThrottle
from tests.api.conftest import client_for
from tests.api.deals import summary

pytestmark = pytest.mark.django_db


def test_writes_carry_the_policy_and_what_is_left(monkeypatch, match, scorekeeper):
    monkeypatch.setattr(WritesThrottle, "THROTTLE_RATES", {"writes": "3/min", "token": "20/min"})
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    answers = [client.post(url, summary(seat), format="json") for seat in "NES"]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert {a["RateLimit-Policy"] for a in answers} == {'"writes";q=3;w=60'}
    # The local-memory cache tells no time to live: the window's whole length is the upper bound said.
    assert [a["RateLimit"] for a in answers] == [f'"writes";r={n};t=60' for n in (2, 1, 0)]
    refused = client.post(url, summary("W"), format="json")
    assert refused.status_code == 429 and refused.json()["errors"][0]["code"] == "throttled"
    assert refused["Retry-After"] == "60" and refused["RateLimit"] == '"writes";r=0;t=60'


def test_reads_are_not_throttled_and_carry_no_header(monkeypatch, match, anon, scorekeeper):
    monkeypatch.setattr(WritesThrottle, "THROTTLE_RATES", {"writes": "1/min", "token": "20/min"})
    client = client_for(scorekeeper)
    for _ in range(5):
        answer = client.get(f"/api/v1/matches/{match.pk}/")
        assert answer.status_code == 200 and "RateLimit" not in answer and "RateLimit-Policy" not in answer
    assert "RateLimit" not in anon.get("/api/v1/tournaments/")


def test_the_token_endpoint_advertises_its_own_policy(monkeypatch, db):
    from tests.factories import UserFactory

    monkeypatch.setattr(TokenThrottle, "THROTTLE_RATES", {"writes": "600/min", "token": "2/min"})
    UserFactory(username="an", password="secret-pass-1")
    client = client_for(None)
    ok = client.post("/api/v1/auth/token/", {"username": "an", "password": "secret-pass-1"}, format="json")
    assert ok.status_code == 200, ok.content
    assert ok["RateLimit-Policy"] == '"token";q=2;w=60' and ok["RateLimit"] == '"token";r=1;t=60'
