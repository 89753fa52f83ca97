"""Webhooks of individual events (issue 26): matches carry their players by side and ``bye`` in every event, a
drawn round its sit-outs and seed, the standings a row a player; every payload valid to its schema."""

import json

import jsonschema
import pytest
from django.core.serializers.json import DjangoJSONEncoder

from tests.api.deals import summary
from tests.api.individual import enter_players, individual_event, names
from tests.factories import UserFactory
from tournaments.models import Round
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from webhooks.services import _envelope, endpoint_create, event_payloads

pytestmark = pytest.mark.django_db

EVENTS = {"hand.entered": "HandEnteredEvent", "match.finished": "MatchFinishedEvent",
          "round.paired": "RoundPairedEvent", "standings.updated": "StandingsUpdatedEvent"}


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture(scope="module")
def schema(_served_schema_text):
    """The served schema (fetched once a session: tests/conftest.py)."""
    return json.loads(_served_schema_text)


def valid(schema, event: str, tournament, data: dict) -> None:
    body = json.loads(json.dumps(_envelope(event, "6f1c2a5e-0b1d-4c55-9a43-2f4f7b0c9e11", tournament, data),
                                 cls=DjangoJSONEncoder))
    root = {"$ref": f"#/components/schemas/{EVENTS[event]}", "components": schema["components"]}
    jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker()).validate(body)


def test_an_individual_events_round_hands_and_standings_reach_the_receiver(django_capture_on_commit_callbacks,
                                                                          receiver, schema):
    event = individual_event()
    players = enter_players(event, 9)
    by_id = {p.pk: p for p in players}
    organizer = UserFactory(username="organizer")
    event.organizers.add(organizer)  # round.paired reaches the endpoints its organizers registered
    endpoint_create(tournament=event, url=receiver.url, user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_pair(tournament=event)
    sent = {r["headers"]["X-Manille-Event"]: json.loads(r["body"])["data"] for r in receiver.requests}
    paired = sent["round.paired"]["round"]
    assert paired["seed"] == rnd.seed and len(paired["sitting_out"]) == 1 and len(paired["matches"]) == 2
    for match in paired["matches"]:
        assert (match["ns"], match["ew"], match["bye"]) == (None, None, False)
        assert match["players"]["ns"] == names(by_id[p["id"]] for p in match["players"]["ns"])
    valid(schema, "round.paired", event, sent["round.paired"])
    match = Round.objects.get(pk=rnd.pk).matches.order_by("table").first()
    receiver.requests.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for dealer in "NESWNESW":
            hand, _ = hand_enter(match=match, data=summary(dealer, 60, tricks=(8, 0)))
            if hand.game.match.status == "finished":
                break
    events = [r["headers"]["X-Manille-Event"] for r in receiver.requests]
    assert "hand.entered" in events and "match.finished" in events and "standings.updated" in events
    for request in receiver.requests:
        name, data = request["headers"]["X-Manille-Event"], json.loads(request["body"])["data"]
        valid(schema, name, event, data)
        if name in ("hand.entered", "match.finished"):
            assert data["match"]["players"] == next(m["players"] for m in paired["matches"]
                                                    if m["id"] == match.pk)
            assert data["match"]["ns"] is None and data["match"]["bye"] is False
    rows = json.loads(receiver.requests[events.index("standings.updated")]["body"])["data"]["standings"]
    assert {r["player"] for r in rows} == set(by_id) and all("team" not in r for r in rows)
    assert rows[0]["match_points"] > 0 and rows[0]["player_detail"]["name"] == by_id[rows[0]["player"]].name


def test_a_team_events_payloads_name_the_teams_players_and_a_bye(schema):
    from tests.factories import MatchFactory, TeamFactory, TournamentFactory

    tournament = TournamentFactory(variant="belgian-manille", best_of=1)
    match = MatchFactory(round__tournament=tournament, round__number=1, table=1)
    bye_team = TeamFactory()
    from tournaments.models import Match

    Match.objects.create(round=match.round, table=2, ns=bye_team, ew=None)
    hand, _ = hand_enter(match=match, data=summary("N"))
    _, [(name, data)] = event_payloads("hand.entered", {"hand": hand.pk})
    assert data["match"]["players"] == {"ns": names((match.ns.player_1, match.ns.player_2)),
                                        "ew": names((match.ew.player_1, match.ew.player_2))}
    valid(schema, name, tournament, data)
    _, [(name, data)] = event_payloads("round.paired", {"round": match.round.pk})
    bye = data["round"]["matches"][1]
    assert bye["bye"] is True and bye["players"] == {"ns": names((bye_team.player_1, bye_team.player_2)), "ew": []}
    assert data["round"]["sitting_out"] == [] and data["round"]["seed"] is None
    valid(schema, name, tournament, data)
