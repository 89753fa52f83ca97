"""A stage's ``status`` follows the tournament through the API: stage 1 of a draft is ``pending`` (before the event
starts), ``running`` once the event starts (its first pairing, or starting stage 1)."""

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, TeamFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def statuses(client, tournament):
    return [s["status"] for s in client.get(f"/api/v1/tournaments/{tournament.pk}/stages/").json()["results"]]


def test_stage_1_of_a_draft_is_pending_until_the_event_starts(anon, organizer, tournament):
    assert tournament.status == Tournament.Status.DRAFT
    for seed in range(1, 13):
        EntryFactory(tournament=tournament, team=TeamFactory(), seed=seed)
    url = f"/api/v1/tournaments/{tournament.pk}/stages/"
    added = client_for(organizer).post(url, {"format": "knockout", "rounds": 3, "previous_qualification": {
        "kind": "top", "count": 8}}, format="json")
    assert added.status_code == 201
    assert statuses(anon, tournament) == ["pending", "pending"]
    assert anon.get(f"{url}1/").json()["status"] == "pending"
    started = client_for(organizer).post(f"{url}1/start/")  # starting stage 1 starts the event
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert statuses(anon, tournament) == ["running", "pending"]
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/").json()["status"] == "running"

