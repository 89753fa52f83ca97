"""Prints of an individual event: the door's alphabetical list on A4, a score sheet per table of four with its whole
cycle (partnerships, seats, the seated scorer, the table code for organizers only), the pairings, the standings."""

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.individual import draw_round, make_individual
from tests.web.test_individual_pages import visible
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(f"web:{name}", args=[tournament.slug, *args])


def page(client, address) -> str:
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


@pytest.fixture
def kaarting(db):
    return make_individual(22, drawn=1)


def test_the_door_list_is_every_player_of_the_round_alphabetically_by_initial_with_table_and_seat(client, kaarting):
    body = page(client, url("round-seats-print", kaarting, 1))
    names = re.findall(r'<span class="d-name">([^<]+?)(?: <span|</span>)', body)
    assert len(names) == 22 and names == sorted(names, key=str.casefold)
    letters = re.findall(r'<h2 class="door-letter">(.)</h2>', body)
    assert letters == sorted(set(letters)) and letters[0] == "A"
    words = visible(body)
    assert "Round 1: where do I sit?" in words and "22 players in alphabetical order" in words
    assert "An Peeters De Zwarte Kat 1 N" in words and "Tom Peeters sits out" in words
    assert "<svg" in body and "http://testserver" + url("seat", kaarting) in words  # the QR code and its address
    for code in Match.objects.filter(round__tournament=kaarting).values_list("table_code", flat=True):
        assert code not in body


def test_the_door_list_reads_as_many_queries_for_500_players_as_for_22(client, db, django_assert_max_num_queries):
    counts = []
    for tournament in (make_individual(22, slug="klein", name="Klein"),
                       make_individual(500, slug="groot", name="Groot")):
        with django_assert_max_num_queries(8) as queries:
            page(client, url("round-seats-print", tournament, 1))
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_the_door_list_as_a_pdf(client, kaarting):
    response = client.get(url("round-seats-pdf", kaarting, 1))
    if response.status_code == 503:
        pytest.skip("WeasyPrint cannot load here")
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert 'filename="kaarting-round-1-seats.pdf"' in response["Content-Disposition"]


def test_a_tables_sheet_holds_the_whole_cycle_with_the_seated_scorer(client, kaarting):
    body = page(client, url("round-sheets", kaarting, 1))
    assert body.count('<article class="sheet indiv-sheet">') == 5  # one a table; the sit-outs have none
    first = visible(body.split('<article class="sheet indiv-sheet">')[1])
    assert "Table 1 · rounds 1–3" in first
    assert "A An Peeters #1 De Zwarte Kat B Jan Claes #2 Café Sportwereld" in first
    assert "A stays seated at N in every round and keeps the score" in first
    assert "Round 1: A+B v C+D" in first and "Round 2: A+C v B+D" in first and "Round 3: A+D v B+C" in first
    assert "A An Peeters (N) & B Jan Claes (S) v C Piet Janssens (E) & D Marie Maes (W)" in first
    assert "A An Peeters (N) & C Piet Janssens (S) v B Jan Claes (E) & D Marie Maes (W)" in first
    assert "Points A+B Points C+D Total A+B Total C+D" in first
    assert first.count("Table code") == 3


def test_table_codes_are_printed_for_the_events_organizers_and_scorekeepers_only(client, kaarting):
    draw_round(kaarting, 2)
    codes = list(Match.objects.filter(round__tournament=kaarting).values_list("table_code", flat=True))
    public = page(client, url("round-sheets", kaarting, 2))
    assert not any(code in public for code in codes)
    assert "Table codes are printed only for the event's organizers and scorekeepers" in visible(public)
    keeper = UserFactory(username="keeper")
    kaarting.scorekeepers.add(keeper)
    client.force_login(keeper)
    sheets = page(client, url("round-sheets", kaarting, 2))
    first = sheets.split('<article class="sheet indiv-sheet">')[1]
    assert re.findall(r'<span class="code-box">([^<]*)</span>', first) == ["T1001", "T2001", ""]  # round 3 not drawn
    assert "Table codes are printed only" not in sheets


def test_a_matchs_sheet_is_its_tables_cycle(client, kaarting):
    match = Match.objects.get(round__tournament=kaarting, table=3)
    body = page(client, url("match-sheet", kaarting, match.pk))
    assert body.count('<article class="sheet indiv-sheet">') == 1 and "Table 3 · rounds 1–3" in visible(body)
    response = client.get(url("match-sheet-pdf", kaarting, match.pk))
    if response.status_code != 503:
        assert 'filename="kaarting-round-1-table-3.pdf"' in response["Content-Disposition"]


def test_a_swiss_events_sheet_is_its_round_alone_with_room_for_more_deals(client, db):
    swiss = make_individual(8, format="swiss", slug="zwitsers")
    words = visible(page(client, url("round-sheets", swiss, 1)))
    assert "Round 1 · Table 1" in words and "Round 2:" not in words and "A sits at N and keeps the score." in words
    assert " 34 " in words  # the grid's last deal


def test_each_table_of_four_prints_on_one_a4_page(client, kaarting):
    pytest.importorskip("weasyprint")
    from weasyprint import HTML

    from web.print_views import _local_fetcher

    html = page(client, url("round-sheets", kaarting, 1))
    try:
        rendered = HTML(string=html, base_url="http://testserver/",
                        url_fetcher=_local_fetcher("http://testserver/")).render()
    except OSError as exc:  # no pango
        pytest.skip(f"WeasyPrint cannot render here: {exc}")
    assert len(rendered.pages) == 5


def test_the_pairings_print_names_the_players_by_seat_and_the_sit_outs(client, kaarting):
    words = visible(page(client, url("round-print", kaarting, 1)))
    assert "1 N An Peeters De Zwarte Kat S Jan Claes Café Sportwereld E Piet Janssens" in words
    assert "Sitting this round out (2): Tom Peeters, Veerle Claes" in words
    assert "30 minutes a round" in words


def test_the_standings_print_has_players_and_the_club_rule(client, kaarting):
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament=kaarting)
    words = visible(page(client, url("standings-print", kaarting)))
    assert "Ranked by points for, then games won, then opponents minus partner." in words
    assert "An Peeters De Zwarte Kat" in words
    assert Round.objects.filter(tournament=kaarting).count() == 1


def test_a_later_stages_sheets_read_its_own_cycle_not_stage_1s_rounds_of_the_same_numbers(client, db):
    """A championship's semi-final (stage 2, ``tables``) after a qualification whose whole cycle was played: its
    round 1 starts a cycle of its own; stage 1's rounds 1-3 (the same numbers) are not its cycle."""
    from tests.individual import player_names, seat_stage_round
    from tournaments.models import Stage

    tournament = make_individual(16, drawn=3, slug="kampioen", minutes=None)  # stage 1: rounds 1-3, one cycle
    Stage.objects.filter(tournament=tournament, number=1).update(status="closed")
    # The semi-final plays 2 games a match, each counted (its own length; stage 1's is the event's).
    semi = Stage.objects.create(tournament=tournament, number=2, format="tables", rounds=3, status="running",
                                match_length="games", match_games=2)
    seat_stage_round(tournament, semi, 1, [16, 15, 14, 13, 12, 11, 10, 9])  # the 8 qualifiers at 2 tables
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    names = player_names(16)
    body = page(client, "/t/kampioen/stages/2/rounds/1/sheets/")
    sheets = body.split('<article class="sheet indiv-sheet">')[1:]
    assert len(sheets) == 2  # stage 2's two tables, not stage 1's four
    first = visible(sheets[0])
    assert "Table 1 · rounds 1–3" in first and "Stage 2: Tables of four" in first
    assert "2 games, each counted" in first  # the stage's match length, not the event's
    assert f"A {names[15]} #16" in first and f"D {names[12]} #13" in first
    assert not any(name in first for name in names[:8])  # stage 1's players of rounds 1-3's table 1 and 2
    # Its round 1 is drawn; its rounds 2 and 3 are not (stage 1's rounds 2 and 3 are no part of this cycle).
    assert re.findall(r'<span class="code-box">([^<]*)</span>', sheets[0]) == ["S2R1T1", "", ""]
    assert f"A {names[15]} (N) & C {names[13]} (S) v B {names[14]} (E) & D {names[12]} (W)" in first
    # A table's own sheet (from its match) is the same cycle; the door's list is stage 2's players.
    match = Match.objects.get(round__stage=semi, table=2)
    single = page(client, url("match-sheet", tournament, match.pk))
    assert re.findall(r'<span class="code-box">([^<]*)</span>', single) == ["S2R1T2", "", ""]
    assert f"A {names[11]} #12" in visible(single)
    door = visible(page(client, "/t/kampioen/stages/2/rounds/1/seats/print/"))
    assert "8 players in alphabetical order" in door and names[0] not in door
    # Stage 1's round 1 keeps its own cycle, drawn in full.
    old = page(client, url("round-sheets", tournament, 1))
    assert old.count('<article class="sheet indiv-sheet">') == 4
    codes = re.findall(r'<span class="code-box">([^<]*)</span>', old.split('<article class="sheet indiv-sheet">')[1])
    assert codes == ["T1001", "T2001", "T3001"] and "Stage 2" not in visible(old)
