"""The entry services of individual events the workspace adds: a player typed by name entered in one go, and a
player's fixed table and reserve flag."""

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Entry, Player
from tournaments.services.entries import entry_create_with_player, entry_player_set
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import entry_withdraw

pytestmark = pytest.mark.django_db


def test_a_typed_name_is_a_new_player_entered_with_the_next_number():
    t = individual_event(3)
    club = ClubFactory(name="Café Sport")
    entry = entry_create_with_player(tournament=t, name=" Mia  Claes ", club=club, fixed_table=2, reserve=True)
    assert (entry.player.name, entry.player.club, entry.start_number, entry.fixed_table, entry.reserve) == (
        "Mia Claes", club, 4, 2, True)
    alone = entry_create_with_player(tournament=t, name="Nand Pieters")
    assert alone.player.club is None and alone.start_number == 5


def test_a_typed_name_of_the_club_is_that_player_not_a_second_one():
    t = individual_event(0)
    club = ClubFactory()
    known = PlayerFactory(name="Mia Claes", club=club)
    assert entry_create_with_player(tournament=t, name="mia claes", club=club).player == known
    with pytest.raises(Conflict) as refused:
        entry_create_with_player(tournament=t, name="Mia Claes", club=club)
    assert refused.value.code == "already_entered"
    assert Player.objects.filter(name__iexact="mia claes").count() == 1


def test_a_refused_entry_leaves_no_new_player_behind():
    t = individual_event(0)
    t.status = "finished"
    t.save()
    with pytest.raises(Conflict):
        entry_create_with_player(tournament=t, name="Nobody Yet")
    assert not Player.objects.filter(name="Nobody Yet").exists()
    with pytest.raises(ServiceError) as empty:
        entry_create_with_player(tournament=individual_event(0, slug="b", name="B"), name="  ")
    assert empty.value.code == "name_missing"


def test_a_fixed_table_and_the_reserve_flag_change():
    t = individual_event(4)
    entry = t.entries.order_by("start_number").first()
    entry_player_set(entry=entry, fixed_table=3, reserve=True)
    entry.refresh_from_db()
    assert (entry.fixed_table, entry.reserve) == (3, True)
    with pytest.raises(ServiceError) as bad:
        entry_player_set(entry=entry, fixed_table=0, reserve=False)
    assert bad.value.code == "fixed_table"


def test_the_reserve_flag_stays_once_drawn_and_a_withdrawn_entry_is_refused():
    t = individual_event(8)
    seat_round(t, 1)
    entry = t.entries.order_by("start_number").first()
    with pytest.raises(Conflict) as drawn:
        entry_player_set(entry=entry, fixed_table=None, reserve=True)
    assert drawn.value.code == "tournament_started"
    assert entry_player_set(entry=entry, fixed_table=1, reserve=False).fixed_table == 1
    entry_withdraw(entry=entry)
    with pytest.raises(Conflict) as gone:
        entry_player_set(entry=Entry.objects.get(pk=entry.pk), fixed_table=None, reserve=False)
    assert gone.value.code == "already_withdrawn"


def test_a_team_event_has_no_players_to_set():
    entry = EntryFactory(tournament=TournamentFactory())
    with pytest.raises(ServiceError) as refused:
        entry_player_set(entry=entry, fixed_table=1, reserve=False)
    assert refused.value.code == "entry_kind"
