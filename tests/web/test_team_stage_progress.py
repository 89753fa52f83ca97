"""A team's page in a multi-stage event: its match points and rank after each round, stage by stage (round numbers,
points and ranks count per stage: stage 2's round 1 is not stage 1's); a one-stage event's page as before."""

import re

import pytest
from django.urls import reverse

from tests.web.stage_pages import roeselare_event
from tests.web.test_individual_pages import visible
from tournaments.models import Match, StageEntrant

pytestmark = pytest.mark.django_db


def progress(html: str) -> list[dict]:
    """Each stage's progress section: its heading, its table's round labels, match points and ranks."""
    out = []
    for section in re.findall(r'<section class="stage-progress".*?</section>', html, flags=re.DOTALL):
        heading = re.search(r"<h3 [^>]*>([^<]+)</h3>", section).group(1)
        labels = re.findall(r'<th scope="col" class="num">([^<]+)</th>', section)
        body = section.split("<tbody>")[1]
        cells = re.findall(r"<tr><th scope=\"row\">[^<]+</th>(.*?)</tr>", body, flags=re.DOTALL)
        points, ranks = (re.findall(r'<td class="num">([^<]+)</td>', row) for row in cells)
        out.append({"heading": heading, "labels": labels, "points": points, "ranks": ranks,
                    "charts": section.count("<svg")})
    return out


def test_a_teams_progress_is_charted_stage_by_stage(client):
    # 16 teams in 4 pools (3 rounds), the first two of each to a knockout of 8 whose quarter-finals are played.
    tournament = roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=1,
                                 name="Duo", slug="duo")
    quarter = Match.objects.filter(round__stage__tournament=tournament, round__stage__number=2, round__number=1,
                                   ew__isnull=False).order_by("table").first()
    winner = quarter.ns_id if quarter.winner == "ns" else quarter.ew_id
    html = client.get(reverse("web:team", args=["duo", winner])).content.decode()
    stages = progress(html)
    assert [s["heading"] for s in stages] == ["Stage 1: Pools", "Stage 2: Knockout"]
    pools, knockout = stages
    # The pools: its three rounds, the rank in the pool (a qualifier: first or second of four).
    assert pools["labels"] == ["1", "2", "3"] and pools["charts"] == 2
    assert int(pools["ranks"][-1]) in (1, 2) and all(1 <= int(r) <= 4 for r in pools["ranks"])
    assert [int(p) for p in pools["points"]] == sorted(int(p) for p in pools["points"])
    # The knockout counts from its own round 1 (no pools' points carried): the quarter-final won, the semi-final
    # paired and not played yet; its rounds named as its bracket names them.
    assert knockout["labels"] == ["Quarter-finals", "Semi-finals"] and knockout["charts"] == 2
    assert knockout["points"] == ["2", "2"]
    assert "Rank in the pool after each round" in visible(html) and "Rank after each round" in visible(html)
    # A team knocked out in the quarter-finals still has both stages; a team that did not qualify, its pools alone.
    loser = quarter.ew_id if winner == quarter.ns_id else quarter.ns_id
    beaten = progress(client.get(reverse("web:team", args=["duo", loser])).content.decode())
    assert [s["heading"] for s in beaten] == ["Stage 1: Pools", "Stage 2: Knockout"]
    assert beaten[1]["points"] == ["0", "0"]
    went_on = set(StageEntrant.objects.filter(stage__tournament=tournament, stage__number=2)
                  .values_list("entry__team_id", flat=True))
    out = tournament.entries.exclude(team_id__in=went_on).first().team_id
    alone = progress(client.get(reverse("web:team", args=["duo", out])).content.decode())
    assert [s["heading"] for s in alone] == ["Stage 1: Pools"] and int(alone[0]["ranks"][-1]) in (3, 4)


def test_a_stage_of_one_round_so_far_has_its_table_and_no_chart(client):
    tournament = roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, name="Klein", slug="klein")
    team = Match.objects.filter(round__stage__tournament=tournament, round__stage__number=2).first().ns_id
    stages = progress(client.get(reverse("web:team", args=["klein", team])).content.decode())
    assert [(s["heading"], s["charts"], s["labels"]) for s in stages] == [
        ("Stage 1: Pools", 2, ["1", "2", "3"]), ("Stage 2: Knockout", 0, ["Semi-finals"])]
    assert stages[1]["points"] == ["0"]


def test_a_one_stage_events_team_page_keeps_its_single_progress(client, tournament):
    match = Match.objects.filter(round__tournament=tournament, round__number=1, ew__isnull=False).first()
    html = client.get(reverse("web:team", args=[tournament.slug, match.ns_id])).content.decode()
    assert 'class="stage-progress"' not in html
    assert '<section class="grid-2" aria-label="Progress">' in html and "Rank after each round" in html
