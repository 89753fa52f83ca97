"""Results confirmed by the opponents, in headless Chromium: a result entered on one phone waits for confirmation
there, the other side's phone opens the table by its code and confirms it with a personal code, and the public
page says confirmed; a dispute reaches the director's desk, which settles it. Every page at 390 and 1280 px
without sideways scrolling (screenshots in $SCREENSHOT_DIR when set)."""

import pytest
from django.core import signing

from tests.factories import UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import belgian_hand
from tests.web.workspace.individual import individual_event, seat_round
from tests.web.workspace.test_organize_browser import shoot, sign_in
from tournaments.models import Match, Round, Tournament
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.hands import hand_enter
from web.workspace import table_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODES = ["ACD347", "KMN679", "PQR333", "TUV444", "WXY666"]


@pytest.fixture
def hall():
    organizer = UserFactory(username="orga", password="orga-password")
    t = individual_event(22, organizer=organizer, minutes=None, public=True)
    Tournament.objects.filter(pk=t.pk).update(confirmation="opponents", best_of=1, status="running")
    seat_round(t, 1, codes=CODES)
    with AsgiServer() as server:
        yield server, organizer, Tournament.objects.get(pk=t.pk)


def phone(browser, server, tournament, code, width=390):  # noqa: F811
    """A phone that opened its table by the code; and its id (the signed cookie's value)."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en")
    page = context.new_page()
    page.goto(f"{server.url}/my/t/{tournament.slug}/table/")
    page.fill("#table-code", code)
    page.click(".code-form button")
    page.wait_for_load_state()
    cookie = next(c for c in context.cookies() if c["name"] == table_code.DEVICE_COOKIE)["value"]
    device = signing.get_cookie_signer(salt=signing._cookie_signer_salt(
        table_code.DEVICE_COOKIE, table_code.DEVICE_SALT)).unsign(cookie.strip('"'))
    return context, page, device


def finish(match, device):
    """The table's phone enters the game to its end (60-0 hands)."""
    with acting(device=device):
        for number in range(1, 20):
            hand, _ = hand_enter(match=match, data=belgian_hand(number, 60))
            if hand.game_winner:
                return


@pytest.mark.parametrize("width", [390, 1280])
def test_a_result_entered_on_one_phone_is_confirmed_on_another_and_shows_confirmed(browser, hall, width):  # noqa: F811
    server, _organizer, t = hall
    match = Match.objects.get(round__tournament=t, round__number=1, table=1)
    first, page_a, device_a = phone(browser, server, t, CODES[0], width)
    finish(match, device_a)
    page_a.reload()
    assert "Waiting for confirmation" in page_a.inner_text(".result-status")
    assert page_a.query_selector("a[href$='/confirm/']") is None  # the entering phone does not confirm
    shoot(page_a, "confirm-entering-phone-waiting")

    east = match.seats.get(seat="E").player
    code = personal_codes(t, [east.pk])[east.pk]
    second, page_b, _device_b = phone(browser, server, t, CODES[0].lower(), width)
    page_b.click("a[href$='/confirm/']")
    page_b.wait_for_load_state()
    shoot(page_b, "confirm-other-phone-form")
    page_b.check(f"input[name=player][value='{east.pk}']")
    page_b.fill("#confirm-code", "WRONG1")
    page_b.click("button[value=confirm]")
    page_b.wait_for_load_state()
    assert "do not go together" in page_b.inner_text(".form-error")
    shoot(page_b, "confirm-other-phone-refused")
    page_b.check(f"input[name=player][value='{east.pk}']")
    page_b.fill("#confirm-code", code.lower())
    page_b.click("button[value=confirm]")
    page_b.wait_for_url(f"**/table/{match.pk}/")
    assert "Confirmed" in page_b.inner_text(".result-status")
    match.refresh_from_db()
    assert match.result_status == "confirmed"

    page_a.goto(f"{server.url}/t/{t.slug}/matches/{match.pk}/")
    assert page_a.inner_text("[data-result-status]").strip() == "confirmed"
    shoot(page_a, "confirm-public-match")
    first.close()
    second.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_dispute_reaches_the_directors_desk_which_settles_it(browser, hall, width):  # noqa: F811
    server, organizer, t = hall
    match = Match.objects.get(round__tournament=t, round__number=1, table=2)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="en")
    desk = context.new_page()
    sign_in(desk, server, f"/my/t/{t.slug}/desk/")
    desk.wait_for_selector("#desk-rows")
    assert "No result waits" in desk.inner_text("#desk-rows")
    shoot(desk, "desk-empty")

    first, page_a, device_a = phone(browser, server, t, CODES[1], width)
    # The test's own writes wait for the pages' polls to stop: SQLite's shared-cache test database refuses a
    # write to a table the server's thread is reading ("database table is locked"), where a file has a timeout.
    table_url = page_a.url
    desk.goto("about:blank")
    page_a.goto("about:blank")  # the table's page polls too
    finish(match, device_a)
    waiting = Match.objects.get(round__tournament=t, round__number=1, table=3)
    finish(waiting, "phone-of-table-3")
    page_a.goto(table_url)
    desk.goto(f"{server.url}/my/t/{t.slug}/desk/")
    desk.wait_for_selector("#desk-rows")
    east = match.seats.get(seat="E").player
    code = personal_codes(t, [east.pk])[east.pk]
    second, page_b, _ = phone(browser, server, t, CODES[1], width)
    page_b.goto(f"{server.url}/my/t/{t.slug}/table/{match.pk}/confirm/")
    page_b.check(f"input[name=player][value='{east.pk}']")
    page_b.fill("#confirm-code", code)
    page_b.click(".confirm-dispute summary")
    page_b.fill("#confirm-reason", "Hand 2 was 40-20, not 60-0.")
    page_b.click("button[value=dispute]")
    page_b.wait_for_url(f"**/table/{match.pk}/")
    page_a.reload()
    assert "Hand 2 was 40-20" in page_a.inner_text(".result-status")
    shoot(page_a, "confirm-entering-phone-disputed")

    desk.wait_for_selector("#desk-alert:not([hidden])", timeout=15000)  # the poll brings the new dispute
    assert "table 2 of round 1" in desk.inner_text("#desk-alert")
    rows = desk.inner_text("#desk-rows")
    assert "Disputed" in rows and "Waiting for confirmation" in rows and "Hand 2 was 40-20" in rows
    shoot(desk, "desk-full")
    desk.fill(f"#reason-{match.pk}", "The sheet says 60-0.")
    desk.click(f"#desk-{match.pk} button[value=settle]")
    desk.wait_for_load_state()
    match.refresh_from_db()
    assert match.result_status == "final"
    assert f"desk-{match.pk}" not in desk.content()
    desk.goto(f"{server.url}/my/t/{t.slug}/desk/codes/")
    assert code in desk.inner_text(".code-slips")
    shoot(desk, "desk-codes")
    assert Round.objects.get(tournament=t, number=1)
    for c in (context, first, second):
        c.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_organizer_turns_the_confirmation_on_in_the_settings(browser, hall, width):  # noqa: F811
    server, _organizer, t = hall
    Tournament.objects.filter(pk=t.pk).update(confirmation="off")
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="en")
    page = context.new_page()
    sign_in(page, server, f"/my/t/{t.slug}/edit/")
    page.check("input[name=confirmation][value=opponents]")
    page.check("input[name=unconfirmed][value=wait]")
    page.fill("input[name=auto_confirm_minutes]", "20")
    page.locator("fieldset[data-confirmation]").scroll_into_view_if_needed()
    shoot(page, "settings-confirmation")
    page.click(".ws-submit button")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert (t.confirmation, t.unconfirmed, t.auto_confirm_minutes) == ("opponents", "wait", 20)
    context.close()
