"""The confirmation endpoints (docs/confirmation.md): confirm, dispute, settle, confirm on paper, the result's steps;
``result_status`` on the scoreboard, the round's tables and the match list; the lock on hands (409)."""

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments.models import Hand
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def finish(match, user=None, device=""):
    with acting(device=device):
        for i in range(40):
            entered, _ = hand_enter(match=match, data={"dealer": "NESW"[i % 4], "trump": "H",
                                                       "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 50, "ew": 10}},
                                    user=user)
            if entered.game_winner:
                break
    match.refresh_from_db()


@pytest.fixture
def event():
    tournament = TournamentFactory(best_of=1, confirmation="opponents")
    match = MatchFactory(round=RoundFactory(tournament=tournament, number=1), table=1)
    for team in (match.ns, match.ew):
        EntryFactory(tournament=tournament, team=team)
    keeper, director = UserFactory(), UserFactory()
    tournament.scorekeepers.add(keeper)
    tournament.directors.add(director)
    codes = personal_codes(tournament, [match.ns.player_1_id, match.ew.player_1_id])
    return {"tournament": tournament, "match": match, "keeper": keeper, "director": director, "codes": codes}


def url(match, what):
    return f"/api/v1/matches/{match.pk}/{what}/"


def test_result_status_follows_the_confirmation_on_every_read(event, anon):
    match, tournament = event["match"], event["tournament"]
    assert anon.get(f"/api/v1/matches/{match.pk}/").json()["result_status"] is None
    finish(match, user=event["keeper"])
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    assert (board["result_status"], board["result_mark"]) == ("entered", None)
    tables = anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/").json()["tables"]
    assert tables[0]["result_status"] == "entered"
    listed = anon.get(f"/api/v1/matches/?tournament={tournament.pk}").json()["results"]
    assert listed[0]["result_status"] == "entered"
    ew = match.ew.player_1_id
    answer = anon.post(url(match, "confirm"), {"player": ew, "code": event["codes"][ew]}, format="json",
                       HTTP_X_DEVICE="phone-b")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["result_status"] == "confirmed"
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/").json()["tables"][0][
        "result_status"] == "confirmed"


def test_the_wrong_person_is_refused_with_a_code_and_nothing_changes(event, anon):
    match = event["match"]
    finish(match, user=event["keeper"])
    ns, ew = match.ns.player_1_id, match.ew.player_1_id
    wrong = anon.post(url(match, "confirm"), {"player": ew, "code": event["codes"][ns]}, format="json")
    assert wrong.status_code == 403 and wrong.json()["errors"][0]["code"] == "personal_code_wrong"
    stranger = client_for(UserFactory()).post(url(match, "confirm"), {}, format="json")
    assert stranger.status_code == 403 and stranger.json()["errors"][0]["code"] == "not_at_this_table"
    keeper = client_for(event["keeper"]).post(url(match, "settle"), {"reason": "mine"}, format="json")
    assert keeper.status_code == 403 and keeper.json()["errors"][0]["code"] == "not_director"
    assert anon.post(url(match, "settle"), {"reason": "x"}, format="json").status_code == 401
    assert anon.get(url(match, "result-events")).status_code == 401
    assert client_for(event["keeper"]).get(url(match, "result-events")).status_code == 403
    assert anon.get(f"/api/v1/matches/{match.pk}/").json()["result_status"] == "entered"


def test_a_dispute_is_settled_by_a_director_and_the_steps_are_kept(event, anon):
    match, director = event["match"], event["director"]
    finish(match, user=event["keeper"])
    ew = match.ew.player_1_id
    answer = anon.post(url(match, "dispute"), {"player": ew, "code": event["codes"][ew], "reason": "hand 2"},
                       format="json", HTTP_X_DEVICE="phone-b")
    assert answer.status_code == 200 and answer.json()["result_status"] == "disputed"
    hand = Hand.objects.filter(game__match=match).order_by("-number").first()
    locked = client_for(event["keeper"]).patch(f"/api/v1/hands/{hand.pk}/", {"points": {"ns": 40, "ew": 20},
                                                                           "tricks": {"ns": 4, "ew": 4}},
                                               format="json")
    assert locked.status_code == 409 and locked.json()["errors"][0]["code"] == "result_locked"
    settled = client_for(director).post(url(match, "settle"), {"reason": "the sheet agrees"}, format="json")
    assert settled.status_code == 200 and settled.json()["result_status"] == "final"
    steps = client_for(director).get(url(match, "result-events")).json()
    assert [(s["kind"], s["status"]) for s in steps] == [("entered", "entered"), ("disputed", "disputed"),
                                                         ("settled", "final")]
    assert steps[1]["player"] == ew and steps[1]["device"] == "phone-b" and steps[1]["reason"] == "hand 2"
    assert steps[2]["user"] == director.pk


def test_confirm_on_paper_is_marked(event):
    match = event["match"]
    finish(match, user=event["keeper"])
    answer = client_for(event["director"]).post(url(match, "confirm-on-paper"), {"reason": "phones down"},
                                                format="json")
    assert answer.status_code == 200
    assert (answer.json()["result_status"], answer.json()["result_mark"]) == ("confirmed", "paper")


def test_a_private_tournaments_match_is_a_404_to_others(event, anon):
    event["tournament"].public = False
    event["tournament"].save()
    assert anon.post(url(event["match"], "confirm"), {}, format="json").status_code == 404
    assert anon.post("/api/v1/matches/999999/confirm/", {}, format="json").status_code == 404


def test_the_tournament_carries_its_confirmation_settings(event):
    organizer = UserFactory()
    event["tournament"].organizers.add(organizer)
    client = client_for(organizer)
    answer = client.patch(f"/api/v1/tournaments/{event['tournament'].pk}/",
                          {"unconfirmed": "wait", "auto_confirm_minutes": 15, "directors": [event["director"].pk]},
                          format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["confirmation"], body["unconfirmed"], body["auto_confirm_minutes"], body["directors"]) == (
        "opponents", "wait", 15, [event["director"].pk])


def test_too_many_wrong_codes_are_a_429(event, anon):
    from tournaments.services import confirmation

    match = event["match"]
    finish(match, user=event["keeper"])
    ew = match.ew.player_1_id
    for _ in range(confirmation.WRONG_CODES_MATCH[0]):
        assert anon.post(url(match, "confirm"), {"player": ew, "code": "AAAAAA"}, format="json").status_code == 403
    answer = anon.post(url(match, "confirm"), {"player": ew, "code": event["codes"][ew]}, format="json")
    assert answer.status_code == 429 and answer.json()["errors"][0]["code"] == "too_many_codes"
