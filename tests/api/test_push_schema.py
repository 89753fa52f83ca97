"""The push channel in the schema: every event a real stream sends is a ``PushEvent``, the ticket a ``PushTicket``."""

import json

import jsonschema
import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from tests.api.conftest import client_for
from tests.api.push_client import Stream
from tests.web.conftest import belgian_hand, make_tournament
from tests.webhooks.push_fixtures import memory_store  # noqa: F401 (fixture)
from tournaments.models import Match
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db(transaction=True)


def _validator(schema, name: str):
    root = {"$ref": f"#/components/schemas/{name}", "components": schema["components"]}
    return jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker())


def _changes(tournament_id: int) -> None:
    """Every kind of event: round 1 played out (hands, matches decided, standings), round 2 paired, a hand of it
    entered, corrected and deleted."""
    for match in Match.objects.filter(round__tournament_id=tournament_id, ew__isnull=False):
        number = 1
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            hand_enter(match=Match.objects.get(pk=match.pk), data=belgian_hand(number, ns=60))
            number += 1
    tournament = Match.objects.get(pk=match.pk).round.tournament
    standings_recompute(tournament=tournament)
    round_pair(tournament=tournament)
    second = Match.objects.filter(round__tournament_id=tournament_id, round__number=2, ew__isnull=False).first()
    first, _ = hand_enter(match=second, data=belgian_hand(1))
    last, _ = hand_enter(match=Match.objects.get(pk=second.pk), data=belgian_hand(2))
    hand_correct(hand=first, data=belgian_hand(1, ns=40))
    hand_delete_last(hand=last)


def test_every_event_a_stream_sends_is_described(served_schema, memory_store):  # noqa: F811
    tournament = make_tournament(4)
    ticket = client_for(None).post("/api/v1/push/tickets/", {"tournament": tournament.pk}, format="json")
    _validator(served_schema, "PushTicket").validate(ticket.json())
    again = client_for(None).post("/api/v1/push/tickets/", {}, format="json").json()["ticket"]

    async def scenario():
        stream = await Stream(ticket.json()["ticket"]).open()
        events = await stream.events_until_ready()
        await database_sync_to_async(_changes)(tournament.pk)
        while not await stream.nothing(1.0):
            events.append(stream.last)
        await stream.close()
        reset = await Stream(again, last_event_id="1-0").open()
        events += await reset.events_until_ready()
        await reset.close()
        return events

    events = async_to_sync(scenario)()
    kinds = {data["event"] for _id, data in events}
    assert kinds == {"ready", "reset", "hand.entered", "hand.corrected", "hand.deleted", "match.finished",
                     "round.paired", "round.published", "standings.updated"}
    validator = _validator(served_schema, "PushEvent")
    for _id, data in events:
        validator.validate(json.loads(json.dumps(data)))
