"""Helpers shared by the views."""

import json

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.serializers import Serializer
from rest_framework.settings import api_settings

#: The lists' pagination (``?page=``, 50 a page): every list of the API answers in its shape.
PAGINATION = api_settings.DEFAULT_PAGINATION_CLASS
from rest_framework.views import APIView


def validated(serializer: Serializer, data):
    """``serializer.run_validation(data)``, refused as ``is_valid(raise_exception=True)`` would refuse it.

    For a serializer made once and used for every request (``run_validation`` keeps nothing between
    calls): making one per request deep-copies its declared fields.
    """
    try:
        return serializer.run_validation(data)
    except exceptions.ValidationError as exc:
        detail = exc.detail
        if isinstance(detail, list) and len(detail) == 1 and getattr(detail[0], "code", None) == "null":
            detail = {api_settings.NON_FIELD_ERRORS_KEY: [exceptions.ErrorDetail("No data provided", code="null")]}
        raise exceptions.ValidationError(detail) from None


def page_of(request, rows, serialize, view=None):
    """``rows`` answered in the lists' one page style (``?page=``; ``count``, ``next``, ``previous``, ``results``).

    For the lists an action or a plain view answers; ``serialize`` writes a page of rows. A view that answers this
    way declares ``pagination_class = PAGINATION`` so that the schema describes the page.
    """
    paginator = PAGINATION()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(serialize(page))


def plain(data):
    """Return ``data`` as plain JSON values (serializers' ordered dicts and nested lists made plain)."""
    return json.loads(json.dumps(data))


@extend_schema(exclude=True)
class NotFoundView(APIView):
    """Answer every unknown path under /api/v1/ with a 404 in the API's error shape."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = []

    def _not_found(self, request, *args, **kwargs):
        raise exceptions.NotFound(f"No API endpoint at {request.path}.")

    get = post = put = patch = delete = head = options = _not_found
    http_method_not_allowed = _not_found  # TRACE and unknown methods too: nothing is at that path

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.has_header("Allow"):  # a 404 advertises no methods: nothing is at that path
            del response["Allow"]
        return response


def api_not_found_body(path: str) -> dict:
    """The API's error shape for a 404."""
    return {"type": "client_error",
            "errors": [{"code": "not_found", "detail": f"No API endpoint at {path!r}.", "attr": None}]}


def not_found(request, exception=None):
    """The site's 404 handler: the API's JSON error under /api/, Django's page elsewhere.

    Catches what the API's catch-all route cannot, e.g. a path with a newline (``/api/v1/x/%0A/``),
    which no ``.*`` pattern matches.
    """
    from django.conf import settings
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith(getattr(settings, "API_PATH_PREFIX", "/api/")):
        return JsonResponse(api_not_found_body(request.path), status=404)
    return page_not_found(request, exception)
