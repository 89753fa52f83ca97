"""The API's documentation pages, served entirely from the project (a club hall may have no internet)."""

import functools

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.urls import reverse
from django.template import engines
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.negotiation import DefaultContentNegotiation

# drf-spectacular's ReDoc page with its <head> minus the Google Fonts links: the page falls back to the
# system's fonts. Swagger UI's page (drf-spectacular's own) needs no change once its files come from the sidecar.
REDOC_PAGE = engines["django"].from_string("""{% extends "drf_spectacular/redoc.html" %}
{% block head %}
    <title>{{ title|default:"Redoc" }}</title>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; padding: 0; }</style>
{% endblock head %}""")


#: What ReDoc's bundle fetches from a CDN: the Redocly logo beside "API docs by Redocly" in its side menu.
REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
#: What it shows instead: a small mark of its own, inline (the pages' policy allows ``data:`` images).
REDOC_LOCAL_LOGO = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect "
                    "x='1' y='1' width='14' height='14' rx='3' fill='%23555'/%3E%3C/svg%3E")


@functools.cache
def redoc_bundle() -> bytes:
    """drf-spectacular-sidecar's ReDoc bundle with its one remote asset (the logo) made local; read once."""
    path = finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    with open(path, "rb") as f:
        return f.read().replace(REDOC_CDN_LOGO.encode(), REDOC_LOCAL_LOGO.encode())


@extend_schema(exclude=True)
def redoc_bundle_view(request):
    """ReDoc's bundle without a remote asset, at /api/redoc/redoc.standalone.js (the ReDoc page's one script)."""
    response = HttpResponse(redoc_bundle(), content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


class LocalRedocView(SpectacularRedocView):
    """ReDoc at /api/redoc/, from drf-spectacular-sidecar's files, without any CDN or web font: its bundle is
    served with its logo made local (``redoc_bundle``), so the page fetches nothing from another host."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        data = super().get(request, *args, **kwargs).data
        data["redoc_standalone"] = reverse("api-redoc-bundle")
        return HttpResponse(REDOC_PAGE.render(data, request))


class FormatQueryNegotiation(DefaultContentNegotiation):
    """``?format=json`` or ``?format=yaml`` picks the schema's renderer (the API's ``?format=`` is a filter)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return super().select_renderer(request, renderers, format_suffix or request.query_params.get("format"))


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema at /api/schema/: YAML, or JSON for ``Accept: application/json`` or ``?format=json``."""

    content_negotiation_class = FormatQueryNegotiation
