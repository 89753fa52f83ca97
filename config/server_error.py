"""The 500 answer when a view fails: the API's JSON error under its prefix, a page in the visitor's language elsewhere.

Django's own handler renders ``500.html`` without the request's context, so the page said ``lang="en"`` whatever
its words' language (LocaleMiddleware has already chosen that for the request's thread); and under ``/api/``
a failure that left no DRF view to answer (a middleware's) came back as that HTML page, not the API's shape.
Nothing here reads the database: it may be what failed.
"""

from django.conf import settings
from django.http import HttpResponseServerError, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token


def server_error_body() -> dict:
    """The API's error body for a failure of the server's own (api.md's error shape)."""
    return {"type": "server_error", "errors": [{"code": "error", "attr": None, "detail": _(
        "The server could not answer this request; nothing half-done was kept. Try again in a moment.")}]}


@requires_csrf_token
def server_error(request):
    """Answer a view's failure with a 500: JSON under the API's prefix, ``500.html`` in the request's language."""
    if request.path.startswith(getattr(settings, "API_PATH_PREFIX", "/api/")):
        return JsonResponse(server_error_body(), status=500)
    return HttpResponseServerError(render_to_string("500.html", {"LANGUAGE_CODE": get_language()}))
