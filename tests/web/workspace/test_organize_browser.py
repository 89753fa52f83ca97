"""The organizer in headless Chromium: sign in, create a tournament, enter eight teams, pair round 1, see the pairings;
and every organizer page at phone and desktop widths without sideways scrolling (screenshots in $SCREENSHOT_DIR)."""

import os
import uuid

import pytest

from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tournaments.models import ForbiddenPair, Match, TaskRecord, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)


@pytest.fixture
def hall():
    """An organizer managing a club of eight teams, and the site served by uvicorn."""
    organizer = UserFactory(username="orga", password="orga-password")
    club = ClubFactory(name="De Zwarte Kat", city="Gent")
    club.managers.add(organizer)
    other = ClubFactory(name="Café Sportwereld", city="Aalst")
    names = ["De Manillekes", "Troef Zot", "Muul Op Tafel", "De Vier Azen",
             "Den Ajuin", "Boer en Zot", "Ik Ga Mee", "De Tiensten"]
    for i, name in enumerate(names):
        home = club if i < 4 else other
        TeamFactory(name=name, club=home, player_1=PlayerFactory(club=home, name=f"Speler {2 * i + 1}"),
                    player_2=PlayerFactory(club=home, name=f"Speler {2 * i + 2}"))
    with AsgiServer() as server:
        yield server, organizer


def sign_in(page, server, next_url):
    page.goto(f"{server.url}/my/login/?next={next_url}")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "orga-password")
    page.click("form.ws-form button[type=submit]")
    page.wait_for_load_state()


def shoot(page, name: str) -> None:
    """Check the page has no sideways scroll at this width; save a screenshot when SCREENSHOT_DIR is set."""
    width = page.viewport_size["width"]
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"{name}: {overflow}px wide at {width}px"
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}-{width}.png"), full_page=True)


def test_an_organizer_creates_a_tournament_enters_eight_teams_and_pairs_round_one(browser, hall):  # noqa: F811
    server, organizer = hall
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, server, "/my/new/")
    assert page.url.endswith("/my/new/")
    page.fill("input[name=name]", "Avondtornooi")
    page.select_option("select[name=variant]", "belgian-manille")
    page.fill("input[name=best_of]", "1")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Avondtornooi")
    assert page.url.endswith(f"/my/t/{tournament.slug}/")
    assert page.locator("h1").inner_text() == "Avondtornooi"
    shoot(page, "dashboard-draft-empty")

    page.goto(f"{server.url}/my/t/{tournament.slug}/entries/")
    shoot(page, "entries-empty")
    page.fill("#team-q", "speler")
    page.click("form.search button")
    page.wait_for_load_state()
    for _ in range(8):
        page.locator(".org-found button", has_text="Enter").first.click()
        page.wait_for_load_state()
    assert page.locator("#h-entries").inner_text() == "8 teams entered"
    assert tournament.entries.count() == 8
    assert "No team to enter matches" in page.locator("#add").inner_text()

    page.goto(f"{server.url}/my/t/{tournament.slug}/")
    page.click("form.pair-form button")
    page.wait_for_url(f"**/my/t/{tournament.slug}/rounds/1/", timeout=10000)
    tables = page.locator("li.org-table")
    assert tables.count() == 4
    first = tables.first.inner_text()
    assert "table 1" in first.lower() and "Same score (0 pts)" in first
    paired = {name for m in Match.objects.filter(round__tournament=tournament).select_related("ns", "ew")
              for name in (m.ns.name, m.ew.name)}
    assert len(paired) == 8
    for name in paired:
        assert name in page.locator(".org-tables").inner_text()
    shoot(page, "round-paired")


def test_every_page_fits_a_phone_and_a_desktop(browser, hall):  # noqa: F811
    """The states of each page, at 390 and 1280 px: dashboard (draft, running), entries (full, an error), the
    pairing in progress, a round with a refused change."""
    from tournaments.models import Entry, Team

    server, organizer = hall
    tournament = Tournament.objects.create(name="Gentse Beker van de Zwarte Kat", slug="gentse-beker",
                                           variant="belgian-manille", best_of=1, public=False)
    tournament.organizers.add(organizer)
    for seed, team in enumerate(Team.objects.order_by("pk"), 1):
        Entry.objects.create(tournament=tournament, team=team, seed=seed)
    a, b = Team.objects.order_by("pk")[:2]
    ForbiddenPair.objects.create(tournament=tournament, team_a=a, team_b=b, reason="broers")
    pending = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=tournament)
    base = f"{server.url}/my/t/{tournament.slug}"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base}/pairing/{pending.id}/")
        assert "Waiting for a worker" in page.inner_text("#pair-progress")
        shoot(page, "pairing-in-progress")
        page.goto(f"{base}/")
        shoot(page, "dashboard-draft-full")
        page.goto(f"{base}/entries/")
        shoot(page, "entries-full")
        page.goto(f"{base}/entries/?club={a.club_id}#new-team")
        page.fill("#new-name", "Troef Zot")
        page.fill("#p1-new", "Ann Peeters")
        page.fill("#p2-new", "Bart Peeters")
        page.click("#new-team form.org-form[method=post] button[type=submit]")
        page.wait_for_load_state()
        assert f"{a.club} has a team called Troef Zot already." in page.inner_text(".form-error")
        assert page.input_value("#p1-new") == "Ann Peeters"
        shoot(page, "entries-error")
    pending.status = "succeeded"
    pending.save()
    page.goto(f"{base}/")
    page.click("form.pair-form button")
    page.wait_for_url(f"**/my/t/{tournament.slug}/rounds/1/", timeout=10000)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base}/")
        assert "0 of 4 tables finished" in page.inner_text("main")
        shoot(page, "dashboard-running")
        page.goto(f"{base}/rounds/1/")
        page.locator("#table-1 details summary").click()
        page.select_option("#table-1 select[name=ns]", str(a.pk))
        page.select_option("#table-1 select[name=ew]", str(b.pk))  # a forbidden pair: refused
        page.locator("#table-1 button[type=submit]").click()
        page.wait_for_load_state()
        assert "may not meet" in page.inner_text("#table-1 .form-error")
        shoot(page, "round-refused-change")
    context.close()
