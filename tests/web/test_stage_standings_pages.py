"""A multi-stage event's standings on the public pages (the standings page, its print page, the overview's leaders,
the wall): the current stage's own figures, by pool in a pools stage, then those out after each earlier stage;
never one table mixing stages or pools. A one-stage event's as before."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.web.stage_pages import roeselare_event
from tournaments.models import Standing

pytestmark = pytest.mark.django_db


def headings(html: str) -> list[str]:
    return re.findall(r'<h3 class="standings-group">([^<]*)</h3>', html)


def test_a_running_pools_stages_standings_are_split_by_pool(client):
    roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, close_pools=False)
    html = client.get("/t/roeselare/standings/").content.decode()
    assert headings(html) == ["Stage 1: Pools · Pool 1", "Stage 1: Pools · Pool 2"]
    # Each pool ranked in itself: 1 to 4 twice, never 1 to 8.
    ranks = re.findall(r'<td class="rank rank-col">(\d+)', html)
    assert ranks == ["1", "2", "3", "4", "1", "2", "3", "4"]
    printed = client.get("/t/roeselare/standings/print/").content.decode()
    assert "Stage 1: Pools · Pool 2" in printed
    overview = client.get("/t/roeselare/").content.decode()
    assert overview.count('class="leaders-group"') == 2 and "Stage 1: Pools · Pool 1" in overview


def test_after_the_knockout_started_the_knockout_leads_and_the_others_follow_with_their_pools_figures(client):
    tournament = roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, knockout_rounds_played=1)
    html = client.get("/t/roeselare/standings/").content.decode()
    assert headings(html) == ["Stage 2: Knockout", "Stage 1: Pools"]
    knockout, pools = html.split('<h3 class="standings-group">')[1:]
    out = set(Standing.objects.filter(stage__number=1, tournament=tournament).values_list("team__name", flat=True)) - \
        set(Standing.objects.filter(stage__number=2, tournament=tournament).values_list("team__name", flat=True))
    assert len(out) == 4 and all(name not in knockout and name in pools for name in out)
    assert "Out after this stage" in pools
    overview = client.get("/t/roeselare/").content.decode()
    leaders = overview.split("Leaders")[1].split("Full standings")[0]
    assert "Stage 2: Knockout" in leaders and not any(name in leaders for name in out)
    assert "match point" not in leaders  # a knockout is ranked by how far one went, not by match points
    wall = client.get("/t/roeselare/wall/").content.decode()
    assert headings(wall) == ["Stage 2: Knockout", "Stage 1: Pools"]


def test_the_standings_pages_queries_do_not_grow_with_the_field(client):
    roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, knockout_rounds_played=1, slug="klein")
    roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=1, slug="groot")
    counts = []
    for slug in ("klein", "groot"):
        for page in ("standings/", "", "standings/print/"):
            client.get(f"/t/{slug}/{page}")  # warm the caches alike
        with CaptureQueriesContext(connection) as ctx:
            for page in ("standings/", "", "standings/print/"):
                assert client.get(f"/t/{slug}/{page}").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_a_one_stage_events_standings_have_no_stage_headings(client):
    from tests.factories import EntryFactory, TournamentFactory
    from tournaments.services.standings import standings_recompute

    tournament = TournamentFactory(slug="een", status="running")
    for _ in range(4):
        EntryFactory(tournament=tournament)
    standings_recompute(tournament=tournament)
    html = client.get("/t/een/standings/").content.decode()
    assert headings(html) == [] and 'aria-label="Standings"' in html


def test_an_individual_events_standings_split_the_stages_too(client, django_capture_on_commit_callbacks):
    from tests.api.conftest import client_for
    from tests.api.individual import enter_players, individual_event
    from tests.api.test_stage_events import pair, play
    from tests.factories import UserFactory
    from tournaments.models import Match
    from tournaments.services.standings import standings_recompute

    event = individual_event(name="Stadskampioenschap", format="swiss", rounds=1)
    organizer = UserFactory()
    event.organizers.add(organizer)
    enter_players(event, 12, clubs=3)
    api = client_for(organizer)
    base = f"/api/v1/tournaments/{event.pk}"
    assert api.post(f"{base}/stages/", {"format": "swiss", "rounds": 1,
                                        "previous_qualification": {"kind": "top", "count": 8}},
                    format="json").status_code == 201
    pair(api, event, django_capture_on_commit_callbacks)
    for m in Match.objects.filter(round__stage__number=1):
        play(api, m.pk, True)
    standings_recompute(tournament=event)
    assert api.post(f"{base}/stages/1/close/").status_code == 200
    assert api.post(f"{base}/stages/2/start/").status_code == 200
    standings_recompute(tournament=event)
    html = client.get(f"/t/{event.slug}/standings/").content.decode()
    assert headings(html)[1:] == ["Stage 1: Swiss system"] and headings(html)[0].startswith("Stage 2: ")
    stage_one = html.split('<h3 class="standings-group">')[2]
    assert stage_one.count('<td class="rank rank-col">') == 4  # the four who did not go on
    printed = client.get(f"/t/{event.slug}/standings/print/").content.decode()
    assert "Out after this stage" in printed
    overview = client.get(f"/t/{event.slug}/").content.decode()
    assert overview.count('class="leaders-group"') == 1


def knockout_part(html: str) -> str:
    return html.split('<h3 class="standings-group">Stage 2: Knockout</h3>')[1].split('<h3 class="standings-group">')[0]


def places(part: str) -> list[tuple[str, str]]:
    """The knockout's rows as the page shows them: (seed, how far the team has come)."""
    return re.findall(r'<td class="num">([\d–]+)</td>.*?<td class="ko-where">([^<]*)</td>', part, re.S)


def test_a_knockout_being_played_shows_how_far_each_team_has_come_not_a_ranking_of_zeros(client):
    """During the quarter-finals the knockout's standings were its figures: eight rows of zeros, read as eight teams
    that had lost everything. They say where each team stands in the bracket, with its seed, instead."""
    roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=0)
    html = client.get("/t/roeselare/standings/").content.decode()
    assert headings(html) == ["Stage 2: Knockout", "Stage 1: Pools"]
    knockout = knockout_part(html)
    assert places(knockout) == [(str(seed), "In the quarter-finals") for seed in range(1, 9)]
    assert 'class="num strong">0<' not in knockout and "rank-col" not in knockout  # no figures, no ranks
    assert 'href="/t/roeselare/stages/2/"' in knockout  # the bracket, one click away
    printed = client.get("/t/roeselare/standings/print/").content.decode()
    assert printed.count("In the quarter-finals") == 8
    overview = client.get("/t/roeselare/").content.decode()
    leaders = overview.split("Leaders")[1].split("Full standings")[0]
    assert leaders.count("In the quarter-finals") == 5
    # Each with its seed (the knockout's order is how far one came, then the seed): not ranks out of order.
    assert re.findall(r'<span class="rank"><abbr title="Seed">(\d+)</abbr>', leaders) == ["1", "2", "3", "4", "5"]


def test_after_the_quarter_finals_the_winners_are_in_the_semi_finals_and_the_losers_out(client):
    roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=1, third_place=True)
    html = client.get("/t/roeselare/standings/").content.decode()
    found = places(knockout_part(html))
    assert [where for _seed, where in found] == ["In the semi-finals"] * 4 + ["Out in the quarter-finals"] * 4
    assert sorted(int(seed) for seed, _where in found[:4]) == [1, 2, 3, 4]  # the better seed always wins
    assert html.count('class="ko-out"') == 4
    nl = client.get("/t/roeselare/standings/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "In de halve finales" in nl and "Uitgeschakeld in de kwartfinales" in nl


def test_the_final_played_says_who_won_it_and_third_place_until_the_stage_is_closed(client):
    from tournaments.models import Stage
    from tournaments.services.standings import standings_recompute

    tournament = roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=3,
                                 third_place=True)
    html = client.get("/t/roeselare/standings/").content.decode()
    assert [where for _seed, where in places(knockout_part(html))] == [
        "Won the final", "Lost the final", "Won the match for third place", "Lost the match for third place",
        *["Out in the quarter-finals"] * 4]
    # Closed, the knockout's ranking is final: its figures again, ranked.
    Stage.objects.filter(tournament=tournament, number=2).update(status="closed")
    standings_recompute(tournament=tournament)
    html = client.get("/t/roeselare/standings/").content.decode()
    assert "ko-where" not in html and 'class="rank rank-col">1<' in html


def test_a_one_stage_knockout_event_shows_how_far_each_team_has_come_too(client):
    from tests.web.stage_pages import knockout_event
    from tournaments.services.standings import standings_recompute

    tournament = knockout_event(8, decided=1)
    standings_recompute(tournament=tournament)
    html = client.get("/t/beker/standings/").content.decode()
    assert [where for _seed, where in places(html)] == ["In the semi-finals"] * 4 + ["Out in the quarter-finals"] * 4
    assert 'href="/t/beker/stages/"' in html
