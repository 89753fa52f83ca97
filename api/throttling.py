"""Throttles: writes per user (scope ``writes``) and token requests per client (scope ``token``).

The counters live in the cache (Redis in production). PostgreSQL, not the cache, is the source of
truth: when the cache cannot be reached the throttles *fail open* (the request is allowed and the
outage is logged, at most once a minute per process), so a Redis outage never refuses a result.
"""

import logging
import time

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

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


class WritesThrottle(FailOpenMixin, UserRateThrottle):
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


class TokenThrottle(FailOpenMixin, AnonRateThrottle):
    """Throttle token requests per client address, whoever they claim to be."""

    scope = "token"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
