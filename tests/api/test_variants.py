"""Variants, the score calculator and check-play: answered by the rules engine, nothing stored."""

import pytest

from tests.api.deals import ALL_RULE_CODES, BELGIAN_DEAL, RULE_CASES, STATE_CASES, summary
from tournaments.models import Hand

pytestmark = pytest.mark.django_db

SLUGS = ["belgian-manille", "spanish-manilla", "catalan-manilla", "mexican-malilla", "macau-manilla",
         "classic-malilla"]


def test_list_is_paginated_and_names_all_six(anon):
    body = anon.get("/api/v1/variants/").json()
    assert body["count"] == 6 and body["next"] is None and body["previous"] is None
    assert [v["slug"] for v in body["results"]] == SLUGS


def test_detail_describes_the_deck_counts_and_options(anon):
    v = anon.get("/api/v1/variants/belgian-manille/").json()
    assert v["name"].startswith("Belgian")
    assert v["deck"]["ranks"] == ["10", "A", "K", "Q", "J", "9", "8", "7"]
    assert v["deck"]["points"] == {"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1, "9": 0, "8": 0, "7": 0}
    assert (v["tricks_per_deal"], v["trick_points"], v["hand_total"], v["base"]) == (8, 0, 60, 30)
    assert (v["target"], v["best_of"], v["direction"], v["trump_mode"]) == (101, 3, "clockwise", "chosen")
    assert v["options"]["tie_doubling"]["default"] == "next"
    spanish = anon.get("/api/v1/variants/spanish-manilla/").json()
    assert (spanish["trump_mode"], spanish["direction"], spanish["base"]) == ("turned", "counterclockwise", 36)


def test_unknown_variant_is_a_404(anon):
    response = anon.get("/api/v1/variants/whist/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    assert anon.post("/api/v1/variants/whist/score/", summary(), format="json").status_code == 404


def test_score_answers_the_result_with_new_totals_and_stores_nothing(anon):
    body = summary("N", 37) | {"state": {"totals": {"ns": 33, "ew": 33}, "tie_pending": True,
                                         "previous_dealer": "W"}}
    response = anon.post("/api/v1/variants/belgian-manille/score/", body, format="json")
    assert response.status_code == 200, response.json()
    result = response.json()
    assert (result["multiplier"], result["score"], result["totals"]) == (2, {"ns": 14, "ew": 0}, {"ns": 47, "ew": 33})
    assert result["next_dealer"] == "E" and result["game_winner"] is None
    assert result["state"]["totals"] == {"ns": 47, "ew": 33}
    assert Hand.objects.count() == 0


def test_score_worked_example_of_004(anon):
    """No trump after a tie, an opponent goes along, 37 points: 7 × 2 × 2 × 2 = 56."""
    body = summary("N", 37, trump="none", doublings=1) | {"state": {"tie_pending": True}}
    result = anon.post("/api/v1/variants/belgian-manille/score/", body, format="json").json()
    assert (result["multiplier"], result["score"]) == (8, {"ns": 56, "ew": 0})


def test_score_turn_up_bonus_held_back_in_mexico(anon):
    """000: at 33–33 the dealer turns a king (3): held back; non-dealers make 36, score 1; the bonus wins."""
    body = {"dealer": "N", "turned_card": "12O", "tricks": {"ns": 5, "ew": 5}, "points": {"ns": 34, "ew": 36},
            "state": {"totals": {"ns": 33, "ew": 33}, "previous_dealer": "E"}}
    result = anon.post("/api/v1/variants/mexican-malilla/score/", body, format="json").json()
    assert result["bonus"] == {"side": "ns", "points": 3, "held_back": True, "applied": True}
    assert result["totals"] == {"ns": 36, "ew": 34} and result["game_winner"] == "ns"


def test_score_with_house_options(anon):
    body = summary("N", 60, tricks=(8, 0)) | {"options": {"target": 61}}
    result = anon.post("/api/v1/variants/belgian-manille/score/", body, format="json").json()
    assert result["game_winner"] is None and result["totals"]["ns"] == 60
    bad = anon.post("/api/v1/variants/belgian-manille/score/", summary() | {"options": {"target": "x"}},
                    format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0] | {"detail": ""} == {"code": "invalid_option", "attr": "options.target",
                                                         "detail": ""}


def test_every_rule_code_is_reachable_through_score():
    covered = {code for _, _, code in RULE_CASES} | {code for _, code, _ in STATE_CASES}
    assert covered == ALL_RULE_CODES


@pytest.mark.parametrize(("variant", "hand", "code"), RULE_CASES, ids=[c[2] + "-" + c[0] for c in RULE_CASES])
def test_score_refuses_with_the_rule_code(anon, variant, hand, code):
    response = anon.post(f"/api/v1/variants/{variant}/score/", hand, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert code in [e["code"] for e in body["errors"]]
    assert all(set(e) == {"code", "attr", "detail"} and e["detail"] for e in body["errors"])


@pytest.mark.parametrize(("hand", "code", "state"), STATE_CASES, ids=[c[1] for c in STATE_CASES])
def test_score_refuses_what_the_game_so_far_forbids(anon, hand, code, state):
    response = anon.post("/api/v1/variants/belgian-manille/score/", hand | {"state": state}, format="json")
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == [code]


def test_points_total_error_names_the_numbers(anon):
    response = anon.post("/api/v1/variants/belgian-manille/score/",
                         summary() | {"points": {"ns": 37, "ew": 22}}, format="json")
    assert response.json() == {"type": "validation_error", "errors": [
        {"code": "points_total", "attr": "points",
         "detail": "The points of the two teams must add up to 60; these add up to 59."}]}


def test_the_detail_follows_accept_language_and_the_code_and_attr_do_not(anon):
    """The words are the request's language (English without Accept-Language); the code and attr never change."""
    url, bad = "/api/v1/variants/belgian-manille/score/", summary() | {"points": {"ns": 37, "ew": 22}}
    english = anon.post(url, bad, format="json").json()["errors"]
    french = anon.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()["errors"]
    dutch = anon.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="nl-BE,nl;q=0.9").json()["errors"]
    assert [(e["code"], e["attr"]) for e in english] == [(e["code"], e["attr"]) for e in french] == \
        [(e["code"], e["attr"]) for e in dutch] == [("points_total", "points")]
    assert english[0]["detail"] == "The points of the two teams must add up to 60; these add up to 59."
    assert french[0]["detail"] == "Les points des deux équipes doivent faire 60 au total ; ceux-ci font 59."
    assert dutch[0]["detail"] != english[0]["detail"] and "60" in dutch[0]["detail"]


@pytest.mark.parametrize("body", [
    {},
    {"dealer": "X"},
    {"dealer": "N", "doublings": 10**30},
    {"dealer": "N", "tricks": {"ns": "five", "ew": 3}},
    {"dealer": "N", "tricks": [5, 3]},
    {"dealer": "N", "points": {"ns": -1, "ew": 61}},
    {"dealer": "N", "play": {"hands": "all", "cards": 7}},
    {"dealer": "N", "trump": ["H"]},
    {"dealer": "N", "state": {"totals": {"ns": 1.5, "ew": 0}}},
    {"dealer": "N", "options": [1]},
    [],
    "N",
])
def test_score_odd_shapes_are_400s(anon, body):
    response = anon.post("/api/v1/variants/belgian-manille/score/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["type"] == "validation_error"


def test_check_play_an_unfinished_play_names_the_next_seat_and_its_legal_cards(anon):
    body = {"dealer": "N", "trump": "H", "hands": BELGIAN_DEAL, "cards": ["9S"]}
    response = anon.post("/api/v1/variants/belgian-manille/check-play/", body, format="json")
    assert response.status_code == 200
    partial = response.json()
    assert partial["legal"] is True and partial["complete"] is False
    assert partial["next"] == {"seat": "S", "legal_cards": ["10H", "JH", "9H", "8H"]}
    assert partial["tricks"][0]["leader"] == "E" and partial["tricks"][0]["cards"] == ["9S"]


def test_check_play_reports_the_first_illegal_card(anon):
    body = {"dealer": "N", "trump": "H", "hands": BELGIAN_DEAL, "cards": ["9S", "10H", "7H"]}
    result = anon.post("/api/v1/variants/belgian-manille/check-play/", body, format="json").json()
    assert result["legal"] is False
    assert result["violation"] == {"code": "no_undertrump", "trick": 1, "seat": "W", "card": "7H",
                                   "legal_cards": ["JD", "9D", "8D", "7D"]}


def test_check_play_a_whole_deal(anon):
    """Play the Belgian deal out: E leads spades, S trumps low, W overtrumps, N discards clubs."""
    deal = {"E": ["10S", "AS", "KS", "QS", "JS", "9S", "8S", "7S"],
            "S": ["10H", "JH", "9H", "8H", "10D", "AD", "KD", "QD"],
            "W": ["AH", "KH", "QH", "7H", "JD", "9D", "8D", "7D"],
            "N": ["10C", "AC", "KC", "QC", "JC", "9C", "8C", "7C"]}
    url = "/api/v1/variants/belgian-manille/check-play/"
    played = []
    for _ in range(33):
        result = anon.post(url, {"dealer": "N", "trump": "H", "hands": deal, "cards": played}, format="json").json()
        assert result["legal"] is True
        if result["complete"]:
            break
        played.append(result["next"]["legal_cards"][0])
    assert len(played) == 32 and result["complete"] is True and result["next"] is None
    assert len(result["tricks"]) == 8
    assert sum(result["tricks_won"].values()) == 8 and sum(result["points"].values()) == 60


@pytest.mark.parametrize(("body", "code"), [
    ({"dealer": "N", "trump": "H", "hands": {**BELGIAN_DEAL, "N": ["2C", *BELGIAN_DEAL["N"][1:]]}, "cards": []},
     "unknown_card"),
    ({"dealer": "N", "trump": "H", "hands": {**BELGIAN_DEAL, "N": BELGIAN_DEAL["N"][:7]}, "cards": []},
     "deck_invalid"),
    ({"dealer": "N", "trump": "Z", "hands": BELGIAN_DEAL, "cards": []}, "trump_invalid"),
    ({"dealer": "N", "trump": "H", "hands": BELGIAN_DEAL, "cards": ["9S", "XX"]}, "unknown_card"),
])
def test_check_play_malformed_is_a_400(anon, body, code):
    response = anon.post("/api/v1/variants/belgian-manille/check-play/", body, format="json")
    assert response.status_code == 400
    assert code in [e["code"] for e in response.json()["errors"]]
