"""The stateless score of a game of a fixed number of deals (house options ``deals``, ``tiebreak_deals``): each
answer's state sent back with the next hand, the engine ends the game on its deals."""

import pytest

from tests.api.deals import summary
from tournaments.models import Game, Hand

pytestmark = pytest.mark.django_db

URL = "/api/v1/variants/belgian-manille/score/"
SLUGS = ["belgian-manille", "spanish-manilla", "catalan-manilla", "mexican-malilla", "macau-manilla",
         "classic-malilla"]

#: Four Belgian deals from N: NS make 7, a deal thrown in, EW make 7, a 30-30 tie: level at 7-7.
LEVEL_GAME = [summary("N", 37), {"dealer": "E", "thrown_in": True}, summary("S", 23, tricks=(3, 5)),
              summary("W", 30, tricks=(4, 4))]


def play(client, hands, options, state=None):
    """Score the hands one after the other, each with the state of the answer before; return the answers."""
    answers = []
    for hand in hands:
        body = hand | {"options": options} | ({"state": state} if state is not None else {})
        response = client.post(URL, body, format="json")
        assert response.status_code == 200, response.json()
        answers.append(response.json())
        state = answers[-1]["state"]  # sent back whole: what the engine worked out is answered, never read
    return answers


def test_a_capped_game_level_after_its_last_deal_is_drawn(anon):
    answers = play(anon, LEVEL_GAME, {"deals": 4})
    assert [a["game_winner"] for a in answers] == [None, None, None, "draw"]
    assert [a["state"]["deals_left"] for a in answers] == [3, 2, 1, 0]
    last = answers[-1]
    assert last["totals"] == {"ns": 7, "ew": 7} and last["labels"] == ["tie"]
    assert (last["next_multiplier"], last["tie_pending"]) == (1, False)  # the game is over: no tie double pending
    assert {k: last["state"][k] for k in ("deals_played", "winner", "ended_on_deals", "tiebreak")} == {
        "deals_played": 4, "winner": "draw", "ended_on_deals": True, "tiebreak": False}
    assert Hand.objects.count() == 0 and Game.objects.count() == 0
    # A fifth deal is refused: the game is over.
    response = anon.post(URL, summary("N", 37) | {"options": {"deals": 4}, "state": last["state"]}, format="json")
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["game_over"]


def test_the_target_does_not_end_a_capped_game(anon):
    """Roeselare: "we do not play to 101". Two all-trick hands make 120, and the game of four deals goes on."""
    answers = play(anon, [summary("N", 60, tricks=(8, 0)), summary("E", 60, tricks=(8, 0))], {"deals": 4})
    assert answers[-1]["totals"] == {"ns": 120, "ew": 0} and answers[-1]["game_winner"] is None
    assert answers[-1]["state"]["deals_left"] == 2


def test_tie_break_deals_and_the_pending_tie_doubling_the_first(anon):
    answers = play(anon, LEVEL_GAME + [summary("N", 37)], {"deals": 4, "tiebreak_deals": 1})
    level, decided = answers[3], answers[4]
    assert level["game_winner"] is None and level["next_multiplier"] == 2
    assert (level["state"]["tiebreak"], level["state"]["deals_left"]) == (True, 1)
    assert (decided["multiplier"], decided["score"], decided["totals"]) == (2, {"ns": 14, "ew": 0},
                                                                           {"ns": 21, "ew": 7})
    assert decided["game_winner"] == "ns"
    assert {k: decided["state"][k] for k in ("deals_played", "deals_left", "ended_on_deals", "tiebreak")} == {
        "deals_played": 5, "deals_left": 0, "ended_on_deals": True, "tiebreak": True}


def test_the_openapi_example_decides_its_game_of_sixteen_deals(anon):
    from api.openapi_examples import EXAMPLE_DEALS_SCORE_REQUEST

    result = anon.post(URL, EXAMPLE_DEALS_SCORE_REQUEST.value, format="json").json()
    assert (result["totals"], result["game_winner"]) == ({"ns": 88, "ew": 87}, "ns")
    assert result["state"]["deals_played"] == 16 and result["state"]["ended_on_deals"]


def test_a_state_whose_deals_are_played_is_game_over_with_its_words(anon):
    body = summary("N", 37) | {"options": {"deals": 16}, "state": {"totals": {"ns": 80, "ew": 70},
                                                                  "deals_played": 16, "previous_dealer": "W"}}
    response = anon.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"code": "game_over", "attr": "state.deals_played",
                                          "detail": "The game is over after 16 deals: NS 80, EW 70."}]


def test_classic_malilla_rounds_and_deals_that_disagree_are_refused(anon):
    hand = {"dealer": "N", "turned_card": "2O", "tricks": {"ns": 6, "ew": 6}, "points": {"ns": 40, "ew": 32}}
    response = anon.post("/api/v1/variants/classic-malilla/score/", hand | {"options": {"rounds": 2, "deals": 9}},
                         format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{
        "code": "options_inconsistent", "attr": "options.deals",
        "detail": "2 rounds are 8 deals, not 9: give the rounds or the deals, or both alike."}]
    eight = anon.post("/api/v1/variants/classic-malilla/score/",
                      hand | {"options": {"deals": 8}, "state": {"deals_played": 7, "previous_dealer": "E"}},
                      format="json").json()
    assert eight["game_winner"] == "ns" and eight["state"]["ended_on_deals"]  # the eighth deal of two rounds


@pytest.mark.parametrize("options, code, attr", [
    ({"deals": 0}, "invalid_option", "options.deals"),
    ({"deals": "16"}, "invalid_option", "options.deals"),
    ({"deals": 16, "tiebreak_deals": -1}, "invalid_option", "options.tiebreak_deals"),
    ({"tiebreak_deals": 2}, "options_inconsistent", "options.tiebreak_deals"),
])
def test_bad_deal_options_are_refused(anon, options, code, attr):
    response = anon.post(URL, summary() | {"options": options}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error["attr"]) == (code, attr) and error["detail"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_variant_describes_its_deal_options(anon, slug):
    options = anon.get(f"/api/v1/variants/{slug}/").json()["options"]
    assert {k: options["deals"][k] for k in ("default", "type", "minimum", "maximum", "nullable")} == {
        "default": None, "type": "int", "minimum": 1, "maximum": 100, "nullable": True}
    assert options["tiebreak_deals"]["default"] is None and options["tiebreak_deals"]["minimum"] == 1
