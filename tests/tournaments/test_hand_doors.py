"""One result path: the API, the table entry (its form and its queue) and the admin's score sheet store the same
hand for the same input, through the same services."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.tournaments.test_admin import hand_formset, new_hand_post, rendered_post_data, url
from tests.web.conftest import make_tournament
from tournaments.models import Game, Hand, Match
from tournaments.services.hands import hand_correct, hand_enter

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

FIRST = {"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}}
#: Hand 2, as the API and the queue send it, and as a form's fields.
HAND = {"dealer": "E", "trump": "H", "doublings": 1, "tricks": {"ns": 3, "ew": 5}, "points": {"ns": 25, "ew": 35}}
FIELDS = {"dealer": "E", "trump": "H", "doublings": "1", "tricks_ns": "3", "tricks_ew": "5", "points_ns": "25",
          "points_ew": "35"}
#: What a stored hand is, apart from where and by whom it was stored.
COMPARED = ("number", "dealer", "trump", "turned_card", "blind", "doublings", "tricks_ns", "tricks_ew", "points_ns",
            "points_ew", "penalty_type", "penalty_side", "thrown_in", "sheet_score", "play", "multiplier",
            "all_tricks", "score_ns", "score_ew", "bonus", "total_ns", "total_ew", "game_winner", "labels")


def _stored(match: Match) -> dict:
    hand = Hand.objects.get(game__match=match, number=2)
    return {name: getattr(hand, name) for name in COMPARED}


def _enter(door: str, match: Match, keeper, admin_client) -> None:
    slug = match.round.tournament.slug
    if door == "api":
        response = client_for(keeper).post(f"/api/v1/matches/{match.pk}/hands/", HAND, format="json")
        assert response.status_code == 201, response.content
    elif door == "entry form":
        client = Client()
        client.force_login(keeper)
        response = client.post(reverse("ws:score-match", args=[slug, match.pk]),
                               {**FIELDS, "key": "form-2", "game": "1", "number": "2"})
        assert response.status_code == 302, response.content
    elif door == "entry queue":
        client = Client()
        client.force_login(keeper)
        response = client.post(reverse("ws:score-hand", args=[slug, match.pk]),
                               json.dumps({"hand": HAND, "game": 1, "number": 2, "key": "queue-2"}),
                               content_type="application/json")
        assert response.status_code == 201, response.content
    else:
        game = Game.objects.get(match=match)
        data, _ = new_hand_post(admin_client, game, **FIELDS)
        response = admin_client.post(url(Game, "change", game.pk), data)
        assert response.status_code == 302, response.content


@pytest.mark.parametrize("door", ["api", "entry form", "entry queue", "admin"])
def test_every_door_stores_the_same_hand(door, admin_client):
    tournament = make_tournament(4)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    reference, match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table")[:2]
    for m in (reference, match):
        hand_enter(match=m, data=FIRST)
    hand_enter(match=reference, data=HAND)
    _enter(door, match, keeper, admin_client)
    assert _stored(match) == _stored(reference)
    assert Hand.objects.filter(game__match=match).count() == 2


def _correct(door: str, match: Match, keeper, admin_client) -> None:
    """Correct hand 2 through a door: not doubled after all."""
    hand = Hand.objects.get(game__match=match, number=2)
    fields = {**FIELDS, "doublings": "0"}
    if door == "entry form":
        client = Client()
        client.force_login(keeper)
        response = client.post(reverse("ws:score-correct", args=[match.round.tournament.slug, match.pk]),
                               {**fields, "reason": "not doubled"})
        assert response.status_code == 302, response.content
    elif door == "admin":
        game = hand.game
        page = admin_client.get(url(Game, "change", game.pk))
        formset = hand_formset(page)
        data = rendered_post_data(page)
        row = next(f for f in formset.forms if f.instance.pk == hand.pk)
        for name, value in fields.items():
            data[row.add_prefix(name)] = value
        data["correction_reason"] = "not doubled"
        response = admin_client.post(url(Game, "change", game.pk), data)
        assert response.status_code == 302, response.content
    else:
        response = client_for(keeper).patch(f"/api/v1/hands/{hand.pk}/", {"doublings": 0, "reason": "not doubled"},
                                            format="json")
        assert response.status_code == 200, response.content


@pytest.mark.parametrize("door", ["api", "entry form", "admin"])
def test_every_door_corrects_a_hand_alike(door, admin_client):
    """A correction stores the hand as its form showed it when it was checked: a call taken back is gone."""
    tournament = make_tournament(4)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    reference, match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table")[:2]
    for m in (reference, match):
        hand_enter(match=m, data=FIRST)
        hand_enter(match=m, data=HAND)
    hand_correct(hand=Hand.objects.get(game__match=reference, number=2), data={"doublings": None})
    _correct(door, match, keeper, admin_client)
    assert _stored(match) == _stored(reference)
    assert _stored(match)["doublings"] == 0
