"""The stages on the public pages: the tabs, a knockout's bracket (and its print page), at a constant number of
queries; a one-stage event's pages as before."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.web.conftest import make_tournament
from tests.web.stage_pages import knockout_event, pools_then_knockout

NS = "{http://www.w3.org/2000/svg}"


def bracket_of(html: str) -> ET.Element:
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" id="bracket')
    return ET.fromstring(html[start:html.index("</svg>", start) + len("</svg>")])


def match_boxes(root):
    return [g for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "").split()]


@pytest.mark.django_db
def test_a_one_stage_event_has_no_stages_tab():
    from django.test import Client

    tournament = make_tournament(4)
    html = Client().get(reverse("web:tournament", args=[tournament.slug])).content.decode()
    assert reverse("web:stages", args=[tournament.slug]) not in html


def test_a_knockout_event_shows_its_bracket_tab_and_svg(client, db):
    tournament = knockout_event(8, decided=3, third_place=True)
    overview = client.get(reverse("web:tournament", args=[tournament.slug])).content.decode()
    assert reverse("web:stages", args=[tournament.slug]) in overview and ">Bracket<" in overview
    answer = client.get(reverse("web:stages", args=[tournament.slug]))
    assert answer.status_code == 200
    root = bracket_of(answer.content.decode())
    assert len(match_boxes(root)) == 8  # 4 + 2 + 1 and the match for third place
    assert "Winner: Ploeg 01" in root.find(f"{NS}desc").text
    # The sides link to the teams' pages.
    links = [a.get("href") for a in root.iter(f"{NS}a") if "/teams/" in (a.get("href") or "")]
    assert len(links) == 16


def test_the_stages_as_tabs_and_the_knockout_stage_as_a_bracket(client, db):
    tournament = pools_then_knockout(decided=1)
    html = client.get(reverse("web:stages", args=[tournament.slug])).content.decode()
    # The running stage is shown: the knockout, stage 2; both stages are tabs, the current one marked.
    assert 'aria-current="page"><span class="stage-no">2</span>' in html
    assert reverse("web:stage", args=[tournament.slug, 1]) in html
    assert "Stage 2: Knockout" in html and "Print the bracket" in html
    root = bracket_of(html)
    assert len(match_boxes(root)) == 7  # the match for third place is drawn once the semi-finals are decided
    assert "Being played: Semi-finals." in root.find(f"{NS}desc").text
    pools = client.get(reverse("web:stage", args=[tournament.slug, 1])).content.decode()
    assert "Stage 1: Pools" in pools and "5 pools" in pools
    assert "The first 1 of each pool go on, with the best 3 of place 2 across the pools." in pools
    assert client.get(reverse("web:stage", args=[tournament.slug, 3])).status_code == 404


def test_a_pending_knockout_says_when_its_bracket_comes(client, db):
    tournament = pools_then_knockout(knockout_started=False)
    html = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "The bracket is drawn when the stage starts." in html
    assert client.get(reverse("web:bracket-print", args=[tournament.slug, 1])).status_code == 404  # not a knockout


def test_the_bracket_print_page(client, db):
    tournament = pools_then_knockout(decided=3)
    answer = client.get(reverse("web:bracket-print", args=[tournament.slug, 2]))
    html = answer.content.decode()
    assert answer.status_code == 200 and "print.css" in html
    root = bracket_of(html)
    assert root.get("id") == "bracket-print" and "Winner:" in root.find(f"{NS}desc").text


def test_the_bracket_page_reads_as_many_queries_for_64_entrants_as_for_4(client, db, django_assert_max_num_queries):
    small = knockout_event(4, decided=1, name="Klein", slug="klein")
    large = knockout_event(64, decided=3, name="Groot", slug="groot", playing=2)
    with django_assert_max_num_queries(10) as few:
        client.get(reverse("web:stages", args=[small.slug]))
    with django_assert_max_num_queries(10) as many:
        answer = client.get(reverse("web:stages", args=[large.slug]))
    assert len(few.captured_queries) == len(many.captured_queries)
    assert len(match_boxes(bracket_of(answer.content.decode()))) == 63


def test_the_wall_shows_the_running_knockout_stage_as_a_bracket(client, db):
    tournament = pools_then_knockout(decided=2)
    html = client.get(reverse("web:wall", args=[tournament.slug])).content.decode()
    assert 'data-panel="bracket"' in html and 'id="wall-bracket"' in html
    # The tables panel shows the knockout's round being played (round 3 of stage 2, not stage 1's), named as the
    # bracket names it: the final.
    assert "<h2>Final <span" in html and "Stage 2, round 3" not in html and "<h2>Round 3" not in html


def test_a_one_stage_wall_has_no_bracket_and_reads_no_more(client, db, django_assert_max_num_queries):
    tournament = make_tournament(4)
    with django_assert_max_num_queries(14) as queries:
        html = client.get(reverse("web:wall", args=[tournament.slug])).content.decode()
    assert 'data-panel="bracket"' not in html
    # The number of stages came with the tournament's row: no query of its own.
    assert not [q for q in queries.captured_queries if q["sql"].startswith(('SELECT "tournaments_stage".',
                                                                            'SELECT COUNT(*) AS "__count" FROM "tournaments_stage"'))]


def test_the_wall_draws_a_large_bracket_from_its_last_four_rounds(client, db):
    tournament = knockout_event(64, decided=2, name="Groot", slug="groot")
    html = client.get(reverse("web:wall", args=[tournament.slug])).content.decode()
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" id="wall-bracket"')
    root = ET.fromstring(html[start:html.index("</svg>", start) + len("</svg>")])
    heads = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "bk-head"]
    assert heads == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert len(match_boxes(root)) == 15


def test_the_pools_stage_shows_one_table_per_pool_with_the_qualifiers_marked(client, db):
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(knockout_rounds_played=1)
    html = client.get(reverse("web:stage", args=[tournament.slug, 1])).content.decode()
    assert html.count('<table class="data pool-table">') == 15
    assert "Pool 15" in html
    # The 15 pool winners and the best runner-up went on: marked with ✓ and in words.
    assert html.count('<tr class="qualified">') == 16 and html.count("went on</span>") == 16
    assert "16 went on to the next stage." in html
    ko = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert len(match_boxes(bracket_of(ko))) == 15
    ranking = client.get(reverse("web:event-ranking", args=[tournament.slug])).content.decode()
    # The knockout's teams first; each row's path through the stages.
    assert ranking.count("<tr>") == 60 + 1  # the heading's row and one a team
    assert "Pools: 1 in pool" in ranking and "Knockout (stage 2)" in ranking
    # A pools stage's rank is the rank in the pool (pools of four: 1 to 4), not across the 60 teams.
    import re
    pool_ranks = [int(n) for n in re.findall(r"Pools: (\d+) in pool", ranking)]
    assert len(pool_ranks) == 60 and max(pool_ranks) == 4


def test_the_15_pool_page_reads_as_many_queries_as_the_2_pool_page(client, db, django_assert_max_num_queries):
    from tests.web.stage_pages import roeselare_event

    small = roeselare_event(teams=8, pools=2, best_next=0, per_pool=2, name="Klein", slug="klein",
                            start_knockout=False)
    large = roeselare_event(name="Groot", slug="groot", start_knockout=False)
    with django_assert_max_num_queries(14) as few:
        client.get(reverse("web:stage", args=[small.slug, 1]))
    with django_assert_max_num_queries(14) as many:
        html = client.get(reverse("web:stage", args=[large.slug, 1])).content.decode()
    assert len(few.captured_queries) == len(many.captured_queries)
    assert html.count('<table class="data pool-table">') == 15
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("web:event-ranking", args=[small.slug]))
    with django_assert_max_num_queries(12) as many:
        client.get(reverse("web:event-ranking", args=[large.slug]))
    assert len(few.captured_queries) == len(many.captured_queries)


def test_the_wall_shows_the_pools_of_a_running_pools_stage(client, db):
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(pools_rounds_played=2)
    html = client.get(reverse("web:wall", args=[tournament.slug])).content.decode()
    assert 'data-panel="pools"' in html and html.count('<table class="data pool-table">') == 15
    assert 'data-panel="bracket"' not in html
    assert 'data-panel="standings"' not in html  # the pools are the standings: not shown twice (a walk-through)


def test_a_one_stage_pools_event_has_a_pools_tab_with_a_table_a_pool(client, db):
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(teams=12, pools=3, per_pool=1, best_next=1, pools_rounds_played=3,
                                 close_pools=False, name="Poules", slug="poules")
    tournament.stages.filter(number=2).delete()  # one stage: the pools alone
    tournament.stages.filter(number=1).update(rule="", rule_per_pool=0, rule_best_next=0)
    overview = client.get(reverse("web:tournament", args=[tournament.slug])).content.decode()
    assert reverse("web:stages", args=[tournament.slug]) + '">Pools<' in overview
    html = client.get(reverse("web:stages", args=[tournament.slug])).content.decode()
    assert html.count('<table class="data pool-table">') == 3
    wall = client.get(reverse("web:wall", args=[tournament.slug])).content.decode()
    assert 'data-panel="pools"' in wall


def test_the_bracket_says_the_winner_and_third_place_above_it(client, db):
    """A phone reads the final only by scrolling the bracket sideways: its winner is said above it."""
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, knockout_rounds_played=1,
                                 name="Klein", slug="klein", third_place=True)
    ko = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "Winner:" not in ko  # the final is not played yet
    from tests.tournaments.test_rounds_service import finish_round
    from tournaments.models import Round
    final = Round.objects.get(stage__tournament=tournament, stage__number=2, number=2)
    finish_round(final, lambda m: "ns")
    ko = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    winner = final.matches.get(table=1).ns.name
    third = final.matches.get(table=2).ns.name
    assert f"Winner: {winner}." in ko and f"Third place: {third}." in ko
    assert ko.index("Winner:") < ko.index('class="bracket-scroll"')


def test_the_bracket_writes_a_walkover_where_a_team_withdrew(client, db):
    from tests.tournaments.test_stages_knockout_extras import knockout_after_pools
    from tests.tournaments.test_stages_life import withdraw
    from tournaments.services.rounds import round_pair

    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2)
    first = round_pair(tournament=tournament).matches.order_by("table").first()
    html = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "w/o" not in html
    withdraw(tournament, first.ns_id)
    html = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "w/o" in html and "goes on by a walkover" in html


def test_the_last_stage_played_out_awaits_its_closing_on_the_public_pages(client, db):
    """Between the final's result and the organizers' "Close stage 2", the pages say the matches are all played and
    the results wait for the closing, not that the stage is running; once closed, as before."""
    from tournaments.models import Stage, Tournament

    tournament = pools_then_knockout(decided=3)  # the final and the match for third place played
    slug = tournament.slug
    urls = [reverse("web:tournament", args=[slug]), reverse("web:stages", args=[slug]),
            reverse("web:stage", args=[slug, 2]), reverse("web:event-ranking", args=[slug])]
    for url in urls:
        html = client.get(url).content.decode()
        assert ("Every match of the last stage is played. The organizers still have to close it: the results are "
                "final from then on.") in html, url
        assert 'class="badge status-played">All played<' in html and "Running" not in html, url
    pools = client.get(reverse("web:stage", args=[slug, 1])).content.decode()
    assert "Every match of the last stage" not in pools  # stage 1's page: its tab and the header say it
    assert '<span class="badge status-played">All played</span></a>' in pools
    nl = client.get(reverse("web:stage", args=[slug, 2]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Alle wedstrijden van de laatste fase zijn gespeeld." in nl and ">Alles gespeeld<" in nl
    # Closed: the event is finished, as before.
    Stage.objects.filter(tournament=tournament, number=2).update(status="closed")
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    for url in urls:
        html = client.get(url).content.decode()
        assert "Every match of the last stage" not in html and "All played" not in html, url


def test_the_last_stage_runs_while_its_final_is_played(client, db):
    tournament = pools_then_knockout(decided=2)  # the final paired, not played
    for url in (reverse("web:tournament", args=[tournament.slug]), reverse("web:stage", args=[tournament.slug, 2])):
        html = client.get(url).content.decode()
        assert "Running" in html and "All played" not in html and "Every match of the last stage" not in html
