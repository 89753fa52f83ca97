"""Individual events through the API (issue 26): their settings, players entered with start numbers, pairs kept
apart."""

import pytest

from tests.api.conftest import client_for
from tests.api.individual import enter_players, individual_event, seated_round
from tests.factories import EntryFactory, PlayerFactory, TeamFactory
from tournaments.models import Entry, KeptApart

pytestmark = pytest.mark.django_db

KAARTING = {"name": "Kortrijkse Kaarting", "variant": "belgian-manille", "entry": "individual", "format": "tables",
            "rounds": 3, "public": True}


def errors(response) -> list[tuple[str, str | None]]:
    """The refusals' codes and fields (a 409 names no field)."""
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


@pytest.fixture
def event(organizer):
    tournament = individual_event()
    tournament.organizers.add(organizer)
    return tournament


def entries_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/entries/"


# -- the event's settings ----------------------------------------------------------------------------------------

def test_an_individual_event_is_created_with_its_match_length_and_sit_out_rules(stranger):
    body = KAARTING | {"match_length": "timed", "minutes": 30, "at_time": "stop", "sit_out_score": "fixed",
                       "sit_out_fixed": {"match_points": 1, "games_won": 1, "points_for": 50},
                       "withdrawal": "reserve", "club_best_n": 4}
    response = client_for(stranger).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    made = response.json()
    assert {k: made[k] for k in body if k != "public"} == {k: v for k, v in body.items() if k != "public"}
    assert made["match_games"] is None and made["best_of"] is None
    again = client_for(stranger).get(f"/api/v1/tournaments/{made['id']}/").json()
    assert again["entry"] == "individual" and again["sit_out_fixed"]["points_for"] == 50


def test_a_team_event_stays_the_default(stranger):
    made = client_for(stranger).post("/api/v1/tournaments/", KAARTING | {"entry": "teams", "format": "swiss"},
                                     format="json").json()
    assert (made["entry"], made["match_length"], made["sit_out_score"], made["withdrawal"]) == (
        "teams", "best_of", "mean", "sit_out")
    default = KAARTING.copy()
    del default["entry"]
    assert client_for(stranger).post("/api/v1/tournaments/", default | {"name": "Other", "format": "swiss"},
                                     format="json").json()["entry"] == "teams"


@pytest.mark.parametrize(("change", "code", "attr"), [
    ({"format": "round_robin"}, "format_for_entry", "format"),
    ({"format": "knockout"}, "format_for_entry", "format"),
    ({"entry": "teams"}, "format_for_entry", "format"),  # tables are for individual events
    ({"match_length": "games"}, "match_length_incomplete", "match_games"),
    ({"match_length": "timed"}, "match_length_incomplete", "minutes"),
    ({"sit_out_fixed": {"points": 3}}, "sit_out_fixed_invalid", "sit_out_fixed"),
    ({"sit_out_fixed": {"match_points": -1}}, "sit_out_fixed_invalid", "sit_out_fixed"),
    ({"sit_out_fixed": {"match_points": True}}, "sit_out_fixed_invalid", "sit_out_fixed"),
    ({"sit_out_fixed": [1, 2]}, "not_a_dict", "sit_out_fixed"),
    ({"entry": "pairs"}, "invalid_choice", "entry"),
    ({"minutes": 0}, "min_value", "minutes"),
    ({"club_best_n": 100}, "max_value", "club_best_n"),
])
def test_settings_that_do_not_go_together_are_refused_with_the_rules_code(stranger, change, code, attr):
    response = client_for(stranger).post("/api/v1/tournaments/", KAARTING | change, format="json")
    assert response.status_code == 400, response.json()
    assert (code, attr) in errors(response)


def test_a_change_is_checked_with_the_settings_it_goes_with(organizer):
    tournament = individual_event(format="swiss")
    tournament.organizers.add(organizer)
    client, url = client_for(organizer), f"/api/v1/tournaments/{tournament.pk}/"
    assert errors(client.patch(url, {"format": "round_robin"}, format="json")) == [("format_for_entry", "format")]
    assert errors(client.patch(url, {"match_length": "games"}, format="json")) == [
        ("match_length_incomplete", "match_games")]
    assert client.patch(url, {"match_length": "games", "match_games": 4}, format="json").status_code == 200
    # Back to teams with a format a team event has: the entry and the format are checked together.
    assert client.patch(url, {"entry": "teams"}, format="json").status_code == 200
    assert errors(client.patch(url, {"entry": "individual", "format": "knockout"}, format="json")) == [
        ("format_for_entry", "format")]


def test_the_kind_of_entry_is_fixed_once_anyone_is_entered(event, organizer):
    enter_players(event, 1)
    response = client_for(organizer).patch(f"/api/v1/tournaments/{event.pk}/", {"entry": "teams", "format": "swiss"},
                                           format="json")
    assert response.status_code == 409 and errors(response) == [("tournament_started", None)]
    assert "entered already" in response.json()["errors"][0]["detail"]


def test_tournaments_are_filtered_by_their_kind_of_entry(event, tournament, anon):
    listed = anon.get("/api/v1/tournaments/?entry=individual").json()
    assert [t["id"] for t in listed["results"]] == [event.pk]


# -- players entered ---------------------------------------------------------------------------------------------

def test_players_are_entered_with_the_next_start_number_and_listed_with_their_club(event, organizer, anon, club):
    client = client_for(organizer)
    an, bram = PlayerFactory(name="An Peeters", club=club), PlayerFactory(name="Bram Claes", club=None)
    first = client.post(entries_url(event), {"player": an.pk}, format="json")
    assert first.status_code == 201, first.json()
    assert (first.json()["player"], first.json()["team"], first.json()["start_number"]) == (an.pk, None, 1)
    second = client.post(entries_url(event), {"player": bram.pk, "start_number": 7, "fixed_table": 2},
                         format="json").json()
    assert (second["start_number"], second["fixed_table"], second["reserve"]) == (7, 2, False)
    third = client.post(entries_url(event), {"player": PlayerFactory(club=club).pk, "reserve": True},
                        format="json").json()
    assert third["start_number"] == 8 and third["reserve"] is True
    listed = anon.get(entries_url(event)).json()["results"]
    assert [e["start_number"] for e in listed] == [1, 7, 8]
    assert listed[0]["player_detail"] == {"id": an.pk, "name": "An Peeters",
                                          "club": {"id": club.pk, "name": club.name}}
    assert listed[1]["player_detail"]["club"] is None
    assert [e["player"] for e in anon.get(entries_url(event) + "?reserve=true").json()["results"]] == [
        third["player"]]


def test_an_entry_of_the_other_kind_is_refused_with_a_clear_code(event, organizer, tournament, teams):
    client = client_for(organizer)
    team = client.post(entries_url(event), {"team": teams[0].pk}, format="json")
    assert team.status_code == 400 and errors(team) == [("entry_kind", "team")]
    player = client.post(entries_url(tournament), {"player": PlayerFactory().pk}, format="json")
    assert player.status_code == 400 and errors(player) == [("entry_kind", "player")]
    numbered = client.post(entries_url(tournament), {"team": teams[0].pk, "start_number": 3}, format="json")
    assert numbered.status_code == 400 and errors(numbered) == [("entry_kind", "player")]
    assert errors(client.post(entries_url(event), {}, format="json")) == [("required", "player")]
    assert errors(client.post(entries_url(tournament), {}, format="json")) == [("required", "team")]
    assert not Entry.objects.exists()


def test_a_player_entered_twice_or_a_start_number_taken_is_a_409(event, organizer):
    client = client_for(organizer)
    player = PlayerFactory()
    assert client.post(entries_url(event), {"player": player.pk}, format="json").status_code == 201
    again = client.post(entries_url(event), {"player": player.pk}, format="json")
    assert again.status_code == 409 and errors(again) == [("already_entered", None)]
    taken = client.post(entries_url(event), {"player": PlayerFactory().pk, "start_number": 1}, format="json")
    assert taken.status_code == 409 and errors(taken) == [("start_number_taken", None)]
    assert client.post(entries_url(event), {"player": 987654}, format="json").status_code == 400


def test_who_may_enter_a_player(event, anon, stranger, scorekeeper):
    body = {"player": PlayerFactory().pk}
    assert anon.post(entries_url(event), body, format="json").status_code == 401
    assert client_for(stranger).post(entries_url(event), body, format="json").status_code == 403


def test_start_numbers_change_before_the_first_draw_one_or_several_at_once(event, organizer):
    players = enter_players(event, 3)
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=event)}
    client = client_for(organizer)
    one = client.patch(f"{entries_url(event)}{entries[players[0].pk].pk}/", {"start_number": 10}, format="json")
    assert one.status_code == 200 and one.json()["start_number"] == 10
    taken = client.patch(f"{entries_url(event)}{entries[players[1].pk].pk}/", {"start_number": 3}, format="json")
    assert taken.status_code == 409 and errors(taken) == [("start_number_taken", None)]
    swapped = client.patch(f"{entries_url(event)}start-numbers/", {"numbers": [
        {"entry": entries[players[1].pk].pk, "start_number": 3},
        {"entry": entries[players[2].pk].pk, "start_number": 2}]}, format="json")
    assert swapped.status_code == 200, swapped.json()
    assert [(e["player"], e["start_number"]) for e in swapped.json()["results"]] == [
        (players[2].pk, 2), (players[1].pk, 3), (players[0].pk, 10)]
    unknown = client.patch(f"{entries_url(event)}start-numbers/", {"numbers": [{"entry": 987654, "start_number": 4}]},
                           format="json")
    assert unknown.status_code == 400 and errors(unknown) == [("not_entered", "start_number")]
    assert client.patch(f"{entries_url(event)}start-numbers/", {"numbers": []}, format="json").status_code == 400
    seated_round(event, 1, [tuple(players) + (PlayerFactory(),)])
    late = client.patch(f"{entries_url(event)}start-numbers/", {"numbers": [
        {"entry": entries[players[0].pk].pk, "start_number": 1}]}, format="json")
    assert late.status_code == 409 and errors(late) == [("tournament_started", None)]


def test_start_numbers_are_an_individual_events(tournament, organizer, teams):
    entry = EntryFactory(tournament=tournament, team=teams[0])
    response = client_for(organizer).patch(f"{entries_url(tournament)}{entry.pk}/", {"start_number": 3},
                                           format="json")
    assert response.status_code == 400 and errors(response)[0][0] == "entry_kind"


def test_a_player_withdraws(event, organizer):
    players = enter_players(event, 5)
    entry = Entry.objects.get(tournament=event, player=players[0])
    client = client_for(organizer)
    assert client.delete(f"{entries_url(event)}{entry.pk}/").status_code == 204
    entry.refresh_from_db()
    assert entry.withdrawn and entry.withdrawn_after_round == 0
    again = client.delete(f"{entries_url(event)}{entry.pk}/")
    assert again.status_code == 409 and errors(again)[0][0] == "already_withdrawn"


# -- players kept apart ------------------------------------------------------------------------------------------

def test_players_are_kept_apart_listed_and_released(event, organizer, anon, stranger):
    players = enter_players(event, 4)
    url = f"/api/v1/tournaments/{event.pk}/kept-apart/"
    client = client_for(organizer)
    made = client.post(url, {"player_a": players[2].pk, "player_b": players[0].pk, "reason": "a couple"},
                       format="json")
    assert made.status_code == 201, made.json()
    pair = made.json()
    assert (pair["player_a"], pair["player_b"], pair["reason"]) == (players[0].pk, players[2].pk, "a couple")
    assert pair["player_b_detail"] == {"id": players[2].pk, "name": players[2].name}
    again = client.post(url, {"player_a": players[0].pk, "player_b": players[2].pk}, format="json")
    assert again.status_code == 409 and errors(again) == [("already_kept_apart", None)]
    same = client.post(url, {"player_a": players[1].pk, "player_b": players[1].pk}, format="json")
    assert same.status_code == 400 and errors(same) == [("same_player", "player_b")]
    outsider = client.post(url, {"player_a": players[1].pk, "player_b": PlayerFactory().pk}, format="json")
    assert outsider.status_code == 400 and errors(outsider) == [("not_entered", "player_b")]
    # Whoever sees the event sees the pairs (the draw's inputs name them); the reason is the organizers'.
    assert [p["reason"] for p in anon.get(url).json()["results"]] == [None]
    assert client.get(url).json()["results"][0]["reason"] == "a couple"
    assert client_for(stranger).delete(f"{url}{pair['id']}/").status_code == 403
    assert client.delete(f"{url}{pair['id']}/").status_code == 204
    assert not KeptApart.objects.exists()


def test_a_team_event_keeps_no_players_apart(tournament, organizer):
    a, b = PlayerFactory(), PlayerFactory()
    response = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/kept-apart/",
                                          {"player_a": a.pk, "player_b": b.pk}, format="json")
    assert response.status_code == 400 and errors(response)[0][0] == "entry_kind"


def test_a_team_event_still_enters_teams(tournament, organizer):
    team = TeamFactory()
    made = client_for(organizer).post(entries_url(tournament), {"team": team.pk}, format="json")
    assert made.status_code == 201 and made.json()["player"] is None and made.json()["player_detail"] is None
