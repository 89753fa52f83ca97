"""An individual event's pages through axe-core in headless Chromium (as tests/web/test_accessibility.py does for
every other kind of page): English on a desktop, Dutch on a phone; every finding fails."""

import pytest

from tests.individual import draw_round, make_individual, play_hands
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.test_accessibility import AXE_PATH, axe_script, findings, report
from tournaments.models import Match, Player, Round
from tournaments.services.clock import round_clock_start
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def kaarting():
    tournament = make_individual(22)
    draw_round(tournament, 2)
    second = Round.objects.get(tournament=tournament, number=2)
    round_clock_start(round=second)
    play_hands(Match.objects.get(round=second, table=1), 3)
    standings_recompute(tournament=tournament)
    empty = make_individual(8, drawn=0, slug="leeg", name="Leeg")
    with AsgiServer() as server:
        yield server, tournament, empty


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("nl", 390)])
def test_every_page_of_an_individual_event_passes_axe(kaarting, browser, language, width):  # noqa: F811
    script = axe_script()
    if script is None:
        pytest.skip("axe-playwright-python (which ships axe-core) is not installed: pip install -e '.[dev]'")
    server, tournament, empty = kaarting
    t = f"/t/{tournament.slug}"
    match = Match.objects.get(round__tournament=tournament, round__number=2, table=1)
    player = Player.objects.get(name="An Peeters", entries__tournament=tournament)
    paths = [
        ("overview", f"{t}/"), ("round", f"{t}/rounds/2/"), ("match", f"{t}/matches/{match.pk}/"),
        ("where do I sit", f"{t}/seat/"), ("seat found", f"{t}/seat/?q=pee+an"), ("seats found", f"{t}/seat/?q=d"),
        ("nobody found", f"{t}/seat/?q=xyz"), ("sitting out", f"{t}/seat/?q=veerle"),
        ("no round yet", f"/t/{empty.slug}/seat/"), ("players", f"{t}/players/"), ("player", f"{t}/players/{player.pk}/"),
        ("standings", f"{t}/standings/"), ("clubs", f"{t}/clubs/"), ("wall", f"{t}/wall/?seconds=600"),
        ("door list", f"{t}/rounds/2/seats/print/"), ("sheets", f"{t}/rounds/2/sheets/"),
        ("round print", f"{t}/rounds/2/print/"),
    ]
    context = browser.new_context(locale=language, viewport={"width": width, "height": 800})
    context.route(f"{server.url}{AXE_PATH}",
                  lambda route: route.fulfill(body=script, content_type="text/javascript; charset=utf-8"))
    page = context.new_page()
    failures = []
    for name, path in paths:
        response = page.goto(f"{server.url}{path}")
        assert response.status == 200, f"{name}: {path} answered {response.status}"
        assert page.locator("html").get_attribute("lang") == language
        failures.append(report(name, findings(page, server, "site")))
        if name == "wall":  # the tables and the standings take their turns on the wall: look at them too
            for panel in ("tables", "standings"):
                page.evaluate(f"document.querySelector('.wall-stage').dataset.show = '{panel}'")
                failures.append(report(f"wall, {panel}", findings(page, server, "site")))
    context.close()
    failures = [f for f in failures if f]
    assert not failures, f"axe findings in {language}:\n" + "\n".join(failures)
