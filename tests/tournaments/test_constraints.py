"""What must never happen is refused by the database itself, not only by Python checks."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TeamFactory
from tournaments.models import Game, Hand, Match, Team

pytestmark = pytest.mark.django_db


def refused(callable_):
    with pytest.raises(IntegrityError), transaction.atomic():
        callable_()


def test_two_hands_with_the_same_number_in_a_game():
    match = MatchFactory()
    game = Game.objects.create(match=match, number=1, first_dealer="N")
    Hand.objects.create(game=game, number=1, dealer="N")
    refused(lambda: Hand.objects.create(game=game, number=1, dealer="E"))


def test_a_team_twice_in_one_round():
    match = MatchFactory()
    refused(lambda: MatchFactory(round=match.round, ns=match.ns))
    refused(lambda: MatchFactory(round=match.round, ew=match.ns))
    refused(lambda: Match(round=match.round, table=10, ns=match.ew, ew=None).save())


def test_a_team_twice_in_one_round_through_an_update():
    match = MatchFactory()
    other = MatchFactory(round=match.round)
    other.ew = match.ns
    refused(other.save)


def test_a_team_playing_itself():
    team = TeamFactory()
    refused(lambda: MatchFactory(ns=team, ew=team))


def test_a_team_of_one_player_twice():
    player = PlayerFactory()
    refused(lambda: Team.objects.create(name="Solo", club=player.club, player_1=player, player_2=player))


def test_a_hand_in_a_finished_game():
    match = MatchFactory()
    game = Game.objects.create(match=match, number=1, first_dealer="N", status="finished", winner="ns")
    refused(lambda: Hand.objects.create(game=game, number=1, dealer="N"))


def test_a_finished_game_has_a_winner():
    match = MatchFactory()
    refused(lambda: Game.objects.create(match=match, number=1, first_dealer="N", status="finished"))


def test_a_round_number_once_per_tournament():
    round_ = RoundFactory()
    refused(lambda: RoundFactory(tournament=round_.tournament, number=round_.number))


def test_a_bye_is_a_match_without_a_second_team():
    match = MatchFactory(ew=None)
    assert match.is_bye
    assert list(match.slots.values_list("side", flat=True)) == ["ns"]


def test_one_tournament_of_a_name_per_club_and_start_date():
    import datetime

    from tests.factories import ClubFactory, TournamentFactory

    club, day = ClubFactory(), datetime.date(2026, 12, 5)
    TournamentFactory(name="Gentse Beker", club=club, starts_on=day)
    refused(lambda: TournamentFactory(name="GENTSE beker", club=club, starts_on=day))
    TournamentFactory(name="Gentse Beker", starts_on=day)  # no club
    refused(lambda: TournamentFactory(name="gentse beker", starts_on=day))
    TournamentFactory(name="Gentse Beker", club=club, starts_on=day + datetime.timedelta(days=1))
    TournamentFactory(name="Gentse Beker", club=club)  # no start date: not held to it
    TournamentFactory(name="Gentse Beker", club=club)
