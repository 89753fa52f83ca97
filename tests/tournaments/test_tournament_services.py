"""Tournaments and clubs through the services: creation with the creator's rights, frozen fields, deletion."""

import pytest

from tests.factories import RoundFactory, TournamentFactory, UserFactory
from tournaments import refusals
from tournaments.models import Tournament
from tournaments.services.clubs import club_create
from tournaments.services.errors import Conflict, InvalidFields
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
        assert refused.value.params == {"reason": "frozen", "fields": [field]}
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


# -- issue 25.5: the one check every door goes through ------------------------------------------------------


@pytest.mark.parametrize(("fields", "code", "field"), [
    ({"points_win": 2, "points_draw": 3}, "draw_above_win", "points_draw"),
    ({"points_win": 2, "points_bye": 100}, "bye_above_win", "points_bye"),
    ({"points_win": 101}, "max_value", "points_win"),
    ({"rounds": 0}, "min_value", "rounds"),
    ({"best_of": 16}, "max_value", "best_of"),
    ({"separate_clubs_rounds": 100}, "max_value", "separate_clubs_rounds"),
    ({"options": {"target": 10_000}}, "invalid_option", "options"),
    ({"tiebreaks": ["height"]}, "invalid_tiebreaks", "tiebreaks"),
])
def test_create_refuses_settings_that_make_no_sense(fields, code, field):
    with pytest.raises(InvalidFields) as refused:
        tournament_create(user=UserFactory(), name="Beker", variant="belgian-manille", **fields)
    assert (refused.value.code, refused.value.field, refused.value.status) == (code, field, 400)
    assert not Tournament.objects.exists()


def test_a_draw_worth_a_win_and_nothing_at_all_are_sane():
    for win, draw, bye in ((2, 2, 2), (0, 0, 0), (100, 100, 100), (3, 1, 0)):
        t = tournament_create(user=UserFactory(), name=f"Beker {win}{draw}{bye}", variant="belgian-manille",
                              points_win=win, points_draw=draw, points_bye=bye)
        assert (t.points_win, t.points_draw, t.points_bye) == (win, draw, bye)


def test_an_update_checks_what_it_changes_and_what_goes_with_it():
    user = UserFactory()
    stored = TournamentFactory(points_win=2, points_draw=1, points_bye=50)  # stored before the rule
    assert tournament_update(tournament=stored, user=user, name="Renamed", public=False).name == "Renamed"
    with pytest.raises(InvalidFields) as refused:
        tournament_update(tournament=stored, user=user, points_draw=0)  # the bye is checked with the points
    assert (refused.value.code, refused.value.field) == ("bye_above_win", "points_bye")
    updated = tournament_update(tournament=stored, user=user, points_draw=0, points_bye=2)
    assert (updated.points_draw, updated.points_bye) == (0, 2)


def test_the_same_name_club_and_start_date_is_refused_in_any_case():
    import datetime

    user, club = UserFactory(), club_create(name="De Zwarte Kat", user=UserFactory())
    day = datetime.date(2026, 12, 5)
    first = tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", club=club, starts_on=day)
    with pytest.raises(InvalidFields) as refused:
        tournament_create(user=user, name="gentse BEKER", variant="belgian-manille", club=club, starts_on=day)
    assert (refused.value.code, refused.value.field) == ("tournament_exists", "name")
    assert refused.value.params["name"] == "Gentse Beker" and "De Zwarte Kat" in refused.value.params["club"]
    assert "Gentse Beker" in refusals.words(refused.value.code, refused.value.params)
    # Another club, another day, no club: other tournaments. Without a club, one per name and day too.
    tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", starts_on=day)
    with pytest.raises(InvalidFields):
        tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", starts_on=day)
    other = tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", club=club,
                              starts_on=day + datetime.timedelta(days=1))
    with pytest.raises(InvalidFields):
        tournament_update(tournament=other, user=user, starts_on=day)
    assert tournament_update(tournament=first, user=user, name="GENTSE BEKER").name == "GENTSE BEKER"  # itself


def test_a_duplicate_saved_meanwhile_is_refused_by_the_database_in_the_same_words(monkeypatch):
    import datetime

    user, day = UserFactory(), datetime.date(2026, 12, 5)
    tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", starts_on=day)
    # Two requests at once: both checks ran before either saved. The second save meets the constraint.
    monkeypatch.setattr("tournaments.services.tournaments._check", lambda tournament, changed=None: None)
    with pytest.raises(InvalidFields) as refused:
        tournament_create(user=user, name="GENTSE BEKER", variant="belgian-manille", starts_on=day)
    assert (refused.value.code, refused.value.field) == ("tournament_exists", "name")
    assert Tournament.objects.count() == 1


def test_an_events_entry_kind_and_format_match_length_are_checked_together():
    """Issue 26: changing one of them checks the others (an individual round robin, N games without N)."""
    user = UserFactory()
    tournament = TournamentFactory(format="round_robin")
    with pytest.raises(InvalidFields) as refused:
        tournament_update(tournament=tournament, user=user, entry="individual")
    assert (refused.value.code, refused.value.field) == ("format_for_entry", "format")
    with pytest.raises(InvalidFields) as refused:
        tournament_update(tournament=tournament, user=user, match_length="games")
    assert (refused.value.code, refused.value.field) == ("match_length_incomplete", "match_games")
    updated = tournament_update(tournament=tournament, user=user, entry="individual", format="tables")
    assert (updated.entry, updated.format) == ("individual", "tables")


def test_the_entry_kind_is_fixed_once_anyone_is_entered_and_the_match_length_once_paired():
    from tests.factories import EntryFactory

    user = UserFactory()
    tournament = TournamentFactory(format="swiss")
    EntryFactory(tournament=tournament)
    with pytest.raises(Conflict) as refused:
        tournament_update(tournament=tournament, user=user, entry="individual")
    assert (refused.value.code, refused.value.field, refused.value.params) == (
        "tournament_started", "entry", {"reason": "entries"})
    assert "entered already" in refusals.words(refused.value.code, refused.value.params)
    RoundFactory(tournament=tournament, number=1)
    for field, value in [("match_length", "timed"), ("match_games", 4), ("entry", "individual")]:
        assert field in FROZEN_ONCE_PAIRED
        with pytest.raises(Conflict) as refused:
            tournament_update(tournament=tournament, user=user, **{field: value})
        assert refused.value.params == {"reason": "frozen", "fields": [field]}
    assert tournament_update(tournament=tournament, user=user, minutes=25).minutes == 25  # the next rounds' clock
