"""Issue #11, point 5: bad input never answers a 500, and API errors keep the API's shape.

JSON nested 1,000 levels deep (the parser's RecursionError) answers 400; a body over
DATA_UPLOAD_MAX_MEMORY_SIZE 413; a path with a newline under /api/ the API's JSON 404; an API
404 advertises no methods in ``Allow``.
"""

import pytest
from api.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import MatchFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "hostile-input"}}


@pytest.fixture
def keeper_client():
    tournament = TournamentFactory(variant="belgian-manille")
    user = UserFactory(username="keeper")
    tournament.scorekeepers.add(user)
    match = MatchFactory(round__tournament=tournament)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return c, match


def deep_json(levels=1000) -> str:
    return "[" * levels + "]" * levels


def deep_object(levels=1000) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def assert_error_shape(response, status, code=None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"type", "errors"} and body["errors"], body
    assert {"code", "detail", "attr"} <= set(body["errors"][0])
    if code:
        assert body["errors"][0]["code"] == code, body


@pytest.mark.parametrize("body", [deep_json(), deep_object(), deep_json(100_000)], ids=["list", "object", "100k"])
def test_deeply_nested_json_answers_400(keeper_client, body):
    c, match = keeper_client
    response = c.post(f"/api/v1/matches/{match.pk}/hands/", body, content_type="application/json")
    assert_error_shape(response, 400, "parse_error")


@pytest.mark.parametrize("path", ["/api/v1/variants/belgian-manille/score/", "/api/v1/auth/token/"])
def test_deeply_nested_json_answers_400_on_public_endpoints(path):
    response = APIClient().post(path, deep_object(), content_type="application/json")
    assert_error_shape(response, 400, "parse_error")


def test_a_body_over_the_limit_answers_413(keeper_client, settings):
    c, match = keeper_client
    body = '{"dealer": "N", "junk": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + '"}'
    response = c.post(f"/api/v1/matches/{match.pk}/hands/", body, content_type="application/json")
    assert_error_shape(response, 413, "too_large")


def test_a_form_body_over_the_limit_answers_413():
    body = "username=a&password=" + "x" * 3_000_000
    response = APIClient().post("/api/v1/auth/token/", body, content_type="application/x-www-form-urlencoded")
    assert_error_shape(response, 413, "too_large")


@pytest.mark.parametrize("path", ["/api/v1/matches/%0A/", "/api/v1/%0A", "/api/v1/tournaments/x%0Ay/",
                                  "/api/v1/no-such-thing/"])
def test_unknown_api_paths_answer_the_json_404(path):
    response = APIClient().get(path)
    assert_error_shape(response, 404, "not_found")
    assert "Allow" not in response


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_api_404s_advertise_no_methods(method):
    response = getattr(APIClient(), method)("/api/v1/no-such-thing/")
    assert_error_shape(response, 404, "not_found")
    assert "Allow" not in response


def test_a_newline_path_outside_the_api_keeps_the_sites_404():
    response = APIClient().get("/t/%0A/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("query, field", [("search=a%00b", "search"), ("name=a%00", "name")])
def test_a_null_character_in_the_query_names_its_parameter(query, field):
    r = APIClient().get(f"/api/v1/clubs/?{query}")
    assert r.status_code == 400
    assert r.json()["errors"] == [{"code": "null_characters_not_allowed", "attr": field,
                                   "detail": "Null characters are not allowed."}]


@pytest.mark.django_db
def test_a_bad_standings_limit_is_a_400_on_its_parameter():
    tournament = TournamentFactory()
    r = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/?limit=0")
    assert r.status_code == 400
    assert r.json()["errors"][0]["attr"] == "limit"
