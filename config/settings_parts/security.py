"""HTTPS and the Content-Security-Policy: what config/settings.py sets once DEBUG is off (or when asked)."""

import os

from config.env import env_bool


def https_settings(secure_https: bool) -> dict:
    """Return the HTTPS settings: HSTS, the redirect and secure cookies when ``secure_https``, none forced otherwise.

    A plain-HTTP install on a club's LAN turns them off with SECURE_HTTPS=0.
    """
    if secure_https:
        return {
            "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
            "SECURE_SSL_REDIRECT": env_bool("SECURE_SSL_REDIRECT", True),
            # The container's health probe speaks plain HTTP on loopback.
            "SECURE_REDIRECT_EXEMPT": [r"^healthz/$"],
            "SECURE_HSTS_SECONDS": int(os.environ.get("SECURE_HSTS_SECONDS", 31536000)),
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False),
            "SECURE_HSTS_PRELOAD": False,
            "SESSION_COOKIE_SECURE": env_bool("SESSION_COOKIE_SECURE", True),
            "CSRF_COOKIE_SECURE": env_bool("CSRF_COOKIE_SECURE", True),
        }
    return {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SESSION_COOKIE_SECURE": env_bool("SESSION_COOKIE_SECURE", False),
        "CSRF_COOKIE_SECURE": env_bool("CSRF_COOKIE_SECURE", False),
    }


def content_security_policy() -> dict:
    """Return CONTENT_SECURITY_POLICY (django-csp): everything from the site itself, no inline scripts.

    Every script, style, font and image comes from the site (WhiteNoise; Swagger UI from
    drf-spectacular-sidecar), live updates over WebSockets to the same host. Inline styles are
    allowed for the admin and Swagger UI.
    """
    from csp.constants import NONE, SELF

    return {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF],
            "style-src": [SELF, "'unsafe-inline'"],
            "img-src": [SELF, "data:"],
            "font-src": [SELF, "data:"],
            "connect-src": [SELF, "ws:", "wss:"],
            "worker-src": [SELF, "blob:"],  # ReDoc's search runs in a worker made from a blob
            "frame-ancestors": [NONE],
            "object-src": [NONE],
            "base-uri": [SELF],
            "form-action": [SELF],
        },
    }
