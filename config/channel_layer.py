"""The channel layer on Redis (Channels' ``channels_redis``), with a pool that waits for a free connection.

``channels_redis`` gives each event loop a ``redis.asyncio.ConnectionPool``, which holds at most
``max_connections`` (100 unless told) and raises ``MaxConnectionsError`` past them. When hundreds of
live pages close at once (the end of an evening, a reconnect storm) each socket's ``group_discard``
takes a connection, and the live server logged hundreds of "Too many connections" errors, leaving the
closed sockets in their groups until the groups expire (bench/bench_night.py). Here the pool is a
``BlockingConnectionPool``: a command waits up to ``timeout`` seconds for a connection instead.

The host's other options (``socket_timeout``, ``retry_on_error``…) go to the connections as before;
``max_connections`` and ``timeout`` (``CHANNEL_LAYER_MAX_CONNECTIONS``, ``CHANNEL_LAYER_POOL_TIMEOUT``) to
the pool.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer


class RedisChannelLayer(ChannelsRedisLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        return aioredis.BlockingConnectionPool.from_url(address, **host)
