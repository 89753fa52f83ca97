"""``?updated_after=``: a list's changes since a cursor, in change order (tournaments.selectors.changes)."""

from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import replace_query_param

from tournaments import refusals
from tournaments.selectors.changes import CURSOR_PATTERN, ChangesPage, Position, position_of

UPDATED_AFTER = OpenApiParameter(
    # The pattern is the cursor's and 0's; an ISO 8601 time is accepted too (the description says so), but is left
    # out of it: a pattern cannot tell a real date from a 30th of February, and the schema promises what it allows.
    "updated_after", {"type": "string", "pattern": CURSOR_PATTERN, "maxLength": 100}, required=False,
    description="Only what changed after this point, in the order it changed (oldest first; `ordering` is "
                "ignored): the `cursor` of an earlier answer, `0` for everything from the start, or an ISO 8601 "
                "time with its offset. The answer's `cursor` is what to send next time; follow `next` while it is "
                "not null. Changes show up to a second after they are made, and each exactly once.",
)


class ChangesQuerySerializer(serializers.Serializer):
    """The query of a list's changes, for the schema: its 400 names ``updated_after`` (``invalid_cursor``)."""

    updated_after = serializers.CharField(required=False, max_length=100,
                                          error_messages={"invalid_cursor": "not a cursor"})  # the schema's codes


class ChangesQueryMixin:
    """A list view that answers ``?updated_after=``: the schema documents the parameter's 400 on its list."""

    @property
    def query_serializer(self):
        return ChangesQuerySerializer if getattr(self, "action", None) == "list" else None


def changes_position(request) -> Position | None:
    """Return the position ``?updated_after=`` names (None: not asked); refuse a bad one (400 on the parameter)."""
    value = request.query_params.get("updated_after")
    if value is None:
        return None
    position = position_of(value)
    if position is None:
        raise exceptions.ValidationError(
            {"updated_after": [exceptions.ErrorDetail(refusals.words("invalid_cursor", {}), code="invalid_cursor")]})
    # The cursor pages the changes, not ?page=; a page number it cannot be is refused as the lists refuse it.
    page = request.query_params.get("page") or "1"
    if not (page.isascii() and page.isdigit() and int(page) >= 1) and page != "last":
        raise exceptions.NotFound(PageNumberPagination.invalid_page_message)
    return position


def changes_limit() -> int:
    """Return how many changes a page lists: the lists' page size."""
    return api_settings.PAGE_SIZE or 50


def changes_response(request, page: ChangesPage, results: list) -> Response:
    """Return a page of changes in the lists' page shape, with the ``cursor`` to send next."""
    url = replace_query_param(request.build_absolute_uri(), "updated_after", page.cursor) if page.more else None
    return Response({"count": page.count, "next": url, "previous": None, "cursor": page.cursor, "results": results})


class ChangesPagination(PageNumberPagination):
    """The lists' pages; with ``?updated_after=`` the page also has the ``cursor`` to send next."""

    def get_paginated_response_schema(self, schema):
        found = super().get_paginated_response_schema(schema)
        found["properties"]["cursor"] = {
            "type": "string", "example": "1.1764148096402113.0.57",
            "description": "With `updated_after` only: the cursor to send as `updated_after` next time.",
        }
        return found
