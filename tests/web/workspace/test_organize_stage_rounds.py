"""The workspace's rounds of a multi-stage event: round numbers count per stage, so a later stage's round is
reached with ``?stage=`` (``/rounds/<n>/`` alone is stage 1's), named by its stage ("Stage 2, round 1", a
knockout's "Semi-finals": in the dashboard's and the round page's sentences and buttons too), the dashboard pairs
the running stage's next round and says when a stage is played out, and its facts are each stage's."""

import uuid

import pytest
from django.urls import reverse

from tests.tournaments.test_rounds_service import finish_round
from tests.tournaments.test_stages_close_start import by_seed, play_stage, pools_event
from tournaments.models import Match, Round, TaskRecord, Tournament
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


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
    # The knockout's rounds by the names the list beside gives them: its round 1 of 2 is the semi-finals.
    assert "The semi-finals still have unfinished matches." in dashboard
    assert "Stage 2, round 1" not in dashboard
    assert "Pair the final" in dashboard and "Pair stage 2, round 2" not in dashboard
    assert f'href="/my/t/{tournament.slug}/rounds/1/?stage=2"' in dashboard
    listed = dashboard[dashboard.index('id="h-rounds"'):]
    assert listed.index("Round 3") < listed.index("Semi-finals")  # stage by stage


def facts_of(dashboard: str) -> str:
    return dashboard[dashboard.index('id="h-state"'):dashboard.index('class="org-actions"')]


def test_the_dashboards_facts_are_each_stages_with_the_running_one_marked(client):
    tournament, _ = pools_then_knockout(client)
    facts = facts_of(page(client, "ws:tournament", tournament))
    # Not stage 1's facts as the event's ("Pools, 3 rounds") while the knockout runs: a line a stage.
    assert "Pools, 3 rounds</dd>" not in facts
    first = facts[facts.index("Stage 1: Pools"):facts.index("</li>", facts.index("Stage 1: Pools"))]
    second = facts[facts.index("Stage 2: Knockout"):facts.index("</li>", facts.index("Stage 2: Knockout"))]
    assert "3 rounds" in first and "Closed" in first
    assert "2 rounds" in second and "best of" in second and "Running" in second  # its bracket's 2 rounds
    current = facts[facts.index('aria-current="step"'):]
    assert current.index("Stage 2: Knockout") < current.index("</li>")  # the stage being played is marked


def test_a_one_stage_dashboards_facts_stay_as_they_were(client):
    from tests.factories import TournamentFactory, UserFactory

    tournament = TournamentFactory(format="swiss", rounds=5)
    user = UserFactory()
    tournament.organizers.add(user)
    client.force_login(user)
    facts = facts_of(page(client, "ws:tournament", tournament))
    assert "<dt>Format</dt><dd>Swiss system, 5 rounds</dd>" in facts and "org-stage-lines" not in facts


def finish_semi_finals(tournament, teams):
    """The semi-finals played, their results entered and waiting for the opponents' confirmation: the final is not
    made before they count, so the semi-finals are the knockout's last round, finished."""
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", unconfirmed="wait")
    semi = Round.objects.get(stage__tournament=tournament, stage__number=2, number=1)
    semi.matches.update(result_status="entered")
    finish_round(semi, by_seed(teams))
    assert not Round.objects.filter(stage__tournament=tournament, stage__number=2, number=2).exists()
    return semi


def test_the_round_page_offers_to_pair_the_knockouts_next_round_by_its_name(client):
    tournament, teams = pools_then_knockout(client)
    finish_semi_finals(tournament, teams)
    semi = page(client, "ws:round", tournament, 1, query="?stage=2")
    button = semi[semi.index('class="pair-form"'):]
    assert "Pair the final" in button[:button.index("</form>")]
    assert "Pair stage 2" not in semi
    dashboard = page(client, "ws:tournament", tournament)  # the dashboard's button says the same
    assert "Pair the final" in dashboard and "still ha" not in dashboard


def test_the_final_being_played_offers_no_round_after_it(client):
    tournament, teams = pools_then_knockout(client)
    finish_round(Round.objects.get(stage__tournament=tournament, stage__number=2, number=1), by_seed(teams))
    assert Round.objects.filter(stage__tournament=tournament, stage__number=2, number=2).exists()  # the final
    dashboard = page(client, "ws:tournament", tournament)
    assert "The final still has unfinished matches." in dashboard
    assert "Pair stage 2, round 3" not in dashboard and 'class="pair-form"' not in dashboard


def test_the_knockouts_round_names_read_naturally_in_dutch(client):
    tournament, teams = pools_then_knockout(client)
    nl = {"HTTP_ACCEPT_LANGUAGE": "nl"}
    dashboard = client.get(reverse("ws:tournament", args=[tournament.slug]), **nl).content.decode()
    assert "De halve finales hebben nog onafgewerkte wedstrijden." in dashboard
    assert "De finale koppelen" in dashboard and "Fase 2: Knock-out" in dashboard
    finish_semi_finals(tournament, teams)
    semi = client.get(reverse("ws:round", args=[tournament.slug, 1]) + "?stage=2", **nl).content.decode()
    assert "De finale koppelen" in semi and "<title>Halve finales" in semi


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
    said = client.get(response.url).content.decode()  # the round named as its page names it
    assert "The semi-finals are published: everyone who follows the event sees them now." in said
    assert "Round 1 is published" not in said
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


def test_a_pools_stages_round_says_each_tables_pool(client):
    tournament, _ = pools_then_knockout(client)
    pools = page(client, "ws:round", tournament, 1)
    # Two pools of four: two tables each, each table with its pool as the public page says it.
    assert pools.count('<span class="table-pool"> · Pool 1</span>') == 2
    assert pools.count('<span class="table-pool"> · Pool 2</span>') == 2
    knockout = page(client, "ws:round", tournament, 1, query="?stage=2")
    assert 'class="table-pool"' not in knockout


def test_the_results_csv_says_each_matchs_stage_and_round_name_in_its_last_columns(client):
    import csv
    import io

    tournament, _ = pools_then_knockout(client)
    text = client.get(reverse("ws:export-results", args=[tournament.slug])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["Round", "Table"] and rows[0][-2:] == ["Stage", "Round name"]
    stages = [r[-2] for r in rows[1:]]
    assert set(stages) == {"1 · Pools", "2 · Knockout"}
    assert stages == sorted(stages)  # stage by stage: stage 2's round 1 after stage 1's rounds
    assert {r[-1] for r in rows[1:] if r[-2] == "2 · Knockout"} == {"Semi-finals"}
    assert {r[-1] for r in rows[1:] if r[-2] == "1 · Pools"} == {"Round 1", "Round 2", "Round 3"}


def test_the_score_list_shows_the_running_stages_rounds_first_by_their_names(client):
    import re

    tournament, _ = pools_then_knockout(client)
    html = page(client, "ws:score", tournament)
    headings = [re.sub(r"\s+", " ", h).strip() for h in re.findall(r"<h2>([^<]*)<span", html)]
    assert headings == ["Semi-finals", "Round 3", "Round 2", "Round 1"]


def test_the_entry_page_names_a_knockouts_round(client):
    tournament, _ = pools_then_knockout(client)
    match = Match.objects.filter(round__tournament=tournament, round__stage__number=2).order_by("table").first()
    html = page(client, "ws:score-match", tournament, match.pk)
    assert '<h1 class="entry-h1">Table 1 · Semi-finals</h1>' in html
    pools = Match.objects.filter(round__tournament=tournament, round__stage__number=1, round__number=2).first()
    assert f'<h1 class="entry-h1">Table {pools.table} · Round 2</h1>' in page(client, "ws:score-match", tournament,
                                                                              pools.pk)
