"""Results in: entering, correcting and deleting hands through the API, with each role."""

import pytest
import scoring

from tests.api.conftest import client_for
from tests.api.deals import BELGIAN_DEAL, RULE_CASES, summary
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Hand

pytestmark = pytest.mark.django_db

SEATS = "NESW"


def hands_url(match):
    return f"/api/v1/matches/{match.pk}/hands/"


def legal_play(deal, dealer="N", trump="H", variant="belgian-manille", turned_card=None):
    """Return a complete legal play of the deal: always the first legal card."""
    cards = []
    while True:
        result = scoring.check_play(variant, dealer=dealer, hands=deal, cards=cards, trump=trump,
                                    turned_card=turned_card)
        if result.complete:
            return cards
        cards.append(result.next["legal_cards"][0])


def test_enter_a_summary_answers_the_stored_hand_with_its_result(match, scorekeeper):
    response = client_for(scorekeeper).post(hands_url(match), summary("N", 37), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["id"] == Hand.objects.get().pk
    assert (body["game"], body["number"], body["dealer"], body["trump"]) == (1, 1, "N", "H")
    assert (body["multiplier"], body["all_tricks"], body["bonus"], body["game_winner"]) == (1, False, None, None)
    assert body["score"] == {"ns": 7, "ew": 0} and body["totals"] == {"ns": 7, "ew": 0}
    assert body["match"] | {"id": 0, "status": ""} == {"id": 0, "status": "", "games_won": {"ns": 0, "ew": 0},
                                                        "winner": None, "next_dealer": "E", "tie_pending": False}


def test_enter_a_full_play(match, scorekeeper):
    cards = legal_play(BELGIAN_DEAL)
    body = {"dealer": "N", "trump": "H", "play": {"hands": BELGIAN_DEAL, "cards": cards}}
    response = client_for(scorekeeper).post(hands_url(match), body, format="json")
    assert response.status_code == 201, response.json()
    result = response.json()
    assert sum(result["tricks"].values()) == 8 and sum(result["points"].values()) == 60
    assert result["play"]["cards"] == cards
    assert result["totals"] == {"ns": result["score"]["ns"], "ew": result["score"]["ew"]}


def test_a_thrown_in_deal_passes_the_deal_on(match, scorekeeper):
    body = client_for(scorekeeper).post(hands_url(match), {"dealer": "N", "thrown_in": True}, format="json").json()
    assert body["score"] == {"ns": 0, "ew": 0} and body["match"]["next_dealer"] == "E"


def test_hands_run_the_match_to_its_end_then_game_over(match, scorekeeper):
    client = client_for(scorekeeper)
    dealer = 0
    answers = []
    for _ in range(4):  # all eight tricks: 60 points a hand, two hands a boam, two boams the match
        answers.append(client.post(hands_url(match), summary(SEATS[dealer % 4], 60, tricks=(8, 0)),
                                   format="json").json())
        dealer += 1
    assert [a["game_winner"] for a in answers] == [None, "ns", None, "ns"]
    assert answers[1]["match"]["games_won"] == {"ns": 1, "ew": 0}
    assert answers[3]["match"]["winner"] == "ns" and answers[3]["match"]["games_won"] == {"ns": 2, "ew": 0}
    response = client.post(hands_url(match), summary("E", 37), format="json")
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["game_over"]


def test_dealer_out_of_turn(match, scorekeeper):
    client = client_for(scorekeeper)
    client.post(hands_url(match), summary("N"), format="json")
    response = client.post(hands_url(match), summary("N"), format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "dealer_out_of_turn"
    assert response.json()["errors"][0]["attr"] == "dealer"


@pytest.mark.parametrize(("variant", "hand", "code"), RULE_CASES, ids=[c[2] + "-" + c[0] for c in RULE_CASES])
def test_every_rule_code_through_post_hands(scorekeeper, variant, hand, code):
    tournament = TournamentFactory(variant=variant)
    tournament.scorekeepers.add(scorekeeper)
    match = MatchFactory(round__tournament=tournament)
    response = client_for(scorekeeper).post(hands_url(match), hand, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["type"] == "validation_error"
    assert code in [e["code"] for e in response.json()["errors"]]
    assert not Hand.objects.exists()


def test_a_bye_has_no_hands(tournament, scorekeeper):
    from tournaments.services.games import match_result_apply

    bye = MatchFactory(round__tournament=tournament, ew=None)
    match_result_apply(bye, [])  # finished, as a paired bye is
    bye.save()
    response = client_for(scorekeeper).post(hands_url(bye), summary(), format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "game_over"
    assert response.json()["errors"][0]["detail"] == "A bye has no games to play."  # not "the match is decided"


# --------------------------------------------------------------------------- idempotency and conflicts


def test_a_retry_with_the_same_idempotency_key_returns_the_first_answer(match, scorekeeper):
    client = client_for(scorekeeper)
    first = client.post(hands_url(match), summary("N", 37), format="json", HTTP_IDEMPOTENCY_KEY="sheet-7-hand-1")
    retry = client.post(hands_url(match), summary("N", 37), format="json", HTTP_IDEMPOTENCY_KEY="sheet-7-hand-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json() and retry["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 1
    other = client.post(hands_url(match), summary("E", 40), format="json", HTTP_IDEMPOTENCY_KEY="sheet-7-hand-2")
    assert other.json()["number"] == 2 and Hand.objects.count() == 2


def test_a_retry_with_its_fields_in_another_order_is_replayed(match, scorekeeper):
    client = client_for(scorekeeper)
    first = client.post(hands_url(match), '{"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, '
                        '"points": {"ns": 37, "ew": 23}, "number": 1}', content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="k-order")
    retry = client.post(hands_url(match), '{"number": 1, "points": {"ew": 23, "ns": 37}, "tricks": {"ew": 3, "ns": 5},'
                        ' "trump": "H", "blind": false, "dealer": "N"}', content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="k-order")
    assert first.status_code == retry.status_code == 201, retry.json()
    assert retry["Idempotent-Replayed"] == "true" and retry.json()["id"] == first.json()["id"]
    assert Hand.objects.count() == 1


def test_a_key_used_again_for_another_hand_is_a_422_and_no_hand_is_lost(match, scorekeeper):
    """Issue 24: keys by table and hand number (``t1-h1``) come round again in game 2. Its hand 1 is not
    a retry of game 1's: 422 ``idempotency_key_mismatch``, nothing stored, game 1's hand unchanged."""
    client = client_for(scorekeeper)
    first = client.post(hands_url(match), summary("N", 60, tricks=(8, 0)), format="json", HTTP_IDEMPOTENCY_KEY="t1-h1")
    for n in range(2, 20):
        body = client.post(hands_url(match), summary(SEATS[(n - 1) % 4], 60, tricks=(8, 0)), format="json",
                           HTTP_IDEMPOTENCY_KEY=f"t1-h{n}").json()
        if body["game_winner"]:
            break
    hands = Hand.objects.count()
    response = client.post(hands_url(match), summary(SEATS[n % 4], 37), format="json", HTTP_IDEMPOTENCY_KEY="t1-h1")
    assert response.status_code == 422, response.json()
    assert response.json() == {"type": "client_error", "errors": [
        {"code": "idempotency_key_mismatch", "attr": None, "detail": response.json()["errors"][0]["detail"]}]}
    assert "Idempotent-Replayed" not in response
    assert Hand.objects.count() == hands
    stored = Hand.objects.get(pk=first.json()["id"])
    assert (stored.game.number, stored.number, stored.points_ns) == (1, 1, 60)
    # The original request again is still its retry; the new hand with a key of its own is stored.
    again = client.post(hands_url(match), summary("N", 60, tricks=(8, 0)), format="json", HTTP_IDEMPOTENCY_KEY="t1-h1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json()["id"] == stored.pk
    new = client.post(hands_url(match), summary(SEATS[n % 4], 37), format="json", HTTP_IDEMPOTENCY_KEY="t1-g2-h1")
    assert new.status_code == 201 and (new.json()["game"], new.json()["number"]) == (2, 1)


def test_a_retry_after_the_hand_was_corrected_is_still_replayed(match, scorekeeper):
    client = client_for(scorekeeper)
    first = client.post(hands_url(match), summary("N", 37), format="json", HTTP_IDEMPOTENCY_KEY="k-fix").json()
    fixed = client.patch(f"/api/v1/hands/{first['id']}/", {"points": {"ns": 40, "ew": 20}}, format="json")
    assert fixed.status_code == 200, fixed.json()
    retry = client.post(hands_url(match), summary("N", 37), format="json", HTTP_IDEMPOTENCY_KEY="k-fix")
    assert retry.status_code == 201 and retry["Idempotent-Replayed"] == "true"
    assert retry.json()["id"] == first["id"] and retry.json()["points"] == {"ns": 40, "ew": 20}
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("body", [summary("N", 37, tricks=(5, 4)),  # refused by the engine
                                  {"dealer": "N", "tricks": "five"},  # refused by the serializer
                                  "{not json"])  # refused by the parser
def test_an_invalid_body_with_a_stored_key_is_a_422_and_with_a_new_key_a_400(match, scorekeeper, body):
    client = client_for(scorekeeper)
    client.post(hands_url(match), summary("N", 37), format="json", HTTP_IDEMPOTENCY_KEY="k-body")
    send = ({"data": body, "content_type": "application/json"} if isinstance(body, str)
            else {"data": body, "format": "json"})
    stored_key = client.post(hands_url(match), HTTP_IDEMPOTENCY_KEY="k-body", **send)
    assert stored_key.status_code == 422 and stored_key.json()["errors"][0]["code"] == "idempotency_key_mismatch"
    new_key = client.post(hands_url(match), HTTP_IDEMPOTENCY_KEY="k-other", **send)
    assert new_key.status_code == 400
    assert Hand.objects.count() == 1


def test_idempotency_keys_are_scoped_to_the_user(match, scorekeeper, organizer):
    client_for(scorekeeper).post(hands_url(match), summary("N"), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    second = client_for(organizer).post(hands_url(match), summary("E"), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert second.status_code == 201 and second.json()["number"] == 2


def test_a_key_reused_on_another_match_is_a_409(match, scorekeeper, tournament):
    other = MatchFactory(round=match.round, table=2)
    client = client_for(scorekeeper)
    client.post(hands_url(match), summary("N"), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    response = client.post(hands_url(other), summary("N"), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "idempotency_key_reused"


@pytest.mark.parametrize("key", ["", "has space", "x" * 101, "é"])
def test_a_malformed_idempotency_key_is_a_400(match, scorekeeper, key):
    response = client_for(scorekeeper).post(hands_url(match), summary(), format="json",
                                            HTTP_IDEMPOTENCY_KEY=key.encode().decode("latin-1"))
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "Idempotency-Key"


def test_a_hand_number_already_entered_is_a_409(match, scorekeeper):
    client = client_for(scorekeeper)
    assert client.post(hands_url(match), summary("N") | {"number": 1}, format="json").status_code == 201
    response = client.post(hands_url(match), summary("E") | {"number": 1}, format="json")
    assert response.status_code == 409
    assert response.json()["type"] == "client_error"
    assert response.json()["errors"][0]["code"] == "hand_exists"


# --------------------------------------------------------------------------- corrections and deletions


def test_a_correction_rescores_the_match(match, scorekeeper):
    client = client_for(scorekeeper)
    ids = [client.post(hands_url(match), summary(d, 37), format="json").json()["id"] for d in "NES"]
    assert Hand.objects.get(pk=ids[2]).totals == {"ns": 21, "ew": 0}
    response = client.patch(f"/api/v1/hands/{ids[0]}/", {"points": {"ns": 30, "ew": 30}, "tricks": {"ns": 4, "ew": 4}},
                            format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["score"] == {"ns": 0, "ew": 0} and "tie" in response.json()["labels"]
    # The tie doubles the next hand: 7 × 2 = 14, then 7.
    assert [Hand.objects.get(pk=i).totals["ns"] for i in ids] == [0, 14, 21]
    board = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert [h["totals"]["ns"] for h in board["games"][0]["hands"]] == [0, 14, 21]


def test_a_correction_is_checked_by_the_rules(match, scorekeeper):
    client = client_for(scorekeeper)
    hand_id = client.post(hands_url(match), summary("N", 37), format="json").json()["id"]
    response = client.patch(f"/api/v1/hands/{hand_id}/", {"points": {"ns": 37, "ew": 22}}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "points_total"
    response = client.patch(f"/api/v1/hands/{hand_id}/", {"doublings": "many"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["attr"] == "doublings"
    assert Hand.objects.get(pk=hand_id).points_ew == 23


def test_only_the_last_hand_is_deleted(match, scorekeeper):
    client = client_for(scorekeeper)
    first, second = (client.post(hands_url(match), summary(d), format="json").json()["id"] for d in "NE")
    response = client.delete(f"/api/v1/hands/{first}/")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "not_last_hand"
    assert client.delete(f"/api/v1/hands/{second}/").status_code == 204
    board = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert board["next_dealer"] == "E" and len(board["games"][0]["hands"]) == 1
    assert client.get(f"/api/v1/hands/{second}/").status_code == 404


def test_history_lists_entry_correction_rescoring_and_deletion(match, scorekeeper):
    client = client_for(scorekeeper)
    first, second = (client.post(hands_url(match), summary(d, 37), format="json").json()["id"] for d in "NE")
    client.patch(f"/api/v1/hands/{first}/", {"points": {"ns": 40, "ew": 20}}, format="json")
    history = client.get(f"/api/v1/hands/{first}/history/").json()["results"]
    assert [(h["change"], h["reason"]) for h in history] == [("created", "entered"), ("changed", "corrected")]
    assert history[0]["hand"]["points"] == {"ns": 37, "ew": 23} and history[1]["hand"]["points"]["ns"] == 40
    assert history[1]["user"] == scorekeeper.pk
    rescored = client.get(f"/api/v1/hands/{second}/history/").json()["results"]
    assert rescored[-1]["reason"].startswith("re-scored")
    client.delete(f"/api/v1/hands/{second}/")
    deleted = client.get(f"/api/v1/hands/{second}/history/").json()["results"]
    assert deleted[-1]["change"] == "deleted"


def test_a_correction_may_say_why_and_the_history_keeps_it(match, scorekeeper):
    client = client_for(scorekeeper)
    hand = client.post(hands_url(match), summary("N", 37), format="json").json()["id"]
    url = f"/api/v1/hands/{hand}/"
    too_long = client.patch(url, {"points": {"ns": 40, "ew": 20}, "reason": "x" * 81}, format="json")
    assert too_long.status_code == 400 and too_long.json()["errors"][0]["attr"] == "reason"
    assert client.patch(url, {"points": {"ns": 40, "ew": 20}, "reason": " sheet  misread "},
                        format="json").status_code == 200
    assert client.patch(url, {"points": {"ns": 41, "ew": 19}, "reason": ""}, format="json").status_code == 200
    history = client.get(f"{url}history/").json()["results"]
    assert [h["reason"] for h in history] == ["entered", "corrected: sheet misread", "corrected"]
    assert "reason" not in client.get(url).json()


def test_history_of_a_private_match_is_hidden(private_match, anon):
    from tournaments.services.hands import hand_enter

    hand, _ = hand_enter(match=private_match, data=summary())
    assert anon.get(f"/api/v1/hands/{hand.pk}/history/").status_code == 404
    assert anon.get("/api/v1/hands/987654/history/").status_code == 404


# --------------------------------------------------------------------------- who may write results


@pytest.mark.parametrize(("who", "status"), [
    ("scorekeeper", 201), ("organizer", 201), ("staff", 201),
    ("other_scorekeeper", 403), ("manager", 403), ("other_manager", 403), ("stranger", 403), ("anonymous", 401),
])
def test_who_may_enter_a_hand(request, match, who, status):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    response = client_for(user).post(hands_url(match), summary(), format="json")
    assert response.status_code == status
    assert Hand.objects.count() == (1 if status == 201 else 0)


@pytest.mark.parametrize(("who", "status"), [
    ("scorekeeper", 200), ("organizer", 200), ("other_scorekeeper", 403), ("stranger", 403), ("anonymous", 401),
])
def test_who_may_correct_or_delete_a_hand(request, match, who, status):
    from tournaments.services.hands import hand_enter

    hand, _ = hand_enter(match=match, data=summary())
    user = None if who == "anonymous" else request.getfixturevalue(who)
    client = client_for(user)
    assert client.patch(f"/api/v1/hands/{hand.pk}/", {"points": {"ns": 40, "ew": 20}},
                        format="json").status_code == status
    assert client.delete(f"/api/v1/hands/{hand.pk}/").status_code == (204 if status == 200 else status)


def test_a_private_match_is_invisible_to_a_stranger(private_match, stranger, private_tournament):
    client = client_for(stranger)
    assert client.get(f"/api/v1/matches/{private_match.pk}/").status_code == 404
    assert client.post(hands_url(private_match), summary(), format="json").status_code == 404
    private_tournament.scorekeepers.add(stranger)
    assert client.post(hands_url(private_match), summary(), format="json").status_code == 201
    assert client.get(f"/api/v1/matches/{private_match.pk}/").status_code == 200


# --------------------------------------------------------------------------- games


def test_start_a_game_with_a_favourite_suit(scorekeeper):
    tournament = TournamentFactory(variant="classic-malilla")
    tournament.scorekeepers.add(scorekeeper)
    match = MatchFactory(round__tournament=tournament)
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/games/"
    response = client.post(url, {"first_dealer": "S", "favourite": "O"}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json() | {"hands": []} == response.json()
    assert (response.json()["number"], response.json()["favourite"], response.json()["next_dealer"]) == (1, "O", "S")
    again = client.post(url, {"first_dealer": "S"}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "game_in_progress"
    bad = client.post(f"/api/v1/matches/{MatchFactory(round__tournament=tournament).pk}/games/",
                      {"first_dealer": "S", "favourite": "H"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] in {"trump_invalid", "invalid_input"}


def test_match_list_filters(match, anon, tournament):
    other = MatchFactory(round=match.round, table=2)
    body = anon.get(f"/api/v1/matches/?tournament={tournament.pk}").json()
    assert [m["id"] for m in body["results"]] == [match.pk, other.pk]
    assert body["results"][0]["updated_at"]  # added by issue 29 (what changed since)
    assert body["results"][0] | {"id": 0, "updated_at": None} == {
        "id": 0, "tournament": tournament.pk, "round": 1, "table": 1, "ns": match.ns_id, "ew": match.ew_id,
        "status": "scheduled", "result_status": None, "winner": None, "games_won": {"ns": 0, "ew": 0},
        "updated_at": None,
        "bye": False, "players": {side: [{"id": p.pk, "name": p.name} for p in (team.player_1, team.player_2)]
                                  for side, team in (("ns", match.ns), ("ew", match.ew))},  # issue 26
        # Each reference's `_detail` beside its id (issue 29).
        "tournament_detail": {"id": tournament.pk, "name": tournament.name, "variant": tournament.variant},
        "ns_detail": {"id": match.ns_id, "name": match.ns.name, "club": {"id": match.ns.club_id,
                                                                          "name": match.ns.club.name}},
        "ew_detail": {"id": match.ew_id, "name": match.ew.name, "club": {"id": match.ew.club_id,
                                                                          "name": match.ew.club.name}}}
    assert anon.get(f"/api/v1/matches/?team={other.ns_id}").json()["count"] == 1


def test_a_hand_refused_in_french_has_french_words_and_the_same_code_and_attr(match, scorekeeper):
    """Accept-Language picks the words of ``detail`` only; without it they are English."""
    client = client_for(scorekeeper)
    bad = summary() | {"dealer": "N", "points": {"ns": 37, "ew": 22}}
    english = client.post(hands_url(match), bad, format="json")
    french = client.post(hands_url(match), bad, format="json", HTTP_ACCEPT_LANGUAGE="fr-BE,fr;q=0.9")
    assert english.status_code == french.status_code == 400
    assert [(e["code"], e["attr"]) for e in english.json()["errors"]] == \
        [(e["code"], e["attr"]) for e in french.json()["errors"]] == [("points_total", "points")]
    assert english.json()["errors"][0]["detail"].startswith("The points of the two teams must add up to 60")
    assert french.json()["errors"][0]["detail"].startswith("Les points des deux équipes doivent faire 60")
    assert not Hand.objects.exists()


def test_a_refusal_names_the_match_s_teams(match, scorekeeper):
    """The API wrote "NS" and "EW" where the workspace and the admin name the teams of the match."""
    client = client_for(scorekeeper)
    impossible = summary() | {"dealer": "N", "tricks": {"ns": 8, "ew": 0}, "points": {"ns": 30, "ew": 30}}
    answer = client.post(hands_url(match), impossible, format="json", HTTP_ACCEPT_LANGUAGE="nl")
    assert answer.status_code == 400
    details = " ".join(e["detail"] for e in answer.json()["errors"])
    assert match.ns.name in details or match.ew.name in details, details
    assert "NZ" not in details.split() and "OW" not in details.split()


def test_a_body_that_is_not_json_is_refused_in_the_reader_s_words(match, scorekeeper):
    """The parser's English internals ("JSON parse error - Expecting ',' delimiter ...") whatever the language."""
    client = client_for(scorekeeper)
    answer = client.post(hands_url(match), '{"dealer": "N", "tricks": ', content_type="application/json",
                         HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["code"] == "parse_error" and "JSON parse error" not in error["detail"]
    assert error["detail"] != "The request body cannot be read."  # French, not English
