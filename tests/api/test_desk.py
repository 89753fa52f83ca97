"""The director's desk through the API: take, list and revert actions; who may; refusals with their codes."""

import pytest

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.factories import EntryFactory, MatchFactory, TournamentFactory
from tournaments.models import DirectorAction
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def url(tournament, rest=""):
    return f"/api/v1/tournaments/{tournament.pk}/actions/{rest}"


def forfeit(client, match, absent="ew", tournament=None, **headers):
    return client.post(url(tournament or match.round.tournament), {"kind": "forfeit", "match": match.pk,
                                                                   "params": {"absent": absent}, "reason": "no-show"},
                       format="json", **headers)


def test_an_organizer_forfeits_a_match_and_the_scoreboard_and_round_say_so(organizer, tournament, match):
    client = client_for(organizer)
    answer = forfeit(client, match)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["kind"], body["match"], body["params"], body["reason"], body["actor"], body["active"],
            body["rounds_kept"]) == ("forfeit", match.pk, {"absent": "ew", "game_points": 101}, "no-show",
                                     organizer.pk, True, [])
    board = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert (board["status"], board["winner"], board["games_won"], board["forfeit"], board["decided_by"]) == (
        "finished", "ns", {"ns": 2, "ew": 0}, "ew", "forfeit")
    row = client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/").json()["matches"][0]
    assert row["forfeit"] == "ew"
    listed = client.get(url(tournament)).json()
    items = listed["results"] if isinstance(listed, dict) else listed
    assert [a["id"] for a in items] == [body["id"]]


def test_a_revert_answers_the_action_marked_and_a_second_is_refused(organizer, tournament, match):
    client = client_for(organizer)
    action = forfeit(client, match).json()
    answer = client.post(url(tournament, f"{action['id']}/revert/"), {"reason": "they came"}, format="json")
    assert answer.status_code == 200
    assert (answer.json()["active"], answer.json()["revert_reason"], answer.json()["reverted_by"]) == (
        False, "they came", organizer.pk)
    assert client.get(f"/api/v1/matches/{match.pk}/").json()["forfeit"] is None
    again = client.post(url(tournament, f"{action['id']}/revert/"), {}, format="json")
    assert (again.status_code, again.json()["errors"][0]["code"]) == (409, "action_reverted")


def test_refusals_have_codes_and_change_nothing(organizer, tournament, match):
    client = client_for(organizer)
    elsewhere = MatchFactory(round__tournament=TournamentFactory())
    answer = forfeit(client, elsewhere, tournament=tournament)
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (400, "match_other_tournament")
    hand_enter(match=match, data=summary("N", 40))
    answer = forfeit(client, match, HTTP_ACCEPT_LANGUAGE="fr")
    error = answer.json()["errors"][0]
    assert (answer.status_code, error["code"]) == (409, "match_started")
    assert "forfait" in error["detail"]
    answer = client.post(url(tournament), {"kind": "penalty", "match": match.pk, "params": {"side": "ns"},
                                           "reason": "slow"}, format="json")
    assert (answer.status_code, answer.json()["errors"][0]["code"], answer.json()["errors"][0]["attr"]) == (
        400, "action_params", "points")
    answer = client.post(url(tournament), {"kind": "decision", "match": match.pk, "params": {"winner": "ns"},
                                           "reason": "coin"}, format="json")
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (400, "not_knockout")
    assert not DirectorAction.objects.exists()


def test_entry_actions_through_the_api(organizer, tournament, teams):
    entry = EntryFactory(tournament=tournament, team=teams[0])
    client = client_for(organizer)
    answer = client.post(url(tournament), {"kind": "deduction", "entry": entry.pk, "reason": "late",
                                           "params": {"metric": "match_points", "amount": 2}}, format="json")
    assert answer.status_code == 201 and answer.json()["params"] == {"metric": "match_points", "amount": 2, "stage": 1}
    answer = client.post(url(tournament), {"kind": "withdrawal_event", "entry": entry.pk, "reason": "ill"},
                         format="json")
    assert answer.status_code == 201
    assert client.get(f"/api/v1/tournaments/{tournament.pk}/entries/{entry.pk}/").json()["withdrawn"]
    other = EntryFactory()
    answer = client.post(url(tournament), {"kind": "deduction", "entry": other.pk, "reason": "x",
                                           "params": {"metric": "match_points", "amount": 1}}, format="json")
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (400, "entry_other_tournament")


@pytest.mark.parametrize("who", ["stranger", "scorekeeper", "other_scorekeeper", "anonymous"])
def test_only_directors_read_and_act_at_the_desk(request, who, organizer, tournament, match):
    action = forfeit(client_for(organizer), match).json()
    client = client_for(None if who == "anonymous" else request.getfixturevalue(who))
    expected = 401 if who == "anonymous" else 403
    assert forfeit(client, MatchFactory(round=match.round)).status_code == expected
    assert client.get(url(tournament)).status_code == expected
    assert client.post(url(tournament, f"{action['id']}/revert/"), {}, format="json").status_code == expected
    assert DirectorAction.objects.filter(reverted_at__isnull=True).count() == 1


def test_staff_act_and_a_private_tournament_is_hidden_from_strangers(staff, stranger, private_match):
    assert forfeit(client_for(staff), private_match).status_code == 201
    assert client_for(stranger).get(url(private_match.round.tournament)).status_code == 404
