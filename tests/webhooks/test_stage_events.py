"""Webhooks of stages (issue 27): closing a stage sends ``stage.closed`` with its qualifiers, starting the next
sends ``stage.started``; both valid to their schemas."""

import json

import jsonschema
import pytest
from django.core.serializers.json import DjangoJSONEncoder

from tests.factories import UserFactory
from tests.tournaments.test_stages_close_start import by_seed, play_stage, pools_event
from tournaments.services.stages import stage_add, stage_close, stage_start
from webhooks.services import _envelope, endpoint_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture(scope="module")
def schema(_served_schema_text):
    """The served schema (fetched once a session: tests/conftest.py)."""
    return json.loads(_served_schema_text)


def valid(schema, component: str, tournament, event: str, data: dict) -> None:
    body = json.loads(json.dumps(_envelope(event, "6f1c2a5e-0b1d-4c55-9a43-2f4f7b0c9e11", tournament, data),
                                 cls=DjangoJSONEncoder))
    root = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker()).validate(body)


def test_closing_and_starting_a_stage_reach_the_receiver(django_capture_on_commit_callbacks, receiver, schema):
    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=UserFactory(), format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2})
    play_stage(tournament, 1, by_seed(teams))
    endpoint_create(tournament=tournament, url=receiver.url, events=["stage.closed", "stage.started"])
    with django_capture_on_commit_callbacks(execute=True):
        stage_close(tournament=tournament, number=1, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        stage_start(tournament=tournament, number=2, user=user)
    sent = [(r["headers"]["X-Manille-Event"], json.loads(r["body"])["data"]) for r in receiver.requests]
    assert [name for name, _ in sent] == ["stage.closed", "stage.started"]
    closed, started = sent[0][1]["stage"], sent[1][1]["stage"]
    assert (closed["number"], closed["status"], len(closed["qualifiers"])) == (1, "closed", 4)
    assert [q["seed"] for q in closed["qualifiers"]] == [1, 2, 3, 4]
    assert (started["number"], started["format"], started["status"]) == (2, "knockout", "running")
    assert started["seed"]
    valid(schema, "StageClosedEvent", tournament, "stage.closed", sent[0][1])
    valid(schema, "StageStartedEvent", tournament, "stage.started", sent[1][1])
