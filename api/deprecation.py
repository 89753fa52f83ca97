"""Deprecated operations (docs/api.md, "Versioning and deprecation"): the Deprecation, Sunset and Link fields.

A breaking change inside /api/v1/ keeps the old form working for the deprecation period; its view method is
decorated with ``deprecated(since=..., sunset=...)``, so that every answer of it (errors included) says so,
and the schema marks the operation ``deprecated``. Add its dated entry to the guide's changelog.
"""

from __future__ import annotations

import calendar
import functools
from datetime import date

from django.utils.http import http_date
from drf_spectacular.utils import extend_schema

GUIDE = "/api/docs/"


def deprecation_fields(*, since: date, sunset: date, link: str = GUIDE) -> dict[str, str]:
    """Return the header fields of an operation deprecated on ``since`` that goes on ``sunset`` (midnight UTC)."""
    return {
        "Deprecation": f"@{calendar.timegm(since.timetuple())}",  # RFC 9745: a structured date
        "Sunset": http_date(calendar.timegm(sunset.timetuple())),  # RFC 8594: an HTTP date
        "Link": f'<{link}>; rel="deprecation"',
    }


def deprecated(*, since: date, sunset: date, link: str = GUIDE):
    """Mark a DRF view method deprecated: its answers carry the deprecation's fields, its operation the flag."""
    fields = deprecation_fields(since=since, sunset=sunset, link=link)

    def wrap(method):
        @functools.wraps(method)
        def answer(self, request, *args, **kwargs):
            self.headers.update(fields)  # the view's headers: added to any answer, a refusal's too
            return method(self, request, *args, **kwargs)

        return extend_schema(deprecated=True)(answer)

    return wrap
