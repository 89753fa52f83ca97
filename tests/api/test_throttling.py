"""The throttles' counter in Redis (api/throttling.py): one script call a request, the window opened by the first."""

import shutil
import time

import pytest
from django.core.cache import cache

from api.throttling import COUNT_SCRIPT, WritesThrottle, _redis_count
from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.robustness.conftest import PrivateRedis


@pytest.fixture
def redis(settings):
    """The cache on a redis-server of the test's own, as production has it (django-redis)."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on the PATH (apt-get install redis-server)")
    server = PrivateRedis()
    server.start()
    settings.CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": server.url,
                                   "KEY_PREFIX": "throttle-tests"}}
    try:
        yield cache.client.get_client(write=True)
    finally:
        local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "api-tests"}
        settings.CACHES = {"default": local}  # as the API tests' own fixture left it, for its clean-up
        server.kill()


def test_the_first_request_opens_the_window_and_the_next_count_in_it(redis):
    key = cache.client.make_key("throttle_count_writes_7")
    assert [_redis_count(cache, "throttle_count_writes_7", 60) for _ in range(3)] == [1, 2, 3]
    assert 59_000 < redis.pttl(key) <= 60_000
    assert cache.ttl("throttle_count_writes_7") in (59, 60)  # what Retry-After reads (CountingMixin.wait)
    assert cache.get("throttle_count_writes_7") == 3


def test_a_count_left_without_an_expiry_gets_one(redis):
    cache.set("throttle_count_writes_8", 5, timeout=None)
    assert _redis_count(cache, "throttle_count_writes_8", 60) == 6
    assert 59_000 < redis.pttl(cache.client.make_key("throttle_count_writes_8")) <= 60_000


def test_the_window_closes(redis):
    assert _redis_count(cache, "throttle_count_writes_9", 0.05) == 1
    redis.pexpire(cache.client.make_key("throttle_count_writes_9"), 1)
    time.sleep(0.01)
    assert _redis_count(cache, "throttle_count_writes_9", 60) == 1


def test_one_script_call_a_request_even_after_redis_lost_its_scripts(redis):
    _redis_count(cache, "throttle_count_writes_10", 60)
    redis.script_flush()
    before = redis.info("commandstats")
    assert _redis_count(cache, "throttle_count_writes_10", 60) == 2  # NOSCRIPT: loaded again, then run
    assert _redis_count(cache, "throttle_count_writes_10", 60) == 3
    after = redis.info("commandstats")

    def calls(name):
        return after.get(f"cmdstat_{name}", {}).get("calls", 0) - before.get(f"cmdstat_{name}", {}).get("calls", 0)

    assert calls("evalsha") == 3 and calls("eval") == 0  # the script's text is not sent with each request
    assert redis.script_exists(COUNT_SCRIPT.sha) == [True]  # loaded again under the sha every call names


@pytest.mark.django_db
def test_writes_are_refused_past_the_rate_with_the_window_s_time_left(redis, monkeypatch, match, scorekeeper):
    monkeypatch.setattr(WritesThrottle, "THROTTLE_RATES", {"writes": "2/min", "token": "20/min"})
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    assert client.post(url, summary("N"), format="json").status_code == 201
    assert client.post(url, summary("E"), format="json").status_code == 201
    refused = client.post(url, summary("S"), format="json")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    # The draft's header fields: the allowance, what is left of it, and the window's time left (Retry-After's).
    assert refused["RateLimit-Policy"] == '"writes";q=2;w=60'
    assert refused["RateLimit"] == f'"writes";r=0;t={refused["Retry-After"]}'


@pytest.mark.django_db
def test_throttled_answers_advertise_the_allowance_left(redis, monkeypatch, match, scorekeeper):
    monkeypatch.setattr(WritesThrottle, "THROTTLE_RATES", {"writes": "5/min", "token": "20/min"})
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    first = client.post(url, summary("N"), format="json")
    assert first.status_code == 201
    assert first["RateLimit-Policy"] == '"writes";q=5;w=60'
    assert first["RateLimit"] in ('"writes";r=4;t=60', '"writes";r=4;t=59')
    second = client.post(url, summary("E"), format="json")
    remaining, reset = second["RateLimit"].split(";")[1:]
    assert remaining == "r=3" and 0 < int(reset[2:]) <= 60
    # A refusal of the rules counts too, and says so.
    refused = client.post(url, {**summary("S"), "points": {"ns": 1, "ew": 1}}, format="json")
    assert refused.status_code == 400 and refused["RateLimit"].startswith('"writes";r=2;')
    # Reads are not throttled: no header.
    read = client.get(f"/api/v1/matches/{match.pk}/")
    assert read.status_code == 200 and "RateLimit" not in read and "RateLimit-Policy" not in read
