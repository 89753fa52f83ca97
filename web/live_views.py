"""The polling fallback of the live regions: a region's HTML with a strong ETag, 304 when unchanged.

A visitor's unchanged poll of a public tournament's region is answered from the version stamps
(``tournaments.versions``) without rendering anything: one cache round trip (and, for a round, the
round's tournament read once a process). 250 pages polling every 1.5 s are 170 requests a second;
rendering the region for each of them (a round's tables, the standings) cost the web workers the
CPU the hands needed (bench/bench_night.py). A signed-in user, a private tournament or no cache:
the region is rendered and its ETag is its content's hash, as before.

A changed region is rendered once per change for every process (``web.regions.kept_rendering``: kept in
the cache), so the 60 pages polling a round cost one rendering per change and language, not sixty; a
region of the whole tournament (its round, standings, wall) at most once every ``LIVE_WIDE_SECONDS``
however many tables enter hands: a championship's 136 tables change it nine times a second.
"""

import re

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from tournaments import versions
from tournaments.conditional import etag_listed, etag_named
from web.regions import REGION_KINDS, etag_of, kept_rendering, region_keys, render_region, stamped_etag, unpacked

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # the GZip middleware's test


def _answer(response, etag: str):
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


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
        packed, shown = kept_rendering(kind, pk, lang, stamp, request.user)
        if shown != stamp:  # a wide region rendered under earlier stamps, within LIVE_WIDE_SECONDS
            etag = stamped_etag(kind, pk, lang, shown)
            if etag_named(request.headers.get("If-None-Match"), etag):
                return _answer(HttpResponseNotModified(), etag)
        if not _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            return _answer(HttpResponse(unpacked(packed), content_type="text/html; charset=utf-8"), etag)
        # Compressed once, when it was rendered (the GZip middleware leaves an encoded answer alone); its tag weak,
        # as that middleware makes it: the same tag whoever compressed the body.
        response = HttpResponse(packed, content_type="text/html; charset=utf-8")
        response["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ("Accept-Encoding",))
        return _answer(response, f"W/{etag}")
    html = render_region(kind, pk, lang, request.user)
    etag = etag_of(html, lang)
    if etag_listed(request.headers.get("If-None-Match"), etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
    return _answer(response, etag)
