"""The public pages: content with names, 404 for private tournaments, constant query counts, ETags, languages."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.web.conftest import enter_hands, make_tournament
from tournaments.models import Match
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def url(name, tournament, *args):
    return reverse(f"web:{name}", args=[tournament.slug, *args])


def played_match(tournament, table=1) -> Match:
    return Match.objects.get(round__tournament=tournament, round__number=1, table=table)


# -- home ---------------------------------------------------------------------------------------------------------

def test_home_lists_public_tournaments_with_status_and_round(client, tournament, private_tournament):
    body = text(client.get("/"))
    assert "Gentse Beker" in body
    assert "Besloten Beker" not in body
    assert "Running" in body and "Round 1 of 5" in body


@pytest.mark.parametrize("q", ["gentse", "zwarte kat", "GENT", "belgian", "manille"])
def test_home_search_by_name_club_city_or_variant(client, tournament, q):
    TournamentFactory(name="Copa Malilla", slug="copa", variant="mexican-malilla")
    body = text(client.get("/", {"q": q}))
    assert "Gentse Beker" in body
    assert "Copa Malilla" not in body


def test_home_search_without_result_says_so(client, tournament):
    body = text(client.get("/", {"q": "nothing-like-this"}))
    assert "No tournament matches your search." in body


def test_home_filters_by_status_and_paginates(client, db):
    for i in range(25):
        TournamentFactory(name=f"Cup {i:02d}", slug=f"cup-{i}", status="finished")
    TournamentFactory(name="Draft cup", slug="draft-cup", status="draft")
    first = text(client.get("/", {"status": "finished"}))
    assert "Draft cup" not in first and "Page 1 of 2" in first
    assert 'href="?status=finished&amp;page=2"' in client.get("/", {"status": "finished"}).content.decode()
    second = text(client.get("/", {"status": "finished", "page": 2}))
    assert len(re.findall(r"Cup \d\d", first)) + len(re.findall(r"Cup \d\d", second)) == 25


def test_home_empty(client, db):
    assert "No tournaments yet." in text(client.get("/"))


# -- tournament ---------------------------------------------------------------------------------------------------

def test_tournament_page_tells_the_settings_in_words(client, tournament):
    tournament.options = {"tie_doubling": "stack", "max_multiplier": 8}
    tournament.save()
    body = text(client.get(url("tournament", tournament)))
    assert "De Zwarte Kat" in body and "Swiss system" in body
    assert "best of 3" in body
    assert "consecutive ties multiply" in body and "×8" in body and "house rule" in body
    assert reverse("web:variant", args=["belgian-manille"]) in body
    assert "{" not in re.sub(r"<script.*?</script>|<style.*?</style>", "", body, flags=re.S)


def test_variant_pages_name_the_deck_and_checks(client, db):
    body = text(client.get(reverse("web:variant", args=["mexican-malilla"])))
    for word in ("oros", "copas", "espadas", "bastos", "Spanish deck", "35 points"):
        assert word in body
    belgian = text(client.get(reverse("web:variant", args=["belgian-manille"])))
    assert "spades" in belgian and "undertrump" in belgian
    assert client.get(reverse("web:variant", args=["no-such-game"])).status_code == 404
    assert "Mexican Malilla" in text(client.get(reverse("web:variants")))


# -- standings ----------------------------------------------------------------------------------------------------

def test_standings_show_names_clubs_tiebreaks_and_shared_ranks(client, tournament):
    body = text(client.get(url("standings", tournament)))
    assert "Gentse Beker ploeg 1" in body and "De Zwarte Kat" in body
    assert "Buchholz" in body and "The sum of the opponents" in body
    assert "Computed" in body
    assert "(shared)" in body  # teams that have not finished share a rank
    club_body = text(client.get(url("clubs", tournament)))
    assert "Club standings" in club_body and "De Zwarte Kat" in club_body


def test_standings_before_any_result(client, db):
    tournament = make_tournament(4)
    assert "No standings yet" in text(client.get(url("standings", tournament)))


def test_standings_query_count_does_not_grow_with_teams(client, django_assert_max_num_queries, db):
    small = make_tournament(4, name="Small", slug="small", club_name="A")
    large = make_tournament(16, name="Large", slug="large", club_name="B")
    for t in (small, large):
        standings_recompute(tournament=t)
    with django_assert_max_num_queries(8) as small_q:
        client.get(url("standings", small))
    with django_assert_max_num_queries(8) as large_q:
        client.get(url("standings", large))
    assert len(small_q.captured_queries) == len(large_q.captured_queries)


def test_standings_answer_an_etag_and_304(client, tournament):
    first = client.get(url("standings", tournament))
    assert first["ETag"]
    again = client.get(url("standings", tournament), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    enter_hands(played_match(tournament), 1)
    standings_recompute(tournament=tournament)
    # A result that changes nothing in the standings may keep the ETag; the match page must change.


# -- rounds -------------------------------------------------------------------------------------------------------

def test_round_page_shows_tables_results_bye_and_progress(client, tournament):
    body = text(client.get(url("rounds", tournament)))
    assert "Table 1" in body and "Table 2" in body
    assert "Bye: " in body
    assert "1 of 2 matches finished" in body
    assert "2–0" in body  # table 2 won in two games
    assert client.get(url("round", tournament, 7)).status_code == 404


def test_rounds_before_pairing(client, db):
    tournament = TournamentFactory(name="Not yet", slug="not-yet")
    assert "No round has been paired yet." in text(client.get(url("rounds", tournament)))


# -- match --------------------------------------------------------------------------------------------------------

def test_match_page_shows_teams_players_hands_and_next_deal(client, tournament):
    match = played_match(tournament)
    body = text(client.get(url("match", tournament, match.pk)))
    assert match.ns.name in body and match.ew.name in body
    assert match.ns.player_1.name in body and match.ew.player_2.name in body
    assert "Next hand" in body and "E deals" not in body  # N, E, S dealt: W deals next
    assert "W deals" in body
    assert body.count("<tr>") >= 4  # a header and three hands
    assert "<svg" in body and "polyline" in body


def test_match_page_query_count_does_not_grow_with_hands(client, django_assert_max_num_queries, tournament):
    match = played_match(tournament)
    with django_assert_max_num_queries(10) as few:
        client.get(url("match", tournament, match.pk))
    enter_hands(match, 8)
    with django_assert_max_num_queries(10) as many:
        client.get(url("match", tournament, match.pk))
    assert len(few.captured_queries) == len(many.captured_queries)


def test_match_page_etag_changes_with_a_hand(client, tournament):
    match = played_match(tournament)
    first = client.get(url("match", tournament, match.pk))
    assert client.get(url("match", tournament, match.pk), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    enter_hands(match, 1)
    after = client.get(url("match", tournament, match.pk), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def test_match_of_another_tournament_is_404(client, tournament, db):
    other = make_tournament(4, name="Other", slug="other", club_name="Other club")
    match = Match.objects.filter(round__tournament=other).first()
    assert client.get(url("match", tournament, match.pk)).status_code == 404


# -- team ---------------------------------------------------------------------------------------------------------

def test_team_page_shows_players_matches_and_progress(client, tournament):
    match = played_match(tournament, table=2)
    body = text(client.get(url("team", tournament, match.ns_id)))
    assert match.ns.player_1.name in body and match.ew.name in body
    assert "won" in body and "Rank after each round" in body and "<svg" in body
    assert client.get(url("team", tournament, 999999)).status_code == 404


# -- wall ---------------------------------------------------------------------------------------------------------

def test_wall_holds_the_tables_and_the_standings(client, tournament):
    body = text(client.get(url("wall", tournament)))
    assert 'data-panel="tables"' in body and 'data-panel="standings"' in body
    assert 'class="wall"' in body and 'data-wall-seconds="15"' in body
    assert 'data-wall-seconds="30"' in text(client.get(url("wall", tournament), {"seconds": "30"}))


# -- privacy ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,extra", [
    ("tournament", ()), ("standings", ()), ("clubs", ()), ("rounds", ()), ("round", (1,)), ("teams", ()),
    ("wall", ()),
])
def test_private_tournament_pages_are_404(client, private_tournament, name, extra):
    assert client.get(url(name, private_tournament, *extra)).status_code == 404


def test_private_match_and_team_are_404(client, private_tournament):
    match = Match.objects.filter(round__tournament=private_tournament).first()
    assert client.get(url("match", private_tournament, match.pk)).status_code == 404
    assert client.get(url("team", private_tournament, match.ns_id)).status_code == 404


def test_private_tournament_is_visible_to_its_organizer(client, private_tournament, django_user_model):
    user = django_user_model.objects.create_user("org", password="pw")
    private_tournament.organizers.add(user)
    client.force_login(user)
    assert client.get(url("standings", private_tournament)).status_code == 200


# -- languages ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "nl", "fr", "es", "ca"])
def test_every_page_renders_in_each_language(client, tournament, lang):
    match = played_match(tournament)
    for page in (reverse("web:home"), url("tournament", tournament), url("standings", tournament),
                 url("rounds", tournament), url("match", tournament, match.pk), url("team", tournament, match.ns_id),
                 url("wall", tournament), reverse("web:variant", args=["spanish-manilla"])):
        response = client.get(page, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200, page
        assert f'<html lang="{lang}">' in text(response), page


@pytest.mark.parametrize("lang,word", [("nl", "Klassement"), ("fr", "Classement"), ("es", "Clasificación"),
                                       ("ca", "Classificació")])
def test_pages_speak_the_browsers_language(client, tournament, lang, word):
    assert word in text(client.get(url("standings", tournament), HTTP_ACCEPT_LANGUAGE=lang))


def test_language_picker_switches_and_remembers(client, tournament):
    response = client.post(reverse("set_language"), {"language": "fr", "next": url("standings", tournament)})
    assert response.status_code == 302
    assert "Classement" in text(client.get(url("standings", tournament)))


def test_round_page_shows_the_game_being_played_at_each_table(client, tournament):
    match = played_match(tournament)
    game = match.games.get(number=1)
    body = text(client.get(url("rounds", tournament)))
    assert f"game 1: {game.total_ns}–{game.total_ew}" in body
    enter_hands(match, 1)
    game.refresh_from_db()
    assert f"game 1: {game.total_ns}–{game.total_ew}" in text(client.get(url("rounds", tournament)))


def test_page_etag_changes_with_the_tournament_header(client, tournament):
    first = client.get(url("standings", tournament))
    tournament.status = "finished"
    tournament.save()
    again = client.get(url("standings", tournament), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "Finished" in text(again)


def test_pages_have_no_inline_script_and_no_outside_asset(client, tournament):
    """The CSP (on when DEBUG is off) allows the site's own script files only: no inline code, no handlers."""
    match = played_match(tournament)
    for page in (reverse("web:home"), url("tournament", tournament), url("standings", tournament),
                 url("rounds", tournament), url("match", tournament, match.pk), url("wall", tournament),
                 url("round-print", tournament, 1), url("round-sheets", tournament, 1),
                 url("standings-print", tournament)):
        body = text(client.get(page))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), page
        assert not re.search(r"\son[a-z]+=", body), page
        external = [u for u in re.findall(r'(?:src|href)="([^"]+)"', body)
                    if re.match(r"(https?:)?//", u) and not u.startswith("http://testserver/")]
        assert not external, (page, external)  # every asset local: a hall without internet works


def test_variant_page_reads_in_the_visitors_language(client, db):
    body = text(client.get(reverse("web:variant", args=["belgian-manille"]), HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Wie geen kleur kan bekennen, mag niet ondertroeven." in body
    assert "points a side must reach" not in body and "undertrump" not in body


def test_seats_are_written_in_the_visitors_language(client, tournament):
    match = played_match(tournament)  # N, E, S dealt: W deals next, "O" (oeste, ouest) in Spanish and French
    assert "O deals" not in text(client.get(url("match", tournament, match.pk), HTTP_ACCEPT_LANGUAGE="en"))
    body = text(client.get(url("match", tournament, match.pk), HTTP_ACCEPT_LANGUAGE="es"))
    assert ">E</abbr>" in body and ">O</abbr>" not in body  # hand 2 dealt by E; W has not dealt yet


@pytest.mark.parametrize("lang,words", [("en", "Page not found"), ("nl", "Pagina niet gevonden")])
def test_a_missing_page_says_so_in_the_site_and_the_visitors_language(client, db, lang, words):
    response = client.get("/t/no-such-tournament/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 404
    body = text(response)
    assert words in body and f'<html lang="{lang}">' in body and reverse("web:home") in body


def test_an_unchanged_live_page_is_a_304_before_it_is_built(client, tournament, django_assert_num_queries,
                                                            django_user_model):
    """The standings, round, match and wall pages answer a visitor 304 from the version stamps with no SQL (the
    slug's tournament and that it is public kept in the cache); a signed-in user's 304 reads the tournament."""
    match = played_match(tournament)
    paths = (url("standings", tournament), url("rounds", tournament), url("match", tournament, match.pk),
             url("wall", tournament))
    for path in paths:
        first = client.get(path)
        client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])  # the first 304 reads whether it is public, once
        with django_assert_num_queries(0):
            assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    member = Client()
    member.force_login(django_user_model.objects.create_user("lid", password="x-Lid-2026!"))
    for path in paths:
        first = member.get(path)
        assert member.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        assert first["ETag"] != client.get(path)["ETag"]  # a page with the user's name is not the visitor's
    etags = {name: client.get(p)["ETag"] for name, p in (("standings", url("standings", tournament)),
                                                         ("wall", url("wall", tournament)))}
    standings_recompute(tournament=tournament)  # a recompute changes the standings and the wall
    for name, path in (("standings", url("standings", tournament)), ("wall", url("wall", tournament))):
        assert client.get(path, HTTP_IF_NONE_MATCH=etags[name]).status_code == 200


def test_a_renamed_team_changes_the_live_pages(client, tournament):
    match = played_match(tournament)
    path = url("match", tournament, match.pk)
    etag = client.get(path)["ETag"]
    match.ns.name = "Hernoemde ploeg"
    match.ns.save()
    after = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and "Hernoemde ploeg" in text(after)


def test_pages_come_compressed(client, tournament):
    response = client.get(url("standings", tournament), HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"


def test_a_visitor_loses_a_live_page_the_moment_its_tournament_is_unpublished_or_renamed(client, tournament,
                                                                                          django_user_model):
    from tournaments.services.tournaments import tournament_update

    match = played_match(tournament)
    paths = (url("standings", tournament), url("rounds", tournament), url("match", tournament, match.pk),
             url("wall", tournament))
    etags = {path: client.get(path)["ETag"] for path in paths}
    assert all(client.get(p, HTTP_IF_NONE_MATCH=etags[p]).status_code == 304 for p in paths)
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    tournament_update(tournament=tournament, user=staff, public=False)
    for path in paths:  # the old ETag meets a new stamp: built, and not found
        assert client.get(path, HTTP_IF_NONE_MATCH=etags[path]).status_code == 404, path
    tournament_update(tournament=tournament, user=staff, public=True, slug="nieuwe-naam")
    for path in paths:  # the old slug no longer names it, whatever the cache kept
        assert client.get(path, HTTP_IF_NONE_MATCH=etags[path]).status_code == 404, path


def test_a_visitors_304_reads_the_slugs_tournament_from_memory_or_the_other_processes_cache(client, tournament,
                                                                                           django_assert_num_queries):
    """The slug's tournament is kept in this process after a page is built (no cache read for it), and in the cache
    for a process that has not built the page (``versions.slug_tournament_id``)."""
    from django.core.cache import cache

    from tournaments import versions

    path = url("standings", tournament)
    etag = client.get(path)["ETag"]
    client.get(path, HTTP_IF_NONE_MATCH=etag)  # the first 304 reads whether it is public, once
    cache.delete(f"v:slug:{tournament.slug}")  # only this process's memory knows the slug now
    with django_assert_num_queries(0):
        assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    versions.forget()  # a process that knows the slug from nowhere reads the tournament, then keeps it
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert cache.get(f"v:slug:{tournament.slug}") == tournament.pk
    versions.forget()  # another process: the cache tells it
    with django_assert_num_queries(0):
        assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_slug_kept_in_memory_that_moved_to_another_tournament_never_answers_304(client, tournament, db):
    """A process that still believes the slug names the old tournament builds the new one's page, then keeps the
    new tournament; the old page's ETag never matches."""
    from django.contrib.auth import get_user_model

    from tournaments.services.tournaments import tournament_update

    path = url("standings", tournament)
    old = client.get(path)["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=old).status_code == 304
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    slug = tournament.slug
    tournament_update(tournament=tournament, user=staff, slug="oude-beker")
    other = make_tournament(4, name="Nieuwe Beker", slug=slug, club_name="De Rode Kat")
    standings_recompute(tournament=other)
    assert versions_slug(slug) == tournament.pk  # memory still names the old tournament
    response = client.get(path, HTTP_IF_NONE_MATCH=old)
    assert response.status_code == 200 and "Nieuwe Beker" in text(response)
    assert versions_slug(slug) == other.pk  # the page built keeps the new one
    assert client.get(path, HTTP_IF_NONE_MATCH=old).status_code == 200
    assert client.get(path, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def versions_slug(slug):
    from tournaments import versions

    return versions._SLUGS.get(slug)


# -- the standings' legend (issue 25) -----------------------------------------------------------------------------

def _headings_and_legend(body: str, table_class: str) -> tuple[list[str], list[str]]:
    table = body[body.index(f'<table class="{table_class}'):]
    thead = table[:table.index("</thead>")]
    legend = body[body.index('<dl class="legend-list">'):]
    legend = legend[:legend.index("</dl>")]
    strip = lambda html: re.sub(r"<[^>]+>", "", html).strip()  # noqa: E731
    return ([strip(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", thead, re.S)],
            [strip(t) for t in re.findall(r"<dt>(.*?)</dt>", legend, re.S)])


@pytest.mark.parametrize("lang", ["en", "nl", "fr", "es", "ca"])
def test_the_legend_explains_every_column_heading_of_the_standings(client, tournament, lang):
    from tournaments.ranking.metrics import METRICS

    tournament.tiebreaks = list(METRICS)  # every metric there is: every abbreviation the table can show
    tournament.save()
    standings_recompute(tournament=tournament)
    headings, legend = _headings_and_legend(
        text(client.get(url("standings", tournament), HTTP_ACCEPT_LANGUAGE=lang)), "data standings")
    team = {"en": "Team", "nl": "Ploeg", "fr": "Équipe", "es": "Equipo", "ca": "Equip"}[lang]
    # Match points, matches won and games won have columns of their own: each heading once.
    assert team in headings and len(headings) == 2 + 7 + len(METRICS) - 3
    assert [h for h in headings if h != team] == legend
    assert len(set(headings)) == len(headings), headings


@pytest.mark.parametrize("lang", ["en", "nl", "fr", "es", "ca"])
def test_the_club_standings_explain_their_columns(client, tournament, lang):
    headings, legend = _headings_and_legend(
        text(client.get(url("clubs", tournament), HTTP_ACCEPT_LANGUAGE=lang)), "data")
    assert headings[1] == "Club"  # the same word in the five languages: no abbreviation to explain
    assert headings[:1] + headings[2:] == legend
