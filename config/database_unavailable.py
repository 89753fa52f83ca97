"""A request that meets a database fault answers 503 with ``Retry-After``, never a 500.

A fault is an ``OperationalError`` or an ``InterfaceError`` from the database: the server restarted or
terminated the connection, refused a new one ("too many clients"), cancelled the statement, or a
deadlock was broken. The request's transaction was rolled back with it, so nothing is stored
half-done, and trying again in a moment is the right answer for the client:

- the API: 503 ``{"type": "server_error", "errors": [{"code": "database_unavailable", …}]}``
  (``api.exceptions`` converts the fault inside DRF; this middleware answers the same body for a
  fault outside it);
- pages and the admin: a 503 page in the visitor's language (``503.html``), rendered without the
  request's context processors, which would read the database again;
- the table-entry page keeps the hand in its queue on any 5xx and sends it again (ws-entry.js).

Any other exception still answers 500 and is logged with its traceback.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

DATABASE_FAULTS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def database_unavailable_message() -> str:
    return _("The database is unavailable for a moment; nothing was changed. Try again in a few seconds.")


def database_unavailable_body() -> dict:
    return {"type": "server_error",
            "errors": [{"code": "database_unavailable", "detail": database_unavailable_message(), "attr": None}]}


class DatabaseUnavailableMiddleware:
    """Answer a view's database fault with a 503 (the API's JSON under its prefix, a page elsewhere)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_FAULTS):
            return None
        logger.warning("database unavailable: %s %s answered 503 (%s: %s)", request.method, request.path,
                       type(exception).__name__, str(exception).strip().splitlines()[0] if str(exception) else "")
        if request.path.startswith(getattr(settings, "API_PATH_PREFIX", "/api/")):
            response = JsonResponse(database_unavailable_body(), status=503)
        else:
            html = render_to_string("503.html", {"LANGUAGE_CODE": get_language()})
            response = HttpResponse(html, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
