"""Issue #11, point 2: Redis down must not take the writes down (PostgreSQL is the source of truth).

A private redis-server backs the cache (throttles), the Celery broker and the channel layer; it is
killed; then results are entered through the API, a token is asked for, a hand goes through the
service the admin uses, and /healthz/ is read.
"""

import time

import pytest
from django.core.cache import cache
from api.models import AuthToken
from rest_framework.test import APIClient

from tests.api.deals import summary
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.robustness.conftest import celery_against, redis_settings
from tournaments.models import Hand, TaskRecord
from tournaments.services.hands import hand_enter

pytestmark = [pytest.mark.django_db, pytest.mark.celery_worker]  # celery_worker: not forced eager


@pytest.fixture
def down(settings, private_redis):
    """The service wired to a private Redis that answered once and is now dead."""
    redis_settings(settings, private_redis.url)
    with celery_against(private_redis.url) as app:
        cache.set("faults-probe", 1)  # the cache works while Redis is up
        assert cache.get("faults-probe") == 1
        private_redis.kill()
        yield app


@pytest.fixture
def scorekeeper_match(db):
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    user = UserFactory(username="keeper")
    user.set_password("keeper-password-1")
    user.save()
    tournament.scorekeepers.add(user)
    return user, MatchFactory(round__tournament=tournament, round__number=1, table=1)


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def test_a_hand_is_entered_and_answered_with_redis_down(down, scorekeeper_match, django_capture_on_commit_callbacks):
    user, match = scorekeeper_match
    client = token_client(user)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(f"/api/v1/matches/{match.pk}/hands/", summary("N", 37), format="json")
    elapsed = time.monotonic() - started
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 1
    assert Hand.objects.filter(game__match=match).count() == 1
    assert callbacks  # the standings recompute and the live publish were attempted after commit, and logged
    assert elapsed < 10, f"a write with Redis down took {elapsed:.1f}s"
    # A second write too (the throttle's fail-open is not a one-off).
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/matches/{match.pk}/hands/", summary("E", 30), format="json")
    assert response.status_code == 201, response.content


def test_a_token_is_issued_with_redis_down(down, scorekeeper_match):
    user, _ = scorekeeper_match
    response = APIClient().post("/api/v1/auth/token/", {"username": "keeper", "password": "keeper-password-1"},
                                format="json")
    assert response.status_code == 200, response.content
    assert response.json()["token"]


def test_the_service_the_admin_uses_stores_and_returns(down, scorekeeper_match, django_capture_on_commit_callbacks):
    user, match = scorekeeper_match
    with django_capture_on_commit_callbacks(execute=True):
        hand, created = hand_enter(match=match, data=summary("N", 37), user=user)
    assert created and Hand.objects.filter(pk=hand.pk).exists()


def test_a_pair_request_with_the_broker_down_is_recorded_failed_not_pending(down, django_capture_on_commit_callbacks):
    from tournaments.services.rounds import round_pair_request

    tournament = TournamentFactory()
    with django_capture_on_commit_callbacks(execute=True):
        record = round_pair_request(tournament=tournament, refuse_at_once=False)
    record.refresh_from_db()
    assert record.status == TaskRecord.Status.FAILED
    assert record.error["code"] == "queue_unavailable"


def test_healthz_answers_json_naming_the_cache_and_redis(down):
    started = time.monotonic()
    response = APIClient().get("/healthz/", HTTP_ACCEPT="text/html")
    assert time.monotonic() - started < 10
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    failing = {name for name, state in body.items() if state != "OK"}
    assert any("Cache" in name for name in failing), body
    assert any("Redis" in name for name in failing), body
    assert all(state == "OK" for name, state in body.items() if "Database" in name), body


def test_healthz_answers_json_200_when_all_is_well(db):
    response = APIClient().get("/healthz/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert set(response.json().values()) == {"OK"}
