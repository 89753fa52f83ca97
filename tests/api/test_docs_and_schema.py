"""Issue 13: the API docs work offline; the schema is grouped, described, exemplified; CORS for club websites."""

import re

import pytest
from django.contrib.staticfiles import finders

from tests.api.conftest import client_for
from tests.factories import TournamentFactory
from tournaments.ranking.metrics import DEFAULT_METRICS

pytestmark = pytest.mark.django_db

TAGS = {"variants", "clubs and teams", "tournaments", "rounds", "matches", "hands", "tasks", "auth", "push"}
SAFE = {"get", "head"}


@pytest.fixture
def schema(served_schema):
    return served_schema


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in {"get", "post", "put", "patch", "delete", "head"}:
                yield path, method, op


def _assets(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


# --- 2. docs served locally ------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_use_only_local_assets(anon, url):
    response = anon.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assets = _assets(html)
    assert assets, html
    assert not re.search(r"https?://", html.split("<body", 1)[0]), "a CDN or web font in <head>"
    for asset in assets:
        assert asset.startswith("/"), asset
        assert "cdn" not in asset and "@latest" not in asset
        if asset.startswith("/static/"):  # and the file is really there, from drf-spectacular-sidecar
            assert finders.find(asset.removeprefix("/static/")), asset
    # No inline script: the pages work under the production Content-Security-Policy (script-src 'self').
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    scripts = [a for a in assets if a.startswith("/api/") and not a.endswith("redoc.standalone.js")]
    for script in scripts:  # Swagger UI's start-up script, served by the view itself
        answer = anon.get(script)
        assert answer.status_code == 200 and "javascript" in answer["Content-Type"]
        assert "/api/schema/" in answer.content.decode()
    assert "/api/schema/" in html or scripts
    for bundle in (a for a in assets if a.endswith("redoc.standalone.js")):  # ReDoc's, its CDN logo made local
        answer = anon.get(bundle)
        assert answer.status_code == 200 and b"cdn.redoc.ly" not in answer.content


# --- 3. the schema ----------------------------------------------------------------------------------------------

def test_operations_are_grouped_by_tag(schema):
    assert {t["name"] for t in schema["tags"]} == TAGS
    tags = {(path, method): op["tags"] for path, method, op in _operations(schema)}
    assert all(len(t) == 1 and t[0] in TAGS for t in tags.values())
    assert tags[("/api/v1/teams/", "post")] == ["clubs and teams"]
    assert tags[("/api/v1/tournaments/{tournament_id}/rounds/", "post")] == ["rounds"]
    assert tags[("/api/v1/tournaments/{tournament_id}/standings/", "get")] == ["tournaments"]
    assert tags[("/api/v1/matches/{id}/hands/", "post")] == ["matches"]
    assert tags[("/api/v1/hands/{id}/", "patch")] == ["hands"]
    assert tags[("/api/v1/tasks/{task_id}/", "get")] == ["tasks"]
    assert tags[("/api/v1/auth/token/", "post")] == ["auth"]
    assert tags[("/api/v1/push/stream/", "get")] == ["push"]
    assert {t[0] for t in tags.values()} == TAGS


def test_every_operation_has_a_summary_and_a_hand_written_description(schema):
    from api.openapi import DESCRIPTIONS

    ids = set()
    for path, method, op in _operations(schema):
        assert op.get("description", "").strip(), (method, path)
        ids.add(op["operationId"])
    assert ids <= set(DESCRIPTIONS), sorted(ids - set(DESCRIPTIONS))


def _examples(op, where):
    if where == "request":
        return op["requestBody"]["content"]["application/json"].get("examples", {})
    return op["responses"][where]["content"]["application/json"].get("examples", {})


def test_examples_of_the_main_requests_and_answers(schema):
    score = schema["paths"]["/api/v1/variants/{slug}/score/"]["post"]
    hands = schema["paths"]["/api/v1/matches/{id}/hands/"]["post"]
    for op in (score, hands):
        requests = {name: e["value"] for name, e in _examples(op, "request").items()}
        assert requests["ABelgianHand"]["trump"] == "H"
        assert requests["ASpanishHandWithItsTurnedCard"]["turned_card"] == "12O"
        refusal = _examples(op, "400")["ARuleRefusal"]["value"]
        assert refusal["errors"][0]["code"] == "points_total" and refusal["type"] == "validation_error"
    assert _examples(hands, "201")["TheBelgianHandStored"]["value"]["totals"] == {"ns": 88, "ew": 61}
    standings = schema["paths"]["/api/v1/tournaments/{tournament_id}/standings/"]["get"]
    row = _examples(standings, "200")["StandingsAfterTwoRounds"]["value"]["rows"][0]
    assert {"rank", "team", "match_points", "tiebreaks", "team_detail"} <= set(row)
    assert "GentseBeker" in _examples(schema["paths"]["/api/v1/tournaments/"]["post"], "request")


def test_the_examples_are_what_the_api_answers(anon, schema):
    score = schema["paths"]["/api/v1/variants/{slug}/score/"]["post"]
    request = _examples(score, "request")["ABelgianHand"]["value"]
    answer = anon.post("/api/v1/variants/belgian-manille/score/", request, format="json")
    assert answer.json() == _examples(score, "200")["TheBelgianHandScored"]["value"]
    spanish = _examples(score, "request")["ASpanishHandWithItsTurnedCard"]["value"]
    assert anon.post("/api/v1/variants/spanish-manilla/score/", spanish, format="json").status_code == 200
    refused = anon.post("/api/v1/variants/belgian-manille/score/",
                        {**request, "points": {"ns": 37, "ew": 22}}, format="json")
    assert refused.status_code == 400
    assert refused.json() == _examples(score, "400")["ARuleRefusal"]["value"]


def test_public_reads_need_no_authentication_and_writes_do(schema):
    for path, method, op in _operations(schema):
        security = op.get("security", [])
        if (path in ("/api/v1/auth/me/", "/api/v1/auth/tokens/") or "/webhooks/" in path or "/actions/" in path
                or path.endswith("/result-events/")):  # a result's steps: for its directors only
            assert {} not in security
        elif (method in SAFE or path.startswith("/api/v1/variants/")
              or path in ("/api/v1/auth/token/", "/api/v1/push/tickets/")  # a push ticket: public events too
              or path.endswith(("/confirm/", "/dispute/"))):  # a player at the table proves who they are by code
            assert {} in security, (method, path)
        else:
            assert security and {} not in security, (method, path)


def test_no_500_is_advertised(schema):
    for path, method, op in _operations(schema):
        assert not any(code.startswith("5") for code in op["responses"]), (method, path)


def test_a_tournament_shows_its_default_tiebreak_order(anon, organizer, tournament, schema):
    assert tournament.tiebreaks in ([], None)
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/").json()["tiebreaks"] == DEFAULT_METRICS
    own = ["match_points", "buchholz"]
    response = client_for(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/", {"tiebreaks": own},
                                           format="json")
    assert response.json()["tiebreaks"] == own
    help_text = schema["components"]["schemas"]["Tournament"]["properties"]["tiebreaks"]["description"]
    assert ", ".join(DEFAULT_METRICS) in help_text


# --- 4. CORS ----------------------------------------------------------------------------------------------------

CLUB_SITE = "https://dezwartekat.be"


def test_no_cors_by_default(anon, tournament):
    response = anon.get(f"/api/v1/tournaments/{tournament.pk}/", HTTP_ORIGIN=CLUB_SITE)
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response


@pytest.fixture
def cors(settings):
    settings.CORS_ALLOWED_ORIGINS = [CLUB_SITE]


def test_an_allowed_club_site_reads_the_api(cors, anon, tournament):
    response = anon.get(f"/api/v1/tournaments/{tournament.slug}/standings/", HTTP_ORIGIN=CLUB_SITE)
    assert response["Access-Control-Allow-Origin"] == CLUB_SITE
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "ratelimit", "ratelimit-policy", "retry-after", "deprecation", "sunset"} <= exposed
    assert "Access-Control-Allow-Credentials" not in response
    other = anon.get(f"/api/v1/tournaments/{tournament.pk}/", HTTP_ORIGIN="https://elsewhere.example")
    assert "Access-Control-Allow-Origin" not in other


def test_a_preflight_allows_the_token_and_the_idempotency_key(cors, anon):
    response = anon.options("/api/v1/matches/1/hands/", HTTP_ORIGIN=CLUB_SITE,
                            HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                            HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == CLUB_SITE
    allowed = response["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "content-type", "idempotency-key", "if-none-match"} <= set(allowed.split(", "))


def test_cors_only_on_api_paths(cors, anon):
    TournamentFactory(slug="open-cup")
    assert anon.get("/api/schema/", HTTP_ORIGIN=CLUB_SITE)["Access-Control-Allow-Origin"] == CLUB_SITE
    for url in ("/", "/t/open-cup/", "/admin/login/"):
        response = anon.get(url, HTTP_ORIGIN=CLUB_SITE)
        assert "Access-Control-Allow-Origin" not in response, url


def test_cors_origins_come_from_the_environment(monkeypatch):
    import importlib

    import config.settings as config_settings

    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    try:
        assert importlib.reload(config_settings).CORS_ALLOWED_ORIGINS == ["https://a.example", "https://b.example"]
        monkeypatch.delenv("CORS_ALLOWED_ORIGINS")
        assert importlib.reload(config_settings).CORS_ALLOWED_ORIGINS == []
    finally:
        importlib.reload(config_settings)
