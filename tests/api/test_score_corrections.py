"""The stateless score refuses states the rules cannot reach and applies Catalonia's held-back bonus (#13)."""

import pytest

from tournaments.models import Hand

pytestmark = pytest.mark.django_db

SPANISH = {"dealer": "N", "turned_card": "2O", "tricks": {"ns": 7, "ew": 5}, "points": {"ns": 40, "ew": 32}}


def score(client, variant, body):
    return client.post(f"/api/v1/variants/{variant}/score/", body, format="json")


def test_catalan_held_back_bonus_is_added_when_the_hand_wins_the_set(anon):
    body = {"dealer": "N", "turned_card": "12O", "tricks": {"ns": 6, "ew": 6}, "points": {"ns": 40, "ew": 32},
            "state": {"totals": {"ns": 38, "ew": 10}, "previous_dealer": "E"}}
    response = score(anon, "catalan-manilla", body)
    assert response.status_code == 200, response.json()
    result = response.json()
    assert result["bonus"] == {"side": "ns", "points": 3, "held_back": True, "applied": True}
    assert (result["score"], result["totals"], result["game_winner"]) == ({"ns": 4, "ew": 0}, {"ns": 45, "ew": 10},
                                                                         "ns")
    assert result["state"]["winner"] == "ns"


def test_tie_pending_outside_belgian_manille_is_invalid_input(anon):
    assert score(anon, "spanish-manilla", SPANISH).json()["score"] == {"ns": 4, "ew": 0}
    response = score(anon, "spanish-manilla", SPANISH | {"state": {"tie_pending": True}})  # was scored 8
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error["attr"]) == ("invalid_input", "state.tie_pending")
    assert error["detail"] == "This variant has no tie double: a pending tie (x2) cannot arise."
    belgian = {"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23},
               "state": {"tie_pending": True}}
    assert score(anon, "belgian-manille", belgian).json()["multiplier"] == 2


def test_state_totals_at_the_target_answer_game_over(anon):
    response = score(anon, "spanish-manilla", SPANISH | {"state": {"totals": {"ns": 41, "ew": 20}}})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error["attr"]) == ("game_over", "state.totals")
    assert error["detail"] == "The game is already decided: NS 41, EW 20, with the target at 40."
    assert Hand.objects.count() == 0
