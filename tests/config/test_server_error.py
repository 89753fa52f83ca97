"""A view's failure answers 500 in the visitor's language (the page said lang="en"), and the API's JSON under /api/."""

import pytest
from django.test import Client, override_settings
from django.urls import path


def _fails(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", _fails), path("api/v1/boom/", _fails)]
handler500 = "config.server_error.server_error"

pytestmark = pytest.mark.django_db


def test_the_project_routes_failures_to_its_handler():
    import config.urls

    assert config.urls.handler500 == "config.server_error.server_error"


@override_settings(ROOT_URLCONF=__name__)
def test_a_page_fails_in_the_visitor_s_language():
    response = Client(raise_request_exception=False).get("/boom/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 500
    page = response.content.decode()
    assert '<html lang="nl">' in page and "Something went wrong" not in page


@override_settings(ROOT_URLCONF=__name__)
def test_the_api_fails_in_its_own_shape():
    response = Client(raise_request_exception=False).get("/api/v1/boom/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["type"] == "server_error" and body["errors"][0]["code"] == "error"
    assert "serveur" in body["errors"][0]["detail"]
