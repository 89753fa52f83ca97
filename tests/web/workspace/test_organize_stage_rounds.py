"""The workspace's rounds of a multi-stage event: round numbers count per stage, so a later stage's round is
reached with ``?stage=`` (``/rounds/<n>/`` alone is stage 1's), named by its stage ("Stage 2, round 1", a
knockout's "Semi-finals"), and the dashboard pairs
the running stage's next round and says when a stage is played out."""

import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.test_rounds_service import finish_round
from tests.tournaments.test_stages_close_start import by_seed, play_stage, pools_event
from tournaments.models import Match, Round, TaskRecord
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def pools_then_knockout(client, *, close=True):
    """Eight teams in two pools of four, played (the stronger seed wins); the first two of each pool in a
    knockout of four, started (its round 1 paired) unless ``close`` is false."""
    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    play_stage(tournament, 1, by_seed(teams))
    if close:
        stage_close(tournament=tournament, number=1, user=user)
        stage_start(tournament=tournament, number=2, user=user)
        if not Round.objects.filter(stage__tournament=tournament, stage__number=2).exists():
            round_pair(tournament=tournament)
    tournament.organizers.add(user)
    client.force_login(user)
    return tournament, teams


def page(client, name, tournament, *args, query=""):
    response = client.get(reverse(name, args=[tournament.slug, *args]) + query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_two_rounds_numbered_1_each_have_their_page(client):
    tournament, _ = pools_then_knockout(client)
    assert Round.objects.filter(tournament=tournament, number=1).count() == 2  # stage 1's and stage 2's
    first = page(client, "ws:round", tournament, 1)
    assert "Semi-finals" in first  # stage 2's round 1 in the picker (a knockout of four), linked with its stage
    assert f'href="/my/t/{tournament.slug}/rounds/1/?stage=2"' in first
    knockout = page(client, "ws:round", tournament, 1, query="?stage=2")
    assert "<title>Semi-finals" in knockout
    knockout_teams = set(Match.objects.filter(round__stage__number=2, round__tournament=tournament)
                         .values_list("ns__name", flat=True))
    assert all(name in knockout for name in knockout_teams)
    # Its public page is the stage's, not stage 1's round 1.
    assert f'/t/{tournament.slug}/stages/2/rounds/1/' in knockout
    for query in ("?stage=x", "?stage=3"):
        assert client.get(reverse("ws:round", args=[tournament.slug, 1]) + query).status_code == 404


def test_a_knockouts_page_lists_no_pool_team_as_at_no_table(client):
    tournament, _ = pools_then_knockout(client)
    knockout = page(client, "ws:round", tournament, 1, query="?stage=2")
    assert "At no table" not in knockout  # the teams the pools left out are not this stage's


def test_the_dashboard_pairs_the_running_stages_next_round(client):
    tournament, teams = pools_then_knockout(client)
    dashboard = page(client, "ws:tournament", tournament)
    assert "Pair round 4" not in dashboard
    assert "Stage 2, round 1 still has unfinished matches." in dashboard
    assert "Pair stage 2, round 2" in dashboard
    assert f'href="/my/t/{tournament.slug}/rounds/1/?stage=2"' in dashboard
    listed = dashboard[dashboard.index('id="h-rounds"'):]
    assert listed.index("Round 3") < listed.index("Semi-finals")  # stage by stage


def test_a_played_stage_points_to_the_stages_page(client):
    tournament, _ = pools_then_knockout(client, close=False)
    dashboard = page(client, "ws:tournament", tournament)
    assert "Stage 1 is played: every round is finished." in dashboard
    assert "Pair round 4" not in dashboard
    last = page(client, "ws:round", tournament, 3)
    assert "Stage 1 is played: close it on the Stages page." in last
    assert "Pair round 4" not in last


def test_the_final_played_offers_no_next_round(client):
    tournament, teams = pools_then_knockout(client)
    pick = by_seed(teams)
    while True:
        rnd = Round.objects.filter(stage__tournament=tournament, stage__number=2).order_by("-number").first()
        if rnd.matches.exclude(status=Match.Status.FINISHED).exists():
            finish_round(rnd, pick)
            continue
        if rnd.matches.count() <= 1:
            break
        round_pair(tournament=tournament)
    final = page(client, "ws:round", tournament, rnd.number, query="?stage=2")
    assert "Pair stage 2" not in final
    dashboard = page(client, "ws:tournament", tournament)
    assert "Pair stage 2" not in dashboard
    assert "Stage 2, the last, is played: close it on the Stages page to finish the event." in dashboard


def test_changes_and_publication_come_back_to_the_stages_round(client):
    tournament, _ = pools_then_knockout(client)
    rnd = Round.objects.get(stage__tournament=tournament, stage__number=2, number=1)
    Round.objects.filter(pk=rnd.pk).update(published_at=None)
    response = client.post(reverse("ws:round-publish", args=[tournament.slug, 1]) + "?stage=2")
    assert response.status_code == 302
    assert response.url == f"/my/t/{tournament.slug}/rounds/1/?stage=2"
    rnd.refresh_from_db()
    assert rnd.published_at is not None
    stage_one = Round.objects.get(stage__tournament=tournament, stage__number=1, number=1)
    assert stage_one.published_at is not None


def test_the_pairings_progress_leads_to_the_stages_round(client):
    tournament, _ = pools_then_knockout(client)
    rnd = Round.objects.get(stage__tournament=tournament, stage__number=2, number=1)
    record = TaskRecord.objects.create(id=uuid.uuid4(), kind=TaskRecord.Kind.ROUND_PAIR, tournament=tournament,
                                       status=TaskRecord.Status.SUCCEEDED,
                                       result={"ok": True, "round": 1, "round_id": rnd.pk})
    response = client.get(reverse("ws:pair-task", args=[tournament.slug, record.pk]))
    assert response.status_code == 302
    assert response.url == f"/my/t/{tournament.slug}/rounds/1/?stage=2"
