"""A scorekeeper's entry of an individual event's match: the partnerships and each seat's player named instead of
teams, and the queue's played_at passed to hand_enter (never earlier than the round's draw)."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tests.web.conftest import belgian_hand
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Game, Match, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(client):
    keeper = UserFactory(username="keeper")
    tournament = individual_event(22, minutes=30)
    tournament.scorekeepers.add(keeper)
    seat_round(tournament, 1)
    client.force_login(keeper)
    return Match.objects.get(round__tournament=tournament, table=1)


def test_the_list_names_each_tables_partnerships(client, match):
    page = client.get(reverse("ws:score", args=[match.round.tournament.slug])).content.decode()
    assert "An Peeters &amp; Chris Wouters" in page and "Bart Claes &amp; Dirk Maes" in page
    assert "Els Janssens &amp; Greet Goossens" in page  # table 2: E Frank Willems, W Hilde Jacobs


def test_the_entry_page_names_the_players_by_seat(client, match):
    page = client.get(reverse("ws:score-match", args=[match.round.tournament.slug, match.pk])).content.decode()
    assert '<span class="name">An Peeters &amp; Chris Wouters</span>' in page
    for name in ("An Peeters", "Bart Claes", "Chris Wouters", "Dirk Maes"):
        assert f"<small>{name}</small>" in page
    assert reverse("ws:score-hand", args=[match.round.tournament.slug, match.pk]) in page


def test_a_queued_hand_is_judged_by_the_time_it_was_typed(client, match):
    """The clock ended a minute ago: a hand typed five minutes ago starts its game; one sent without a time, not."""
    slug = match.round.tournament.slug
    Round.objects.filter(pk=match.round_id).update(
        created_at=timezone.now() - timedelta(minutes=40), clock_started_at=timezone.now() - timedelta(minutes=31),
        clock_ends_at=timezone.now() - timedelta(minutes=1))
    typed = timezone.now() - timedelta(minutes=5)
    body = {"hand": belgian_hand(1), "game": 1, "number": 1, "key": "a1", "played_at": typed.isoformat()}
    answer = client.post(reverse("ws:score-hand", args=[slug, match.pk]), json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert abs(Game.objects.get(match=match).started_at - typed) < timedelta(seconds=1)
    other = Match.objects.get(round=match.round, table=2)
    late = client.post(reverse("ws:score-hand", args=[slug, other.pk]), json.dumps({**body, "played_at": None,
                                                                                   "key": "a2"}),
                       content_type="application/json")
    assert late.status_code == 409 and late.json()["refusals"][0]["code"] == "round_time_over"


def test_a_time_before_the_draw_counts_as_the_draw(client, match):
    slug = match.round.tournament.slug
    body = {"hand": belgian_hand(1), "game": 1, "number": 1, "key": "b1", "played_at": "2020-01-01T10:00:00Z"}
    assert client.post(reverse("ws:score-hand", args=[slug, match.pk]), json.dumps(body),
                       content_type="application/json").status_code == 201
    assert Game.objects.get(match=match).started_at >= match.round.created_at
    garbled = {**body, "key": "b2", "number": 2, "hand": belgian_hand(2), "played_at": "yesterday"}
    assert client.post(reverse("ws:score-hand", args=[slug, match.pk]), json.dumps(garbled),
                       content_type="application/json").status_code == 201
