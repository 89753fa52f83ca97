"""The registry's team rules as docs/api.md states them (section 2): each one through the API, and in the guide."""

from pathlib import Path

import pytest

from tests.api.conftest import client_for
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.models import Player, Team
from tournaments.services.clubs import player_retire, team_retire

pytestmark = pytest.mark.django_db

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()


def guide_section() -> str:
    return " ".join(GUIDE.split("## 2. A club, its players and teams", 1)[1].split("\n## ", 1)[0].split())


@pytest.fixture
def kaart(club):
    """The club's two active players, a retired one, and its team De Manilles."""
    a, b = PlayerFactory(club=club, name="An Peeters"), PlayerFactory(club=club, name="Bram Claes")
    gone = PlayerFactory(club=club, name="Cis Maes", retired=True)
    team = TeamFactory(club=club, name="De Manilles", player_1=PlayerFactory(club=club),
                       player_2=PlayerFactory(club=club))
    return a, b, gone, team


def post_team(user, **body):
    return client_for(user).post("/api/v1/teams/", body, format="json")


def error(response) -> tuple[int, str, str, str]:
    body = response.json()
    return response.status_code, body["type"], body["errors"][0]["code"], body["errors"][0]["attr"]


def test_a_teams_players_play_for_its_club(manager, club, kaart):
    a, b, _, _ = kaart
    stranger = PlayerFactory(club=ClubFactory(name="Het Witte Paard"))
    assert error(post_team(manager, name="Nieuw", club=club.pk, players=[a.pk, stranger.pk])) == (
        400, "validation_error", "player_other_club", "player_2")
    assert error(post_team(manager, name="Nieuw", club=club.pk, players=[a.pk, a.pk])) == (
        400, "validation_error", "players_distinct", "players")
    for code in ("player_other_club", "players_distinct"):
        assert f"`{code}`" in guide_section()


def test_moving_a_team_needs_both_clubs_managers_and_the_new_clubs_players(manager, staff, club, kaart):
    *_, team = kaart
    other = ClubFactory(name="Het Witte Paard")
    response = client_for(manager).patch(f"/api/v1/teams/{team.pk}/", {"club": other.pk}, format="json")
    assert response.status_code == 403
    response = client_for(staff).patch(f"/api/v1/teams/{team.pk}/", {"club": other.pk}, format="json")
    assert error(response)[2:] == ("player_other_club", "player_1")
    x, y = PlayerFactory(club=other), PlayerFactory(club=other)
    response = client_for(staff).patch(f"/api/v1/teams/{team.pk}/", {"club": other.pk, "players": [x.pk, y.pk]},
                                       format="json")
    assert response.status_code == 200 and response.json()["club"] == other.pk


def test_a_player_who_moves_club_stays_in_their_teams(staff, club, kaart):
    *_, team = kaart
    other = ClubFactory(name="Het Witte Paard")
    player = team.player_1
    response = client_for(staff).patch(f"/api/v1/players/{player.pk}/", {"club": other.pk}, format="json")
    assert response.status_code == 200
    team.refresh_from_db()
    assert team.player_1_id == player.pk and team.club_id == club.pk


def test_team_names_are_unique_in_a_club_ignoring_case(manager, club, kaart):
    a, b, _, _ = kaart
    assert error(post_team(manager, name="De Manilles", club=club.pk, players=[a.pk, b.pk])) == (
        400, "validation_error", "unique", "non_field_errors")
    assert error(post_team(manager, name="de  MANILLES", club=club.pk, players=[a.pk, b.pk])) == (
        400, "validation_error", "team_exists", "name")
    # Another club may have its own De Manilles; a name is stored with single spaces.
    other = ClubFactory(name="Het Witte Paard")
    other.managers.add(manager)
    x, y = PlayerFactory(club=other), PlayerFactory(club=other)
    response = post_team(manager, name=" De   Manilles ", club=other.pk, players=[x.pk, y.pk])
    assert response.status_code == 201 and response.json()["name"] == "De Manilles"
    for code in ("unique", "team_exists"):
        assert f"`{code}`" in guide_section()
    assert "unique within a club, ignoring case" in guide_section()


def test_a_team_gets_only_active_players_but_keeps_one_who_retired_since(manager, club, kaart):
    a, b, gone, _ = kaart
    assert error(post_team(manager, name="Nieuw", club=club.pk, players=[gone.pk, b.pk])) == (
        400, "validation_error", "player_retired", "player_1")
    team = Team.objects.get(pk=post_team(manager, name="Nieuw", club=club.pk, players=[a.pk, b.pk]).json()["id"])
    player_retire(player=a)
    response = client_for(manager).patch(f"/api/v1/teams/{team.pk}/", {"name": "Oud", "players": [a.pk, b.pk]},
                                         format="json")
    assert response.status_code == 200 and response.json()["players"] == [a.pk, b.pk]
    assert "`player_retired`" in guide_section()


def test_the_api_neither_shows_nor_sets_retired(manager, club, kaart):
    a, b, gone, team = kaart
    team_retire(team=team)
    client = client_for(manager)
    assert "retired" not in client.get(f"/api/v1/players/{gone.pk}/").json()
    listed = client.get(f"/api/v1/teams/?club={club.pk}").json()["results"]
    assert team.pk in [t["id"] for t in listed] and all("retired" not in t for t in listed)
    response = post_team(manager, name="Nieuw", club=club.pk, players=[a.pk, b.pk], retired=True)
    assert response.status_code == 201 and not Team.objects.get(pk=response.json()["id"]).retired
    assert client.patch(f"/api/v1/players/{gone.pk}/", {"retired": False}, format="json").status_code == 200
    assert Player.objects.get(pk=gone.pk).retired
    assert "neither shows nor sets the flag" in guide_section()


def test_in_use_players_and_teams_are_kept_and_a_retired_team_is_not_entered(manager, club, kaart):
    *_, team = kaart
    client = client_for(manager)
    assert error(client.delete(f"/api/v1/players/{team.player_1_id}/"))[::2] == (409, "protected")
    tournament = TournamentFactory(club=club)
    organizer = UserFactory(username="orga")
    tournament.organizers.add(organizer)
    entries = f"/api/v1/tournaments/{tournament.slug}/entries/"
    assert client_for(organizer).post(entries, {"team": team.pk}, format="json").status_code == 201
    other = TournamentFactory(club=club)
    other.organizers.add(organizer)
    team_retire(team=team)
    response = client_for(organizer).post(f"/api/v1/tournaments/{other.slug}/entries/", {"team": team.pk},
                                          format="json")
    assert error(response)[::2] == (409, "team_retired")
    assert client_for(organizer).get(entries).json()["count"] == 1  # the entry it had stays
    assert error(client.delete(f"/api/v1/teams/{team.pk}/"))[::2] == (409, "protected")
    assert "`team_retired`" in guide_section()
