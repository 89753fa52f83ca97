"""The public pages of an individual event: players by seat and partnership, sit-outs, the round clock in words,
"where do I sit" in all its states, the wall's names, a player's evening, players' standings and the club ranking;
no table code anywhere public; a fixed number of queries for 22 players or 500."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.individual import make_individual, play_hands
from tests.web.conftest import make_tournament
from tournaments.models import Match, Player, Round
from tournaments.services.clock import round_clock_end, round_clock_pause, round_clock_start
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def url(name, tournament, *args):
    return reverse(f"web:{name}", args=[tournament.slug, *args])


def visible(page: str) -> str:
    """The page's words: no tags, no scripts, spaces squeezed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split()).replace(" ,", ",")


def finish(match: Match) -> None:
    for _ in range(20):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        play_hands(match, 1, ns=60)


@pytest.fixture
def kaarting(db):
    """22 players (two of no club), round 1 played out, round 2 drawn with its clock running and hands at table 1."""
    tournament = make_individual(22, drawn=1, minutes=None)
    for match in Match.objects.filter(round__number=1, round__tournament=tournament):
        finish(match)
    from tests.individual import draw_round

    draw_round(tournament, 2)
    tournament.match_length, tournament.minutes = "timed", 30
    tournament.save()
    second = Round.objects.get(tournament=tournament, number=2)
    round_clock_start(round=second)
    play_hands(Match.objects.get(round=second, table=1), 2)
    standings_recompute(tournament=tournament)
    return tournament


def second_round(tournament) -> Round:
    return Round.objects.get(tournament=tournament, number=2)


# -- the round, the match, the overview ---------------------------------------------------------------------------

def test_the_round_page_names_each_tables_partnerships_by_seat_and_the_players_sitting_out(client, kaarting):
    body = text(client.get(url("round", kaarting, 2)))
    words = visible(body)
    # Round 2 of the cycle: A+C v B+D, A (An Peeters) seated at N.
    assert "Table 1" in words and "N An Peeters & S Piet Janssens" in words
    assert "versus E Jan Claes & W Marie Maes" in words
    assert "Sitting this round out (2): Tom Peeters, Veerle Claes" in words
    assert "0 of 5 matches finished" in words and "game 1: 14–0" in words
    for code in Match.objects.filter(round__tournament=kaarting).values_list("table_code", flat=True):
        assert code not in body  # a table's code is never public
    assert client.get(url("round", kaarting, 1)).status_code == 200
    assert "5 of 5 matches finished" in visible(text(client.get(url("round", kaarting, 1))))


def test_the_round_clock_counts_down_from_the_server_and_says_paused_and_over_in_words(client, kaarting):
    rnd = second_round(kaarting)
    body = text(client.get(url("round", kaarting, 2)))
    ends = int(re.search(r'data-clock-ends="(\d+)"', body).group(1))
    assert abs(ends / 1000 - Round.objects.get(pk=rnd.pk).clock_ends_at.timestamp()) < 1
    assert re.search(r'<span class="clock-time" role="timer">(29:[0-5]\d|30:00)</span>', body)
    assert "Time left" in body and "At the end of time the game in play is played out." in body
    round_clock_pause(round=rnd)
    paused = visible(text(client.get(url("round", kaarting, 2))))
    assert re.search(r"Clock paused (29:[0-5]\d|30:00) left when it starts again", paused)
    assert "data-clock-ends" not in text(client.get(url("round", kaarting, 2)))
    round_clock_end(round=rnd)
    assert "Time is up" in visible(text(client.get(url("round", kaarting, 2))))
    kaarting.at_time = "stop"
    kaarting.save()
    assert "stops after the deal being played" in text(client.get(url("round", kaarting, 2)))


def test_a_round_before_its_clock_says_how_long_it_will_be_and_an_untimed_event_shows_no_clock(client, kaarting):
    third = Round.objects.create(tournament=kaarting, number=3)
    assert "The clock has not started 30 minutes a round" in visible(text(client.get(url("round", kaarting, 3))))
    third.delete()
    kaarting.match_length, kaarting.minutes = "best_of", None
    kaarting.save()
    assert "data-clock" not in text(client.get(url("round", kaarting, 1)))


def test_the_match_page_names_the_players_by_seat_and_polls_the_rounds_clock(client, kaarting):
    match = Match.objects.get(round=second_round(kaarting), table=1)
    body = text(client.get(url("match", kaarting, match.pk)))
    words = visible(body)
    assert "An Peeters & Piet Janssens – Jan Claes & Marie Maes" in words  # the title
    assert "N An Peeters S Piet Janssens North–South" in words
    assert "E Jan Claes W Marie Maes East–West" in words
    assert reverse("web:player", args=[kaarting.slug, match.seats.get(seat="N").player_id]) in body
    assert 'data-live-kind="clock"' in body and 'data-live-every="20"' in body
    assert "Next hand: S deals (Piet Janssens)" in words  # N and E dealt: S, the N player's partner
    assert "30 minutes a round" in words
    assert match.table_code not in body


def test_the_overview_of_an_individual_event_says_its_rules_in_words(client, kaarting):
    kaarting.club_best_n = 3
    kaarting.sit_out_score = "fixed"
    kaarting.sit_out_fixed = {"match_points": 1, "games_won": 1, "points_for": 60}
    kaarting.save()
    words = visible(text(client.get(url("tournament", kaarting))))
    assert "Individual: each player entered alone, drawn to tables of four" in words
    assert "Tables of four, partners rotating" in words
    assert "30 minutes a round; at the end of time the game in play is played out" in words
    assert "scores 1 match points, 1 games won and 60 points" in words
    assert "the others at their table sit its remaining rounds out" in words
    assert "Ranked by points for, then games won, then opponents minus partner." in words
    assert "the mean of their 3 best players' percentages" in words
    assert "Where do I sit?" in words and "Time left" in words
    assert "The names alone, for a screen at the door" in words
    assert re.search(r"1= \S+ \S+ 240 points", words)  # the leaders by points, the format's first key


def test_the_tabs_of_an_individual_event_offer_where_do_i_sit_and_the_players_not_teams(client, kaarting):
    body = text(client.get(url("tournament", kaarting)))
    assert url("seat", kaarting) in body and url("players", kaarting) in body and url("teams", kaarting) not in body
    assert client.get(url("teams", kaarting))["Location"] == url("players", kaarting)
    team_event = make_tournament(4, club_name="Teamclub")
    assert client.get(url("players", team_event))["Location"] == url("teams", team_event)
    for name, args in (("seat", ()), ("round-seat", (1,)), ("player", (1,))):
        assert client.get(url(name, team_event, *args)).status_code == 404


# -- where do I sit -----------------------------------------------------------------------------------------------

def test_where_do_i_sit_before_a_search_asks_for_a_few_letters(client, kaarting):
    body = text(client.get(url("seat", kaarting)))
    words = visible(body)
    assert "Where do I sit in round 2?" in words
    assert "Type a few letters of your name, or your start number" in words
    assert 'method="get"' in body and 'name="q"' in body and "seat.js" in body
    assert f'action="{url("seat", kaarting)}"' in body


def test_where_do_i_sit_finds_a_player_and_names_the_table_seat_partner_and_opponents(client, kaarting):
    words = visible(text(client.get(url("seat", kaarting), {"q": "pee an"})))
    assert "An Peeters #1 De Zwarte Kat Table 1 seat North" in words
    assert "You stay seated at this table and keep the score." in words
    assert "Partner Piet Janssens (South) Opponents Jan Claes (East) Marie Maes (West)" in words
    east = visible(text(client.get(url("seat", kaarting), {"q": "2"})))  # a start number
    assert "Jan Claes #2 Café Sportwereld Table 1 seat East" in east and "keep the score" not in east
    assert "Partner Marie Maes (West)" in east


def test_where_do_i_sit_tells_a_player_sitting_the_round_out(client, kaarting):
    words = visible(text(client.get(url("seat", kaarting), {"q": "veerle"})))
    assert "Veerle Claes #22 You sit this round out." in words


def test_where_do_i_sit_with_nobody_found_says_so(client, kaarting):
    words = visible(text(client.get(url("seat", kaarting), {"q": "xyz"})))
    assert "Nobody in round 2 matches “xyz”." in words


def test_where_do_i_sit_with_many_found_lists_them_to_choose(client, kaarting):
    words = visible(text(client.get(url("seat", kaarting), {"q": "d"})))  # Dirk De Smet, Rita Dubois, ...
    assert "6 players found: which one are you?" in words
    assert "Dirk De Smet De Zwarte Kat table 3, E" in words
    body = text(client.get(url("seat", kaarting), {"q": "d"}))
    assert 'class="seat-list"' in body and 'href="?q=10"' in body  # each one a link to their own answer


def test_where_do_i_sit_with_more_than_twenty_asks_for_more_letters(client, db):
    big = make_individual(120, slug="groot", name="Groot")
    words = visible(text(client.get(url("seat", big), {"q": "v"})))  # Van Damme, Vermeulen, Veerle...
    assert re.search(r"\d\d players found; the first 20 below. Type more letters to find yours.", words)
    assert text(client.get(url("seat", big), {"q": "v"})).count("<li><a href=") == 20


def test_where_do_i_sit_answers_the_results_alone_for_the_script_and_any_round(client, kaarting):
    partial = text(client.get(url("seat", kaarting), {"q": "marie", "partial": "1"}))
    assert "<html" not in partial and "Marie Maes" in partial and "Table 1" in partial
    first = visible(text(client.get(url("round-seat", kaarting, 1), {"q": "marie"})))
    assert "Where do I sit in round 1?" in first and "Table 1 seat West" in first
    assert client.get(url("round-seat", kaarting, 9)).status_code == 404


def test_where_do_i_sit_before_the_first_draw(client, db):
    empty = make_individual(8, drawn=0, slug="leeg")
    words = visible(text(client.get(url("seat", empty))))
    assert "No round has been drawn yet" in words and 'name="q"' not in text(client.get(url("seat", empty)))


def test_where_do_i_sit_reads_as_many_queries_for_500_players_as_for_22(client, db, django_assert_max_num_queries):
    small = make_individual(22, slug="klein", name="Klein")
    large = make_individual(500, slug="groot", name="Groot")
    counts = []
    for tournament in (small, large):
        with django_assert_max_num_queries(12) as queries:
            assert "players found" in text(client.get(url("seat", tournament), {"q": "d"}))
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


# -- the wall -----------------------------------------------------------------------------------------------------

def test_the_wall_lists_the_rounds_names_alphabetically_with_table_and_seat(client, kaarting):
    body = text(client.get(url("wall", kaarting)))
    assert 'data-show="names"' in body and 'data-panel="names"' in body
    assert 'data-panel="tables"' in body and 'data-panel="standings"' in body
    listed = re.findall(r'<span class="n-name">([^<]+)</span>', body)
    assert len(listed) == 22 and listed == sorted(listed, key=lambda n: n.casefold())
    words = visible(body)
    assert "An Peeters table 1 N" in words and "Tom Peeters sits out" in words
    assert "Page 1 of" not in words  # one page: no page numbers


def test_the_wall_pages_500_names_and_keeps_its_queries(client, db, django_assert_max_num_queries):
    small = make_individual(22, slug="klein", name="Klein")
    large = make_individual(500, slug="groot", name="Groot")
    counts = []
    for tournament in (small, large):
        with django_assert_max_num_queries(16) as queries:
            body = text(client.get(url("wall", tournament)))
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
    pages = re.findall(r'<div class="wall-page[^"]*" data-page="(\d+)">', body)
    assert pages == [str(n) for n in range(1, 12)]  # 500 names, 48 a page
    assert "Page 1 of 11: " in visible(body)


def test_a_wall_for_the_door_keeps_to_the_names(client, kaarting):
    body = text(client.get(url("wall", kaarting), {"show": "names"}))
    assert 'data-wall-only="names"' in body and 'data-show="names"' in body
    team_wall = text(client.get(url("wall", make_tournament(4, club_name="Teamclub")), {"show": "names"}))
    assert 'data-wall-only' not in team_wall and 'data-show="tables"' in team_wall


# -- standings, clubs, players ------------------------------------------------------------------------------------

def test_the_standings_of_an_individual_event_rank_players_with_their_clubs(client, kaarting):
    body = text(client.get(url("standings", kaarting)))
    words = visible(body)
    assert "Ranked by points for, then games won, then opponents minus partner." in words
    assert re.search(r"# Player Points Games M W D L OmP", words)
    assert "no club" in words  # the two players without a club
    assert reverse("web:player", args=[kaarting.slug, Player.objects.get(name="An Peeters").pk]) in body
    assert "Opponents minus partner" in words and "Matches played (rounds sat out not counted)" in words


def test_a_swiss_individual_event_ranks_by_match_points_first(client, db):
    swiss = make_individual(8, format="swiss", slug="zwitsers", minutes=None)
    for match in Match.objects.filter(round__tournament=swiss):
        finish(match)
    standings_recompute(tournament=swiss)
    words = visible(text(client.get(url("standings", swiss))))
    assert re.search(r"# Player MP M W D L Games Points", words)
    assert "Individual Swiss" in visible(text(client.get(url("tournament", swiss))))


def test_the_club_ranking_of_individuals_says_its_rule(client, kaarting):
    words = visible(text(client.get(url("clubs", kaarting))))
    assert "all their players pooled (rounds sat out do not count). Players without a club are left out." in words
    assert "De Zwarte Kat" in words and "Café Sportwereld" in words and "%" in words
    kaarting.club_best_n = 4
    kaarting.save()
    standings_recompute(tournament=kaarting)
    words = visible(text(client.get(url("clubs", kaarting))))
    assert "the mean of their 4 best players' percentages of matches won; clubs with fewer than 4" in words


def test_a_players_page_tells_their_evening_round_by_round(client, kaarting):
    an = Player.objects.get(name="An Peeters")
    body = text(client.get(url("player", kaarting, an.pk)))
    words = visible(body)
    assert "An Peeters" in words and "Start number 1 · De Zwarte Kat" in words
    assert "Round 1 · Table 1, seat North Partner Jan Claes Opponents Piet Janssens & Marie Maes Result won" in words
    assert "Round 2 · Table 1, seat North Partner Piet Janssens Opponents Jan Claes & Marie Maes Result Playing" in words
    assert re.search(r"Rank \d+ Matches 1 played: 1 won, 0 drawn, 0 lost", words)
    sat = visible(text(client.get(url("player", kaarting, Player.objects.get(name="Tom Peeters").pk))))
    assert "Sat this round out." in sat and "no club" in sat
    assert client.get(url("player", kaarting, make_tournament(4, club_name="Teamclub").entries.first().team.player_1_id)).status_code == 404


def test_the_players_list_by_start_number(client, kaarting):
    words = visible(text(client.get(url("players", kaarting))))
    assert words.index("1 An Peeters De Zwarte Kat") < words.index("2 Jan Claes Café Sportwereld")
    assert "22 Veerle Claes no club" in words


def test_a_private_individual_events_pages_are_404(client, db):
    private = make_individual(8, public=False, slug="besloten")
    for name, args in (("seat", ()), ("round-seat", (1,)), ("players", ()), ("player", (1,)), ("wall", ()),
                       ("round-seats-print", (1,))):
        assert client.get(url(name, private, *args)).status_code == 404, name


# -- live ---------------------------------------------------------------------------------------------------------

def test_the_clock_region_answers_alone_and_only_for_an_individual_event(client, kaarting):
    rnd = second_round(kaarting)
    region = client.get(f"/live/clock/{rnd.pk}/")
    assert region.status_code == 200 and "Time left" in region.content.decode() and region["ETag"]
    again = Client().get(f"/live/clock/{rnd.pk}/", HTTP_IF_NONE_MATCH=region["ETag"])
    assert again.status_code == 304
    round_clock_pause(round=rnd)
    assert "Clock paused" in client.get(f"/live/clock/{rnd.pk}/", HTTP_IF_NONE_MATCH=region["ETag"]).content.decode()
    team_round = Round.objects.filter(tournament=make_tournament(4, club_name="Teamclub")).first()
    assert client.get(f"/live/clock/{team_round.pk}/").status_code == 404


@pytest.mark.parametrize("lang", ["en", "nl", "fr", "es", "ca"])
def test_every_page_of_an_individual_event_renders_in_each_language(client, kaarting, lang):
    match = Match.objects.get(round=second_round(kaarting), table=1)
    for page in (url("tournament", kaarting), url("rounds", kaarting), url("match", kaarting, match.pk),
                 url("seat", kaarting) + "?q=an", url("seat", kaarting) + "?q=pee+an", url("players", kaarting),
                 url("player", kaarting, match.seats.first().player_id), url("standings", kaarting),
                 url("clubs", kaarting), url("wall", kaarting), url("round-seats-print", kaarting, 2),
                 url("round-sheets", kaarting, 2)):
        body = text(client.get(page, HTTP_ACCEPT_LANGUAGE=lang))
        assert f'<html lang="{lang}">' in body, page


@pytest.mark.parametrize("lang,words", [
    ("nl", ["Waar zit ik?", "Tafel 1", "plaats Noord", "Partner", "Tegenstanders"]),
    ("fr", ["Où suis-je assis ?", "Table 1", "place Nord"]),
    ("es", ["¿Dónde me siento?", "Mesa 1", "asiento Norte"]),
    ("ca", ["On sec?", "Taula 1", "seient Nord"]),
])
def test_where_do_i_sit_speaks_the_players_language(client, kaarting, lang, words):
    page = visible(text(client.get(url("seat", kaarting), {"q": "pee an"}, HTTP_ACCEPT_LANGUAGE=lang)))
    for word in words:
        assert word in page, word
    for english in ("Where do I sit", "Table 1", "seat North", "Opponents", "Time left"):
        if english not in words:
            assert english not in page, english
