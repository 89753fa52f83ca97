"""A club's managers' pages: players and teams listed, created, edited, retired, deleted; 404 for anyone else."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TeamFactory, UserFactory
from tournaments.models import Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="De Zwarte Kat", city="Gent")


@pytest.fixture
def manager(club):
    user = UserFactory(username="manager")
    club.managers.add(user)
    return user


@pytest.fixture
def client_of():
    def make(user):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client
    return make


@pytest.fixture
def browser(client_of, manager):
    return client_of(manager)


def url(name, club, *args):
    return reverse(f"ws:{name}", args=[club.pk, *args])


# --------------------------------------------------------------------------- who may


def _every_url(club, player, team):
    return [
        ("get", url("club", club)), ("get", url("club-teams", club)),
        ("get", url("club-player-new", club)), ("get", url("club-player", club, player.pk)),
        ("post", url("club-player-retire", club, player.pk)), ("post", url("club-player-delete", club, player.pk)),
        ("get", url("club-team-new", club)), ("get", url("club-team", club, team.pk)),
        ("post", url("club-team-retire", club, team.pk)), ("post", url("club-team-delete", club, team.pk)),
        ("get", url("club-import", club)), ("get", reverse("ws:club-export", args=[club.pk, "players", "csv"])),
    ]


def test_anonymous_is_sent_to_sign_in(client_of, club):
    team = TeamFactory(club=club)
    for method, address in _every_url(club, team.player_1, team):
        response = getattr(client_of(None), method)(address)
        assert response.status_code == 302 and response["Location"].startswith(reverse("ws:login")), address


@pytest.mark.parametrize("who", ["stranger", "other_manager", "volunteer_staff"])
def test_anyone_but_a_manager_gets_404_everywhere(client_of, club, who):
    user = UserFactory(username=who, is_staff=who == "volunteer_staff")
    if who == "other_manager":
        ClubFactory().managers.add(user)
    if who == "volunteer_staff":
        from django.contrib.auth.models import Group

        user.groups.add(Group.objects.get_or_create(name="Volunteers")[0])
    team = TeamFactory(club=club)
    client = client_of(user)
    for method, address in _every_url(club, team.player_1, team):
        assert getattr(client, method)(address).status_code == 404, address
    assert Team.objects.filter(pk=team.pk, retired=False).exists()
    assert Player.objects.filter(pk=team.player_1_id, retired=False).exists()


def test_a_manager_cannot_reach_another_clubs_players_through_their_own_club(browser, club):
    other = ClubFactory()
    player = PlayerFactory(club=other, name="Not Yours")
    team = TeamFactory(club=other)
    for address in (url("club-player", club, player.pk), url("club-team", club, team.pk)):
        assert browser.get(address).status_code == 404
        assert browser.post(address, {"name": "Taken"}).status_code == 404
    assert browser.post(url("club-player-retire", club, player.pk)).status_code == 404
    assert browser.post(url("club-team-delete", club, team.pk)).status_code == 404
    player.refresh_from_db()
    assert player.name == "Not Yours" and not player.retired and Team.objects.filter(pk=team.pk).exists()
    assert "Not Yours" not in browser.get(url("club", club)).content.decode()


def test_unscoped_staff_manage_any_club(client_of, club):
    staff = UserFactory(username="boss", is_staff=True)
    assert client_of(staff).get(url("club", club)).status_code == 200


def test_retire_and_delete_need_post(browser, club):
    player = PlayerFactory(club=club)
    assert browser.get(url("club-player-retire", club, player.pk)).status_code == 405
    assert browser.get(url("club-player-delete", club, player.pk)).status_code == 405


# --------------------------------------------------------------------------- lists


def test_empty_club_says_what_to_do(browser, club):
    body = browser.get(url("club", club)).content.decode()
    assert "The club has no players yet." in body and url("club-import", club) in body
    assert "The club has no teams yet." in browser.get(url("club-teams", club)).content.decode()


def test_players_list_searches_paginates_and_hides_the_retired(browser, club, django_assert_max_num_queries):
    for i in range(30):
        PlayerFactory(club=club, name=f"Speler {i:02}", licence=f"L{i:02}")
    PlayerFactory(club=club, name="Oud Lid", retired=True)
    TeamFactory(club=club, player_1=Player.objects.get(name="Speler 00"), player_2=Player.objects.get(name="Speler 01"))
    with django_assert_max_num_queries(8):
        body = browser.get(url("club", club)).content.decode()
    assert "Speler 00" in body and "Speler 24" in body and "Speler 25" not in body and "Oud Lid" not in body
    assert "Page 1 of 2" in body
    assert "Speler 25" in browser.get(url("club", club) + "?page=2").content.decode()
    found = browser.get(url("club", club) + "?q=l07").content.decode()
    assert "Speler 07" in found and "Speler 08" not in found
    retired = browser.get(url("club", club) + "?retired=1").content.decode()
    assert "Oud Lid" in retired and "Speler 00" not in retired
    assert "No player matches" in browser.get(url("club", club) + "?q=nobody").content.decode()


def test_teams_list_shows_players_and_entries(browser, club, django_assert_max_num_queries):
    team = TeamFactory(club=club, name="De Manilles")
    EntryFactory(team=team)
    EntryFactory(team=team)
    TeamFactory(club=club, name="Oude Ploeg", retired=True)
    for i in range(5):
        TeamFactory(club=club)
    with django_assert_max_num_queries(8):
        response = browser.get(url("club-teams", club))
    body = response.content.decode()
    assert "De Manilles" in body and team.player_1.name in body and "Oude Ploeg" not in body
    assert response.context["page"].object_list[0].entry_count == 2
    assert "Oude Ploeg" in browser.get(url("club-teams", club) + "?retired=1").content.decode()
    assert "De Manilles" in browser.get(url("club-teams", club) + "?q=" + team.player_2.name).content.decode()


# --------------------------------------------------------------------------- players


def test_create_a_player(browser, club):
    response = browser.post(url("club-player-new", club), {"name": " An  Peeters ", "licence": "123"})
    assert response.status_code == 302 and response["Location"] == url("club", club)
    player = Player.objects.get(club=club)
    assert (player.name, player.licence) == ("An Peeters", "123")
    response = browser.post(url("club-player-new", club), {"name": "Bert", "another": "1"})
    assert response["Location"] == url("club-player-new", club)


def test_create_a_player_with_a_taken_licence_shows_the_error_on_the_field(browser, club):
    PlayerFactory(club=ClubFactory(), licence="123")
    response = browser.post(url("club-player-new", club), {"name": "An", "licence": "123"})
    assert response.status_code == 200
    assert response.context["form"].errors == {"licence": ["Another player has licence 123 already."]}
    assert not Player.objects.filter(club=club).exists()
    response = browser.post(url("club-player-new", club), {"name": ""})
    assert "name" in response.context["form"].errors


def test_edit_a_player(browser, club):
    player = PlayerFactory(club=club, name="An")
    body = browser.get(url("club-player", club, player.pk)).content.decode()
    assert 'value="An"' in body and "Delete this player" in body
    response = browser.post(url("club-player", club, player.pk), {"name": "Anna", "licence": ""})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Anna" and player.licence is None


def test_retire_and_bring_back_a_player(browser, club):
    player = PlayerFactory(club=club, name="An")
    response = browser.post(url("club-player-retire", club, player.pk), {"retired": "1"}, follow=True)
    assert "An is retired" in response.content.decode()
    player.refresh_from_db()
    assert player.retired
    assert "Bring this player back" in browser.get(url("club-player", club, player.pk)).content.decode()
    browser.post(url("club-player-retire", club, player.pk), {"retired": "0"})
    player.refresh_from_db()
    assert not player.retired


def test_delete_a_player_in_a_team_is_refused_with_a_message(browser, club):
    team = TeamFactory(club=club)
    body = browser.get(url("club-player", club, team.player_1.pk)).content.decode()
    assert "Delete this player" not in body and "retire them instead" in body
    response = browser.post(url("club-player-delete", club, team.player_1.pk), follow=True)
    assert "is in a team and cannot be deleted" in response.content.decode()
    assert Player.objects.filter(pk=team.player_1.pk).exists()
    lone = PlayerFactory(club=club)
    response = browser.post(url("club-player-delete", club, lone.pk))
    assert response.status_code == 302 and not Player.objects.filter(pk=lone.pk).exists()


# --------------------------------------------------------------------------- teams


def test_form_a_team_offers_only_active_players_of_the_club(browser, club):
    a, b = PlayerFactory(club=club, name="An"), PlayerFactory(club=club, name="Bert")
    gone = PlayerFactory(club=club, name="Gone", retired=True)
    PlayerFactory(name="Elsewhere")
    body = browser.get(url("club-team-new", club)).content.decode()
    assert "An" in body and "Bert" in body and "Gone" not in body and "Elsewhere" not in body
    response = browser.post(url("club-team-new", club), {"name": "De Manilles", "player_1": a.pk,
                                                          "player_2": gone.pk})
    assert "player_2" in response.context["form"].errors
    response = browser.post(url("club-team-new", club), {"name": "De Manilles", "player_1": a.pk, "player_2": a.pk})
    assert response.context["form"].errors["player_2"] == ["A team's two players must be two different people."]
    response = browser.post(url("club-team-new", club), {"name": "De Manilles", "player_1": a.pk, "player_2": b.pk})
    assert response.status_code == 302 and response["Location"] == url("club-teams", club)
    team = Team.objects.get(club=club)
    assert (team.name, team.player_1, team.player_2) == ("De Manilles", a, b)


def test_form_a_team_without_players_says_to_add_them(browser, club):
    body = browser.get(url("club-team-new", club)).content.decode()
    assert "add the players" in body and "id_player_1" not in body


def test_team_name_taken_shows_on_the_field(browser, club):
    TeamFactory(club=club, name="De Manilles")
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    response = browser.post(url("club-team-new", club), {"name": "de manilles", "player_1": a.pk, "player_2": b.pk})
    assert response.context["form"].errors == {"name": [f"{club} has a team called de manilles already."]}


def test_edit_a_team_keeps_a_retired_player(browser, club):
    team = TeamFactory(club=club, name="Oud")
    Player.objects.filter(pk=team.player_1_id).update(retired=True)
    body = browser.get(url("club-team", club, team.pk)).content.decode()
    assert team.player_1.name in body
    response = browser.post(url("club-team", club, team.pk), {"name": "Nieuw", "player_1": team.player_1_id,
                                                              "player_2": team.player_2_id})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.name == "Nieuw"


def test_retire_delete_a_team(browser, club):
    entered = EntryFactory(team=TeamFactory(club=club)).team
    body = browser.get(url("club-team", club, entered.pk)).content.decode()
    assert "Entered in 1 tournament." in body and "Delete this team" not in body
    response = browser.post(url("club-team-delete", club, entered.pk), follow=True)
    assert "cannot be deleted: retire it instead" in response.content.decode()
    browser.post(url("club-team-retire", club, entered.pk), {"retired": "1"})
    entered.refresh_from_db()
    assert entered.retired
    fresh = TeamFactory(club=club)
    assert "Delete this team" in browser.get(url("club-team", club, fresh.pk)).content.decode()
    browser.post(url("club-team-delete", club, fresh.pk))
    assert not Team.objects.filter(pk=fresh.pk).exists()
