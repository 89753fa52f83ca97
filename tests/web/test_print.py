"""The print pages: standings, pairings and score sheets on A4, and their PDFs."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory
from tests.tournaments.test_rounds_service import finish
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute
from web import print_views

pytestmark = pytest.mark.django_db



@pytest.fixture(autouse=True)
def _local_cache(settings):
    """The standings service's coalescing keys in a private local-memory cache: never a shared Redis."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "print-tests"}}
    cache.clear()
    yield
    cache.clear()


def make_tournament(tables: int, public: bool = True):
    """A Belgian Manille Swiss tournament of 2 × tables + 1 teams, round 1 paired (a bye), table 1 finished."""
    tournament = TournamentFactory(variant="belgian-manille", best_of=3, public=public)
    for seed in range(1, 2 * tables + 2):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {seed:02d}"), seed=seed)
    rnd = round_pair(tournament=tournament)
    finish(rnd.matches.get(table=1))
    standings_recompute(tournament=tournament)
    return tournament, rnd


@pytest.fixture
def small():
    return make_tournament(2)


def urls(tournament, rnd):
    """Every print page and PDF of the tournament, by URL name."""
    slug, n = tournament.slug, rnd.number
    match = rnd.matches.exclude(ew=None).order_by("table").first()
    return {
        "standings-print": reverse("web:standings-print", args=[slug]),
        "standings-pdf": reverse("web:standings-pdf", args=[slug]),
        "round-print": reverse("web:round-print", args=[slug, n]),
        "round-pdf": reverse("web:round-pdf", args=[slug, n]),
        "round-sheets": reverse("web:round-sheets", args=[slug, n]),
        "round-sheets-pdf": reverse("web:round-sheets-pdf", args=[slug, n]),
        "match-sheet": reverse("web:match-sheet", args=[slug, match.pk]),
    }


def team_names(rnd, byes=True):
    matches = rnd.matches.select_related("ns", "ew")
    return [name for m in matches if byes or m.ew_id for name in (m.ns.name, m.ew.name if m.ew else None) if name]


@pytest.mark.parametrize("name, pdf", [("standings-print", "standings-pdf"), ("round-print", "round-pdf"),
                                       ("round-sheets", "round-sheets-pdf")])
def test_print_pages_show_every_team(client, small, name, pdf):
    tournament, rnd = small
    pages = urls(tournament, rnd)
    response = client.get(pages[name])
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html and "web/print.css" in html
    assert "data-print" in html and pages[pdf] in html  # the Print button, the Download PDF link
    for team in team_names(rnd, byes=name != "round-sheets"):  # a bye has no score sheet
        assert team in html, team


def test_round_page_shows_tables_result_and_bye(client, small):
    tournament, rnd = small
    html = client.get(urls(tournament, rnd)["round-print"]).content.decode()
    bye = rnd.matches.get(ew=None)
    assert "Bye:" in html and bye.ns.name in html
    assert "2–0" in html  # table 1 is finished, two games to none


def test_standings_page_lists_the_tiebreaks(client, small):
    tournament, rnd = small
    html = client.get(urls(tournament, rnd)["standings-print"]).content.decode()
    assert "Buchholz" in html and "Ploeg 01" in html


@pytest.mark.parametrize("name", ["standings-pdf", "round-pdf", "round-sheets-pdf"])
def test_pdfs(client, small, name):
    tournament, rnd = small
    response = client.get(urls(tournament, rnd)[name])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith(f'attachment; filename="{tournament.slug}-')
    assert response.content.startswith(b"%PDF") and len(response.content) > 5000


def test_round_pdf_filename(client, small):
    tournament, rnd = small
    response = client.get(urls(tournament, rnd)["round-pdf"])
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-round-1.pdf"'


def test_match_sheet_pdf(client, small):
    tournament, rnd = small
    match = rnd.matches.get(table=2)
    response = client.get(reverse("web:match-sheet-pdf", args=[tournament.slug, match.pk]))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert f'filename="{tournament.slug}-round-1-table-2.pdf"' in response["Content-Disposition"]


def test_pdf_assets_come_from_disk_never_the_network():
    fetch = print_views._local_fetcher("http://example.org/")
    css = fetch("http://example.org/static/web/print.css")
    assert b"@page" in css.read() and css.content_type == "text/css"
    assert fetch("data:text/plain,hi").read() == b"hi"
    for url in ("https://cdn.example.com/x.css", "http://example.org/admin/", "file:///etc/passwd"):
        with pytest.raises(ValueError):
            fetch(url)
    with pytest.raises(ValueError):
        fetch("http://example.org/static/web/no-such-file.css")


def test_pdf_without_weasyprint_is_503(client, small, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pango(name, *args, **kwargs):
        if name == "weasyprint":
            raise OSError("cannot load library 'pango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pango)
    tournament, rnd = small
    response = client.get(urls(tournament, rnd)["round-pdf"])
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html") and b"PDF" in response.content


def test_sheet_has_a_qr_code_of_the_match_page(client, small):
    tournament, rnd = small
    match = rnd.matches.get(table=2)
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    match_url = "http://testserver" + reverse("web:match", args=[tournament.slug, match.pk])
    assert "<svg" in html and match_url in html
    assert html.count('class="sheet"') == 1
    for text in (match.ns.name, match.ew.name, match.ns.player_1.name, match.ew.player_2.name, match.ns.club.name,
                 "Belgian", "best of 3", "101", "Game 3", "Signature NS", "Table 2"):
        assert text in html, text
    assert "Game 4" not in html


def test_round_sheets_one_per_table_no_bye(client):
    tournament, rnd = make_tournament(3)
    html = client.get(reverse("web:round-sheets", args=[tournament.slug, rnd.number])).content.decode()
    assert html.count('class="sheet"') == 3 and html.count("<svg") == 3
    for m in rnd.matches.exclude(ew=None):
        assert "http://testserver" + reverse("web:match", args=[tournament.slug, m.pk]) in html


def hand_rows(html: str) -> list[int]:
    """The hand rows of each game's grid on a sheet."""
    return [grid.count('class="num hand-number"') for grid in html.split('class="sheet-grid"')[1:]]


def test_a_belgian_sheet_has_room_for_a_long_game_in_each_game(client):
    """Issue 25, defect 2: 12 rows a game, when the demo's own Belgian games ran to 13 and 17 hands."""
    tournament, rnd = make_tournament(1)
    match = rnd.matches.get(table=1)
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert hand_rows(html) == [21, 21, 21]  # a game to 101: a row for every 5 points
    # A loose second page says whose it is.
    assert html.count(f"Round {rnd.number} · Table 1") == 1 + 2


def test_best_of_five_has_a_grid_per_game(client):
    tournament, rnd = make_tournament(1)
    tournament.best_of = 5
    tournament.options = {"target": 41}
    tournament.save()
    match = rnd.matches.get(table=1)
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert hand_rows(html) == [12] * 5 and "Game 5" in html and "best of 5" in html


def test_a_game_of_fixed_rounds_has_exactly_its_deals(client):
    tournament, rnd = make_tournament(1)
    tournament.variant, tournament.best_of, tournament.options = "classic-malilla", 1, {"rounds": 6}
    tournament.save()
    match = rnd.matches.get(table=1)
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert hand_rows(html) == [24]


def test_a_game_of_a_fixed_number_of_deals_says_its_deals_and_has_their_rows(client):
    tournament, rnd = make_tournament(1)
    tournament.variant, tournament.best_of, tournament.options = "belgian-manille", 1, {"deals": 4}
    tournament.save()
    match = rnd.matches.get(table=1)
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert hand_rows(html) == [4]
    assert "4 deals a game" in html and "game to" not in html and "more deal" not in html
    tournament.options = {"deals": 4, "tiebreak_deals": 2}  # a level game plays two more deals at a time
    tournament.save()
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    assert hand_rows(html) == [6] and "level after them: 2 more deals at a time" in html


def test_a_best_of_three_sheet_continues_on_a_second_page_with_each_grid_whole(client, small):
    pytest.importorskip("weasyprint")
    from weasyprint import HTML

    tournament, rnd = small
    match = rnd.matches.exclude(ew=None).order_by("table").first()
    html = client.get(reverse("web:match-sheet", args=[tournament.slug, match.pk])).content.decode()
    from web.print_views import _local_fetcher

    try:
        document = HTML(string=html, base_url="http://testserver/", url_fetcher=_local_fetcher("http://testserver/"))
        rendered = document.render()
    except OSError as exc:  # no pango
        pytest.skip(f"WeasyPrint cannot render here: {exc}")
    assert len(rendered.pages) == 2
    # Each game's 21 rows on one page: hand 1 and hand 21 of a game never on different pages.
    texts = ["".join(box.text for box in _text_boxes(page._page_box)) for page in rendered.pages]
    assert texts[0].count("Game") >= 1 and texts[1].count("Game") >= 1


def _text_boxes(box):
    if hasattr(box, "text"):
        yield box
    for child in getattr(box, "children", []):
        yield from _text_boxes(child)


def test_bye_and_other_tournaments_match_have_no_sheet(client, small):
    tournament, rnd = small
    bye = rnd.matches.get(ew=None)
    assert client.get(reverse("web:match-sheet", args=[tournament.slug, bye.pk])).status_code == 404
    other, other_round = make_tournament(1)
    foreign = other_round.matches.get(table=1)
    assert client.get(reverse("web:match-sheet", args=[tournament.slug, foreign.pk])).status_code == 404
    assert client.get(reverse("web:round-print", args=[tournament.slug, 9])).status_code == 404


def test_private_tournament_is_404_everywhere(client):
    tournament, rnd = make_tournament(1, public=False)
    for name, url in urls(tournament, rnd).items():
        assert client.get(url).status_code == 404, name


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("name", ["standings-print", "round-print", "round-sheets", "standings-pdf",
                                  "round-sheets-pdf"])
def test_queries_do_not_grow_with_the_tables(client, name, django_assert_max_num_queries):
    small_t, small_r = make_tournament(2)
    big_t, big_r = make_tournament(8)
    small_count = _queries(client, urls(small_t, small_r)[name])
    with django_assert_max_num_queries(8):
        big_count = _queries(client, urls(big_t, big_r)[name])
    assert big_count == small_count
