"""Players and teams: register, change, retire, delete, with the checks both the API and the site rely on."""

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TeamFactory
from tournaments.models import Player, Team
from tournaments.services.clubs import (
    player_create, player_delete, player_in_use, player_retire, player_update, team_create, team_delete,
    team_in_use, team_retire, team_update,
)
from tournaments.services.errors import Conflict, ServiceError

pytestmark = pytest.mark.django_db


def test_player_create_tidies_and_checks():
    club = ClubFactory()
    player = player_create(club=club, name="  An   Peeters ", licence=" 12 34 ")
    assert (player.name, player.licence, player.retired) == ("An Peeters", "1234", False)
    assert player_create(club=club, name="Bert", licence="").licence is None
    with pytest.raises(ServiceError) as exc:
        player_create(club=ClubFactory(), name="Cis", licence="1234")
    assert (exc.value.code, exc.value.field) == ("licence_taken", "licence")
    with pytest.raises(ServiceError) as exc:
        player_create(club=club, name="   ")
    assert (exc.value.code, exc.value.field) == ("name_missing", "name")
    assert Player.objects.filter(club=club).count() == 2


def test_player_update_keeps_own_licence_and_refuses_another():
    club = ClubFactory()
    a = player_create(club=club, name="An", licence="1")
    player_create(club=club, name="Bert", licence="2")
    assert player_update(player=a, name="Anna", licence="1").name == "Anna"
    with pytest.raises(ServiceError) as exc:
        player_update(player=a, licence="2")
    assert (exc.value.code, exc.value.field, exc.value.params) == ("licence_taken", "licence", {"licence": "2"})
    with pytest.raises(ServiceError) as exc:
        player_update(player=a, colour="red")
    assert exc.value.code == "unknown_field"


def test_retire_and_bring_back_a_player():
    player = PlayerFactory()
    assert player_retire(player=player).retired is True
    assert Player.objects.get(pk=player.pk).retired is True
    assert player_retire(player=player, retired=False).retired is False


def test_delete_a_player_only_when_in_no_team():
    team = TeamFactory()
    assert player_in_use(player=team.player_2)
    with pytest.raises(Conflict) as exc:
        player_delete(player=team.player_2)
    assert exc.value.code == "protected"
    lone = PlayerFactory(club=team.club)
    assert not player_in_use(player=lone)
    player_delete(player=lone)
    assert not Player.objects.filter(pk=lone.pk).exists()
    assert Player.objects.filter(pk=team.player_2_id).exists()


def test_team_create_checks_players_and_name():
    club = ClubFactory()
    a, b, c = (PlayerFactory(club=club) for _ in range(3))
    team = team_create(club=club, name=" De  Manilles ", player_1=a, player_2=b)
    assert (team.name, team.player_1, team.player_2) == ("De Manilles", a, b)
    cases = [
        ({"name": "de manilles", "player_1": a, "player_2": c}, "team_exists", "name"),
        ({"name": "X", "player_1": a, "player_2": a}, "same_player", "player_2"),
        ({"name": "X", "player_1": a, "player_2": PlayerFactory()}, "player_other_club", "player_2"),
        ({"name": "X", "player_1": player_retire(player=c), "player_2": b}, "player_retired", "player_1"),
    ]
    for fields, code, field in cases:
        with pytest.raises(ServiceError) as exc:
            team_create(club=club, **fields)
        assert (exc.value.code, exc.value.field) == (code, field)
    assert Team.objects.filter(club=club).count() == 1


def test_a_retired_player_may_stay_in_a_team_but_not_join_one():
    team = TeamFactory()
    player_retire(player=team.player_1)
    team.refresh_from_db()
    assert team_update(team=team, name="Renamed", player_1=team.player_1, player_2=team.player_2).name == "Renamed"
    other = TeamFactory(club=team.club)
    with pytest.raises(ServiceError) as exc:
        team_update(team=other, player_1=team.player_1)
    assert exc.value.code == "player_retired"


def test_team_update_renames_only_to_a_free_name():
    club = ClubFactory()
    a, b = TeamFactory(club=club, name="A"), TeamFactory(club=club, name="B")
    assert team_update(team=a, name="a").name == "a"
    with pytest.raises(ServiceError) as exc:
        team_update(team=a, name="b")
    assert exc.value.code == "team_exists"
    assert Team.objects.get(pk=b.pk).name == "B"


def test_delete_a_team_only_when_it_never_entered():
    entered = EntryFactory().team
    assert team_in_use(team=entered)
    with pytest.raises(Conflict) as exc:
        team_delete(team=entered)
    assert exc.value.code == "protected"
    assert team_retire(team=entered).retired is True
    fresh = TeamFactory()
    assert not team_in_use(team=fresh)
    team_delete(team=fresh)
    assert not Team.objects.filter(pk=fresh.pk).exists()
    assert Player.objects.filter(pk=fresh.player_1_id).exists()
