"""The project's URLs plus a trivial view, the floor bench_http.py measures the project against.

Served by the same settings, middleware and server as the project (``bench/_trivial_settings.py``).
"""

from django.http import JsonResponse
from django.urls import path

from config.urls import *  # noqa: F403 - the project's handlers (handler404...) too
from config.urls import urlpatterns as project_urlpatterns


def trivial(request):
    """A small JSON answer: what Django itself costs a request on this configuration."""
    return JsonResponse({"ok": True, "service": "manille", "version": 1})


urlpatterns = [path("bench/trivial/", trivial), *project_urlpatterns]
