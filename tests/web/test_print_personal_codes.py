"""The players' personal codes on the organizers' prints of an individual event (issue 28): the round's seat list
(the door's list) and the table sheets carry each player's code for the event's directors when its results wait
for the opponents' confirmation; never for anyone else, nor when no confirmation is asked."""

import pytest

from tests.factories import UserFactory
from tests.individual import make_individual
from tournaments.models import PersonalCode, Tournament

pytestmark = pytest.mark.django_db

MARK = "data-personal-code"


@pytest.fixture
def event():
    tournament = make_individual(8, drawn=1, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents")
    organizer, director, keeper = UserFactory(), UserFactory(), UserFactory()
    tournament.organizers.add(organizer)
    tournament.directors.add(director)
    tournament.scorekeepers.add(keeper)
    return tournament, organizer, director, keeper


def prints(client, tournament):
    return {"seats": client.get(f"/t/{tournament.slug}/rounds/1/seats/print/").content.decode(),
            "sheets": client.get(f"/t/{tournament.slug}/rounds/1/sheets/").content.decode()}


def test_the_organizer_prints_every_players_code_on_the_seat_list_and_the_sheets(client, event):
    tournament, organizer, director, _keeper = event
    client.force_login(organizer)
    shown = prints(client, tournament)
    codes = dict(PersonalCode.objects.filter(tournament=tournament).values_list("player_id", "code"))
    assert len(codes) == 8  # made for the players without one
    assert shown["seats"].count(MARK) == 8 and shown["sheets"].count(MARK) == 8
    for code in codes.values():
        assert code in shown["seats"] and code in shown["sheets"]
    assert "Personal code" in shown["sheets"] and "do not post this list" in shown["seats"]
    client.force_login(director)  # a director hands the codes out too (the desk's slips)
    assert prints(client, tournament)["seats"].count(MARK) == 8
    assert set(PersonalCode.objects.filter(tournament=tournament).values_list("player_id", "code")) == set(
        codes.items())  # the same codes: never made again


def test_no_code_for_the_public_a_scorekeeper_nor_without_confirmation(client, event):
    tournament, organizer, _director, keeper = event
    for user in (None, keeper, UserFactory()):
        client.logout()
        if user is not None:
            client.force_login(user)
        shown = prints(client, tournament)
        assert all(MARK not in page and "Personal code" not in page for page in shown.values()), user
    assert not PersonalCode.objects.exists()  # nothing made for a visitor
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="off")
    client.force_login(organizer)
    assert all(MARK not in page for page in prints(client, tournament).values())
    assert not PersonalCode.objects.exists()
