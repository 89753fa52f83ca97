"""Conditional GET for every door (api/, web/): whether an If-None-Match names an ETag, and the ETags themselves.

HTTP-agnostic: a door hands over the request's If-None-Match header (a string, or None) and builds its
own response (a 304, a body). An answer's ETag is made of its version stamps (``tournaments.versions``,
whose ``*_keys`` functions name the stamps of each answer) and of whatever else changes its body, so a
304 reads the stamps only; without stamps (no cache) it is a hash of the body itself.
"""

from __future__ import annotations

import hashlib

from django.utils.http import parse_etags

from tournaments import versions


def etag_listed(if_none_match: str | None, etag: str) -> bool:
    """Tell whether an If-None-Match header names ``etag`` (its weak form ``W/`` too) or is ``*``."""
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return "*" in tags or etag in tags or f"W/{etag}" in tags


def etag_named(if_none_match: str | None, etag: str) -> bool:
    """Tell whether an If-None-Match header names exactly ``etag`` (or its weak form): never ``*``, for an answer
    built from stamps alone, whose page may not exist (only building it would tell).

    The weak form counts (If-None-Match compares weakly, RFC 9110 13.1.2): the GZip middleware sends a strong tag
    as ``W/"..."`` with the body it compressed, and a browser sends it back so. Without it, every poll of a
    browser, which asks for gzip, was answered with the whole region again, never a 304.
    """
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return etag in tags or f"W/{etag}" in tags


def stamped_etag(stamp: str, *parts) -> str:
    """Return the strong ETag of an answer from its stamps and whatever else changes it (language, path, viewer)."""
    return versions.etag(stamp, *parts)


def body_etag(body: bytes) -> str:
    """Return the strong ETag of a body built without stamps: a hash of its bytes."""
    return '"%s"' % hashlib.sha256(body).hexdigest()[:40]
