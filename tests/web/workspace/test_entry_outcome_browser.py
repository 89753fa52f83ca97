"""The answer to the deciding hand, in headless Chromium at 390 px (the user walk-through): the queue's page says
the result waits for the opponents' confirmation without a reload, and the director's decisions name the teams."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.browser import browser  # noqa: F401 (fixture)
from tests.web.workspace.test_confirmation_browser import phone
from tests.web.workspace.test_entry_browser import type_hand
from tests.web.workspace.test_team_confirmation_browser import hall  # noqa: F401 (fixture)
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_deciding_hand_shows_the_result_waiting_without_a_reload(browser, hall):  # noqa: F811
    server, t = hall
    match = Match.objects.get(round__tournament=t, table=1)
    context, page, _device = phone(browser, server, t, match.table_code)
    page.goto(f"{server.url}/my/t/{t.slug}/table/{match.pk}/")
    page.check("input[name=dealer][value=N]")
    for stored in range(1, 8):  # hands typed on the page until the deciding one (the next dealer is chosen)
        type_hand(page, points_ns="60")
        page.click("#hand-save")
        page.wait_for_function(f"document.querySelectorAll('#queue-list li[data-status=stored]').length >= {stored}")
        if page.is_hidden("#hand-form"):
            break
    page.wait_for_function("(document.querySelector('#entry-outcome') || {}).innerText"
                           " && document.querySelector('#entry-outcome').innerText.includes('Waiting for confirmation')")
    assert "You can still correct or delete its last hand." in page.inner_text("#entry-outcome")
    context.close()


def test_the_decisions_name_the_chosen_matchs_teams(browser, hall):  # noqa: F811
    server, t = hall
    organizer = UserFactory(username="orga")
    organizer.set_password("orga-pass-1")
    organizer.save()
    t.organizers.add(organizer)
    match = Match.objects.select_related("ns", "ew").get(round__tournament=t, table=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = context.new_page()
    page.goto(f"{server.url}/my/login/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "orga-pass-1")
    page.press("input[name=password]", "Enter")
    page.wait_for_load_state()
    page.goto(f"{server.url}{reverse('ws:actions', args=[t.slug])}")
    page.click("details.desk-kind summary")
    page.select_option("#forfeit-match", str(match.pk))
    options = page.eval_on_selector_all("#forfeit-absent option", "os => os.map(o => o.textContent)")
    assert options[:2] == [f"NS: {match.ns.name}", f"EW: {match.ew.name}"]
    chosen = page.inner_text("#forfeit-match ~ .desk-chosen")
    assert match.ns.name in chosen and match.ew.name in chosen  # the whole match, wrapped under its select
    context.close()
