"""Helpers shared by the views."""

import json

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView


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
