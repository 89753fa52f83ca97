"""Issue 28's last pages in headless Chromium at phone and desktop widths, without sideways scrolling: the marks of
a result counted before its confirmation (standings, round, scoreboard), an action's standings preview, desk mode
on a shared tablet, and an individual event's prints with the personal codes (screenshots in $SCREENSHOT_DIR)."""

import os

import pytest

from tests.individual import make_individual
from tests.web.browser import browser  # noqa: F401 (fixture)
from tests.web.workspace.test_organize_browser import WIDTHS, hall, shoot, sign_in  # noqa: F401 (fixture)
from tournaments.models import Entry, Match, Team, Tournament
from tournaments.services.confirmation import acting
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finish(match):
    with acting(device="phone-a"):
        for i in range(40):
            hand, _ = hand_enter(match=match, data={"dealer": "NESW"[i % 4], "trump": "H",
                                                    "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 50, "ew": 10}})
            if hand.game_winner:
                return


def test_marks_preview_and_desk_mode_at_both_widths(browser, hall):  # noqa: F811
    server, organizer = hall
    tournament = Tournament.objects.create(name="Gentse Beker van de Zwarte Kat", slug="gentse-beker",
                                           variant="belgian-manille", best_of=1, confirmation="opponents")
    tournament.organizers.add(organizer)
    for seed, team in enumerate(Team.objects.order_by("pk"), 1):
        Entry.objects.create(tournament=tournament, team=team, seed=seed)
    round_pair(tournament=tournament)
    first, second = Match.objects.filter(round__tournament=tournament).order_by("table")[:2]
    finish(first)
    standings_recompute(tournament=tournament)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, url in (("unconfirmed-standings", f"/t/{tournament.slug}/standings/"),
                          ("unconfirmed-round", f"/t/{tournament.slug}/rounds/1/"),
                          ("unconfirmed-match", f"/t/{tournament.slug}/matches/{first.pk}/")):
            page.goto(server.url + url)
            assert page.locator(".unconfirmed-legend").count() == 1, name
            shoot(page, name)
        page.goto(f"{server.url}/my/t/{tournament.slug}/actions/")
        page.click("details.desk-kind:has(input[value=forfeit]) summary")
        page.select_option("#forfeit-match", str(second.pk))
        page.select_option("#forfeit-absent", "ew")
        page.click("details.desk-kind:has(input[value=forfeit]) button[name=preview]")
        page.wait_for_load_state()
        assert page.locator("#desk-preview tbody tr").count() >= 2
        shoot(page, "desk-preview")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{tournament.slug}/desk/")
        page.click(".desk-lock summary")
        shoot(page, "desk-lock-offer")
        page.fill("#lock-pin", "2468")
        page.fill("#lock-pin-again", "2468")
        page.click(".desk-lock-form button[type=submit]")
        page.wait_for_load_state()
        assert page.locator(".desk-mode-badge").count() == 1
        shoot(page, "desk-mode")
        page.goto(f"{server.url}/my/")
        assert page.url.endswith(f"/my/t/{tournament.slug}/desk/")
        page.fill("#unlock-pin", "2468")
        page.click(".desk-lock-form button[type=submit]")
        page.wait_for_load_state()
        assert page.locator(".desk-mode-badge").count() == 0


def test_an_individual_events_prints_with_the_codes_at_both_widths(browser, hall):  # noqa: F811
    server, organizer = hall
    tournament = make_individual(16, drawn=1, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents")
    tournament.organizers.add(organizer)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/t/{tournament.slug}/rounds/1/seats/print/")
        assert page.locator("[data-personal-code]").count() == 16
        shoot(page, "print-seats-codes")
        # A sheet is an A4 page: at a phone's width it is as wide without the codes (the print's own layout);
        # the codes' column adds no width to it.
        anonymous = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        anonymous.goto(f"{server.url}/t/{tournament.slug}/rounds/1/sheets/")
        assert anonymous.locator("[data-personal-code]").count() == 0
        plain = anonymous.evaluate("document.documentElement.scrollWidth")
        page.goto(f"{server.url}/t/{tournament.slug}/rounds/1/sheets/")
        assert page.locator("[data-personal-code]").count() == 16
        assert page.evaluate("document.documentElement.scrollWidth") <= max(plain, width)
        if os.environ.get("SCREENSHOT_DIR"):
            page.screenshot(path=os.path.join(os.environ["SCREENSHOT_DIR"], f"print-sheets-codes-{width}.png"),
                            full_page=True)


def test_a_clock_ended_early_offers_to_reopen_or_keep_at_both_widths(browser, hall):  # noqa: F811
    from tournaments.models import Round
    from tournaments.services.clock import round_clock_end, round_clock_start

    server, organizer = hall
    tournament = make_individual(16, drawn=1, minutes=30)
    tournament.organizers.add(organizer)
    rnd = Round.objects.get(tournament=tournament, number=1)
    round_clock_start(round=rnd)
    round_clock_end(round=rnd)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{tournament.slug}/rounds/1/")
        assert page.locator("#clock-cut button[value=reopen]").count() == 1
        page.locator("#clock").scroll_into_view_if_needed()
        shoot(page, "clock-cut")
