"""The site in real headless Chromium: live updates without a reload, the wall, the language picker, a phone."""

import os

import httpx
import pytest
from api.models import AuthToken

from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import belgian_hand, enter_hands, make_tournament
from tournaments.models import Match
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(settings):
    """The tournament of the page tests, served by uvicorn; push through Redis when REDIS_URL is set."""
    if os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                               "CONFIG": {"hosts": [os.environ["REDIS_URL"]],
                                                          "prefix": "manille-browser-tests"}}}
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    enter_hands(match, 2)
    standings_recompute(tournament=tournament)
    with AsgiServer() as server:
        yield server, tournament, match
    channel_layers.backends.clear()


def api_enter_hand(server, match, number):
    """Enter hand ``number`` of the match's game through the REST API, as a scorekeeper's phone would."""
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="keeper")
    match.round.tournament.scorekeepers.add(user)
    _, key = AuthToken.objects.create(user)
    response = httpx.post(f"{server.url}/api/v1/matches/{match.pk}/hands/", json=belgian_hand(number),
                          headers={"Authorization": f"Token {key}"}, timeout=10)
    assert response.status_code == 201, response.text


def hand_rows(page) -> int:
    return page.locator("table.hands tbody tr").count()


@pytest.mark.parametrize("push", [True, False], ids=["push", "polling"])
def test_a_hand_entered_through_the_api_appears_within_2_seconds(browser, site, settings, push):  # noqa: F811
    settings.LIVE_PUSH = push
    server, tournament, match = site
    page = browser.new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/matches/{match.pk}/")
    assert page.locator("body").get_attribute("data-live-push") == ("1" if push else "0")
    assert hand_rows(page) == 2
    page.evaluate("window.__notReloaded = true")
    if push:  # the socket is open before the hand is entered
        page.wait_for_function("document.querySelector('.live').dataset.liveState === 'push'", timeout=5000)
    api_enter_hand(server, match, 3)
    page.wait_for_function("document.querySelectorAll('table.hands tbody tr').length === 3", timeout=2000)
    assert page.evaluate("window.__notReloaded") is True
    assert "W deals" in page.locator(".next-deal").inner_text()


def test_the_wall_cycles_between_tables_and_standings(browser, site):  # noqa: F811
    server, tournament, match = site
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server.url}/t/{tournament.slug}/wall/?seconds=5")
    stage = page.locator(".wall-stage")
    assert stage.get_attribute("data-show") == "tables"
    assert page.locator('.wall-panel[data-panel="tables"]').is_visible()
    assert not page.locator('.wall-panel[data-panel="standings"]').is_visible()
    page.wait_for_function("document.querySelector('.wall-stage').dataset.show === 'standings'", timeout=7000)
    assert page.locator('.wall-panel[data-panel="standings"]').is_visible()
    page.wait_for_function("document.querySelector('.wall-stage').dataset.show === 'tables'", timeout=7000)


def test_the_language_picker_switches_the_page(browser, site):  # noqa: F811
    server, tournament, match = site
    page = browser.new_page(locale="en-GB")
    page.goto(f"{server.url}/t/{tournament.slug}/standings/")
    assert page.locator("html").get_attribute("lang") == "en"
    with page.expect_navigation():
        page.select_option("#language-select", "nl")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert "Klassement" in page.locator("main").inner_text()


def test_the_browsers_language_is_the_default(browser, site):  # noqa: F811
    server, tournament, match = site
    page = browser.new_context(locale="nl-BE").new_page()
    page.goto(f"{server.url}/")
    assert page.locator("html").get_attribute("lang") == "nl"


def test_the_match_table_fits_a_phone_without_sideways_scrolling(browser, site):  # noqa: F811
    server, tournament, match = site
    enter_hands(match, 6)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/t/{tournament.slug}/matches/{match.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    widths = page.evaluate("[...document.querySelectorAll('table.hands')].map(t => [t.scrollWidth, t.clientWidth])")
    assert widths and all(scroll <= client for scroll, client in widths)


def test_the_wall_shows_a_tall_round_a_screenful_at_a_time(browser):  # noqa: F811
    tournament = make_tournament(40, name="Grote Beker", slug="grote-beker", club_name="Groot")
    with AsgiServer() as server:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{server.url}/t/{tournament.slug}/wall/?seconds=5")
        assert page.evaluate("document.documentElement.scrollHeight") > 720
        page.wait_for_function("window.scrollY > 0", timeout=7000)
        assert page.locator(".wall-stage").get_attribute("data-show") == "tables"


def test_a_match_page_in_dutch_draws_its_chart_without_a_console_error(browser, site):  # noqa: F811
    """Issue 25: the chart's numbers were written "30,0" in Dutch, and every point fell into the corner."""
    server, tournament, match = site
    page = browser.new_context(locale="nl-BE").new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/t/{tournament.slug}/matches/{match.pk}/")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert errors == []
    # Each side's dots, at the start and after each of the two hands, spread along the axis from its left end.
    xs = page.evaluate("[...document.querySelectorAll('.chart circle')].map(c => c.cx.baseVal.value)")
    assert len(xs) == 2 * 3 and sorted(set(xs)) == [30, 171, 312]
    assert page.evaluate("document.querySelector('.chart polyline.ns').getBBox().width") == 312 - 30


def test_the_standings_on_a_phone_keep_the_team_in_sight_and_show_that_they_scroll(browser, site):  # noqa: F811
    """Issue 25: on a phone the tiebreaks were off screen with nothing to say so."""
    import io

    from PIL import Image, ImageStat

    server, tournament, match = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/t/{tournament.slug}/standings/")
    # Measured once the region has caught up with the server: its first fetch may swap in a fresh table,
    # and a box read while it is replaced is None (CI once).
    page.wait_for_selector(".live[data-live-synced]", state="attached")
    box = page.locator(".table-scroll")
    scroll_width, client_width = page.evaluate("(e => [e.scrollWidth, e.clientWidth])"
                                               "(document.querySelector('.table-scroll'))")
    assert scroll_width > client_width  # the tiebreaks lie past the edge...
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # ...of the table, not of the page

    def right_edge_brightness() -> float:
        b = box.bounding_box()
        shot = page.screenshot(clip={"x": b["x"] + b["width"] - 8, "y": b["y"], "width": 6, "height": b["height"]})
        return ImageStat.Stat(Image.open(io.BytesIO(shot)).convert("L")).mean[0]

    team = page.locator("tbody th.team-col").first
    before = team.bounding_box()
    shaded = right_edge_brightness()
    page.evaluate("document.querySelector('.table-scroll').scrollLeft = 1e6")
    # At the end nothing more lies to the right: the shadow that said so is gone; the team has stayed in place.
    assert shaded < right_edge_brightness() - 15
    assert team.bounding_box()["x"] == before["x"]
    centre = (before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('th.team-col') !== null", centre)


def test_a_live_update_leaves_the_standings_scrolled_where_the_reader_left_them(browser, site, settings):  # noqa: F811
    """A phone reader scrolled to the tiebreaks was thrown back to the first column by every update."""
    settings.LIVE_PUSH = False  # polling: the next poll of a region whose tag is stale swaps in a new table
    server, tournament, match = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/t/{tournament.slug}/standings/")
    page.wait_for_selector(".live[data-live-synced]", state="attached")
    page.evaluate("document.querySelector('.table-scroll').scrollLeft = 1e6")
    left = page.evaluate("document.querySelector('.table-scroll').scrollLeft")
    assert left > 0
    page.evaluate("""() => { const live = document.querySelector('.live');
                             live.dataset.liveEtag = '"stale"';
                             live.addEventListener('live:updated', () => { window.__swapped = true; }); }""")
    page.wait_for_function("window.__swapped === true", timeout=5000)
    assert page.evaluate("document.querySelector('.table-scroll').scrollLeft") == left


def test_the_wall_shows_the_game_in_play_as_the_large_figure_and_games_won_beside_it(browser, site):  # noqa: F811
    """Issue 25: the hall reads the running game's points from afar; they were small and grey, games won large."""
    server, tournament, match = site
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.set_default_timeout(5000)
    page.goto(f"{server.url}/t/{tournament.slug}/wall/")
    game = match.games.get(number=1)
    tile = page.locator(f".table-link[href$='/matches/{match.pk}/']")
    points, games = tile.locator(".game-points"), tile.locator(".games")
    assert points.inner_text() == f"{game.total_ns}–{game.total_ew}"
    assert games.is_visible() and games.inner_text().endswith("0–0")

    def style(locator, prop):
        return locator.evaluate(f"e => getComputedStyle(e).{prop}")

    size = float(style(points, "fontSize").removesuffix("px"))
    assert size >= 2 * float(style(games, "fontSize").removesuffix("px")) and size >= 40
    assert style(points, "color") == "rgb(255, 255, 255)"  # white on the tile's near-black
    # The round's page (not the wall) keeps games won as its figure and the game's points in the state line.
    page.goto(f"{server.url}/t/{tournament.slug}/rounds/")
    tile = page.locator(f".table-link[href$='/matches/{match.pk}/']")
    assert not tile.locator(".game-points").is_visible()
    assert f"{game.total_ns}–{game.total_ew}" in tile.locator(".state").inner_text()


#: Every link and control on screen smaller than 24 px either way, but a link inside a sentence (the footer's).
SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, select, input:not([type=hidden]), summary')]
  .filter(e => !e.closest('.site-footer p'))
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && (r.height < 24 || r.width < 24); })
  .map(e => { const r = e.getBoundingClientRect();
              return `${e.tagName} ${Math.round(r.width)}x${Math.round(r.height)} ${(e.innerText || e.name || '').trim()}`; })"""


def test_a_thumb_finds_every_link_that_stands_alone_on_a_phone(browser, site):  # noqa: F811
    """WCAG 2.2's 24 px targets (2.5.8): the header's links, the crumbs, Print and PDF were 16 to 23 px tall."""
    server, tournament, match = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    small = {}
    for path in ("/", f"/t/{tournament.slug}/", f"/t/{tournament.slug}/standings/", f"/t/{tournament.slug}/rounds/",
                 f"/t/{tournament.slug}/matches/{match.pk}/", f"/t/{tournament.slug}/teams/{match.ns_id}/",
                 "/variants/belgian-manille/"):
        page.goto(f"{server.url}{path}")
        small[path] = page.evaluate(SMALL_TARGETS)
    assert not any(small.values()), small


@pytest.mark.parametrize("language", ["en", "nl", "fr", "es", "ca"])
def test_the_variant_pages_fit_a_phone_in_every_language(browser, site, language):  # noqa: F811
    """A house rule's long name took the whole line and pushed its description off screen (536 px in French)."""
    import scoring

    server, tournament, match = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
    page = context.new_page()
    wide = {}
    for slug in scoring.VARIANTS:
        page.goto(f"{server.url}/variants/{slug}/")
        assert page.locator("html").get_attribute("lang") == language
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[slug] = width
    context.close()
    assert not wide, wide
