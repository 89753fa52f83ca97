"""The channel layer's pool waits for a free connection instead of raising past its size (config/channel_layer.py):
hundreds of live pages closing at once no longer fail their group_discard with "Too many connections"."""

import asyncio
import os
import uuid

import pytest
from channels_redis.core import RedisChannelLayer as PlainLayer
from redis.exceptions import MaxConnectionsError

from config.channel_layer import RedisChannelLayer

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL: a real Redis")


def hosts(size: int) -> list[dict]:
    return [{"address": os.environ["REDIS_URL"], "max_connections": size, "timeout": 10}]


async def many_at_once(layer, count: int) -> list:
    group = f"test-{uuid.uuid4().hex[:8]}"
    channels = [await layer.new_channel() for _ in range(count)]
    await asyncio.gather(*(layer.group_add(group, c) for c in channels), return_exceptions=True)
    results = await asyncio.gather(*(layer.group_discard(group, c) for c in channels), return_exceptions=True)
    await layer.flush()
    return results


def test_a_burst_larger_than_the_pool_waits_for_connections():
    layer = RedisChannelLayer(hosts=hosts(4), prefix=f"t-{uuid.uuid4().hex[:6]}")
    results = asyncio.run(many_at_once(layer, 200))
    assert [r for r in results if isinstance(r, BaseException)] == []


def test_channels_redis_own_pool_raises_past_its_size():
    """What the live server met: the plain pool raises instead of waiting (the test above fails without ours)."""
    plain = PlainLayer(hosts=[{"address": os.environ["REDIS_URL"], "max_connections": 4}],
                       prefix=f"t-{uuid.uuid4().hex[:6]}")
    results = asyncio.run(many_at_once(plain, 200))
    assert any(isinstance(r, MaxConnectionsError) for r in results)
