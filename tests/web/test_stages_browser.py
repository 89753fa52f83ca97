"""The knockout's bracket on a phone (390 px) in headless Chromium: the page does not overflow, the bracket scrolls
sideways inside its own box to the final, and its text stays legible (13 px, never scaled down)."""

import os

import pytest

from tests.web.browser import browser, save_shot, server  # noqa: F401 (fixtures)
from tests.web.stage_pages import knockout_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Set to a folder to keep the screenshots the test takes (e.g. /work/wt/shots/stages-pages).
SHOTS = os.environ.get("STAGES_SHOTS", "")


def shot(page, name: str) -> None:
    save_shot(SHOTS, page, name)


def test_the_bracket_of_16_on_a_phone_scrolls_to_the_final_and_stays_legible(browser, server):  # noqa: F811
    tournament = knockout_event(16, decided=2, playing=1, name="Beker van Roeselare", slug="beker")
    page = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                               locale="en").new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/stages/")
    box = page.locator(".bracket-scroll")
    svg = box.locator("svg.bracket")
    assert svg.is_visible()
    # The page itself keeps to the phone's width; the bracket is wider and scrolls inside its box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    inner = box.evaluate("b => ({client: b.clientWidth, scroll: b.scrollWidth})")
    assert inner["scroll"] > inner["client"] >= 300
    # Its names are drawn at 13 px on screen (the SVG keeps its size: nothing scaled down to fit).
    name = svg.locator("text.bk-name").first
    assert name.evaluate("t => t.getBoundingClientRect().height") >= 12
    assert abs(svg.evaluate("s => s.getBoundingClientRect().width") - float(svg.get_attribute("width"))) < 1
    shot(page, "bracket-16-phone-390")
    # Scrolled to its end, the final's column is in view.
    box.evaluate("b => b.scrollTo(b.scrollWidth, 0)")
    final_head = svg.locator("text.bk-head").last
    left = final_head.evaluate("t => t.getBoundingClientRect().left")
    assert 0 <= left <= 390
    shot(page, "bracket-16-phone-390-scrolled")
    # The winner of a decided match is marked with ✓ (not by colour alone).
    assert svg.locator("g.bk-won text.bk-mark").count() >= 12
    page.close()


def signed_in_context(browser, server, user, **options):  # noqa: F811
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}])
    return context


def test_the_stages_pages_at_both_widths(browser, server):  # noqa: F811
    """The Roeselare event through the services: the pools, the bracket, the event's ranking, the wall, the print
    page and the organizer's stages page render at a phone's and a desktop's width without overflowing (and the
    screenshots, when asked for)."""
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(knockout_rounds_played=3, name="Roeselare duo 2026", slug="roeselare")
    running = roeselare_event(pools_rounds_played=2, name="Roeselare duo 2027", slug="roeselare-2027")
    pending = roeselare_event(start_knockout=False, name="Roeselare duo 2028", slug="roeselare-2028")
    unplayed = roeselare_event(pools_rounds_played=0, name="Roeselare duo 2030", slug="roeselare-2030")
    organizer = running.organizers.first()
    pending.organizers.add(organizer)
    unplayed.organizers.add(organizer)
    from tournaments.services.stages import stage_start
    stage_start(tournament=unplayed, number=1, user=organizer)  # the event started, no round played yet
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en")
        page = context.new_page()
        page.goto(f"{server.url}/t/{tournament.slug}/stages/")
        assert page.locator(".stage-tabs a[aria-current=page]").inner_text().startswith("2")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"stage-knockout-full-{width}")
        page.goto(f"{server.url}/t/{tournament.slug}/stages/1/")
        assert page.locator("table.pool-table").count() == 15
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"stage-pools-closed-{width}")
        page.goto(f"{server.url}/t/{tournament.slug}/stages/ranking/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"event-ranking-{width}")
        page.goto(f"{server.url}/t/{tournament.slug}/stages/2/bracket/print/")
        assert page.locator("svg.bracket").is_visible()
        shot(page, f"bracket-print-{width}")
        page.goto(f"{server.url}/t/{tournament.slug}/wall/")
        page.evaluate("document.querySelector('.wall-stage').setAttribute('data-show', 'bracket')")
        assert page.locator("#wall-bracket").is_visible()
        shot(page, f"wall-bracket-{width}")
        page.goto(f"{server.url}/t/{running.slug}/wall/")
        page.evaluate("document.querySelector('.wall-stage').setAttribute('data-show', 'pools')")
        assert page.locator(".wall-panel[data-panel=pools] table.pool-table").count() == 15
        shot(page, f"wall-pools-{width}")
        page.goto(f"{server.url}/t/{running.slug}/stages/1/")
        shot(page, f"stage-pools-running-{width}")
        page.goto(f"{server.url}/t/{pending.slug}/stages/2/")
        assert "The bracket is drawn when the stage starts." in page.content()
        shot(page, f"stage-knockout-empty-{width}")
        page.goto(f"{server.url}/t/{pending.slug}/stages/9/")
        shot(page, f"stage-404-{width}")
        context.close()
        context = signed_in_context(browser, server, organizer, viewport={"width": width, "height": height},
                                    locale="en")
        page = context.new_page()
        page.goto(f"{server.url}/my/t/{unplayed.slug}/stages/?qualifiers=1")
        assert page.locator("[role=alert]").inner_text() == (
            "Stage 1 has no finished round yet: there is nothing to close.")
        shot(page, f"ws-stages-error-{width}")
        page.goto(f"{server.url}/my/t/{pending.slug}/stages/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"ws-stages-pending-{width}")
        context.close()
    from tests.factories import TournamentFactory
    from tests.web.stage_pages import teams_for

    fresh = TournamentFactory(name="Beker van Izegem", slug="izegem", format="swiss", rounds=3, best_of=3)
    teams_for(fresh, 24)
    fresh.organizers.add(organizer)
    running_late = roeselare_event(pools_rounds_played=3, close_pools=False, name="Roeselare duo 2029",
                                   slug="roeselare-2029")
    running_late.organizers.add(organizer)
    for width, height in ((390, 844), (1280, 900)):
        context = signed_in_context(browser, server, organizer, viewport={"width": width, "height": height},
                                    locale="nl")
        page = context.new_page()
        page.goto(f"{server.url}/my/t/{fresh.slug}/stages/")
        shot(page, f"ws-stages-empty-nl-{width}")
        page.goto(f"{server.url}/my/t/{running_late.slug}/stages/?qualifiers=1")
        assert "Nu afsluiten stuurt 16 door naar fase 2:" in page.content()
        shot(page, f"ws-stages-qualifiers-nl-{width}")
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    page = context.new_page()
    big = knockout_event(64, decided=3, playing=3, name="Open van Vlaanderen", slug="open")
    page.goto(f"{server.url}/t/{big.slug}/stages/")
    shot(page, "bracket-64-1280")
    page.goto(f"{server.url}/t/{big.slug}/stages/1/bracket/print/")
    page.emulate_media(media="print")
    shot(page, "bracket-64-print")
    if SHOTS:
        page.pdf(path=os.path.join(SHOTS, "bracket-64-print.pdf"), format="A4")
    context.close()


def test_the_bracket_with_its_match_for_third_place_at_both_widths(browser, server):  # noqa: F811
    """A knockout of 8 after 4 pools played through the services to its end, third place included: the match
    for third place is drawn under the final and its winner named in the drawing's description; the final's
    round has its stage's address."""
    from tests.web.stage_pages import roeselare_event
    from tournaments.models import Match

    tournament = roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=3,
                                 third_place=True, name="Beker van Roeselare 2026", slug="beker-third")
    third = Match.objects.get(round__stage__tournament=tournament, round__stage__number=2, round__number=3, table=2)
    winner = third.ns if third.winner == "ns" else third.ew
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en")
        page = context.new_page()
        page.goto(f"{server.url}/t/{tournament.slug}/stages/2/")
        svg = page.locator("svg.bracket")
        assert svg.is_visible()
        assert svg.locator("text.bk-head", has_text="Third place").count() == 1
        assert f"Third place: {winner.name}." in svg.locator("desc").text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator(".bracket-scroll").evaluate("b => b.scrollTo(b.scrollWidth, 0)")
        shot(page, f"bracket-third-place-{width}")
        # The knockout's final round at its stage's address, named in the rounds' picker as its bracket names it.
        page.goto(f"{server.url}/t/{tournament.slug}/stages/2/rounds/3/")
        assert page.locator(".round-picker a[aria-current=page]").inner_text() == "Final"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"stage-round-{width}")
        context.close()
