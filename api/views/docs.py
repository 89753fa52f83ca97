"""The API's documentation pages, served entirely from the project (a club hall may have no internet)."""

from django.http import HttpResponse
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


class LocalRedocView(SpectacularRedocView):
    """ReDoc at /api/redoc/, from drf-spectacular-sidecar's files, without any CDN or web font."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        data = super().get(request, *args, **kwargs).data
        return HttpResponse(REDOC_PAGE.render(data, request))


class FormatQueryNegotiation(DefaultContentNegotiation):
    """``?format=json`` or ``?format=yaml`` picks the schema's renderer (the API's ``?format=`` is a filter)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return super().select_renderer(request, renderers, format_suffix or request.query_params.get("format"))


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema at /api/schema/: YAML, or JSON for ``Accept: application/json`` or ``?format=json``."""

    content_negotiation_class = FormatQueryNegotiation
