"""Conditional and cached answers: 304 from the version stamps, bodies kept per version (tournaments.versions).

``versioned(request, keys, parts, build)`` answers a GET whose body depends only on the writes the
stamps ``keys`` follow and on ``parts`` (the path's ids, the query, the language):

* the ETag is made of the stamps and ``parts``, so a 304 reads the stamps (one cache round trip)
  and never builds the body;
* otherwise the rendered JSON is read from the cache under that ETag, or built once by ``build()``
  and kept there (with its gzip compression, served to clients that accept it);
* when the cache is unavailable the body is built and its hash is the ETag, as before the stamps.

Who may see the answer is checked by the caller first: the cached body is the same for all who may.
For a visitor who is not signed in, ``public_answer`` checks it from the cache too (no SQL for a 304).
"""

from __future__ import annotations

import gzip
import re

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework.renderers import JSONRenderer

from tournaments import versions
from tournaments.conditional import body_etag, etag_listed, stamped_etag

BODY_TIMEOUT = 3600  # a body outlives its version at most an hour (a new stamp never reads it again)
GZIP_MIN = 1024      # smaller bodies are sent as they are
_GZIP = re.compile(r"\bgzip\b")


def not_modified(request, etag: str) -> bool:
    """Tell whether the request's If-None-Match names ``etag`` (or ``*``)."""
    return etag_listed(request.headers.get("If-None-Match"), etag)


def _answer(request, etag: str, body: bytes | None, packed: bytes | None) -> HttpResponse:
    if body is None:
        response = HttpResponse(status=304)
    elif packed is not None and _GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(packed, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type="application/json")
    if packed is not None or body is None:
        patch_vary_headers(response, ["Accept-Encoding"])
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def _pack(body: bytes) -> bytes | None:
    return gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_MIN else None


_UNREAD = object()


def versioned(request, keys: tuple[str, ...], parts: tuple, build, stamp=_UNREAD) -> HttpResponse:
    """Answer a JSON GET by its version stamps (module docstring); ``build()`` returns the JSON-ready data.

    ``stamp``: the stamps of ``keys`` when the caller read them already (``public_answer``).
    """
    lang = getattr(request, "LANGUAGE_CODE", "")
    if stamp is _UNREAD:
        stamp = versions.stamps(*keys)
    if stamp is None:  # no cache: the body's own hash, built every time
        body = JSONRenderer().render(build())
        etag = body_etag(body)
        if not_modified(request, etag):
            return _answer(request, etag, None, None)
        return _answer(request, etag, body, _pack(body))
    etag = stamped_etag(stamp, lang, *parts)
    if not_modified(request, etag):
        return _answer(request, etag, None, None)
    key = f"body:{etag.strip(chr(34))}"
    try:
        kept = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache went away meanwhile: build
        kept = None
    if kept is None:
        body = JSONRenderer().render(build())
        kept = (body, _pack(body))
        try:
            cache.set(key, kept, timeout=BODY_TIMEOUT)
        except Exception:  # noqa: BLE001
            pass
    return _answer(request, etag, *kept)


def _public_stamps(request, tournament_id: int, keys: tuple[str, ...]) -> tuple[str | None, bool]:
    # A visitor's request reads them once: the early 304 check (VisitorNotModified) leaves them to the view.
    kept = getattr(request, "_visitor_stamps", None)
    if kept is not None and kept[0] == (tournament_id, keys):
        return kept[1]
    found = versions.public_stamps(tournament_id, *keys)
    request._visitor_stamps = ((tournament_id, keys), found)
    return found


def public_answer(request, tournament_id: int | None, keys: tuple[str, ...], parts: tuple, build) -> HttpResponse:
    """``versioned`` for a visitor who is not signed in: a public tournament's answer, 404 for any other.

    Whether the tournament is public comes with the stamps (``versions.public_stamps``): a 304 costs
    one cache round trip and no SQL. ``keys`` must hold the tournament's own stamp.
    """
    if tournament_id is None:
        raise Http404
    stamp, public = _public_stamps(request, tournament_id, keys)
    if not public:
        raise Http404
    return versioned(request, keys, parts, build, stamp=stamp)


_PLAIN_ACCEPT = frozenset({"", "*/*", "application/json"})


class VisitorNotModified:
    """A view mixin: a visitor's conditional GET that has not changed is answered 304 before DRF's request machinery.

    DRF's authentication, content negotiation and permission checks were half the time of such a 304. A
    request with no token, no signed-in session, no format suffix and an ``Accept`` any JSON answer meets
    needs none of them: its ``public_answer`` is checked at once, and a 304 leaves with the headers DRF
    gives it (``Allow``, ``Vary``). Any other request, and any answer but a 304, goes through DRF as before
    (with the stamps already read). ``visitor_versions`` names the answer.
    """

    def visitor_versions(self, request, kwargs) -> tuple[int, tuple[str, ...], tuple] | None:
        """The tournament id, the stamps' keys and the ETag's parts of the ``public_answer`` a visitor's GET
        gets (None: no early check for it: another action, or not known without SQL)."""
        return None

    def dispatch(self, request, *args, **kwargs):
        meta = request.META
        if (request.method == "GET" and "HTTP_IF_NONE_MATCH" in meta and "HTTP_AUTHORIZATION" not in meta
                and meta.get("HTTP_ACCEPT", "") in _PLAIN_ACCEPT and "format" not in kwargs
                and not request.user.is_authenticated):
            try:
                etag = self._visitor_etag(request, kwargs)
            except Exception:  # noqa: BLE001 - the database away, say: DRF's path meets it and answers it its way
                etag = None
            if etag is not None and not_modified(request, etag):
                self.args, self.kwargs, self.request = args, kwargs, request
                self.headers = self.default_response_headers
                return self.finalize_response(request, _answer(request, etag, None, None))
        return super().dispatch(request, *args, **kwargs)

    def _visitor_etag(self, request, kwargs) -> str | None:
        found = self.visitor_versions(request, kwargs)
        if found is None:
            return None
        tournament_id, keys, parts = found
        stamp, public = _public_stamps(request, tournament_id, keys)
        if not public or stamp is None:
            return None
        return stamped_etag(stamp, getattr(request, "LANGUAGE_CODE", ""), *parts)
