"""'Where do I sit?' on a phone (390 px) in headless Chromium: a player types a few letters and sees their table; the
clock counts down; the wall turns its pages of names."""

import pytest

from tests.individual import make_individual
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tournaments.models import Round
from tournaments.services.clock import round_clock_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture
def hall():
    """A kaarting of 22 players with round 1 drawn and its clock running, served by uvicorn."""
    tournament = make_individual(22)
    round_clock_start(round=Round.objects.get(tournament=tournament, number=1))
    with AsgiServer() as server:
        yield server, tournament


def test_a_player_types_a_few_letters_on_a_phone_and_sees_their_table(browser, hall):  # noqa: F811
    server, tournament = hall
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/seat/")
    page.evaluate("window.__notReloaded = true")
    field = page.get_by_label("Your name, or your start number")
    field.tap()
    field.press_sequentially("pee", delay=60)
    page.wait_for_function("document.querySelectorAll('#seat-results .seat-card').length === 2", timeout=5000)
    field.press_sequentially(" an", delay=60)
    card = page.locator("#seat-results .seat-card")
    page.wait_for_function("document.querySelectorAll('#seat-results .seat-card').length === 1", timeout=5000)
    assert "An Peeters" in card.inner_text() and "Table 1" in card.inner_text() and "seat North" in card.inner_text()
    assert "Jan Claes" in card.locator(".seat-people").inner_text()  # the partner
    assert page.evaluate("window.__notReloaded") is True  # found as the player typed, no page load
    assert page.url.endswith("/seat/?q=pee%20an")  # a reload shows the same answer
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sideways on the phone
    box = card.bounding_box()
    assert box["y"] + box["height"] <= 844 * 1.4  # the answer is close to the field, not pages away
    # Nobody: said at once; a start number finds its player.
    field.fill("xyz")
    page.wait_for_selector("#seat-results .seat-none", timeout=5000)
    field.fill("2")
    page.wait_for_function("document.querySelector('#seat-results .seat-card h3') &&"
                           " document.querySelector('#seat-results .seat-card h3').textContent.includes('Jan Claes')",
                           timeout=5000)
    context.close()


def test_without_javascript_the_form_still_answers(browser, hall):  # noqa: F811
    server, tournament = hall
    context = browser.new_context(java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/seat/")
    page.get_by_label("Your name, or your start number").fill("marie")
    page.get_by_role("button", name="Find my seat").click()
    page.wait_for_load_state()
    assert "q=marie" in page.url
    assert "Table 1" in page.locator(".seat-card").inner_text()
    context.close()


def test_the_clock_counts_down_between_live_updates(browser, hall):  # noqa: F811
    server, tournament = hall
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/seat/")
    first = page.locator(".clock-time").inner_text()
    page.wait_for_function(f"document.querySelector('.clock-time').textContent !== {first!r}", timeout=3000)
    minutes, seconds = page.locator(".clock-time").inner_text().split(":")
    assert int(minutes) in (28, 29) and 0 <= int(seconds) < 60
    context.close()


def test_a_device_whose_clock_is_wrong_still_counts_down_in_the_servers_time(browser, hall):  # noqa: F811
    from datetime import datetime, timedelta

    server, tournament = hall
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.clock.set_system_time(datetime.now() + timedelta(minutes=10))  # a hall's computer ten minutes fast
    page.goto(f"{server.url}/t/{tournament.slug}/seat/")
    # The clock region is fetched at once; its Date header corrects the device's ten minutes.
    page.wait_for_function("/^(29|30):/.test(document.querySelector('.clock-time').textContent) &&"
                           " document.querySelector('.live-clock').hasAttribute('data-live-synced')", timeout=5000)
    page.wait_for_timeout(1500)
    assert page.locator(".clock-time").inner_text().startswith(("29:", "30:"))
    context.close()


def test_the_wall_turns_its_pages_of_names_then_shows_the_tables(browser):  # noqa: F811
    tournament = make_individual(100, slug="groot", name="Groot")  # 48 names a page: three pages
    with AsgiServer() as server:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{server.url}/t/{tournament.slug}/wall/?seconds=5")
        current = "document.querySelector('.wall-page.is-current').dataset.page"
        assert page.evaluate(current) == "1" and page.locator(".wall-page").count() == 3
        assert page.locator(".wall-page:not(.is-current)").first.is_hidden()
        page.wait_for_function(f"{current} === '2'", timeout=7000)
        page.wait_for_function(f"{current} === '3'", timeout=7000)
        page.wait_for_function("document.querySelector('.wall-stage').dataset.show === 'tables'", timeout=7000)
        assert page.locator('.wall-panel[data-panel="names"]').is_hidden()
