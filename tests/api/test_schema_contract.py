"""The schema agrees with itself and with the server (issue 29, point 2)."""

import json

import jsonschema
import pytest
from django.core.serializers.json import DjangoJSONEncoder

from api.openapi import DESCRIPTIONS
from tests.api.conftest import client_for
from tests.api.deals import summary
from tournaments.services.hands import hand_delete_last, hand_enter
from tournaments.services.standings import standings_recompute
from webhooks.services import _envelope, event_payloads

pytestmark = pytest.mark.django_db

CONDITIONAL = [("/api/v1/matches/{id}/", "get"), ("/api/v1/tournaments/{tournament_id}/rounds/", "get"),
               ("/api/v1/tournaments/{tournament_id}/rounds/{number}/", "get"),
               ("/api/v1/tournaments/{tournament_id}/standings/", "get"),
               ("/api/v1/tournaments/{tournament_id}/rounds/{number}/tables/", "get"),
               ("/api/v1/tournaments/{tournament_id}/live/", "get")]


@pytest.fixture
def schema(served_schema):
    return served_schema


def _validator(schema, component: str | dict):
    """A strict JSON Schema 2020-12 validator of a component (or a schema), its references resolved."""
    found = {"$ref": f"#/components/schemas/{component}"} if isinstance(component, str) else component
    root = {**found, "components": schema["components"]}
    return jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker())


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op:
                yield path, method, op


@pytest.mark.slow  # three schemas generated
def test_format_json_answers_json_and_yaml_stays_the_default(anon):
    answer = anon.get("/api/schema/?format=json")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert answer.json()["openapi"].startswith("3.1")
    assert anon.get("/api/schema/").content.startswith(b"openapi: 3.1")
    assert anon.get("/api/schema/?format=yaml").content.startswith(b"openapi: 3.1")


def test_request_bodies_are_json_only_and_forms_stay_on_the_token_endpoint(schema, anon, manager):
    for path, method, op in _operations(schema):
        if "requestBody" in op:
            assert set(op["requestBody"]["content"]) == {"application/json"}, (method, path)
    form = client_for(manager).post("/api/v1/clubs/", "name=Kat", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415
    token = anon.post("/api/v1/auth/token/", "username=manager&password=pw-for-tests",
                      content_type="application/x-www-form-urlencoded")
    assert token.status_code == 200 and token.json()["token"]


def test_no_openapi_30_nullable_is_left(schema):
    def walk(node, where):
        if isinstance(node, dict):
            assert node.get("nullable") is not True, where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(schema, "#")


def test_a_strict_validator_accepts_a_scoreboard_with_a_null_bonus(schema, anon, match):
    hand_enter(match=match, data=summary("N"))
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    assert board["games"][0]["hands"][0]["bonus"] is None
    _validator(schema, "Scoreboard").validate(board)
    hand = anon.get(f"/api/v1/hands/{board['games'][0]['hands'][0]['id']}/").json()
    _validator(schema, "HandResult").validate(hand)


def test_conditional_gets_declare_if_none_match_304_and_etag(schema):
    for path, method in CONDITIONAL:
        op = schema["paths"][path][method]
        assert any(p["name"] == "If-None-Match" and p["in"] == "header" for p in op["parameters"]), path
        assert "304" in op["responses"], path
        for code in ("200", "304"):
            assert "ETag" in op["responses"][code]["headers"], (path, code)
    conditional = {(p, m) for p, m in CONDITIONAL}
    for path, method, op in _operations(schema):
        if (path, method) not in conditional:
            assert "304" not in op["responses"], (method, path)


def test_the_server_answers_304_where_the_schema_says(anon, match):
    tournament = match.round.tournament
    for url in (f"/api/v1/matches/{match.pk}/", f"/api/v1/tournaments/{tournament.pk}/rounds/",
                f"/api/v1/tournaments/{tournament.pk}/rounds/1/", f"/api/v1/tournaments/{tournament.pk}/standings/",
                f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/", f"/api/v1/tournaments/{tournament.pk}/live/"):
        etag = anon.get(url)["ETag"]
        answer = anon.get(url, HTTP_IF_NONE_MATCH=etag)
        assert answer.status_code == 304 and answer["ETag"] == etag, url


def test_response_headers_are_declared(schema):
    assert set(schema["components"]["headers"]) == {"ETag", "Location", "Retry-After", "Idempotent-Replayed"}
    pair = schema["paths"]["/api/v1/tournaments/{tournament_id}/rounds/"]["post"]["responses"]["202"]
    assert "Location" in pair["headers"]
    hands = schema["paths"]["/api/v1/matches/{id}/hands/"]["post"]["responses"]
    assert "Idempotent-Replayed" in hands["201"]["headers"]
    assert "Retry-After" in hands["429"]["headers"]


def test_the_refusals_without_a_field_are_declared(schema, organizer, tournament):
    answer = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "too_few_teams"
    for path in ("/api/v1/tournaments/{tournament_id}/rounds/", "/api/v1/tournaments/{tournament_id}/entries/"):
        refused = schema["paths"][path]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
        _validator(schema, refused).validate(answer.json())  # a code with no field (`attr: null`) declared


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "FOO"])
def test_unknown_methods_answer_405_with_allow_or_404_where_nothing_is(method, staff, match):
    client = client_for(staff)
    for url in ("/api/v1/variants/", "/api/v1/clubs/", f"/api/v1/matches/{match.pk}/", "/api/schema/"):
        answer = client.generic(method, url)
        assert answer.status_code == 405 and answer["Allow"], url
    nowhere = client.generic(method, "/api/v1/no-such-thing/")
    assert nowhere.status_code == 404 and "Allow" not in nowhere


def test_operation_ids_are_stable_each_with_its_description(schema):
    ids = [op["operationId"] for _, _, op in _operations(schema)]
    assert len(ids) == len(set(ids))
    # A renamed path or action changes an operationId (and every generated client's function name): this list
    # and the changelog in docs/api.md change with it.
    assert set(ids) == set(DESCRIPTIONS)


def test_the_webhook_payloads_match_their_schemas(schema, match, teams):
    webhooks = schema["webhooks"]
    names = {"hand.entered": "HandEnteredEvent", "hand.corrected": "HandCorrectedEvent",
             "hand.deleted": "HandDeletedEvent", "match.finished": "MatchFinishedEvent",
             "round.paired": "RoundPairedEvent", "round.published": "RoundPublishedEvent",
             "standings.updated": "StandingsUpdatedEvent",
             "stage.closed": "StageClosedEvent", "stage.started": "StageStartedEvent",
             "director.action": "DirectorActionEvent", "result.confirmed": "ResultConfirmedEvent",
             "result.disputed": "ResultDisputedEvent", "result.settled": "ResultSettledEvent",
             "webhook.test": "WebhookTestEvent"}
    assert set(webhooks) == set(names)
    for event, component in names.items():
        body = webhooks[event]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body["$ref"] == f"#/components/schemas/{component}"
    hand, _ = hand_enter(match=match, data=summary("N"))
    tournament = match.round.tournament
    standings_recompute(tournament=tournament)
    sent = []
    for event, ids in (("hand.entered", {"hand": hand.pk}), ("hand.corrected", {"hand": hand.pk}),
                       ("round.paired", {"round": match.round.pk}), ("round.published", {"round": match.round.pk}),
                       ("standings.updated", {"tournament": tournament.pk})):
        _, payloads = event_payloads(event, ids)
        sent += payloads
    from tournaments.services.desk import desk_action_revert, desk_action_take

    action = desk_action_take(tournament=tournament, match=match, kind="penalty", reason="slow play",
                              params={"side": "ns", "points": 5}).action
    sent += event_payloads("director.action", {"action": action.pk})[1]
    desk_action_revert(action=action, reason="a mistake")
    sent += event_payloads("director.action", {"action": action.pk})[1]
    from tournaments.models import ResultEvent, Tournament

    tournament.confirmation = Tournament.Confirmation.OPPONENTS
    tournament.save(update_fields=["confirmation"])
    match.refresh_from_db()
    for kind, event in (("confirmed", "result.confirmed"), ("disputed", "result.disputed"),
                        ("settled", "result.settled")):
        step = ResultEvent.objects.create(match=match, kind=kind, status=kind if kind != "settled" else "final",
                                          side="ew" if kind != "settled" else "", reason="a reason",
                                          player=match.ew.player_1 if match.ew_id else None)
        sent += event_payloads(event, {"step": step.pk})[1]
    game, hand_id = hand.game, hand.pk
    hand_delete_last(hand=hand, user=None)
    sent += event_payloads("hand.deleted", {"hand": hand_id, "game": game.pk, "number": 1})[1]
    sent.append(("webhook.test", {"message": "A test event from Manille Tournaments."}))
    for event, data in sent:
        body = json.loads(json.dumps(_envelope(event, "6f1c2a5e-0b1d-4c55-9a43-2f4f7b0c9e11", tournament, data),
                                     cls=DjangoJSONEncoder))
        _validator(schema, names[event]).validate(body)
    assert {event for event, _ in sent} >= {"hand.entered", "hand.deleted", "round.paired", "round.published",
                                            "standings.updated", "director.action", "result.confirmed",
                                            "result.disputed", "result.settled"}


def test_query_values_the_schema_calls_valid_are_accepted_and_others_refused(anon, club, tournament):
    assert anon.get("/api/v1/players/?club=0").status_code == 400  # the schema says minimum 1
    assert anon.get("/api/v1/players/?club=999999").json()["count"] == 0  # no such club: nothing listed
    assert anon.get(f"/api/v1/players/?club={club.pk}").status_code == 200
    assert anon.get("/api/v1/tournaments/?starts_before=").status_code == 200  # empty: ignored (allowEmptyValue)
    assert anon.get("/api/v1/tournaments/?public=-58800").status_code == 400  # was ignored
    assert anon.get("/api/v1/tournaments/?public=true").json()["count"] == 1
    assert anon.get("/api/v1/tournaments/?public=false").json()["count"] == 0
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/entries/?withdrawn=maybe").status_code == 400


def test_an_empty_ordering_or_search_is_declared_and_accepted(schema, anon, club):
    """The schema fuzz's find: ``?ordering=`` (and ``?search=``) answer the unfiltered list, so the schema allows
    them empty (an empty value is not one of ``ordering``'s enum)."""
    params = {p["name"]: p for p in schema["paths"]["/api/v1/players/"]["get"]["parameters"]}
    assert params["ordering"]["allowEmptyValue"] and params["search"]["allowEmptyValue"]
    assert "" not in params["ordering"]["schema"]["enum"]
    for query in ("ordering=", "search=", "ordering=&search="):
        assert anon.get(f"/api/v1/players/?{query}").status_code == 200, query
    assert anon.get("/api/v1/players/?ordering=nope").status_code == 400


def test_a_lists_free_text_filters_declare_no_nul_and_refuse_one(schema, anon):
    """The schema fuzz's find: ``?name=%00`` answered 400 ``null_characters_not_allowed`` (Django's form field) while
    the schema called it valid. Every free-text filter of a list says it keeps NUL characters out."""
    from api.openapi_http import NO_NUL

    filters = {"/api/v1/tournaments/": ("name", "variant"), "/api/v1/clubs/": ("name", "city", "search"),
               "/api/v1/players/": ("name", "licence", "search"), "/api/v1/teams/": ("name", "search")}
    for path, names in filters.items():
        params = {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]}
        for name in names:
            assert params[name]["schema"]["pattern"] == NO_NUL, (path, name)
            answer = anon.get(f"{path}?{name}=%00")
            assert answer.status_code == 400, (path, name)
            assert answer.json()["errors"][0]["code"] == "null_characters_not_allowed", (path, name)


def test_every_link_joins_two_operations(schema):
    from api.openapi_http import LINKS

    operations = {op["operationId"]: op for _, _, op in _operations(schema)}
    for (source, status), targets in LINKS.items():
        assert source in operations and status in operations[source]["responses"], (source, status)
        links = operations[source]["responses"][status]["links"]
        assert set(links) == set(targets), (source, set(targets) - set(links))
