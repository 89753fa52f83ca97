"""Root URLs: the public site, the admin, the REST API under /api/v1/, the OpenAPI schema and docs, a health check."""

from datetime import timedelta

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView
from health_check.views import HealthCheckView

from api.views.docs import LocalRedocView, SchemaView, redoc_bundle_view

HEALTH_CHECKS = ["health_check.checks.Database",
                 ("health_check.checks.Cache", {"timeout": timedelta(seconds=2)})]


def _redis_client():
    from redis.asyncio import Redis

    return Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)


class HealthView(HealthCheckView):
    """``/healthz/``: always JSON, ``{"<check>": "OK" | "<error>"}``; 200 when all pass, else 503.

    Checks the database, the cache and, with ``REDIS_URL`` set, Redis itself (the broker and the
    channel layer), so a load balancer or a person reading it sees which piece is down.
    """

    def get_checks(self):
        yield from super().get_checks()
        if settings.REDIS_URL:
            from health_check.contrib.redis import Redis

            yield Redis(client_factory=_redis_client)

    def render_to_response(self, context, **kwargs):
        return self.render_to_response_json(kwargs.get("status", 200))

    def render_to_response_text(self, status):
        return self.render_to_response_json(status)

    def render_to_response_json(self, status):
        return super().render_to_response_json(503 if status >= 500 else status)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", LocalRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/redoc/redoc.standalone.js", redoc_bundle_view, name="api-redoc-bundle"),
    path("api/v1/", include("api.urls")),
    path("healthz/", HealthView.as_view(checks=HEALTH_CHECKS), name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("my/", include("web.workspace.urls")),
    path("", include("web.urls")),
]

if settings.DEBUG:
    admin.site.site_header = "Manille Tournaments (development)"
else:
    admin.site.site_header = "Manille Tournaments"
admin.site.site_title = "Manille Tournaments"
admin.site.index_title = "Clubs, tournaments and results"

# A 404 under /api/ that no API route caught (a path with a newline) answers the API's JSON error.
handler404 = "api.views.common.not_found"
# A view's failure: the API's JSON error under /api/, the 500 page in the visitor's language elsewhere.
handler500 = "config.server_error.server_error"
