"""The director's desk announces a new dispute in a knockout by the round's name, as its row names it ("A new
dispute: table 1 of the final."), not "round 3"; in the page's language. Headless Chromium at 390 and 1280 px
without sideways scrolling (screenshots in $SCREENSHOT_DIR when set)."""

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.stage_pages import knockout_event
from tests.web.workspace.test_organize_browser import shoot, sign_in
from tournaments.models import Match, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cup():
    """A knockout of eight, its final and match for third place paired; its organizer (a director) "orga"."""
    tournament = knockout_event(8, decided=2, third_place=True)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents")
    tournament.organizers.add(UserFactory(username="orga", password="orga-password"))
    with AsgiServer() as server:
        yield server, tournament


@pytest.mark.parametrize("width,locale,words", [
    (390, "en", "A new dispute: table 1 of the final."),
    (1280, "fr", "Une nouvelle contestation : table 1 de la finale."),
])
def test_the_desk_announces_a_dispute_of_the_final_by_its_name(browser, cup, width, locale, words):  # noqa: F811
    server, tournament = cup
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    try:
        desk = context.new_page()
        sign_in(desk, server, f"/my/t/{tournament.slug}/desk/")
        desk.wait_for_selector("#desk-rows")
        assert desk.locator("#desk-alert").is_hidden()
        final = Match.objects.get(round__tournament=tournament, round__number=3, table=1)
        Match.objects.filter(pk=final.pk).update(status="finished", result_status="disputed",
                                                 result_at=timezone.now(), result_reason="Hand 4 was 30-30.")
        desk.wait_for_selector("#desk-alert:not([hidden])", timeout=15000)  # the poll brings the new dispute
        assert desk.inner_text("#desk-alert") == words
        assert "Hand 4 was 30-30." in desk.inner_text("#desk-rows")
        shoot(desk, f"desk-alert-final-{locale}")
    finally:
        context.close()
