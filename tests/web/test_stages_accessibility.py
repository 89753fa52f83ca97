"""The stages' pages through axe-core (as tests/web/test_accessibility.py judges every page the project writes:
any finding fails), in English on a desktop and in Dutch on a phone."""

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.stage_pages import roeselare_event
from tests.web.test_accessibility import AXE_PATH, axe_script, findings, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def events():
    knockout = roeselare_event(knockout_rounds_played=2, name="Roeselare duo", slug="roeselare")
    pools = roeselare_event(pools_rounds_played=3, close_pools=False, name="Roeselare pools", slug="pools")
    user = pools.organizers.first()
    with AsgiServer() as server:
        yield server, knockout, pools, user


def knockout_team(tournament) -> int:
    """A team of the knockout: its page charts both stages."""
    from tournaments.models import Match

    return Match.objects.filter(round__stage__tournament=tournament, round__stage__number=2).first().ns_id


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("nl", 390)])
def test_the_stages_pages_pass_axe(events, browser, language, width):  # noqa: F811
    script = axe_script()
    if script is None:
        pytest.skip("axe-playwright-python (which ships axe-core) is not installed: pip install -e '.[dev]'")
    server, knockout, pools, user = events
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    context = browser.new_context(locale=language, viewport={"width": width, "height": 800})
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
    context.route(f"{server.url}{AXE_PATH}",
                  lambda route: route.fulfill(body=script, content_type="text/javascript; charset=utf-8"))
    page = context.new_page()
    k, p = f"/t/{knockout.slug}", f"/t/{pools.slug}"
    paths = [("bracket", f"{k}/stages/"), ("pools closed", f"{k}/stages/1/"), ("event ranking", f"{k}/stages/ranking/"),
             ("bracket print", f"{k}/stages/2/bracket/print/"), ("pools running", f"{p}/stages/1/"),
             ("workspace stages", f"/my/t/{pools.slug}/stages/?qualifiers=1"), ("wall", f"{k}/wall/?seconds=600"),
             ("wall pools", f"{p}/wall/?seconds=600"), ("standings", f"{k}/standings/"),
             ("pools standings", f"{p}/standings/"), ("overview", f"{k}/"),
             ("team by stage", f"{k}/teams/{knockout_team(knockout)}/")]
    failures = []
    for name, path in paths:
        response = page.goto(f"{server.url}{path}")
        assert response.status == 200, f"{name}: {path} answered {response.status}"
        if name.startswith("wall"):
            page.evaluate("document.querySelector('.wall-stage').dataset.show = '%s'"
                          % ("bracket" if name == "wall" else "pools"))
        failures.append(report(name, findings(page, server, "site")))
    context.close()
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)
