"""The push channel's events as the services make them: built on commit while anyone listens, cheaply."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.web.conftest import belgian_hand, make_tournament
from tests.webhooks.push_fixtures import memory_store  # noqa: F401 (fixture)
from tournaments.models import Match
from tournaments.services.hands import hand_enter
from webhooks import push
from webhooks.hand_rows import hand_with_match
from webhooks.services import event_payloads

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hands_event_is_built_with_one_statement(memory_store):  # noqa: F811
    """In the request that stored the hand: one statement (prepared by PostgreSQL after five), no ORM compiling."""
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    hand, _ = hand_enter(match=match, data=belgian_hand(1))
    with CaptureQueriesContext(connection) as queries:
        ids = push.publish("hand.entered", {"hand": hand.pk, "event_id": "6f1c2a5e-0b1d-4c55-9a43-2f4f7b0c9e11"})
    assert len(queries) == 1 and len(ids) == 1
    [event] = memory_store.replay((0, 0), memory_store.state().last, None, 10)
    assert event.tournament == tournament.pk and event.public and '"id":"6f1c2a5e-0b1d-4c55-9a43-2f4f7b0c9e11"' in event.body


def test_the_statement_builds_what_the_orm_built(memory_store):  # noqa: F811
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    hand, _ = hand_enter(match=match, data=belgian_hand(1))
    built = hand_with_match(hand.pk)
    orm = Match.objects.select_related("round__tournament", "ns__player_1", "ns__player_2", "ew__player_1",
                                       "ew__player_2").get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        seen = (built.game.match.round.tournament.slug, built.game.match.ns.player_1.name,
                built.game.match.ew.player_2.name, built.game.number, built.game.match.games_won_ns)
    assert len(queries) == 0
    assert seen == (tournament.slug, orm.ns.player_1.name, orm.ew.player_2.name, 1, orm.games_won_ns)
    assert event_payloads("hand.entered", {"hand": hand.pk})[1][0][1]["match"]["players"]["ns"][0]["name"] == \
        orm.ns.player_1.name
    assert hand_with_match(10 ** 9) is None


def test_nothing_is_built_while_nobody_listens(memory_store):  # noqa: F811
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    hand_enter(match=match, data=belgian_hand(1))
    assert memory_store.state().last == (0, 0)
    memory_store.watch()
    hand_enter(match=Match.objects.get(pk=match.pk), data=belgian_hand(2))
    assert memory_store.state().last != (0, 0)
