"""Root URLs: the public site, the admin, the REST API under /api/v1/, the OpenAPI schema and docs, a health check."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from health_check.views import HealthCheckView

from api.views.docs import LocalRedocView

HEALTH_CHECKS = ["health_check.checks.Database", "health_check.checks.Cache"]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", LocalRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/v1/", include("api.urls")),
    path("healthz/", HealthCheckView.as_view(checks=HEALTH_CHECKS), name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

if settings.DEBUG:
    admin.site.site_header = "Manille Tournaments (development)"
else:
    admin.site.site_header = "Manille Tournaments"
admin.site.site_title = "Manille Tournaments"
admin.site.index_title = "Clubs, tournaments and results"
