"""Rounds published on purpose (issue 28) in headless Chromium: the organizer's round page of a round not yet
published, marked, at phone and desktop widths (screenshots in $SCREENSHOT_DIR); its Publish button publishes it."""

import pytest

from tests.factories import EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.workspace.test_organize_browser import WIDTHS, shoot, sign_in
from tournaments.models import Round
from tournaments.services.rounds import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hall():
    organizer = UserFactory(username="orga", password="orga-password")
    cup = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=1, auto_publish=False)
    cup.organizers.add(organizer)
    for i in range(8):
        EntryFactory(tournament=cup, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    round_pair(tournament=cup)
    with AsgiServer() as server:
        yield server, cup


def test_the_organizer_publishes_the_round_from_its_page(browser, hall):  # noqa: F811
    server, cup = hall
    page = browser.new_page(viewport={"width": 390, "height": 844})
    url = f"/my/t/{cup.slug}/rounds/1/"
    sign_in(page, server, url)
    assert page.locator(".org-publish button[type=submit]").is_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        shoot(page, "round-unpublished")
    assert page.goto(f"{server.url}/t/{cup.slug}/rounds/1/").status == 404
    page.goto(f"{server.url}{url}")
    page.click(".org-publish button[type=submit]")
    page.wait_for_load_state()
    assert Round.objects.get(tournament=cup, number=1).published
    assert page.locator(".org-publish").count() == 0
    shoot(page, "round-published")
    assert page.goto(f"{server.url}/t/{cup.slug}/rounds/1/").status == 200
