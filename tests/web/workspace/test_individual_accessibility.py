"""The workspace's pages of an individual event through axe-core (as tests/web/test_accessibility.py judges every
page): the tournament form with its new fields, the players, the round with its clock and draw, the code page
(empty and refusing), a table opened by its code, and the scorekeeper's list; in English on a desktop and in
Dutch on a phone."""

import uuid

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.factories import UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.test_accessibility import AXE_PATH, axe_script, findings, report
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Entry, KeptApart, Match, TaskRecord

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def hall():
    user = UserFactory(username="orga")
    t = individual_event(22, organizer=user, minutes=30)
    t.scorekeepers.add(user)
    a, b = sorted((e.player for e in Entry.objects.filter(tournament=t, start_number__in=(1, 5))),
                  key=lambda p: p.pk)
    KeptApart.objects.create(tournament=t, player_a=a, player_b=b)
    seat_round(t, 1, codes=["ACD347", "KMN679", "PQR333", "TUV444", "WXY666"])
    task = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=t)
    with AsgiServer() as server:
        yield server, t, user, task


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("nl", 390)])
def test_the_individual_events_pages_pass_axe(hall, browser, language, width):  # noqa: F811
    script = axe_script()
    if script is None:
        pytest.skip("axe-playwright-python (which ships axe-core) is not installed: pip install -e '.[dev]'")
    server, t, user, task = hall
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]

    def new_page(signed_in: bool):
        context = browser.new_context(locale=language, viewport={"width": width, "height": 800})
        if signed_in:
            context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
        context.route(f"{server.url}{AXE_PATH}",
                      lambda route: route.fulfill(body=script, content_type="text/javascript; charset=utf-8"))
        return context.new_page()

    match = Match.objects.get(round__tournament=t, table=1)
    base = f"/my/t/{t.slug}"
    organizer, phone = new_page(True), new_page(False)
    failures = []
    for page, kind, name, path in [
        (organizer, "site", "tournament form", f"{base}/edit/"),
        (organizer, "site", "players", f"{base}/entries/?find=an"),
        (organizer, "site", "dashboard", f"{base}/"),
        (organizer, "site", "round", f"{base}/rounds/1/"),
        (organizer, "site", "draw in progress", f"{base}/pairing/{task.id}/"),
        (organizer, "entry", "scorekeeper's tables", f"{base}/score/"),
        (phone, "site", "code page", f"{base}/table/"),
        (phone, "site", "code refused", f"{base}/table/{match.pk}/"),
    ]:
        page.goto(f"{server.url}{path}")
        assert page.locator("html").get_attribute("lang") == language
        failures.append(report(name, findings(page, server, kind)))
    phone.goto(f"{server.url}{base}/table/")
    phone.fill("#table-code", "ZZZ999")
    phone.click(".code-form button")
    phone.wait_for_load_state()
    failures.append(report("code page, a wrong code", findings(phone, server, "site")))
    phone.fill("#table-code", "ACD347")
    phone.click(".code-form button")
    phone.wait_for_url(f"**{base}/table/{match.pk}/")
    failures.append(report("a table by its code", findings(phone, server, "entry")))
    organizer.context.close()
    phone.context.close()
    failures = [f for f in failures if f]
    assert not failures, f"axe findings in {language}:\n" + "\n".join(failures)
