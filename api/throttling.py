"""Throttles: writes per user (scope ``writes``) and token requests per client (scope ``token``)."""

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class WritesThrottle(UserRateThrottle):
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


class TokenThrottle(AnonRateThrottle):
    """Throttle token requests per client address, whoever they claim to be."""

    scope = "token"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
