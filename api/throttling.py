"""Throttles: writes per user (scope ``writes``) and token requests per client (scope ``token``).

The counters live in the cache (Redis in production). PostgreSQL, not the cache, is the source of
truth: when the cache cannot be reached the throttles *fail open* (the request is allowed and the
outage is logged, at most once a minute per process), so a Redis outage never refuses a result.

Each throttle is a counter (``CountingMixin``): one increment a request, one script call on Redis.
DRF's own throttles keep the list of the request times under the key, and read and write that whole
list (up to the rate's number of pickled times) on every request: at 600 writes a minute, the most
expensive part of a hand POST after the database.
"""

import logging
import time

from redis.commands.core import Script
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from tournaments.commit_cache import is_django_redis

logger = logging.getLogger(__name__)

_LOG_EVERY = 60.0
_last_logged = [0.0]


def _cache_unavailable(scope: str) -> None:
    now = time.monotonic()
    if now - _last_logged[0] >= _LOG_EVERY:
        _last_logged[0] = now
        logger.warning("throttle %r: the cache is unavailable; requests are let through", scope, exc_info=True)


class FailOpenMixin:
    """Let the request through (and log) when the throttle's cache raises."""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception:  # django-redis ConnectionInterrupted, redis ConnectionError, timeouts...
            _cache_unavailable(self.scope)
            return True


# One script call counts the request and opens the window when it is the first (or when a key was left
# without an expiry): django-redis's incr() sends its own script's text every time, and a request that
# opens the window takes two more round trips (incr refused, then add).
# The script is bytes, so it needs no client to be made; each call names its client (EVALSHA, the script
# loaded again if Redis lost it).
COUNT_SCRIPT = Script(None, b"""
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
""")


def _redis_count(cache, key: str, duration: float) -> int | None:
    """The request's number in its window, counted in Redis by one script call; None without django-redis."""
    if not is_django_redis(cache):
        return None
    client = cache.client
    conn = client.get_client(write=True)
    return int(COUNT_SCRIPT(keys=[client.make_key(key)], args=[int(duration * 1000)], client=conn))


class CountingMixin:
    """Count the requests of a window of the rate's duration that the first of them opens.

    The price of one increment instead of DRF's list: the window is fixed, not sliding (a client may
    spend its allowance at the end of one window and again at the start of the next). The key
    differs from DRF's, so a list left by an earlier version is never read as a count.
    """

    cache_format = "throttle_count_%(scope)s_%(ident)s"

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        count = _redis_count(self.cache, self.key, self.duration)
        if count is None:  # another cache (the zero-setup run's, the tests')
            try:
                count = self.cache.incr(self.key)
            except ValueError:  # no window open: this request opens one
                count = 1 if self.cache.add(self.key, 1, self.duration) else self.cache.incr(self.key)
        return count <= self.num_requests

    def wait(self):
        """Seconds until the window closes (the key's time to live where the cache tells it)."""
        ttl = getattr(self.cache, "ttl", None)
        remaining = ttl(self.key) if ttl is not None else None
        return remaining if remaining and remaining > 0 else self.duration


class WritesThrottle(FailOpenMixin, CountingMixin, UserRateThrottle):
    """Throttle unsafe methods per user (per IP when anonymous); reads are not throttled."""

    scope = "writes"

    @staticmethod
    def applies_to_method(method: str) -> bool:
        """Tell whether requests of this method count against the rate."""
        return method.upper() not in SAFE_METHODS

    def allow_request(self, request, view):
        if not self.applies_to_method(request.method):
            return True
        return super().allow_request(request, view)


class TokenThrottle(FailOpenMixin, CountingMixin, AnonRateThrottle):
    """Throttle token requests per client address, whoever they claim to be."""

    scope = "token"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
