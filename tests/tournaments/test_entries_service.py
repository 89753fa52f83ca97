"""Entries as an organizer keeps them: seeds, removal before round 1, a team made and entered at once, forbidden pairs."""

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TeamFactory, TournamentFactory
from tournaments.models import Entry, ForbiddenPair, Player, Team
from tournaments.services.entries import (
    entry_create_with_team,
    entry_remove,
    entry_seeds_set,
    forbidden_pair_add,
    forbidden_pair_remove,
)
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def test_seeds_set_changes_only_what_differs():
    t = TournamentFactory()
    a, b, c = EntryFactory(tournament=t, seed=1), EntryFactory(tournament=t, seed=2), EntryFactory(tournament=t)
    assert entry_seeds_set(tournament=t, seeds={a.pk: 1, b.pk: None, c.pk: 3}) == 2
    assert list(Entry.objects.filter(tournament=t).order_by("pk").values_list("seed", flat=True)) == [1, None, 3]
    with pytest.raises(ServiceError) as exc:
        entry_seeds_set(tournament=t, seeds={a.pk: 0})
    assert exc.value.code == "seed"


def test_seeds_of_another_tournament_are_ignored():
    t, other = TournamentFactory(), EntryFactory(seed=5)
    assert entry_seeds_set(tournament=t, seeds={other.pk: 1}) == 0
    other.refresh_from_db()
    assert other.seed == 5


def test_remove_before_round_one_only():
    t = TournamentFactory()
    entries = [EntryFactory(tournament=t) for _ in range(3)]
    a, b = sorted((entries[0].team_id, entries[1].team_id))
    ForbiddenPair.objects.create(tournament=t, team_a_id=a, team_b_id=b)
    entry_remove(entry=entries[0])
    assert not Entry.objects.filter(pk=entries[0].pk).exists() and not ForbiddenPair.objects.exists()
    round_pair(tournament=t)
    with pytest.raises(Conflict) as exc:
        entry_remove(entry=entries[1])
    assert exc.value.code == "tournament_started"


def test_create_with_team_registers_new_players_reuses_named_ones_and_enters_it():
    t, club = TournamentFactory(), ClubFactory()
    jan = PlayerFactory(club=club, name="Jan Claeys")
    entry = entry_create_with_team(tournament=t, club=club, name=" Nieuwe  Ploeg ", player_1="jan claeys",
                                   player_2="Ann Peeters", seed=3)
    team = entry.team
    assert (team.name, team.club, team.player_1, team.player_2.name, entry.seed) == (
        "Nieuwe Ploeg", club, jan, "Ann Peeters", 3)
    assert Player.objects.filter(club=club).count() == 2


@pytest.mark.parametrize("kwargs, code", [
    ({"name": "Bestaat", "player_1": "A", "player_2": "B"}, "team_exists"),
    ({"name": "", "player_1": "A", "player_2": "B"}, "name_missing"),
    ({"name": "X", "player_1": "Same", "player_2": "same"}, "same_player"),
    ({"name": "X", "player_1": "A", "player_2": " "}, "player_missing"),
])
def test_create_with_team_refusals_store_nothing(kwargs, code):
    t, club = TournamentFactory(), ClubFactory()
    TeamFactory(club=club, name="Bestaat")
    before = (Team.objects.count(), Player.objects.count(), Entry.objects.count())
    with pytest.raises(ServiceError) as exc:
        entry_create_with_team(tournament=t, club=club, **kwargs)
    assert exc.value.code == code
    assert (Team.objects.count(), Player.objects.count(), Entry.objects.count()) == before


def test_create_with_team_in_a_finished_tournament_stores_nothing():
    t, club = TournamentFactory(status="finished"), ClubFactory()
    with pytest.raises(Conflict):
        entry_create_with_team(tournament=t, club=club, name="Te Laat", player_1="A", player_2="B")
    assert not Team.objects.filter(name="Te Laat").exists() and not Player.objects.filter(club=club).exists()


def test_forbidden_pairs():
    t = TournamentFactory()
    a, b = (EntryFactory(tournament=t).team for _ in range(2))
    pair = forbidden_pair_add(tournament=t, team_a=b, team_b=a, reason="broers")
    assert (pair.team_a_id, pair.team_b_id) == tuple(sorted((a.pk, b.pk)))
    with pytest.raises(Conflict) as exc:
        forbidden_pair_add(tournament=t, team_a=a, team_b=b)
    assert exc.value.code == "already_forbidden"
    with pytest.raises(ServiceError) as exc:
        forbidden_pair_add(tournament=t, team_a=a, team_b=a)
    assert exc.value.code == "same_team"
    with pytest.raises(ServiceError) as exc:
        forbidden_pair_add(tournament=t, team_a=a, team_b=TeamFactory())
    assert exc.value.code == "not_entered"
    forbidden_pair_remove(pair=pair)
    assert not ForbiddenPair.objects.exists()
