"""A later stage's round on the public site, its print pages and the pages linking to it: each reached through its
stage, a knockout's rounds named as its bracket names them, a match shown with its stage's length; a pending
stage's qualifiers; a pools stage's tables with their pools."""

import re

import pytest
from django.urls import reverse

from tests.web.stage_pages import knockout_event, pools_then_knockout, roeselare_event
from tournaments.models import Match, Stage, Tournament

pytestmark = pytest.mark.django_db


def names_in(tournament, stage: int, number: int) -> set[str]:
    return {name for m in Match.objects.filter(round__tournament=tournament, round__stage__number=stage,
                                               round__number=number).select_related("ns", "ew")
            for name in (m.ns.name, m.ew.name if m.ew else None) if name}


def test_a_later_stages_round_prints_its_own_tables(client):
    tournament = roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, name="Duo", slug="duo")
    Stage.objects.filter(tournament=tournament, number=2).update(best_of=5)
    page = client.get("/t/duo/stages/2/rounds/1/").content.decode()
    for link in ("/t/duo/stages/2/rounds/1/print/", "/t/duo/stages/2/rounds/1.pdf", "/t/duo/stages/2/rounds/1/sheets/"):
        assert f'href="{link}"' in page
    knockout, pools = names_in(tournament, 2, 1), names_in(tournament, 1, 1)
    printed = client.get("/t/duo/stages/2/rounds/1/print/")
    html = printed.content.decode()
    assert printed.status_code == 200 and "Quarter-finals: pairings" in html
    assert all(name in html for name in knockout) and not any(name in html for name in pools - knockout)
    assert "Knockout · best of 5" in html  # the knockout's format and length, not the tournament's (best of 3)
    assert 'href="/t/duo/stages/2/rounds/1/sheets/"' in html
    sheets = client.get("/t/duo/stages/2/rounds/1/sheets/").content.decode()
    links = {f"/t/duo/matches/{pk}/" for pk in Match.objects.filter(
        round__stage__number=2, round__tournament=tournament, ew__isnull=False).values_list("pk", flat=True)}
    assert len(links) == 4 and all(link in sheets for link in links)
    assert "Quarter-finals · Table 1" in sheets and "best of 5 (3 to win)" in sheets
    # Stage 1's round keeps its address, its tables and its length.
    old = client.get("/t/duo/rounds/1/print/").content.decode()
    assert all(name in old for name in pools) and "Round 1: pairings" in old and "best of 3" in old
    assert client.get("/t/duo/stages/2/rounds/2/print/").status_code == 404
    assert client.get("/t/duo/stages/2/rounds/2/sheets/").status_code == 404


def test_a_knockout_match_links_its_stage_round_by_its_name_and_shows_its_stage_length(client):
    tournament = pools_then_knockout(decided=2)  # the final and the match for third place paired
    Stage.objects.filter(tournament=tournament, number=2).update(best_of=5)
    matches = {(m.round.number, m.table): m for m in Match.objects.filter(round__stage__number=2)
               .select_related("round")}
    slug = tournament.slug
    quarter = client.get(reverse("web:match", args=[slug, matches[(1, 1)].pk])).content.decode()
    assert f'<a href="/t/{slug}/stages/2/rounds/1/">Quarter-finals</a>' in quarter
    final = client.get(reverse("web:match", args=[slug, matches[(3, 1)].pk])).content.decode()
    assert f'<a href="/t/{slug}/stages/2/rounds/3/">Final</a>' in final
    third = client.get(reverse("web:match", args=[slug, matches[(3, 2)].pk])).content.decode()
    assert f'<a href="/t/{slug}/stages/2/rounds/3/">Match for third place</a>' in third
    # The team page names and links each of its rounds; the round pages' picker and heading name them too.
    champion = matches[(3, 1)].ns_id
    team = client.get(reverse("web:team", args=[slug, champion])).content.decode()
    assert f'<a href="/t/{slug}/stages/2/rounds/2/">Semi-finals</a>' in team
    assert f'<a href="/t/{slug}/stages/2/rounds/3/">Final</a>' in team
    rounds = client.get(f"/t/{slug}/stages/2/rounds/2/").content.decode()
    assert re.search(r"<h2>Semi-finals <span", rounds) and ">Quarter-finals</a>" in rounds
    # The wall names the round being played as the bracket does.
    assert "<h2>Final <span" in client.get(reverse("web:wall", args=[slug])).content.decode()


def test_a_knockout_match_shows_its_stages_length(client):
    tournament = pools_then_knockout(decided=1)
    Stage.objects.filter(tournament=tournament, number=2).update(best_of=5)
    match = Match.objects.filter(round__stage__number=2, round__number=1, ew__isnull=False).first()
    html = client.get(reverse("web:match", args=[tournament.slug, match.pk])).content.decode()
    assert "best of 5" in html and "best of 3" not in html  # the knockout's length (the event's is 3)
    sheet = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert "best of 5 (3 to win)" in sheet


def test_a_one_stage_knockouts_rounds_are_named_from_its_bracket_at_constant_queries(
        client, django_assert_max_num_queries):
    small = knockout_event(8, decided=1, name="Klein", slug="klein")
    large = knockout_event(64, decided=5, name="Groot", slug="groot")
    # The organizer's number of rounds is not the bracket's: the names follow the bracket.
    Tournament.objects.filter(pk=small.pk).update(rounds=6)
    Stage.objects.filter(tournament=small).update(rounds=6)
    with django_assert_max_num_queries(16) as few:
        html = client.get("/t/klein/rounds/").content.decode()
    assert ">Quarter-finals</a>" in html and "<h2>Semi-finals <span" in html and ">Round 1<" not in html
    with django_assert_max_num_queries(16) as many:
        html = client.get("/t/groot/rounds/").content.decode()
    assert len(few.captured_queries) == len(many.captured_queries)
    assert ">Round 1</a>" in html and ">Round 2</a>" in html and ">Round of 16</a>" in html
    assert "<h2>Final <span" in html


@pytest.fixture
def two_pools_events(db):
    """Two events of pools then a knockout, the pools closed and the knockout not started: 2 pools and 4."""
    return (roeselare_event(teams=8, pools=2, per_pool=1, best_next=2, name="Klein", slug="klein",
                            start_knockout=False),
            roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, name="Groot", slug="groot",
                            start_knockout=False))


def test_a_pending_stage_shows_its_qualifiers(client, two_pools_events, django_assert_max_num_queries):
    with django_assert_max_num_queries(14) as few:
        html = client.get(reverse("web:stage", args=["klein", 2])).content.decode()
    assert html.count("<tr><td class=\"num\">") == 4 and "4 qualified for this stage, by seed." in html
    assert "Place 1 in pool 1" in html and "One of the best of place 2 across the pools (pool " in html
    with django_assert_max_num_queries(14) as many:
        html = client.get(reverse("web:stage", args=["groot", 2])).content.decode()
    assert len(few.captured_queries) == len(many.captured_queries)
    assert html.count("<tr><td class=\"num\">") == 8 and "Place 2 in pool 4" in html


def test_a_pools_stages_round_shows_each_tables_pool(client, two_pools_events, django_assert_max_num_queries):
    with django_assert_max_num_queries(16) as few:
        html = client.get("/t/klein/rounds/1/").content.decode()
    assert html.count("Pool 1</span>") == 2 and html.count("Pool 2</span>") == 2
    with django_assert_max_num_queries(16) as many:
        html = client.get("/t/groot/rounds/1/").content.decode()
    assert len(few.captured_queries) == len(many.captured_queries)
    assert all(html.count(f"Pool {p}</span>") == 2 for p in range(1, 5))
    printed = client.get("/t/groot/rounds/1/print/").content.decode()
    assert printed.count("Pool 3</span>") == 2


def test_no_qualifiers_while_the_stage_before_runs(client):
    tournament = roeselare_event(teams=8, pools=2, per_pool=1, best_next=2, name="Klein", slug="klein",
                                 pools_rounds_played=2)
    html = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "qualified for this stage" not in html and "Qualified as" not in html


def test_an_individual_later_stages_round_has_its_seat_page_door_list_and_player_links(client):
    from tests.individual import make_individual
    from tournaments.models import Round, RoundSeat

    tournament = make_individual(16, drawn=2, minutes=None, slug="kampioen")
    stage = Stage.objects.create(tournament=tournament, number=2, format="tables", rounds=3, status="running")
    Round.objects.filter(tournament=tournament, number=2).update(stage=stage, number=1)  # a semi-final's round 1
    page = client.get("/t/kampioen/stages/2/rounds/1/seat/")
    html = page.content.decode()
    assert page.status_code == 200 and "Stage 2, round 1: where do I sit?" in html
    assert 'href="/t/kampioen/stages/2/rounds/1/"' in html and 'href="/t/kampioen/stages/2/rounds/1/seats/print/"' in html
    assert 'href="/t/kampioen/stages/2/rounds/1/seat/"' in html and ">Round 1</a>" in html  # the picker: both
    door = client.get("/t/kampioen/stages/2/rounds/1/seats/print/").content.decode()
    assert "Stage 2, round 1: where do I sit?" in door
    printed = client.get("/t/kampioen/stages/2/rounds/1/print/").content.decode()
    assert 'href="/t/kampioen/stages/2/rounds/1/seats/print/"' in printed
    sheets = client.get("/t/kampioen/stages/2/rounds/1/sheets/")
    assert sheets.status_code == 200 and "Score sheets: Stage 2, round 1" in sheets.content.decode()
    player = RoundSeat.objects.filter(round__stage=stage, match__isnull=False).first().player
    mine = client.get(reverse("web:player", args=["kampioen", player.pk])).content.decode()
    assert '<a href="/t/kampioen/stages/2/rounds/1/">Stage 2, round 1</a>' in mine
    assert mine.index(">Round 1</a>") < mine.index(">Stage 2, round 1</a>")  # stage by stage


def test_a_bracket_prints_its_own_stages_format_and_match_length(client):
    tournament = roeselare_event(teams=8, pools=2, per_pool=2, best_next=0)
    Stage.objects.filter(tournament=tournament, number=2).update(best_of=5)
    html = client.get("/t/roeselare/stages/2/bracket/print/").content.decode()
    facts = re.search(r'<p class="print-facts">(.*?)</p>', html, re.DOTALL).group(1)
    assert "Knockout" in facts and "best of 5" in facts and "Pools" not in facts, facts


def test_the_match_for_third_place_is_named_on_the_final_rounds_page_and_the_wall(client):
    roeselare_event(teams=8, pools=2, per_pool=2, best_next=0, knockout_rounds_played=1, third_place=True)
    html = client.get("/t/roeselare/stages/2/rounds/2/").content.decode()
    assert html.count("Table 2<span class=\"table-pool\"> · Match for third place</span>") == 1, html
    assert "Table 1<span class=\"table-pool\">" not in html  # the final itself: its table alone
    wall = client.get("/t/roeselare/wall/").content.decode()
    assert wall.count("Match for third place</span>") == 1
