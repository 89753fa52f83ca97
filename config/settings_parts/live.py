"""CHANNEL_LAYERS: the live updates' channel layer (Django Channels).

With Redis, a change published by any process (web, worker) reaches the viewers of every web process;
without it the in-memory layer reaches only its own process, so the pages poll instead.
"""

import os


def channel_layers(redis_url: str) -> dict:
    """Return CHANNEL_LAYERS: Redis's layer when ``redis_url`` is set, else the in-memory one."""
    if redis_url:
        from redis.exceptions import ConnectionError as RedisConnectionError

        return {
            "default": {
                # channels_redis's layer with a pool that waits for a free connection (config/channel_layer.py).
                "BACKEND": "config.channel_layer.RedisChannelLayer",
                # A socket timeout above the layer's 5 s blocking pop: redis-py 8 defaults to 5 s, which would
                # end every idle socket's receive with a TimeoutError (django/channels_redis#422).
                # retry_on_error: after a Redis restart every kept connection is stale; a command that meets
                # one reconnects and is sent once more (redis-py's Retry), instead of failing a page's socket
                # (a 500) or losing the first live update.
                "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": 30, "socket_connect_timeout": 5,
                                      "retry_on_error": [RedisConnectionError],
                                      "max_connections": int(os.environ.get("CHANNEL_LAYER_MAX_CONNECTIONS", "50")),
                                      "timeout": float(os.environ.get("CHANNEL_LAYER_POOL_TIMEOUT", "10"))}],
                           "prefix": os.environ.get("CHANNELS_PREFIX", "manille-live")},
            }
        }
    return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
