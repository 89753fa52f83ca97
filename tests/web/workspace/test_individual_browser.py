"""An individual event in headless Chromium on a phone (390 px): the organizer makes the event, types 22 players
in, draws round 1 and starts the clock; a phone without an account opens its table by the code and enters hands,
one of them typed offline just before the clock ran out. Then every new page, empty, full and refusing, at 390 and
1280 px without sideways scrolling (screenshots in $SCREENSHOT_DIR when set)."""

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import ClubFactory, UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import belgian_hand
from tests.web.workspace.individual import NAMES, individual_event, seat_round
from tests.web.workspace.test_organize_browser import shoot, sign_in
from tournaments.models import Entry, Game, Hand, KeptApart, Match, Round, TaskRecord, Tournament
from tournaments.services.hands import hand_enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)
CODES = ["ACD347", "KMN679", "PQR333", "TUV444", "WXY666"]


@pytest.fixture
def hall():
    organizer = UserFactory(username="orga", password="orga-password")
    club = ClubFactory(name="De Zwarte Kat", city="Gent")
    club.managers.add(organizer)
    with AsgiServer() as server:
        yield server, organizer, club


def clock_seconds(page) -> int:
    parts = [int(p) for p in page.inner_text("[data-clock-time]").strip().split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def test_an_organizer_makes_the_event_enters_22_players_draws_and_starts_the_clock(browser, hall):  # noqa: F811
    server, organizer, club = hall
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, server, "/my/new/")
    page.fill("input[name=name]", "Kaarting De Kat")
    page.check("input[name=entry][value=individual]")
    assert page.is_visible("[data-when='entry=individual']")
    page.select_option("select[name=format]", "tables")
    page.fill("input[name=rounds]", "3")
    page.check("input[name=match_length][value=timed]")
    page.fill("input[name=minutes]", "30")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    t = Tournament.objects.get(name="Kaarting De Kat")
    assert (t.entry, t.format, t.match_length, t.minutes) == ("individual", "tables", "timed", 30)
    assert page.url.endswith(f"/my/t/{t.slug}/")

    page.goto(f"{server.url}/my/t/{t.slug}/entries/")
    for i, name in enumerate(NAMES):
        page.fill("#new-name", name)
        page.select_option("#new-club", str(club.pk) if i % 3 else "")
        page.click("#new-player button[type=submit]")
        page.wait_for_load_state()
    assert page.inner_text("#h-entries").startswith("22 players entered")
    assert Entry.objects.filter(tournament=t).count() == 22
    shoot(page, "ind-flow-players")

    page.goto(f"{server.url}/my/t/{t.slug}/")
    page.click("form.pair-form button")
    page.wait_for_url(f"**/my/t/{t.slug}/rounds/1/", timeout=20000)
    assert page.locator("li.org-table").count() == 5
    assert "Sitting out" in page.inner_text("main")
    for code in Match.objects.filter(round__tournament=t).values_list("table_code", flat=True):
        assert code in page.inner_text(".org-tables")

    page.click("#clock form.clock-form button")
    page.wait_for_load_state()
    assert page.inner_text("[data-clock-label]") == "Running"
    first = clock_seconds(page)
    assert 29 * 60 < first <= 30 * 60
    page.wait_for_timeout(2500)
    assert clock_seconds(page) <= first - 2  # it counts down on the phone between the server's answers
    page.reload()
    assert 29 * 60 < clock_seconds(page) <= first - 2  # and a reload shows the server's time left
    shoot(page, "ind-flow-clock")
    page.close()


def test_a_phone_opens_its_table_by_the_code_and_enters_hands_offline(browser, hall):  # noqa: F811
    server, organizer, club = hall
    t = individual_event(22, organizer=organizer, minutes=30)
    seat_round(t, 1, codes=CODES)
    rnd = Round.objects.get(tournament=t, number=1)
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - timedelta(minutes=29),
                                           clock_ends_at=timezone.now() + timedelta(minutes=1))
    match = Match.objects.get(round=rnd, table=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = context.new_page()
    page.goto(f"{server.url}/my/t/{t.slug}/table/")
    page.fill("#table-code", "zzz999")
    page.click(".code-form button")
    page.wait_for_load_state()
    assert "No table of this tournament has the code ZZZ999" in page.inner_text("#code-error")
    page.fill("#table-code", "acd 347")
    page.click(".code-form button")
    page.wait_for_url(f"**/my/t/{t.slug}/table/{match.pk}/")
    board = page.inner_text("#entry-board")
    assert "An Peeters & Chris Wouters" in board and "Bart Claes & Dirk Maes" in board
    assert "Dirk Maes" in page.inner_text("fieldset[data-field=dealer]")

    page.check("input[name=dealer][value=N]")
    page.check("input[name=trump][value=H]")
    page.fill("input[name=tricks_ns]", "5")
    page.fill("input[name=points_ns]", "37")
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=stored]")
    hand = Hand.objects.get(game__match=match)
    assert hand.entered_by is None and hand.points_ns == 37

    # The hall's wifi drops; the first game ends and the next one's first hand is typed before the clock runs
    # out; the connection returns after the end: the hand is judged by when it was typed.
    hand_enter(match=match, data=belgian_hand(2, 60))
    while Match.objects.get(pk=match.pk).games.last().status == Game.Status.PLAYING:
        hand_enter(match=match, data=belgian_hand(Hand.objects.filter(game__match=match).count() + 1, 60))
    Tournament.objects.filter(pk=t.pk).update(best_of=3)
    page.reload()
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.check("input[name=dealer][value=E]")
    page.check("input[name=trump][value=S]")
    page.fill("input[name=tricks_ns]", "3")
    page.fill("input[name=points_ns]", "20")
    page.click("#hand-save")
    page.wait_for_selector("#queue-list li[data-status=queued]")
    shoot(page, "ind-table-offline")
    Round.objects.filter(pk=rnd.pk).update(clock_ends_at=timezone.now())  # the time runs out meanwhile
    page.wait_for_timeout(300)
    context.set_offline(False)
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length >= 1 && "
                           "!document.querySelector('#queue-list li[data-status=queued]')", timeout=20000)
    second = Game.objects.get(match=match, number=2)
    assert second.started_at < Round.objects.get(pk=rnd.pk).clock_ends_at
    assert second.hands.get().dealer == "E"
    context.close()


def test_every_new_page_fits_a_phone_and_a_desktop(browser, hall):  # noqa: F811
    """Each new page at 390 and 1280 px: empty, full and refusing."""
    server, organizer, club = hall
    empty = individual_event(0, organizer=organizer, slug="leeg", name="Lege kaarting")
    t = individual_event(22, organizer=organizer, minutes=30, name="Kaarting van de Zwarte Kat in Sint-Amandsberg")
    first, fifth = (Entry.objects.get(tournament=t, start_number=n) for n in (1, 5))
    a, b = sorted((first.player, fifth.player), key=lambda p: p.pk)
    KeptApart.objects.create(tournament=t, player_a=a, player_b=b, reason="koppel")
    Entry.objects.filter(tournament=t, start_number=3).update(fixed_table=2)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = context.new_page()
    sign_in(page, server, "/my/")
    pending = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=t)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/new/")
        page.check("input[name=entry][value=individual]")
        page.check("input[name=match_length][value=timed]")
        page.check("input[name=sit_out_score][value=fixed]")
        shoot(page, "ind-form-new")
        page.fill("input[name=name]", "Kaarting")
        page.select_option("select[name=format]", "knockout")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state()
        assert "does not suit this kind of event" in page.inner_text("main")
        shoot(page, "ind-form-error")
        page.goto(f"{server.url}/my/t/{empty.slug}/entries/")
        shoot(page, "ind-players-empty")
        page.goto(f"{server.url}/my/t/{empty.slug}/")
        shoot(page, "ind-dashboard-empty")
        page.goto(f"{server.url}/my/t/{t.slug}/entries/?find=an")
        page.locator("#entry-{} details summary".format(Entry.objects.get(tournament=t, start_number=3).pk)).click()
        shoot(page, "ind-players-full")
        page.fill("#new-name", "An Peeters")  # entered already: the refusal by the form, what was typed kept
        page.select_option("#new-club", str(first.player.club_id))
        page.click("#new-player button[type=submit]")
        page.wait_for_load_state()
        assert "An Peeters is entered already." in page.inner_text("#new-player .form-error")
        assert page.input_value("#new-name") == "An Peeters"
        shoot(page, "ind-players-error")
        page.goto(f"{server.url}/my/t/{t.slug}/pairing/{pending.id}/")
        assert "Waiting for a worker" in page.inner_text("#pair-progress")
        shoot(page, "ind-draw-progress")
    pending.status = "succeeded"
    pending.save()

    seat_round(t, 1, codes=CODES)
    Round.objects.filter(tournament=t).update(clock_started_at=timezone.now(),
                                              clock_ends_at=timezone.now() + timedelta(minutes=30))
    rnd = Round.objects.get(tournament=t)
    match = Match.objects.get(round=rnd, table=1)
    hand_enter(match=match, data=belgian_hand(1))
    hand_enter(match=match, data=belgian_hand(2, 25))
    Entry.objects.filter(tournament=t, start_number=22).update(withdrawn=True, withdrawn_after_round=1)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{t.slug}/")
        shoot(page, "ind-dashboard-running")
        page.goto(f"{server.url}/my/t/{t.slug}/rounds/1/")
        assert re.match(r"\d+:\d\d", page.inner_text("[data-clock-time]"))
        shoot(page, "ind-round-running")
        page.goto(f"{server.url}/my/t/{t.slug}/entries/")
        page.locator("#entry-{} details summary".format(first.pk)).click()
        shoot(page, "ind-players-drawn")
        page.goto(f"{server.url}/my/t/{t.slug}/score/")
        shoot(page, "ind-score-list")
        page.goto(f"{server.url}/my/t/{t.slug}/score/{match.pk}/")
        shoot(page, "ind-score-match")
    # A round whose clock is not started, and a refused redraw (a game is started).
    Round.objects.filter(tournament=t).update(clock_started_at=None, clock_ends_at=None)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{t.slug}/rounds/1/")
        assert page.inner_text("[data-clock-time]") == "30:00"
        shoot(page, "ind-round-clock-not-started")
        page.evaluate("""() => { const f = document.createElement('form'); f.method = 'post';
            f.action = location.pathname + 'redraw/'; const c = document.querySelector('[name=csrfmiddlewaretoken]');
            f.appendChild(c.cloneNode()); document.body.appendChild(f); f.submit(); }""")
        page.wait_for_load_state()
        assert "has started" in page.inner_text(".form-error")
        shoot(page, "ind-round-redraw-refused")
    context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = phone.new_page()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}/my/t/{t.slug}/table/")
        shoot(page, "ind-code-empty")
        page.fill("#table-code", "QQQ111")
        page.click(".code-form button")
        page.wait_for_load_state()
        shoot(page, "ind-code-error")
        page.goto(f"{server.url}/my/t/{t.slug}/table/{Match.objects.get(round=rnd, table=5).pk}/")
        assert "This phone holds no valid code for this table" in page.inner_text("main")
        shoot(page, "ind-code-refused")
        for code in CODES[:2]:
            page.goto(f"{server.url}/my/t/{t.slug}/table/")
            page.fill("#table-code", code)
            page.click(".code-form button")
            page.wait_for_load_state()
        page.goto(f"{server.url}/my/t/{t.slug}/table/{match.pk}/")
        assert "An Peeters & Chris Wouters" in page.inner_text("#entry-board")
        shoot(page, "ind-code-match")
        page.goto(f"{server.url}/my/t/{t.slug}/table/{match.pk}/correct/")
        shoot(page, "ind-code-correct")
        page.goto(f"{server.url}/my/t/{t.slug}/table/")
        assert "Tables open on this phone" in page.inner_text("main")
        shoot(page, "ind-code-held")
    phone.close()
