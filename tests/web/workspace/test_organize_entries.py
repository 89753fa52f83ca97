"""The organizer's entries page: search and enter, a new team made inline, seeds, withdrawals, removals, forbidden pairs."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.models import Entry, ForbiddenPair, Match, Player, Team
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga")


@pytest.fixture
def cup(organizer):
    tournament = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=1)
    tournament.organizers.add(organizer)
    return tournament


@pytest.fixture
def kat(db):
    club = ClubFactory(name="De Zwarte Kat")
    for name, p1, p2 in (("De Manillekes", "Jan Claeys", "Pieter Vandenberghe"),
                         ("Troef Zot", "Hilde De Smet", "Marc Verhaeghe")):
        TeamFactory(name=name, club=club, player_1=PlayerFactory(club=club, name=p1),
                    player_2=PlayerFactory(club=club, name=p2))
    return club


@pytest.fixture
def client_of(client, organizer):
    client.force_login(organizer)
    return client


def url(name, cup, *args):
    return reverse(f"ws:{name}", args=[cup.slug, *args])


def test_the_empty_entries_page(client_of, cup):
    page = client_of.get(url("entries", cup)).content.decode()
    assert "0 teams entered" in page and "No team is entered yet" in page
    assert "Forbidden pairs" in page


def test_search_finds_teams_by_team_club_or_player_and_leaves_out_entered_and_retired(client_of, cup, kat):
    elsewhere = TeamFactory(name="Den Ajuin", club=ClubFactory(name="Café Sportwereld"))
    TeamFactory(name="Oude Ploeg", club=kat, retired=True)
    for q, expected in (("manillekes", {"De Manillekes"}), ("zwarte kat", {"De Manillekes", "Troef Zot"}),
                        ("hilde", {"Troef Zot"}), ("sportwereld", {"Den Ajuin"}), ("nobody", set())):
        response = client_of.get(url("entries", cup), {"q": q})
        assert {t.name for t in response.context["found"].object_list} == expected, q
    EntryFactory(tournament=cup, team=elsewhere)
    assert not client_of.get(url("entries", cup), {"q": "ajuin"}).context["found"].object_list
    page = client_of.get(url("entries", cup), {"q": "nobody"}).content.decode()
    assert "No team to enter matches “nobody”." in page


def test_search_is_paged(client_of, cup, django_assert_max_num_queries):
    club = ClubFactory(name="Groot")
    for i in range(25):
        TeamFactory(name=f"Groot {i:02}", club=club)
    with django_assert_max_num_queries(14):
        response = client_of.get(url("entries", cup), {"q": "groot"})
    found = response.context["found"]
    assert len(found.object_list) == 10 and found.paginator.num_pages == 3
    assert "Page 1 of 3" in response.content.decode()
    assert [t.name for t in client_of.get(url("entries", cup), {"q": "groot", "page": 3})
            .context["found"].object_list] == [f"Groot {i}" for i in range(20, 25)]


def test_enter_a_found_team(client_of, cup, kat):
    team = Team.objects.get(name="Troef Zot")
    response = client_of.post(url("entry-add", cup), {"team": team.pk, "q": "troef"}, follow=True)
    assert Entry.objects.filter(tournament=cup, team=team).exists()
    assert "Troef Zot is entered." in response.content.decode()
    again = client_of.post(url("entry-add", cup), {"team": team.pk}, follow=True).content.decode()
    assert "Troef Zot is entered already." in again
    assert Entry.objects.filter(tournament=cup).count() == 1


def test_a_late_entry_after_round_one(client_of, cup, kat):
    for _ in range(4):
        EntryFactory(tournament=cup)
    round_pair(tournament=cup)
    page = client_of.get(url("entries", cup)).content.decode()
    assert "Enter a team late" in page and "Withdraw" in page and ">Remove<" not in page
    team = Team.objects.get(name="De Manillekes")
    client_of.post(url("entry-add", cup), {"team": team.pk})
    assert Entry.objects.filter(tournament=cup, team=team, withdrawn=False).exists()


def test_make_a_team_with_new_players_and_enter_it(client_of, cup, kat):
    page = client_of.get(url("entries", cup), {"club": kat.pk}).content.decode()
    assert "Jan Claeys" in page and "Team name" in page
    response = client_of.post(url("entry-new-team", cup), {
        "club": kat.pk, "name": "Nieuwe Ploeg", "player_1": "", "player_1_new": "Ann Peeters",
        "player_2": Player.objects.get(name="Jan Claeys").pk, "player_2_new": ""}, follow=True)
    assert "Nieuwe Ploeg is made and entered." in response.content.decode()
    team = Team.objects.get(name="Nieuwe Ploeg")
    assert (team.club, team.player_1.name, team.player_2.name) == (kat, "Ann Peeters", "Jan Claeys")
    assert team.player_1.club == kat
    assert Entry.objects.filter(tournament=cup, team=team).exists()


@pytest.mark.parametrize("data, words", [
    ({"name": "Troef Zot", "player_1_new": "A B", "player_2_new": "C D"}, "has a team called Troef Zot already"),
    ({"name": "Ploeg X", "player_1_new": "Same One", "player_2_new": "same one"}, "two different people"),
    ({"name": "Ploeg X", "player_1_new": "A B", "player_2_new": ""}, "A team needs two players"),
    ({"name": "  ", "player_1_new": "A B", "player_2_new": "C D"}, "A name is required."),
])
def test_a_refused_new_team_keeps_what_was_typed_and_stores_nothing(client_of, cup, kat, data, words):
    before = (Team.objects.count(), Player.objects.count(), Entry.objects.count())
    response = client_of.post(url("entry-new-team", cup), {"club": kat.pk, "player_1": "", "player_2": "", **data})
    page = response.content.decode()
    assert response.status_code == 400 and words in page
    assert 'class="form-error"' in page
    assert f'value="{data["player_1_new"]}"' in page
    assert (Team.objects.count(), Player.objects.count(), Entry.objects.count()) == before


def test_a_player_of_another_club_is_refused(client_of, cup, kat):
    stranger = PlayerFactory(club=ClubFactory(name="Elders"))
    response = client_of.post(url("entry-new-team", cup), {
        "club": kat.pk, "name": "Gemengd", "player_1": stranger.pk, "player_2_new": "C D"})
    assert response.status_code == 400 and f"{stranger} does not play for {kat}." in response.content.decode()
    assert not Team.objects.filter(name="Gemengd").exists()


def test_seeds(client_of, cup):
    a, b = EntryFactory(tournament=cup), EntryFactory(tournament=cup, seed=4)
    client_of.post(url("entry-seeds", cup), {f"seed-{a.pk}": "2", f"seed-{b.pk}": ""})
    a.refresh_from_db(), b.refresh_from_db()
    assert (a.seed, b.seed) == (2, None)
    page = client_of.post(url("entry-seeds", cup), {f"seed-{a.pk}": "-3"}, follow=True).content.decode()
    assert "A seed is a whole number from 1." in page
    a.refresh_from_db()
    assert a.seed == 2


def test_remove_before_round_one_then_only_withdraw(client_of, cup):
    entries = [EntryFactory(tournament=cup) for _ in range(5)]
    ForbiddenPair.objects.create(tournament=cup, team_a_id=min(entries[0].team_id, entries[1].team_id),
                                 team_b_id=max(entries[0].team_id, entries[1].team_id))
    client_of.post(url("entry-remove", cup, entries[0].pk))
    assert not Entry.objects.filter(pk=entries[0].pk).exists()
    assert not ForbiddenPair.objects.exists()
    round_pair(tournament=cup)
    page = client_of.post(url("entry-remove", cup, entries[1].pk), follow=True).content.decode()
    assert "can no longer be removed, only withdrawn" in page
    assert Entry.objects.filter(pk=entries[1].pk).exists()
    client_of.post(url("entry-withdraw", cup, entries[1].pk))
    entry = Entry.objects.get(pk=entries[1].pk)
    assert entry.withdrawn
    match = Match.objects.get(round__tournament=cup, ns=entry.team) if Match.objects.filter(
        round__tournament=cup, ns=entry.team).exists() else None
    assert match is None or match.ew_id is not None  # its unstarted match became the opponent's bye
    page = client_of.post(url("entry-withdraw", cup, entries[1].pk), follow=True).content.decode()
    assert f"{entry.team.name} has withdrawn already." in page
    assert "Withdrawn" in client_of.get(url("entries", cup)).content.decode()


def test_an_entry_of_another_tournament_is_404(client_of, cup):
    foreign = EntryFactory()
    assert client_of.post(url("entry-withdraw", cup, foreign.pk)).status_code == 404
    assert client_of.post(url("entry-remove", cup, foreign.pk)).status_code == 404
    assert Entry.objects.filter(pk=foreign.pk).exists()


def test_forbidden_pairs_add_refuse_and_remove(client_of, cup):
    a, b, c = (EntryFactory(tournament=cup).team for _ in range(3))
    page = client_of.post(url("forbidden-add", cup), {"team_a": b.pk, "team_b": a.pk, "reason": "broers"},
                          follow=True).content.decode()
    pair = ForbiddenPair.objects.get(tournament=cup)
    assert (pair.team_a_id, pair.team_b_id, pair.reason) == (min(a.pk, b.pk), max(a.pk, b.pk), "broers")
    assert "will not be paired against each other" in page and "broers" in page
    again = client_of.post(url("forbidden-add", cup), {"team_a": a.pk, "team_b": b.pk}, follow=True)
    assert "kept apart already" in again.content.decode()
    same = client_of.post(url("forbidden-add", cup), {"team_a": c.pk, "team_b": c.pk}, follow=True)
    assert "choose two different teams" in same.content.decode()
    outsider = TeamFactory()
    assert client_of.post(url("forbidden-add", cup), {"team_a": a.pk, "team_b": outsider.pk}).status_code == 404
    assert ForbiddenPair.objects.count() == 1
    client_of.post(url("forbidden-remove", cup, pair.pk))
    assert not ForbiddenPair.objects.exists()


def test_a_forbidden_pair_of_another_tournament_is_404(client_of, cup):
    other = TournamentFactory()
    a, b = (EntryFactory(tournament=other).team for _ in range(2))
    pair = ForbiddenPair.objects.create(tournament=other, team_a_id=min(a.pk, b.pk), team_b_id=max(a.pk, b.pk))
    assert client_of.post(url("forbidden-remove", cup, pair.pk)).status_code == 404
    assert ForbiddenPair.objects.filter(pk=pair.pk).exists()


def test_the_full_entries_page_in_few_queries(client_of, cup, django_assert_max_num_queries):
    for i in range(12):
        EntryFactory(tournament=cup, seed=i + 1)
    with django_assert_max_num_queries(12):
        page = client_of.get(url("entries", cup)).content.decode()
    assert "12 teams entered" in page and page.count('class="seed"') == 12
