"""Throttles: writes per user (scope ``writes``) and token requests per client (scope ``token``).

The counters live in the cache (Redis in production). PostgreSQL, not the cache, is the source of
truth: when the cache cannot be reached the throttles *fail open* (the request is allowed and the
outage is logged, at most once a minute per process), so a Redis outage never refuses a result.

Each throttle is a counter (``CountingMixin``): one increment a request, one script call on Redis.
DRF's own throttles keep the list of the request times under the key, and read and write that whole
list (up to the rate's number of pickled times) on every request: at 600 writes a minute, the most
expensive part of a hand POST after the database.

Every answer a throttle counted carries the IETF draft's header fields (draft-ietf-httpapi-ratelimit-headers):
``RateLimit-Policy: "writes";q=600;w=60`` (the allowance and its window, in seconds) and
``RateLimit: "writes";r=597;t=42`` (what is left of it and the seconds until the window closes), from the
same script call that counts the request; a 429 adds ``Retry-After`` (the same seconds). Reads are not
throttled and carry neither.
"""

import logging
import math
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
# It answers the window's time left too (milliseconds), for the RateLimit header and Retry-After.
COUNT_SCRIPT = Script(None, b"""
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}
""")


def _redis_count_and_ttl(cache, key: str, duration: float) -> tuple[int, int] | None:
    """The request's number in its window and the window's milliseconds left, counted in Redis by one script
    call; None without django-redis."""
    if not is_django_redis(cache):
        return None
    client = cache.client
    conn = client.get_client(write=True)
    count, ttl = COUNT_SCRIPT(keys=[client.make_key(key)], args=[int(duration * 1000)], client=conn)
    return int(count), int(ttl)


def _redis_count(cache, key: str, duration: float) -> int | None:
    """The request's number in its window, counted in Redis by one script call; None without django-redis."""
    found = _redis_count_and_ttl(cache, key, duration)
    return None if found is None else found[0]


def _advertise(view, scope: str, limit: int, remaining: int, window: float, reset: float) -> None:
    """Add the RateLimit-Policy and RateLimit header fields (the draft's list items) to the view's answer."""
    headers = getattr(view, "headers", None)
    if headers is None:
        return
    for name, item in (("RateLimit-Policy", f'"{scope}";q={limit};w={max(1, math.ceil(window))}'),
                       ("RateLimit", f'"{scope}";r={max(0, remaining)};t={max(0, math.ceil(reset))}')):
        headers[name] = f"{headers[name]}, {item}" if name in headers else item


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
        found = _redis_count_and_ttl(self.cache, self.key, self.duration)
        if found is None:  # another cache (the zero-setup run's, the tests')
            try:
                count = self.cache.incr(self.key)
            except ValueError:  # no window open: this request opens one
                count = 1 if self.cache.add(self.key, 1, self.duration) else self.cache.incr(self.key)
            self.reset = self._ttl()
        else:
            count, ttl_ms = found
            self.reset = ttl_ms / 1000 if ttl_ms > 0 else self.duration
        _advertise(view, self.scope, self.num_requests, self.num_requests - count, self.duration, self.reset)
        return count <= self.num_requests

    def _ttl(self) -> float:
        """Seconds until the window closes: the key's time to live where the cache tells it, else the window."""
        ttl = getattr(self.cache, "ttl", None)
        remaining = ttl(self.key) if ttl is not None else None
        return remaining if remaining and remaining > 0 else self.duration

    def wait(self):
        """Seconds until the window closes (as the RateLimit header's ``t`` says)."""
        reset = getattr(self, "reset", None)
        return math.ceil(reset) if reset else self._ttl()


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
