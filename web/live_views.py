"""The polling fallback of the live regions: a region's HTML with a strong ETag, 304 when unchanged."""

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from web.regions import REGION_KINDS, etag_matches, etag_of, render_region


@require_GET
def region(request, kind: str, pk: int):
    """Answer a region's HTML in the request's language, or 304 when the page has it already."""
    if kind not in REGION_KINDS:
        raise Http404
    lang = request.LANGUAGE_CODE
    html = render_region(kind, pk, lang, request.user)
    etag = etag_of(html, lang)
    if etag_matches(request, etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
