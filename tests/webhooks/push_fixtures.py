"""The push channel's stores for the tests: in process, and on the Redis of REDIS_URL under a key prefix of its own."""

import os
import uuid

import pytest
from django.test import override_settings

from webhooks import push_store


def redis_caches(prefix: str) -> dict:
    return {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": os.environ["REDIS_URL"],
                        "KEY_PREFIX": prefix, "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1}}}


@pytest.fixture
def memory_store():
    """The store in this process's memory (the default cache is local memory), emptied before and after."""
    push_store._memory.reset()
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                               "LOCATION": f"push-{uuid.uuid4().hex}"}}):
        assert push_store.get() is push_store._memory
        yield push_store._memory
    push_store._memory.reset()


@pytest.fixture
def redis_store():
    """The store in Redis (the cache on REDIS_URL), under a key prefix of this test's; its keys deleted after.

    The cache is put back before the test's other fixtures end: one that empties the cache would empty the whole
    Redis database (django-redis's ``clear`` is ``FLUSHDB``)."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the Redis store needs REDIS_URL (bash .ci/run sets it)")
    import redis

    prefix = f"push-test-{uuid.uuid4().hex[:12]}"
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        with override_settings(CACHES=redis_caches(prefix)):
            store = push_store.get()
            assert store is push_store._redis
            yield store
    finally:
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


@pytest.fixture(params=["memory", "redis"])
def store(request):
    """Each test of the push channel on both stores."""
    return request.getfixturevalue(f"{request.param}_store")
