"""Tournaments and entries: creation, organizers' rights, private tournaments invisible to others."""

import pytest

from tests.api.conftest import client_for
from tests.factories import RoundFactory, TeamFactory, TournamentFactory
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

GENTSE_BEKER = {"name": "Gentse Beker", "variant": "belgian-manille", "format": "swiss", "rounds": 7, "best_of": 3,
                "options": {}, "public": True}


def test_the_creator_becomes_an_organizer(stranger):
    response = client_for(stranger).post("/api/v1/tournaments/", GENTSE_BEKER, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["organizers"] == [stranger.pk] and body["status"] == "draft" and body["slug"] == "gentse-beker"
    again = client_for(stranger).post("/api/v1/tournaments/", GENTSE_BEKER, format="json").json()
    assert again["slug"] == "gentse-beker-2"


def test_anonymous_cannot_create(anon):
    assert anon.post("/api/v1/tournaments/", GENTSE_BEKER, format="json").status_code == 401


@pytest.mark.parametrize(("change", "code", "attr"), [
    ({"variant": "whist"}, "invalid_choice", "variant"),
    ({"format": "ladder"}, "invalid_choice", "format"),
    ({"rounds": 0}, "min_value", "rounds"),
    ({"best_of": 99}, "max_value", "best_of"),
    ({"options": {"target": "high"}}, "invalid_option", "options.target"),
    ({"options": {"malilla_rule": False}}, "invalid_option", "options.malilla_rule"),
    ({"options": []}, "not_a_dict", "options"),
])
def test_tournament_fields_are_validated(stranger, change, code, attr):
    response = client_for(stranger).post("/api/v1/tournaments/", GENTSE_BEKER | change, format="json")
    assert response.status_code == 400
    assert (response.json()["errors"][0]["code"], response.json()["errors"][0]["attr"]) == (code, attr)


def test_house_options_of_the_variant_are_accepted(stranger):
    body = GENTSE_BEKER | {"options": {"target": 61, "tie_doubling": "stack"}}
    response = client_for(stranger).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201 and response.json()["options"] == {"target": 61, "tie_doubling": "stack"}


def test_a_tournament_in_a_clubs_name_needs_its_manager(club, manager, other_manager):
    body = GENTSE_BEKER | {"club": club.pk}
    assert client_for(other_manager).post("/api/v1/tournaments/", body, format="json").status_code == 403
    assert client_for(manager).post("/api/v1/tournaments/", body, format="json").status_code == 201


@pytest.mark.parametrize(("who", "status"), [("organizer", 200), ("staff", 200), ("scorekeeper", 403),
                                             ("manager", 403), ("stranger", 403), ("anonymous", 401)])
def test_who_may_update_a_tournament(request, tournament, who, status):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    response = client_for(user).patch(f"/api/v1/tournaments/{tournament.pk}/", {"rounds": 9}, format="json")
    assert response.status_code == status


def test_organizers_appoint_scorekeepers(tournament, organizer, stranger):
    response = client_for(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/",
                                           {"scorekeepers": [stranger.pk]}, format="json")
    assert response.status_code == 200 and response.json()["scorekeepers"] == [stranger.pk]
    assert list(tournament.scorekeepers.all()) == [stranger]


def test_the_variant_is_frozen_once_a_round_is_paired(tournament, organizer):
    client = client_for(organizer)
    assert client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"variant": "spanish-manilla"},
                        format="json").status_code == 200
    RoundFactory(tournament=tournament, number=1)
    response = client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"variant": "belgian-manille"}, format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "tournament_started"
    assert client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"name": "Nieuw"}, format="json").status_code == 200
    assert client.delete(f"/api/v1/tournaments/{tournament.pk}/").status_code == 409


def test_an_organizer_deletes_a_draft(tournament, organizer):
    assert client_for(organizer).delete(f"/api/v1/tournaments/{tournament.pk}/").status_code == 204
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_private_tournaments_are_invisible_to_others(private_tournament, anon, stranger, staff):
    organizer, keeper = client_for(None), None
    from tests.factories import UserFactory

    organizer_user, keeper_user = UserFactory(), UserFactory()
    private_tournament.organizers.add(organizer_user)
    private_tournament.scorekeepers.add(keeper_user)
    public = TournamentFactory(name="Open")
    url = f"/api/v1/tournaments/{private_tournament.pk}/"
    for client in (anon, client_for(stranger)):
        assert [t["id"] for t in client.get("/api/v1/tournaments/").json()["results"]] == [public.pk]
        assert client.get(url).status_code == 404
        assert client.get(url + "entries/").status_code == 404
    for user in (organizer_user, keeper_user, staff):
        assert client_for(user).get(url).status_code == 200
        assert client_for(user).get("/api/v1/tournaments/").json()["count"] == 2
    # A stranger cannot write what he cannot see: 404, not 403.
    assert client_for(stranger).patch(url, {"name": "x"}, format="json").status_code == 404
    del organizer, keeper


def test_tournament_list_filters(anon):
    TournamentFactory(name="Gentse Beker", variant="belgian-manille")
    TournamentFactory(name="Copa", variant="spanish-manilla", format="knockout")
    assert [t["name"] for t in anon.get("/api/v1/tournaments/?variant=spanish-manilla").json()["results"]] == ["Copa"]
    assert anon.get("/api/v1/tournaments/?format=knockout").json()["count"] == 1
    assert anon.get("/api/v1/tournaments/?search=gentse").json()["count"] == 1
    assert anon.get("/api/v1/tournaments/?ordering=name").json()["results"][0]["name"] == "Copa"
    bad = anon.get("/api/v1/tournaments/?format=ladder")
    assert bad.status_code == 400 and bad.json()["errors"][0]["attr"] == "format"


# --------------------------------------------------------------------------- entries


def test_an_organizer_enters_and_withdraws_teams(tournament, organizer, teams):
    client = client_for(organizer)
    url = f"/api/v1/tournaments/{tournament.pk}/entries/"
    response = client.post(url, {"team": teams[0].pk}, format="json")
    assert response.status_code == 201 and response.json()["team"] == teams[0].pk
    entry_id = response.json()["id"]
    again = client.post(url, {"team": teams[0].pk}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "already_entered"
    assert client.patch(f"{url}{entry_id}/", {"seed": 3}, format="json").json()["seed"] == 3
    assert [e["team"] for e in client.get(url).json()["results"]] == [teams[0].pk]
    assert client.delete(f"{url}{entry_id}/").status_code == 204
    entry = Entry.objects.get(pk=entry_id)
    assert (entry.withdrawn, entry.withdrawn_after_round) == (True, 0)
    assert client.delete(f"{url}{entry_id}/").status_code == 409
    assert client.get(f"{url}?withdrawn=true").json()["count"] == 1
    # A withdrawn team does not come back.
    back = client.post(url, {"team": teams[0].pk}, format="json")
    assert back.status_code == 409 and back.json()["errors"][0]["code"] == "entry_withdrawn"


def test_withdrawing_after_a_round_keeps_the_results(tournament, organizer, teams):
    client = client_for(organizer)
    url = f"/api/v1/tournaments/{tournament.pk}/entries/"
    entry_id = client.post(url, {"team": teams[1].pk}, format="json").json()["id"]
    RoundFactory(tournament=tournament, number=1)
    assert client.delete(f"{url}{entry_id}/").status_code == 204
    entry = Entry.objects.get(pk=entry_id)
    assert (entry.withdrawn, entry.withdrawn_after_round) == (True, 1)


def test_round_robin_takes_no_late_entries(organizer, tournament, teams):
    tournament.format = "round_robin"
    tournament.save()
    RoundFactory(tournament=tournament, number=1)
    response = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"team": teams[0].pk},
                                          format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "late_entry_closed"


@pytest.mark.parametrize(("who", "status"), [("organizer", 201), ("staff", 201), ("scorekeeper", 403),
                                             ("manager", 403), ("other_scorekeeper", 403), ("anonymous", 401)])
def test_who_may_enter_a_team(request, tournament, who, status):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    team = TeamFactory()
    response = client_for(user).post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"team": team.pk},
                                     format="json")
    assert response.status_code == status


def test_entries_of_a_missing_tournament_are_a_404(anon, organizer):
    assert anon.get("/api/v1/tournaments/999999/entries/").status_code == 404
    assert client_for(organizer).post("/api/v1/tournaments/999999/entries/", {"team": 1},
                                      format="json").status_code == 404


def test_unknown_tiebreaks_are_refused(organizer):
    body = {"name": "Beker", "variant": "belgian-manille", "format": "swiss", "rounds": 5, "best_of": 3,
            "options": {}, "public": True, "tiebreaks": ["match_points", "bogus"]}
    response = client_for(organizer).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "invalid_choice" and error["attr"].startswith("tiebreaks")


# -- issue 25.5: settings that make no sense, the same tournament twice ----------------------------------


@pytest.mark.parametrize(("change", "code", "attr"), [
    ({"points_win": 2, "points_draw": 3}, "draw_above_win", "points_draw"),
    ({"points_win": 2, "points_bye": 100}, "bye_above_win", "points_bye"),
    ({"points_win": 101}, "max_value", "points_win"),
    ({"points_draw": -1}, "min_value", "points_draw"),
    ({"separate_clubs_rounds": 100}, "max_value", "separate_clubs_rounds"),
    ({"options": {"target": 10_000}}, "invalid_option", "options.target"),
])
def test_points_out_of_order_or_bounds_are_refused_with_a_code_on_the_field(stranger, change, code, attr):
    response = client_for(stranger).post("/api/v1/tournaments/", GENTSE_BEKER | change, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["type"] == "validation_error"
    assert (response.json()["errors"][0]["code"], response.json()["errors"][0]["attr"]) == (code, attr)
    assert not Tournament.objects.exists()


def test_a_patch_is_checked_against_the_stored_points(stranger):
    client = client_for(stranger)
    created = client.post("/api/v1/tournaments/", GENTSE_BEKER | {"points_win": 3, "points_draw": 1},
                          format="json").json()
    url = f"/api/v1/tournaments/{created['id']}/"
    refused = client.patch(url, {"points_win": 0}, format="json")  # the draw (1) would be worth more
    assert refused.status_code == 400
    assert [(e["code"], e["attr"]) for e in refused.json()["errors"]] == [("draw_above_win", "points_draw"),
                                                                          ("bye_above_win", "points_bye")]
    assert client.patch(url, {"points_win": 1, "points_draw": 0, "points_bye": 1}, format="json").status_code == 200


def test_the_same_name_club_and_start_date_twice_is_refused(stranger):
    client = client_for(stranger)
    day = GENTSE_BEKER | {"starts_on": "2026-12-05"}
    assert client.post("/api/v1/tournaments/", day, format="json").status_code == 201
    again = client.post("/api/v1/tournaments/", day | {"name": "GENTSE beker"}, format="json")
    assert again.status_code == 400
    error = again.json()["errors"][0]
    assert (error["code"], error["attr"]) == ("tournament_exists", "name")
    assert "Gentse Beker" in error["detail"]
    assert client.post("/api/v1/tournaments/", day | {"starts_on": "2026-12-06"}, format="json").status_code == 201
    assert client.post("/api/v1/tournaments/", GENTSE_BEKER, format="json").status_code == 201  # no date: no clash


def test_the_documented_default_stays_public(stranger):
    body = {k: v for k, v in GENTSE_BEKER.items() if k != "public"}
    assert client_for(stranger).post("/api/v1/tournaments/", body, format="json").json()["public"] is True
