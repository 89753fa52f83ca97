"""Table entry in headless Chromium at a phone's width: a hand stored, a refusal on its field, two hands offline.

Screenshots of the pages go to $WS_SCREENSHOTS when it is set (a folder), for a person to look at.
"""

import os
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.factories import UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import enter_hands, make_tournament
from tournaments.models import Hand, Match, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("WS_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def site():
    tournament = make_tournament(4)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    enter_hands(match, 1)  # N dealt hand 1: E deals next
    with AsgiServer() as server:
        yield server, tournament, match, keeper


def signed_in_page(browser, server, user, width=390):  # noqa: F811
    """A browser page signed in as ``user`` through a session made by force_login (no password typed)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en")
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
    return context, context.new_page()


def type_hand(page, *, trump="H", tricks_ns="5", points_ns="37", points_ew=None):
    page.check(f"input[name=trump][value={trump}]")
    page.fill("input[name=tricks_ns]", tricks_ns)
    page.fill("input[name=points_ns]", points_ns)
    if points_ew is not None:
        page.fill("input[name=points_ew]", points_ew)


def test_the_match_status_follows_the_first_stored_hand(browser, site):  # noqa: F811
    """A match not started: its status in the page's heading turns to playing once the first hand is stored."""
    server, tournament, match, keeper = site
    other = (Match.objects.filter(round__tournament=tournament, ew__isnull=False).exclude(pk=match.pk)
             .order_by("table").first())
    context, page = signed_in_page(browser, server, keeper)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{other.pk}/")
    assert page.text_content(".crumbs .badge").strip() == "Not started"
    page.check("input[name=dealer][value=N]")
    type_hand(page)
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=stored]")
    page.wait_for_function("document.querySelector('.crumbs .badge').textContent.trim() == 'Playing'")
    assert "status-playing" in page.get_attribute(".crumbs .badge", "class")
    context.close()


def test_scorekeeper_enters_a_hand_then_sees_a_refusal_on_its_field(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/")
    shot(page, "entry-matches-390")
    page.click(f"a[href='/my/t/{tournament.slug}/score/{match.pk}/']")
    page.wait_for_selector("#hand-form")
    assert page.is_checked("input[name=dealer][value=E]")  # the next dealer, prefilled
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "entry-form-empty-390")
    type_hand(page)
    assert page.input_value("input[name=tricks_ew]") == "3"  # the other side from the deal's totals
    assert page.input_value("input[name=points_ew]") == "23"
    page.wait_for_selector("#entry-preview.ok")
    assert "+" not in page.text_content("#entry-preview")
    assert "game total 14–0" in page.text_content("#entry-preview")  # 7 + 7
    shot(page, "entry-form-preview-390")
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=stored]")
    assert "Hand 2 of game 1 stored" in page.text_content("#queue-list")
    assert "· ♥ hearts ·" in page.text_content("#queue-list")  # the trump in words, not its code
    assert page.is_checked("input[name=dealer][value=S]")
    assert list(Hand.objects.filter(game__match=match).values_list("number", "dealer")) == [(1, "N"), (2, "E")]
    # A bad hand: 10 points without a trick. The preview already says so on the points, in the admin's words;
    # Save then refuses it: nothing is queued, the reason stays on its field.
    type_hand(page, tricks_ns="0", points_ns="10")
    assert page.input_value("input[name=points_ew]") == "50"
    page.wait_for_selector("fieldset[data-field=points].has-error")
    page.click("#hand-save")
    page.wait_for_selector("#save-note:not([hidden])")
    assert page.locator("#queue-list li:not([data-status=stored])").count() == 0
    assert f"{match.ns.name} took no trick, so its points are 0 (not 10)." in page.text_content("#err-points")
    assert page.text_content("#err-tricks") == ""
    assert page.is_checked("input[name=dealer][value=S]") and page.input_value("input[name=points_ns]") == "10"
    shot(page, "entry-refusal-390")
    assert Hand.objects.filter(game__match=match).count() == 2
    # Fixed, it is stored and the queue moves on.
    page.fill("input[name=points_ns]", "0")
    page.click("#hand-save")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2")
    assert list(Hand.objects.filter(game__match=match).values_list("number", "dealer", "points_ew")) == [
        (1, "N", 23), (2, "E", 23), (3, "S", 60)]
    # Of the stored hands only the last is listed: the form stays near the top however many were sent.
    visible = page.locator("#queue-list li[data-status=stored]:visible")
    assert visible.count() == 1 and "Hand 3 of game 1 stored" in visible.text_content()
    context.close()


def test_two_hands_offline_are_stored_once_and_in_order(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper)
    url = f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/"
    page.goto(url)
    # The Service Worker, once ready, keeps this page and its assets: it opens offline from now on.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => caches.match(location.href).then(hit => !!hit)")
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    type_hand(page)  # E deals hand 2
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=queued]")
    assert page.is_checked("input[name=dealer][value=S]")
    assert page.input_value("input[name=number]") == "3"
    type_hand(page, trump="S", tricks_ns="3", points_ns="20")
    page.click("#hand-save")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=queued]').length == 2")
    assert "offline" in page.text_content("#entry-net")
    shot(page, "entry-offline-queue-390")
    assert Hand.objects.filter(game__match=match).count() == 1
    # Nothing typed is lost: a reload offline (the page from the Service Worker) still shows both hands.
    page.reload()
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=queued]').length == 2")
    context.set_offline(False)
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2",
                           timeout=20000)
    rows = list(Hand.objects.filter(game__match=match).order_by("number")
                .values_list("number", "dealer", "trump", "points_ns", "idempotency_key"))
    assert [r[:4] for r in rows] == [(1, "N", "H", 37), (2, "E", "H", 37), (3, "S", "S", 20)]
    assert rows[1][4] != rows[2][4] and rows[1][4].startswith(f"{keeper.pk}:")
    # Sent again (as after a lost answer), nothing more is stored.
    page.evaluate("""() => WsQueue.list(%d).then(rows => Promise.all(rows.map(r => {
        r.status = 'queued'; return WsQueue.put(r); })))""" % match.pk)
    # The page is not told of records changed behind its back: the connection coming back sends them (clicking
    # "Send now" raced with the render that shows the button).
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2")
    page.wait_for_timeout(500)
    assert Hand.objects.filter(game__match=match).count() == 3
    context.close()


@pytest.mark.skipif(not SHOTS, reason="screenshots only: set WS_SCREENSHOTS to a folder")
def test_screenshots_at_desktop_width(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper, width=1280)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/")
    shot(page, "entry-matches-1280")
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
    shot(page, "entry-form-empty-1280")
    type_hand(page)
    page.wait_for_selector("#entry-preview.ok")
    shot(page, "entry-form-preview-1280")
    type_hand(page, tricks_ns="0", points_ns="10")
    page.wait_for_selector("fieldset[data-field=points].has-error")
    shot(page, "entry-refusal-1280")
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.fill("input[name=points_ns]", "0")
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=queued]")
    shot(page, "entry-offline-queue-1280")
    context.set_offline(False)
    page.wait_for_selector("#queue-list li[data-status=stored]")
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/correct/")
    shot(page, "entry-correct-1280")
    context.close()


@pytest.mark.skipif(not SHOTS, reason="screenshots only: set WS_SCREENSHOTS to a folder")
def test_screenshots_of_a_turned_trump_variant(browser, site):  # noqa: F811
    from tests.factories import EntryFactory, TeamFactory, TournamentFactory
    from tournaments.services.rounds import round_pair

    server, _, _, keeper = site
    t = TournamentFactory(slug="spaanse-beker", variant="spanish-manilla")
    for i in range(2):
        EntryFactory(tournament=t, team=TeamFactory(name=f"Equipo {i + 1}"), seed=i + 1)
    round_pair(tournament=t)
    t.scorekeepers.add(keeper)
    match = Match.objects.get(round__tournament=t)
    for width in (390, 1280):
        context, page = signed_in_page(browser, server, keeper, width=width)
        page.goto(f"{server.url}/my/t/{t.slug}/score/{match.pk}/")
        page.check("input[name=dealer][value=N]")
        page.check("input[name=turned_suit][value=O]")
        page.check("input[name=turned_rank][value='1']")
        page.fill("input[name=tricks_ns]", "7")
        page.fill("input[name=points_ns]", "40")
        page.wait_for_selector("#entry-preview.ok")
        shot(page, f"entry-spanish-preview-{width}")
        context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_hands_table_keeps_both_sides_on_a_phone(browser, site, language):  # noqa: F811
    """At 390 px the game's table shows the other side's column, in English and with Spanish's longer headings."""
    from tests.web.conftest import belgian_hand
    from tournaments.services.hands import hand_enter

    server, tournament, match, keeper = site
    other = (Match.objects.filter(round__tournament=tournament, ew__isnull=False).exclude(pk=match.pk)
             .order_by("table").first())
    for number in (1, 2):  # each side scores a hand doubled twice: "+100 100" on both sides, "hearts ×4"
        hand_enter(match=other, data={**belgian_hand(number, 55 if number == 1 else 5), "doublings": 2})
    client = Client()
    client.force_login(keeper)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{other.pk}/")
    widths = page.evaluate("[...document.querySelectorAll('.entry-hands .table-scroll')]"
                           ".map(e => [e.scrollWidth, e.clientWidth])")
    assert widths and all(scroll <= client_width for scroll, client_width in widths), widths
    shot(page, f"entry-hands-{language}-390")
    context.close()


# --------------------------------------------------------------------------- issue 25, defect 3


def queued_offline(page, context, hands):
    """Type ``hands`` (kwargs of type_hand) offline, each saved into the queue; the page stays offline."""
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    for i, hand in enumerate(hands, start=1):
        type_hand(page, **hand)
        page.click("#hand-save")
        page.wait_for_function(f"document.querySelectorAll('#queue-list li[data-status=queued]').length == {i}")


def test_a_flagged_hand_is_not_queued(browser, site):  # noqa: F811
    """Flagged by the page's own check (a sum) or by the server (typed and saved at once): Save queues nothing."""
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
    type_hand(page, points_ns="37", points_ew="30")  # 67: the page's own check
    page.click("#hand-save")
    page.wait_for_selector("#save-note:not([hidden])")
    assert "must add up to 60; these add up to 67" in page.text_content("#err-points")
    # Saved before any preview came back: the server is asked before the hand is queued.
    page.fill("input[name=points_ew]", "")
    page.fill("input[name=tricks_ns]", "0")
    page.fill("input[name=points_ns]", "10")
    page.click("#hand-save")
    page.wait_for_function("document.querySelector('#err-points').textContent.includes('took no trick')")
    page.wait_for_timeout(300)
    assert page.locator("#queue-list li").count() == 0
    assert page.evaluate("WsQueue.list(%d).then(rows => rows.length)" % match.pk) == 0
    assert Hand.objects.filter(game__match=match).count() == 1
    context.close()


def test_the_next_hand_typed_while_a_saved_one_is_checked_loses_neither(browser, site):  # noqa: F811
    """On a slow hall network the check of a saved hand takes seconds; the next hand typed over the form meanwhile
    made the check find the form changed, and the first hand was neither queued nor kept."""
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")

    def slow(route):
        time.sleep(1.5)
        route.continue_()

    context.route("**/preview/", slow)
    type_hand(page, trump="H", tricks_ns="5", points_ns="37")
    page.click("#hand-save")
    assert page.locator("input[name=tricks_ns]").is_disabled()  # locked while it is checked
    type_hand(page, trump="S", tricks_ns="3", points_ns="20")  # waits for the form, then types the next hand
    page.click("#hand-save")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2",
                           timeout=15000)
    assert list(Hand.objects.filter(game__match=match).order_by("number").values_list("trump", flat=True)) == [
        "H", "H", "S"]
    context.close()


def test_typing_both_points_keeps_the_first_and_flags_a_wrong_sum(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context, page = signed_in_page(browser, server, keeper)
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
    page.fill("input[name=points_ns]", "37")
    assert page.input_value("input[name=points_ew]") == "23"  # filled from the total: not typed yet
    page.fill("input[name=points_ew]", "30")
    assert page.input_value("input[name=points_ns]") == "37"  # what was typed first stays
    page.wait_for_selector("fieldset[data-field=points].has-error")
    assert page.text_content("#err-points") == "The points of the two teams must add up to 60; these add up to 67."
    page.fill("input[name=points_ns]", "30")
    assert page.input_value("input[name=points_ew]") == "30"
    page.wait_for_selector("fieldset[data-field=points]:not(.has-error)")
    # A side emptied shows what the other leaves it, and is saved with it.
    page.fill("input[name=points_ew]", "")
    assert page.get_attribute("input[name=points_ew]", "placeholder") == "30"
    context.close()


@pytest.mark.parametrize("language", ["nl", "en"])
def test_a_refused_hand_holds_the_queue_and_says_so(browser, site, language):  # noqa: F811
    """Offline, a bad hand (no preview) and a good one are queued; online the first is refused and the queue says
    that the second waits for its fix, in the page's language and seat letters, with no "null" anywhere."""
    server, tournament, match, keeper = site
    Team.objects.filter(pk=match.ns_id).update(name="De Manillekes")  # the demo's names, that used to break
    Team.objects.filter(pk=match.ew_id).update(name="Muul Op Tafel")
    match.refresh_from_db()
    client = Client()
    client.force_login(keeper)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
    assert page.locator("h1").count() == 1
    assert page.text_content("h1") == ("Tafel 1 · Ronde 1" if language == "nl" else "Table 1 · Round 1")
    queued_offline(page, context, [dict(tricks_ns="0", points_ns="10"), dict(trump="S")])
    queue = page.text_content("#queue-list")
    east, south = ("O", "Z") if language == "nl" else ("E", "S")
    assert f" · {east} · " in queue and f" · {south} · " in queue  # the dealers of hands 2 and 3
    if language == "nl":
        assert " · E · " not in queue and " · S · " not in queue
    # An old record with a side left empty: the other side's complement, never "null".
    page.evaluate("""() => WsQueue.add({match: %d, key: 'k-old', game: 1, number: 4, status: 'queued',
        hand: {dealer: 'W', trump: 'H', tricks: {ns: 5, ew: null}, points: {ns: 75, ew: null}}})""" % match.pk)
    context.set_offline(False)
    page.wait_for_selector("#queue-list li[data-status=refused]", timeout=20000)
    page.wait_for_selector("#queue-blocked")
    text = page.text_content("#entry-queue")
    assert "null" not in text and "undefined" not in text
    assert "5–3" in text and "75–?" in text
    if language == "en":
        assert page.text_content("#queue-blocked") == (
            "Hand 2 of game 1 was refused: the hands after it are not sent until you fix it or drop it.")
        reason = page.text_content("#queue-list li[data-status=refused] .q-reason")
        assert reason == f"{match.ns.name} took no trick, so its points are 0 (not 10). points_impossible"
        assert page.locator("li.q-waiting .q-badge").first.text_content() == "Waits for the refused hand"
    else:
        assert page.text_content("#queue-blocked").startswith("Deling 2 van spel 1 werd geweigerd")
        assert page.locator("li.q-waiting .q-badge").first.text_content() == "Wacht op de geweigerde deling"
    assert page.locator("li.q-waiting").count() == 2
    shot(page, f"entry-queue-refused-{language}-390")
    # The words of the teams wrap between words, none broken in the middle.
    broken = page.evaluate(r"""() => { const bad = [];
      for (const el of document.querySelectorAll('.entry-board .name, .choice small, .num span')) {
        const node = el.firstChild; if (!node || node.nodeType !== 3) continue;
        for (const m of node.data.matchAll(/\S+/g)) {
          const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
          if (r.getClientRects().length > 1) bad.push(m[0]);
        } }
      return bad; }""")
    assert broken == []
    assert Hand.objects.filter(game__match=match).count() == 1
    if language == "en":
        # Fixed in the form: saved unchanged it is refused again at once; fixed, it and the hand behind are stored.
        page.click("#queue-list li[data-status=refused] >> text=Fix it")
        page.wait_for_selector("#queue-list li.q-fixing")
        page.click("#hand-save")
        page.wait_for_selector("#save-note:not([hidden])")
        assert "took no trick" in page.text_content("#err-points")
        page.fill("input[name=points_ns]", "0")
        page.fill("input[name=points_ew]", "60")
        page.click("#hand-save")
        page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2",
                               timeout=20000)
        assert list(Hand.objects.filter(game__match=match).values_list("number", "dealer", "points_ew")) == [
            (1, "N", 23), (2, "E", 60), (3, "S", 23)]
    context.close()
