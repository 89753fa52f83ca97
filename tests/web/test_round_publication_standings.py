"""Rounds published on purpose (issue 28) and the public standings: a round paired (or drawn) before its publication
moves neither the public standings nor their ETags (the page, its live region, the wall, the API), even after the
standings' recompute that follows the pairing: its bye (an individual event's sit-out) counts from its publication
on, which changes them."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory
from tests.web.conftest import enter_hands
from tournaments.models import Match, Round, Standing, StandingsChange, StandingsSnapshot, Tournament
from tournaments.services.publication import round_publish
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def play(rnd: Round) -> None:
    for match in rnd.matches.exclude(ns__isnull=False, ew__isnull=True):
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            enter_hands(Match.objects.get(pk=match.pk), 1, ns=60)


def recompute(tournament, capture) -> None:
    """The standings' recompute the pairing queues, run now (the stamps replaced as at its commit)."""
    with capture(execute=True):
        standings_recompute(tournament=Tournament.objects.get(pk=tournament.pk))


@pytest.fixture
def teams_event(django_capture_on_commit_callbacks):
    """Five teams (a bye each round), round 1 played and published; the event publishes on purpose from now on."""
    tournament = TournamentFactory(name="Oneven Beker", slug="oneven-beker", best_of=1, public=True)
    for i in range(5):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    play(round_pair(tournament=tournament))
    Tournament.objects.filter(pk=tournament.pk).update(auto_publish=False)
    recompute(tournament, django_capture_on_commit_callbacks)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def players_event(django_capture_on_commit_callbacks):
    """Nine players drawn to two tables (one sits out, scoring a fixed 2 match points), round 1 played."""
    from tests.web.workspace.individual import individual_event

    tournament = individual_event(9, minutes=None, public=True)
    Tournament.objects.filter(pk=tournament.pk).update(
        sit_out_score="fixed", sit_out_fixed={"match_points": 2, "games_won": 1, "points_for": 40})
    tournament = Tournament.objects.get(pk=tournament.pk)
    play(round_pair(tournament=tournament))
    Tournament.objects.filter(pk=tournament.pk).update(auto_publish=False)
    recompute(tournament, django_capture_on_commit_callbacks)
    return Tournament.objects.get(pk=tournament.pk)


def urls(tournament) -> dict[str, str]:
    return {"page": reverse("web:standings", args=[tournament.slug]),
            "region": reverse("web:live-region", args=["standings", tournament.pk]),
            "wall": reverse("web:live-region", args=["wall", tournament.pk]),
            "api": f"/api/v1/tournaments/{tournament.pk}/standings/"}


def answers(client, tournament) -> dict:
    client.get(urls(tournament)["page"])  # the CSRF cookie a first page sets (its tag names it)
    return {kind: client.get(url) for kind, url in urls(tournament).items()}


def the_sitting_out(rnd: Round) -> tuple[str, int]:
    """The team with the round's bye, or the player sitting it out: (the Standing field, its id)."""
    bye = rnd.matches.filter(ew__isnull=True, ns__isnull=False).first()
    if bye is not None:
        return "team_id", bye.ns_id
    return "player_id", rnd.seats.get(match__isnull=True).player_id


@pytest.mark.parametrize("event", ["teams_event", "players_event"])
def test_the_public_standings_wait_for_the_rounds_publication(client, request, event,
                                                              django_capture_on_commit_callbacks):
    tournament = request.getfixturevalue(event)
    before = answers(client, tournament)
    assert all(a.status_code == 200 for a in before.values())
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):  # the recompute the pairing queues runs (in-process)
        second = round_pair(tournament=tournament)
        field, who = the_sitting_out(second)
        points = Standing.objects.get(tournament=tournament, **{field: who}).match_points
    assert second.number == 2 and not second.published
    assert not StandingsChange.objects.filter(tournament_id=tournament.pk).exists()  # it ran: its changes taken

    assert Standing.objects.get(tournament=tournament, **{field: who}).match_points == points  # no bye yet
    kept = StandingsSnapshot.objects.get(tournament=tournament)
    assert (kept.computed_at, kept.generation) == (snapshot.computed_at, snapshot.generation)  # nothing written
    for kind, url in urls(tournament).items():
        answer = client.get(url, HTTP_IF_NONE_MATCH=before[kind]["ETag"])
        assert answer.status_code == 304, kind
    again = answers(client, tournament)
    assert again["api"].json() == before["api"].json()
    assert again["region"].content == before["region"].content

    with django_capture_on_commit_callbacks(execute=True):  # and the recompute its publication queues
        round_publish(round=second)
    assert not StandingsChange.objects.filter(tournament_id=tournament.pk).exists()
    assert Standing.objects.get(tournament=tournament, **{field: who}).match_points == points + 2
    for kind, url in urls(tournament).items():
        answer = client.get(url, HTTP_IF_NONE_MATCH=before[kind]["ETag"])
        assert answer.status_code == 200, kind
    assert client.get(urls(tournament)["api"]).json() != before["api"].json()


def test_a_published_rounds_change_that_moves_no_row_still_moves_the_standings(
        client, django_capture_on_commit_callbacks):
    """Only what came from rounds not published yet is kept from the public: a result of a published round made
    final (its confirmation) moves no row, but its mark (``unconfirmed``) goes: the standings are written again."""
    from tests.factories import UserFactory
    from tournaments.services.confirmation import result_settle

    tournament = TournamentFactory(name="Bevestigde Beker", slug="bevestigde-beker", best_of=1, public=True,
                                   confirmation="opponents", unconfirmed="count")
    director = UserFactory(username="arbiter")
    tournament.organizers.add(director)
    for i in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Team {i + 1}"), seed=i + 1)
    first = round_pair(tournament=tournament)
    play(first)
    recompute(tournament, django_capture_on_commit_callbacks)
    before = client.get(urls(tournament)["api"])
    assert sum(r["unconfirmed"] for r in before.json()["rows"]) == 4  # two results entered, two teams each
    match = first.matches.order_by("table").first()
    with django_capture_on_commit_callbacks(execute=True):
        result_settle(match_id=match.pk, user=director, reason="seen on the sheet")
    rows = list(Standing.objects.filter(tournament=tournament).values_list("team_id", "match_points"))
    recompute(tournament, django_capture_on_commit_callbacks)
    assert list(Standing.objects.filter(tournament=tournament).values_list("team_id", "match_points")) == rows
    after = client.get(urls(tournament)["api"], HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and sum(r["unconfirmed"] for r in after.json()["rows"]) == 2
