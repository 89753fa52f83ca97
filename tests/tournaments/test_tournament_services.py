"""Tournaments and clubs through the services: creation with the creator's rights, frozen fields, deletion."""

import pytest

from tests.factories import RoundFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament
from tournaments.services.clubs import club_create
from tournaments.services.errors import Conflict
from tournaments.services.tournaments import (
    FROZEN_ONCE_PAIRED,
    tournament_create,
    tournament_delete,
    tournament_update,
)

pytestmark = pytest.mark.django_db


def test_create_makes_a_unique_slug_and_the_creator_an_organizer():
    user, other, keeper = UserFactory(), UserFactory(), UserFactory()
    first = tournament_create(user=user, name="Gentse Beker", variant="belgian-manille")
    second = tournament_create(user=user, name="Gentse Beker", variant="belgian-manille",
                               organizers=[other], scorekeepers=[keeper])
    assert (first.slug, second.slug) == ("gentse-beker", "gentse-beker-2")
    assert list(first.organizers.all()) == [user]
    assert set(second.organizers.all()) == {user, other} and list(second.scorekeepers.all()) == [keeper]
    assert tournament_create(user=user, name="!!!", variant="belgian-manille").slug == "tournament"


def test_frozen_fields_change_until_a_round_is_paired():
    user = UserFactory()
    tournament = TournamentFactory(rounds=5)
    assert tournament_update(tournament=tournament, user=user, rounds=7, format="round_robin").rounds == 7
    RoundFactory(tournament=tournament, number=1)
    for field, value in [("rounds", 9), ("format", "swiss"), ("options", {"x": 1}), ("best_of", 3)]:
        assert field in FROZEN_ONCE_PAIRED
        with pytest.raises(Conflict) as refused:
            tournament_update(tournament=tournament, user=user, **{field: value})
        assert refused.value.code == "tournament_started" and refused.value.status == 409
        assert field in refused.value.message
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.format) == (7, "round_robin")


def test_an_unchanged_frozen_field_and_other_fields_change_once_paired():
    user, keeper = UserFactory(), UserFactory()
    tournament = TournamentFactory(rounds=5)
    tournament.organizers.add(user)
    RoundFactory(tournament=tournament, number=1)
    updated = tournament_update(tournament=tournament, user=user, rounds=5, name="Renamed", points_win=3,
                                scorekeepers=[keeper])
    assert (updated.name, updated.points_win, updated.rounds) == ("Renamed", 3, 5)
    assert list(updated.scorekeepers.all()) == [keeper] and list(updated.organizers.all()) == [user]
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"


def test_update_keeps_a_status_set_since_the_tournament_was_loaded():
    user = UserFactory()
    tournament = TournamentFactory()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)  # a pairing, meanwhile
    tournament_update(tournament=tournament, user=user, name="Renamed")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_a_started_tournament_cannot_be_deleted():
    user = UserFactory()
    started, fresh = TournamentFactory(), TournamentFactory()
    RoundFactory(tournament=started, number=1)
    with pytest.raises(Conflict) as refused:
        tournament_delete(tournament=started, user=user)
    assert refused.value.code == "tournament_started" and refused.value.status == 409
    tournament_delete(tournament=fresh, user=user)
    assert list(Tournament.objects.all()) == [started]


def test_club_create_makes_the_creator_a_manager():
    user, other = UserFactory(), UserFactory()
    club = club_create(user=user, name="De Zwaan", city="Gent")
    assert list(club.managers.all()) == [user]
    assert set(club_create(user=user, name="Klaver", managers=[other]).managers.all()) == {user, other}
