"""Clubs, players and teams: CRUD, lists, and who may write what."""

import pytest

from tests.api.conftest import client_for
from tests.factories import ClubFactory, PlayerFactory, TeamFactory
from tournaments.models import Club, Player, Team

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- clubs


def test_anyone_reads_clubs(anon, club):
    body = anon.get("/api/v1/clubs/").json()
    assert body["count"] == 1 and body["results"][0]["name"] == "De Zwarte Kat"
    assert anon.get(f"/api/v1/clubs/{club.pk}/").json()["city"] == "Gent"


def test_a_signed_in_user_founds_a_club_and_manages_it(stranger):
    client = client_for(stranger)
    response = client.post("/api/v1/clubs/", {"name": "De Zwarte Kat", "city": "Gent"}, format="json")
    assert response.status_code == 201, response.json()
    club = Club.objects.get(pk=response.json()["id"])
    assert list(club.managers.all()) == [stranger]
    assert client.patch(f"/api/v1/clubs/{club.pk}/", {"city": "Brugge"}, format="json").json()["city"] == "Brugge"


def test_anonymous_cannot_write_clubs(anon, club):
    response = anon.post("/api/v1/clubs/", {"name": "X"}, format="json")
    assert response.status_code == 401
    assert response.json() == {"type": "client_error", "errors": [
        {"code": "not_authenticated", "attr": None, "detail": "Authentication credentials were not provided."}]}
    assert anon.patch(f"/api/v1/clubs/{club.pk}/", {"city": "X"}, format="json").status_code == 401
    assert anon.delete(f"/api/v1/clubs/{club.pk}/").status_code == 401


@pytest.mark.parametrize(("who", "status"), [("manager", 200), ("staff", 200), ("other_manager", 403),
                                             ("stranger", 403), ("organizer", 403)])
def test_only_managers_and_staff_update_a_club(request, club, who, status):
    user = request.getfixturevalue(who)
    response = client_for(user).patch(f"/api/v1/clubs/{club.pk}/", {"city": "Aalst"}, format="json")
    assert response.status_code == status
    if status == 403:
        assert response.json()["errors"][0]["code"] == "permission_denied"


def test_duplicate_club_name_is_a_400(manager, club):
    response = client_for(manager).post("/api/v1/clubs/", {"name": club.name}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0] == {"code": "unique", "attr": "name",
                                             "detail": "club with this name already exists."}


def test_deleting_a_club_with_players_is_a_409(manager, club):
    PlayerFactory(club=club)
    response = client_for(manager).delete(f"/api/v1/clubs/{club.pk}/")
    assert response.status_code == 409
    assert response.json()["type"] == "client_error" and response.json()["errors"][0]["code"] == "protected"
    empty = ClubFactory()
    empty.managers.add(manager)
    assert client_for(manager).delete(f"/api/v1/clubs/{empty.pk}/").status_code == 204


def test_club_list_filters_searches_orders_and_paginates(anon, settings):
    ClubFactory(name="Aalst Kaart", city="Aalst")
    ClubFactory(name="Brugse Boer", city="Brugge")
    ClubFactory(name="Gentse Vrienden", city="Gent")
    assert [c["name"] for c in anon.get("/api/v1/clubs/?city=brugge").json()["results"]] == ["Brugse Boer"]
    assert [c["name"] for c in anon.get("/api/v1/clubs/?search=vrienden").json()["results"]] == ["Gentse Vrienden"]
    names = [c["name"] for c in anon.get("/api/v1/clubs/?ordering=-name").json()["results"]]
    assert names == sorted(names, reverse=True)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 2}
    from rest_framework.pagination import PageNumberPagination

    PageNumberPagination.page_size = 2
    try:
        page = anon.get("/api/v1/clubs/?page=2").json()
    finally:
        PageNumberPagination.page_size = 50
    assert page["count"] == 3 and len(page["results"]) == 1 and page["next"] is None and page["previous"]
    bad = anon.get("/api/v1/clubs/?page=9")
    assert bad.status_code == 404 and bad.json()["errors"][0]["code"] == "not_found"


# --------------------------------------------------------------------------- players


def test_a_manager_registers_a_player_in_the_club(manager, club):
    response = client_for(manager).post("/api/v1/players/", {"name": "An Peeters", "club": club.pk}, format="json")
    assert response.status_code == 201
    assert response.json() == {"id": response.json()["id"], "name": "An Peeters", "club": club.pk,
                               "club_detail": {"id": club.pk, "name": "De Zwarte Kat"}, "licence": None}


@pytest.mark.parametrize(("who", "status"), [("manager", 201), ("staff", 201), ("other_manager", 403),
                                             ("stranger", 403), ("anonymous", 401)])
def test_who_may_register_a_player(request, club, who, status):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    response = client_for(user).post("/api/v1/players/", {"name": "An", "club": club.pk}, format="json")
    assert response.status_code == status


def test_a_manager_cannot_move_a_player_into_another_club(manager, club, other_manager):
    player = PlayerFactory(club=club)
    other = ClubFactory()
    response = client_for(manager).patch(f"/api/v1/players/{player.pk}/", {"club": other.pk}, format="json")
    assert response.status_code == 403
    response = client_for(other_manager).patch(f"/api/v1/players/{player.pk}/", {"name": "Bert"}, format="json")
    assert response.status_code == 403
    assert client_for(manager).patch(f"/api/v1/players/{player.pk}/", {"name": "Bert"},
                                     format="json").json()["name"] == "Bert"


def test_player_validation_and_delete(manager, club):
    client = client_for(manager)
    response = client.post("/api/v1/players/", {"name": "", "club": 10**30}, format="json")
    assert response.status_code == 400
    assert {e["attr"] for e in response.json()["errors"]} == {"name", "club"}
    player = PlayerFactory(club=club)
    TeamFactory(club=club, player_1=player)
    assert client.delete(f"/api/v1/players/{player.pk}/").status_code == 409
    lone = PlayerFactory(club=club)
    assert client.delete(f"/api/v1/players/{lone.pk}/").status_code == 204
    assert not Player.objects.filter(pk=lone.pk).exists()


def test_player_list_filters(anon, club):
    PlayerFactory(club=club, name="An Peeters")
    PlayerFactory(name="Bert Claes")
    assert [p["name"] for p in anon.get(f"/api/v1/players/?club={club.pk}").json()["results"]] == ["An Peeters"]
    assert [p["name"] for p in anon.get("/api/v1/players/?search=claes").json()["results"]] == ["Bert Claes"]
    assert anon.get("/api/v1/players/?club=abc").status_code == 400


# --------------------------------------------------------------------------- teams


def test_a_manager_forms_a_team(manager, club):
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    response = client_for(manager).post("/api/v1/teams/", {"name": "De Manilles", "club": club.pk,
                                                           "players": [a.pk, b.pk]}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["players"] == [a.pk, b.pk]
    team = Team.objects.get(pk=response.json()["id"])
    assert (team.player_1, team.player_2) == (a, b)


@pytest.mark.parametrize(("players", "code"), [("same", "players_distinct"), ("one", "min_length"),
                                               ("missing", "does_not_exist")])
def test_team_players_are_validated(manager, club, players, code):
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    ids = {"same": [a.pk, a.pk], "one": [a.pk], "missing": [a.pk, b.pk + 1000]}[players]
    response = client_for(manager).post("/api/v1/teams/", {"name": "T", "club": club.pk, "players": ids},
                                        format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == code


def test_team_name_unique_in_club(manager, club):
    team = TeamFactory(club=club)
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    response = client_for(manager).post("/api/v1/teams/", {"name": team.name, "club": club.pk,
                                                           "players": [a.pk, b.pk]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unique"


@pytest.mark.parametrize(("who", "status"), [("manager", 200), ("staff", 200), ("other_manager", 403),
                                             ("stranger", 403), ("scorekeeper", 403)])
def test_who_may_rename_a_team(request, teams, who, status):
    user = request.getfixturevalue(who)
    response = client_for(user).patch(f"/api/v1/teams/{teams[0].pk}/", {"name": "Nieuw"}, format="json")
    assert response.status_code == status


def test_team_filters(anon, teams):
    player = teams[0].player_1
    assert [t["id"] for t in anon.get(f"/api/v1/teams/?player={player.pk}").json()["results"]] == [teams[0].pk]
    assert anon.get("/api/v1/teams/?search=muulen").json()["count"] == 1
