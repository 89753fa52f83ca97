"""The polling fallback of the live regions: a region's HTML with a strong ETag, 304 when unchanged.

A visitor's unchanged poll of a public tournament's region is answered from the version stamps
(``tournaments.versions``) without rendering anything: one cache round trip (and, for a round, the
round's tournament read once a process). 250 pages polling every 1.5 s are 170 requests a second;
rendering the region for each of them (a round's tables, the standings) cost the web workers the
CPU the hands needed (bench/bench_night.py). A signed-in user, a private tournament or no cache:
the region is rendered and its ETag is its content's hash, as before.

A changed region is rendered once per (region, language, stamps) for every process: the rendering is
kept in the cache under its stamps (``RENDER_SECONDS``), so the 60 pages polling a round that changes
with every hand of the evening (three a second at 30 tables) cost three renderings a second per
language, not sixty.
"""

import hashlib
import logging

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from tournaments import versions
from tournaments.conditional import etag_listed, etag_named
from web.regions import REGION_KINDS, etag_of, render_region, stamped_etag

logger = logging.getLogger(__name__)

RENDER_SECONDS = 60  # a rendering kept under its stamps: any change replaces a stamp, so it is never stale


def region_keys(kind: str, pk: int) -> tuple[int, tuple[str, ...]] | None:
    """The tournament of a region and the version stamps of what it shows (None: no such region)."""
    if kind == "match":
        tournament_id = versions.match_tournament_id(pk)
        return None if tournament_id is None else (tournament_id, versions.scoreboard_keys(pk, tournament_id))
    if kind in ("round", "clock"):
        tournament_id = versions.round_tournament_id(pk)
        return None if tournament_id is None else (tournament_id, versions.results_keys(tournament_id))
    if kind == "standings":
        return pk, versions.standings_keys(pk)
    return pk, versions.wall_keys(pk)  # the wall: the tables and the standings


def _answer(response, etag: str):
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _kept_rendering(kind: str, pk: int, lang: str, stamp: str, user) -> str:
    """The region's rendering under these stamps: from the cache, or rendered now and kept there."""
    key = "live:r:" + hashlib.sha256(f"{kind}|{pk}|{lang}|{stamp}".encode()).hexdigest()[:40]
    try:
        html = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache away: render, as without one
        logger.warning("live region rendering not read from the cache", exc_info=True)
        html = None
    if html is None:
        html = render_region(kind, pk, lang, user)
        try:
            cache.set(key, html, RENDER_SECONDS)
        except Exception:  # noqa: BLE001
            logger.warning("live region rendering not kept in the cache", exc_info=True)
    return html


@require_GET
def region(request, kind: str, pk: int):
    """Answer a region's HTML in the request's language, or 304 when the page has it already."""
    if kind not in REGION_KINDS:
        raise Http404
    lang = request.LANGUAGE_CODE
    stamp = None
    if not request.user.is_authenticated:
        found = region_keys(kind, pk)
        if found is not None:
            # Read before rendering: a change in between makes the next poll render again, never miss it.
            stamp, public = versions.public_stamps(found[0], *found[1])
            if not public:
                stamp = None
    if stamp is not None:
        etag = stamped_etag(kind, pk, lang, stamp)
        if etag_named(request.headers.get("If-None-Match"), etag):  # this tag exactly, as the pages
            return _answer(HttpResponseNotModified(), etag)
        return _answer(HttpResponse(_kept_rendering(kind, pk, lang, stamp, request.user),
                                    content_type="text/html; charset=utf-8"), etag)
    html = render_region(kind, pk, lang, request.user)
    etag = etag_of(html, lang)
    if etag_listed(request.headers.get("If-None-Match"), etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
    return _answer(response, etag)
