"""The organizer's round page: tables with explanations; swapping and moving teams before the round starts."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.conftest import enter_hands
from tournaments.models import ForbiddenPair, Match
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(db):
    tournament = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=1)
    tournament.organizers.add(UserFactory(username="orga"))
    for i in range(8):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    round_pair(tournament=tournament)
    return tournament


@pytest.fixture
def client_of(client, cup):
    client.force_login(cup.organizers.get())
    return client


def tables(cup) -> dict[int, tuple[str, str | None]]:
    return {m.table: (m.ns.name, m.ew.name if m.ew else None)
            for m in Match.objects.filter(round__tournament=cup).select_related("ns", "ew")}


def change(client, cup, table, ns, ew, **kw):
    match = Match.objects.get(round__tournament=cup, table=table)
    return client.post(reverse("ws:round-change", args=[cup.slug, 1]),
                       {"match": match.pk, "ns": ns.pk, "ew": ew.pk if ew else ""}, **kw)


def team(name):
    from tournaments.models import Team

    return Team.objects.get(name=name)


def test_the_round_page_shows_each_table_its_explanation_and_the_change_forms(client_of, cup,
                                                                             django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        response = client_of.get(reverse("ws:round", args=[cup.slug, 1]))
    page = response.content.decode()
    assert response.status_code == 200
    for ns, ew in tables(cup).values():
        assert ns in page and ew in page
    assert "Same score (0 pts): place 1 v place 5 of the 8 teams on it (top half v bottom half)." in page
    assert page.count('class="org-change-form"') == 4
    assert reverse("web:round-print", args=[cup.slug, 1]) in page
    assert reverse("web:round-sheets", args=[cup.slug, 1]) in page


def test_the_pairing_s_reasons_are_in_the_organizer_s_language(client_of, cup):
    """Match.explanation was English on a Dutch page: the pairing keeps codes, the page writes them."""
    page = client_of.get(reverse("ws:round", args=[cup.slug, 1]), HTTP_ACCEPT_LANGUAGE="nl")
    assert "Zelfde score (0 ptn): plaats 1 tegen plaats 5 van de 8 ploegen" in page.content.decode()


def test_swap_two_teams_between_tables(client_of, cup):
    before = tables(cup)
    assert before[1] == ("Ploeg 1", "Ploeg 5") and before[2] == ("Ploeg 2", "Ploeg 6")
    response = change(client_of, cup, 1, team("Ploeg 1"), team("Ploeg 6"), follow=True)
    assert "Table 1: Ploeg 1 against Ploeg 6." in response.content.decode()
    after = tables(cup)
    assert after[1] == ("Ploeg 1", "Ploeg 6") and after[2] == ("Ploeg 2", "Ploeg 5")
    assert Match.objects.get(round__tournament=cup, table=1).why == [["changed_by_hand", {"who": "orga"}]]


def test_move_a_late_entry_into_a_table(client_of, cup):
    late = EntryFactory(tournament=cup, team=TeamFactory(name="Laatkomer")).team
    page = client_of.get(reverse("ws:round", args=[cup.slug, 1])).content.decode()
    assert "Laatkomer" in page  # offered in the selects
    change(client_of, cup, 4, team("Ploeg 4"), late)
    assert tables(cup) == {1: ("Ploeg 1", "Ploeg 5"), 2: ("Ploeg 2", "Ploeg 6"), 3: ("Ploeg 3", "Ploeg 7"),
                           4: ("Ploeg 4", "Laatkomer")}
    # The service leaves the team it replaced at no table: the page says so, and offers it in the selects.
    response = client_of.get(reverse("ws:round", args=[cup.slug, 1]))
    assert [t.name for t in response.context["unplaced"]] == ["Ploeg 8"]
    assert "At no table: Ploeg 8" in response.content.decode()


def test_a_forbidden_pair_is_refused_in_words_and_nothing_changes(client_of, cup):
    a, b = team("Ploeg 1"), team("Ploeg 2")
    ForbiddenPair.objects.create(tournament=cup, team_a_id=min(a.pk, b.pk), team_b_id=max(a.pk, b.pk))
    before = tables(cup)
    response = change(client_of, cup, 1, a, b)
    page = response.content.decode()
    assert response.status_code == 400
    assert "These two teams have met already or may not meet" in page
    assert '<li class="org-table has-error" id="table-1">' in page
    assert tables(cup) == before


def test_a_team_against_itself_is_refused(client_of, cup):
    response = change(client_of, cup, 1, team("Ploeg 1"), team("Ploeg 1"))
    assert response.status_code == 400 and "A team cannot play itself" in response.content.decode()


def test_a_rematch_is_refused(client_of, cup):
    for match in Match.objects.filter(round__tournament=cup):
        while match.status != "finished":
            enter_hands(match, 1, ns=60)
            match.refresh_from_db()
    round_pair(tournament=cup)
    response = client_of.post(reverse("ws:round-change", args=[cup.slug, 2]), {
        "match": Match.objects.get(round__number=2, round__tournament=cup, table=1).pk,
        "ns": team("Ploeg 1").pk, "ew": team("Ploeg 5").pk})
    assert response.status_code == 400 and "have met already" in response.content.decode()


def test_no_change_once_a_hand_is_entered(client_of, cup):
    enter_hands(Match.objects.get(round__tournament=cup, table=3), 1)
    page = client_of.get(reverse("ws:round", args=[cup.slug, 1])).content.decode()
    assert 'class="org-change-form"' not in page
    before = tables(cup)
    response = change(client_of, cup, 1, team("Ploeg 1"), team("Ploeg 6"))
    assert response.status_code == 400 and "Round 1 has started" in response.content.decode()
    assert tables(cup) == before


def test_a_team_not_entered_and_an_unknown_round_are_404(client_of, cup):
    assert change(client_of, cup, 1, team("Ploeg 1"), TeamFactory(name="Vreemd")).status_code == 404
    assert client_of.get(reverse("ws:round", args=[cup.slug, 9])).status_code == 404
    assert client_of.post(reverse("ws:round-change", args=[cup.slug, 1]), {"match": "x"}).status_code == 404


def test_the_next_round_button_once_the_round_is_finished(client_of, cup):
    for match in Match.objects.filter(round__tournament=cup):
        while match.status != "finished":
            enter_hands(match, 1, ns=60)
            match.refresh_from_db()
    page = client_of.get(reverse("ws:round", args=[cup.slug, 1])).content.decode()
    assert "Pair round 2" in page and 'class="org-change-form"' not in page
