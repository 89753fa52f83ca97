"""A director (not an organizer) decides on a clock ended early from the director's decisions page, in headless
Chromium at phone and desktop widths without sideways scrolling (screenshots in $SCREENSHOT_DIR)."""

import pytest

from tests.web.browser import browser  # noqa: F401 (fixture)
from tests.web.workspace.individual import individual_event, seat_round
from tests.web.workspace.test_organize_browser import WIDTHS, hall, shoot, sign_in  # noqa: F401 (fixture)
from tournaments.models import DirectorAction, Round
from tournaments.services.clock import round_clock_end, round_clock_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_reopens_a_clock_ended_early_from_the_decisions_page(browser, hall):  # noqa: F811
    server, director = hall
    event = individual_event(8, name="Kaarting De Kat", slug="kaarting-de-kat")
    event.directors.add(director)  # a director, not an organizer
    rnd = seat_round(event, 1)
    round_clock_start(round=rnd, minutes=30)
    round_clock_end(round=rnd)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{event.slug}/actions/")
        block = page.inner_text(f"#clock-cut-{rnd.pk}")
        assert "Round 1" in block and "about 30 min left" in block
        shoot(page, "clock-cut-decisions")
    page.fill(f"#clock-cut-{rnd.pk}-reason", "ended the wrong round")
    page.click(f"#clock-cut-{rnd.pk} button[value=reopen]")
    page.wait_for_load_state()
    assert "The clock runs again" in page.inner_text(".messages")
    assert page.locator(f"#clock-cut-{rnd.pk}").count() == 0
    shoot(page, "clock-cut-reopened")
    assert DirectorAction.objects.get().kind == "clock_reopened"
    assert Round.objects.get(pk=rnd.pk).clock_cut_left is None
