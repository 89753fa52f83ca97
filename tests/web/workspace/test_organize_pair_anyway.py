"""The dashboard's "Pair anyway": offered after a refusal because the last round is unfinished, and only then."""

import uuid

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.conftest import enter_hands
from tournaments.models import Match, Round, TaskRecord, Tournament
from tournaments.services.rounds import round_pair
from tournaments.selectors.standings import standings_for
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

FORCE_INPUT = '<input type="hidden" name="force" value="1">'


def cup_of(fmt=Tournament.Format.SWISS, teams=8, slug="aalsterse-avond"):
    tournament = TournamentFactory(name="Aalsterse Avond", slug=slug, best_of=1, format=fmt)
    tournament.organizers.add(UserFactory(username=f"orga-{slug}"))
    for i in range(teams):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    return tournament


@pytest.fixture
def cup(db):
    """A Swiss of eight teams, round 1 paired, table 1 played to the end, tables 2 to 4 unfinished."""
    tournament = cup_of()
    rnd = round_pair(tournament=tournament)
    finish(rnd.matches.get(table=1))
    return tournament


def finish(match):
    while match.status != Match.Status.FINISHED:
        enter_hands(match, 1, ns=60)
        match.refresh_from_db()


@pytest.fixture
def orga(client, cup):
    client.force_login(cup.organizers.get())
    return client


def dashboard(client, tournament, query=""):
    return client.get(reverse("ws:tournament", args=[tournament.slug]) + query).content.decode()


def test_the_refusal_offers_pair_anyway_with_what_it_means(orga, cup):
    response = orga.post(reverse("ws:pair", args=[cup.slug]))
    assert response.status_code == 302
    assert response.url == reverse("ws:tournament", args=[cup.slug]) + "?unfinished=1#h-next"
    page = orga.get(response.url).content.decode()
    assert "The last round still has unfinished matches" in page  # the refusal itself
    assert 'id="pair-anyway"' in page and "Pair anyway" in page and FORCE_INPUT in page
    assert ("The 3 unfinished matches of round 1 stay as they are: they can still be played and entered, "
            "and their results count in the standings once they are finished.") in page
    assert "Round 2 is paired now; the teams still playing get a table in it too." in page
    assert "The Swiss pairing uses only the results finished so far." in page
    assert TaskRecord.objects.count() == 0 and Round.objects.filter(tournament=cup).count() == 1


def test_without_a_refusal_the_dashboard_offers_no_pair_anyway(orga, cup):
    page = dashboard(orga, cup)
    assert "Round 1 still has unfinished matches." in page
    assert "Pair anyway" not in page and FORCE_INPUT not in page


def test_pair_anyway_pairs_the_next_round_and_leaves_the_unfinished_matches_as_they_are(
        orga, cup, django_capture_on_commit_callbacks):
    before = dict(Match.objects.filter(round__tournament=cup, round__number=1).values_list("table", "status"))
    with django_capture_on_commit_callbacks(execute=True):
        response = orga.post(reverse("ws:pair", args=[cup.slug]), {"force": "1"})
    task = TaskRecord.objects.get(tournament=cup)
    assert response.url == reverse("ws:pair-task", args=[cup.slug, task.id])
    assert task.params == {"number": 2, "force": True} and task.status == "succeeded"
    assert Match.objects.filter(round__tournament=cup, round__number=2).count() == 4
    after = dict(Match.objects.filter(round__tournament=cup, round__number=1).values_list("table", "status"))
    assert after == before and list(after.values()).count(Match.Status.FINISHED) == 1
    # An unfinished match of round 1, finished now, counts in the standings.
    late = Match.objects.filter(round__tournament=cup, round__number=1).exclude(status="finished").first()
    standings_recompute(tournament=cup)
    played = {r["team"]: r["played"] for r in standings_for(cup)["rows"]}
    assert played[late.ns_id] == 0
    finish(late)
    standings_recompute(tournament=cup)
    played = {r["team"]: r["played"] for r in standings_for(cup)["rows"]}
    assert played[late.ns_id] == 1 and played[late.ew_id] == 1


def test_other_refusals_never_offer_pair_anyway(orga, cup):
    TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=cup, status="pending")
    response = orga.post(reverse("ws:pair", args=[cup.slug]))
    assert response.url == reverse("ws:tournament", args=[cup.slug])
    page = orga.get(response.url).content.decode()
    assert "A pairing of this tournament is already under way" in page
    assert "Pair anyway" not in page and FORCE_INPUT not in page
    # Nor does a forced request get past a pairing under way.
    orga.post(reverse("ws:pair", args=[cup.slug]), {"force": "1"})
    assert TaskRecord.objects.filter(tournament=cup).count() == 1


def test_the_offer_goes_once_the_last_round_is_finished(orga, cup):
    for match in Match.objects.filter(round__tournament=cup):
        finish(match)
    page = dashboard(orga, cup, "?unfinished=1")
    assert "Pair round 2" in page and "Pair anyway" not in page


def test_a_knockout_is_never_offered_pair_anyway_nor_forced(client, django_capture_on_commit_callbacks):
    knockout = cup_of(Tournament.Format.KNOCKOUT, teams=4, slug="beker-van-aalst")
    round_pair(tournament=knockout)
    client.force_login(knockout.organizers.get())
    response = client.post(reverse("ws:pair", args=[knockout.slug]))
    assert response.url == reverse("ws:tournament", args=[knockout.slug])
    page = client.get(response.url).content.decode()
    assert "The last round still has unfinished matches" in page and "Pair anyway" not in page
    assert "Pair anyway" not in dashboard(client, knockout, "?unfinished=1")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("ws:pair", args=[knockout.slug]), {"force": "1"})
    assert TaskRecord.objects.filter(tournament=knockout).count() == 0


def test_the_offer_speaks_the_organizers_language(orga, cup):
    page = orga.get(reverse("ws:tournament", args=[cup.slug]) + "?unfinished=1", HTTP_ACCEPT_LANGUAGE="nl")
    text = page.content.decode()
    assert "Toch koppelen?" in text and "De 3 onafgewerkte wedstrijden van ronde 1 blijven zoals ze zijn" in text
    assert "Ronde 2 wordt nu gekoppeld" in text
    # The sign-out's question (ws-signout.js fills in {n}) is on every signed-in page.
    assert 'data-waiting="Delingen die wachten op verzending: {n}.' in text
