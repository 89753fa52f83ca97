"""Issue #11, point 5: bad input never answers a 500, and API errors keep the API's shape.

JSON nested 1,000 levels deep (the parser's RecursionError) answers 400; a body over
DATA_UPLOAD_MAX_MEMORY_SIZE 413; a path with a newline under /api/ the API's JSON 404; an API
404 advertises no methods in ``Allow``. Issue 24, point 3: a token whose bytes are no UTF-8 is
refused 401 on every route, and a null character (which PostgreSQL refuses in text) in any search
or filter answers 400, through the test client and through a real server.
"""

import http.client
import subprocess
import sys

import pytest
from api.models import AuthToken
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, MatchFactory, TeamFactory, TournamentFactory, UserFactory
from tests.robustness.conftest import free_port
from tests.robustness.processes import ROOT, server_env, wait_for

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


# --------------------------------------------------------------------------- issue 24.3: tokens that are no text


#: What a server hands Django for the header ``Authorization: Token caf<0xE9>``: its bytes decoded as latin-1.
NOT_UTF8 = b"Token caf\xe9".decode("latin-1")

#: Every kind of API route: lists, details, a write of each kind, the token's own routes.
API_ROUTES = [("get", "/api/v1/tournaments/"), ("get", "/api/v1/tournaments/1/"), ("get", "/api/v1/clubs/"),
              ("get", "/api/v1/matches/1/"), ("post", "/api/v1/matches/1/hands/"), ("patch", "/api/v1/hands/1/"),
              ("delete", "/api/v1/hands/1/"), ("post", "/api/v1/tournaments/"), ("get", "/api/v1/auth/tokens/"),
              ("post", "/api/v1/auth/logout/"), ("get", "/api/v1/variants/"), ("get", "/api/v1/no-such-thing/")]


@pytest.mark.parametrize(("method", "path"), API_ROUTES)
@pytest.mark.parametrize("header", [NOT_UTF8, "Token \x00", "Token " + "ab\x00" * 30],
                         ids=["not-utf8", "nul", "nul-inside"])
def test_a_token_that_is_no_text_is_refused_401_on_every_api_route(method, path, header):
    response = getattr(APIClient(), method)(path, {}, format="json", HTTP_AUTHORIZATION=header)
    if path == "/api/v1/no-such-thing/":  # the catch-all 404 authenticates no one
        assert_error_shape(response, 404, "not_found")
    else:
        assert_error_shape(response, 401, "authentication_failed")


# --------------------------------------------------------------------------- issue 24.3: null characters in searches


@pytest.fixture
def staff_client():
    """A superuser signed in, who reaches every page, workspace and admin alike; a team to search for."""
    TeamFactory(name="De Azen")
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def _search_pages(club_id: int, slug: str) -> list[str]:
    return [
        "/?q=%00", "/?q=azen%00", f"/my/clubs/{club_id}/?q=%00", f"/my/clubs/{club_id}/teams/?q=a%00z",
        f"/my/t/{slug}/entries/?q=%00",
        # The admin: a changelist's search, its filters and any parameter, the autocompletes' term.
        "/admin/tournaments/club/?q=%00", "/admin/tournaments/team/?q=az%00", "/admin/tournaments/club/?city=%00",
        "/admin/tournaments/tournament/?status__exact=%00", "/admin/tournaments/hand/?o=%00",
        "/admin/tournaments/player/?q%00=x", "/admin/auth/user/?q=%00", "/admin/api/authtoken/?q=%00",
        "/admin/webhooks/endpoint/?url=%00", "/admin/webhooks/endpoint/?q=%00", "/admin/webhooks/delivery/?q=%00",
        "/admin/autocomplete/?app_label=tournaments&model_name=entry&field_name=team&term=%00",
        "/admin/autocomplete/?app_label=tournaments&model_name=tournament&field_name=organizers&term=%00",
    ]


def test_a_null_character_in_any_search_of_the_site_or_the_admin_answers_400(staff_client):
    tournament = TournamentFactory(variant="belgian-manille")
    club = ClubFactory()
    for url in _search_pages(club.pk, tournament.slug):
        response = staff_client.get(url)
        assert response.status_code == 400, (url, response.status_code)
    # Without it, the same searches answer.
    for url in _search_pages(club.pk, tournament.slug):
        if "%00=" not in url and "o=%00" not in url:
            clean = url.replace("%00", "")
            assert staff_client.get(clean).status_code == 200, clean


def test_the_400_page_says_what_is_wrong(client):
    response = client.get("/?q=%00", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    body = response.content.decode()
    assert "<h1>Dit verzoek kan niet gelezen worden</h1>" in body and "nul-teken" in body


@pytest.mark.parametrize("query", ["search=%00", "name=%00", "city=a%00", "licence=%00"])
@pytest.mark.parametrize("path", ["/api/v1/clubs/", "/api/v1/players/", "/api/v1/teams/", "/api/v1/tournaments/"])
def test_a_null_character_in_an_api_search_or_filter_answers_400(path, query):
    response = APIClient().get(f"{path}?{query}")
    name = query.split("=")[0]
    if response.status_code == 200:  # a filter this list does not have: ignored
        assert name != "search"
        return
    assert_error_shape(response, 400, "null_characters_not_allowed")
    assert response.json()["errors"][0]["attr"] == name


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server", ["wsgi", "asgi"])
def test_a_real_server_answers_a_token_that_is_no_utf8_401_and_a_null_search_400(tmp_path, server):
    """The raw bytes on the wire, as a client sends them, through the production servers' own parsing."""
    if connection.vendor != "postgresql":
        pytest.skip("a server process on the test database needs PostgreSQL")
    port = free_port()
    worker = (["-k", "sync"] if server == "wsgi" else ["-k", "config.uvicorn_worker.Worker"])
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", f"config.{server}:application", "-w", "1",
                                 *worker, "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=server_env("hostile", 0),
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def get(path: str, headers: dict[str, bytes] | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.putrequest("GET", path)
            for name, value in (headers or {}).items():
                conn.putheader(name, value)  # bytes go out as they are
            conn.endheaders()
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def up() -> bool:
        try:
            return get("/api/v1/variants/")[0] == 200
        except OSError:
            return False

    try:
        assert wait_for(up, timeout=60), log_path.read_text()
        status, body = get("/api/v1/tournaments/", {"Authorization": b"Token caf\xe9"})
        assert (status, b'"authentication_failed"' in body) == (401, True), body
        status, body = get("/api/v1/matches/1/", {"Authorization": b"Token caf\xe9", "Accept": b"application/json"})
        assert status == 401, body
        assert get("/?q=%00")[0] == 400
        assert get("/api/v1/clubs/?search=%00")[0] == 400
        assert get("/?q=azen")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    logged = log_path.read_text()
    assert "Internal Server Error" not in logged and " ERROR " not in logged, logged[-3000:]
    assert "WARNING django.request" in logged  # the 400s are logged as Django logs a bad request


@pytest.mark.parametrize("seconds", ["%C2%B2", "9" * 5000, "%00", "-5", "30"])
def test_the_walls_seconds_never_answer_a_500(seconds):
    tournament = TournamentFactory(public=True)
    response = Client().get(f"/t/{tournament.slug}/wall/?seconds={seconds}")
    assert response.status_code == 200
