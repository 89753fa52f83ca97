"""Signing out on a shared phone: the entry pages leave the Cache API, the hands waiting to be sent stay.

Headless Chromium at a phone's width, against the ASGI app (tests/web/browser.py).
"""

import time

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.factories import UserFactory
from tests.web.browser import browser  # noqa: F401 (fixture)
from tests.web.workspace.test_entry_browser import site  # noqa: F401 (fixture: a match with one hand, its keeper)
from tournaments.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIGN_OUT = ".account-nav form[action$='/logout/'] button"  # the header's Sign out

#: Every URL the Service Worker's caches hold (ws-sw.js names them ws-entry-<version>).
CACHED_URLS = """() => caches.keys().then(names => Promise.all(
    names.filter(n => n.startsWith('ws-entry-')).map(n => caches.open(n).then(c => c.keys()))
  )).then(lists => lists.flat().map(r => new URL(r.url).pathname))"""

#: The records of the table entry queue (ws-queue.js), read without ws-queue.js (any page of the site).
QUEUED = """() => new Promise((resolve, reject) => {
    const req = indexedDB.open('manille-entry');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const all = req.result.transaction('hands').objectStore('hands').getAll();
      all.onsuccess = () => { req.result.close(); resolve(all.result.map(r => [r.match, r.status])); };
    };
  })"""


def session_cookie(server, user) -> dict:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    return {"name": cookie.key, "value": cookie.value, "url": server.url}


def open_entry_pages(page, server, tournament, match) -> str:
    """Visit the match list and the match's entry page; wait until the Service Worker keeps both."""
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/")
    url = f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/"
    page.goto(url)
    page.wait_for_selector("#hand-form")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wanted = {f"/my/t/{tournament.slug}/score/", f"/my/t/{tournament.slug}/score/{match.pk}/"}
    deadline = time.monotonic() + 10
    while not wanted <= set(page.evaluate(CACHED_URLS)):  # wait_for_function would not wait for a promise
        assert time.monotonic() < deadline, page.evaluate(CACHED_URLS)
        page.wait_for_timeout(100)
    return url


def entry_pages(paths: list[str]) -> list[str]:
    return [p for p in paths if "/score/" in p]


def test_sign_out_removes_the_cached_entry_pages(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    context.add_cookies([session_cookie(server, keeper)])
    page = context.new_page()
    url = open_entry_pages(page, server, tournament, match)
    cached = page.evaluate(CACHED_URLS)
    assert len(entry_pages(cached)) == 2 and "/static/web/site.css" in cached
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    with page.expect_navigation():
        page.click(SIGN_OUT)
    page.wait_for_load_state()
    assert page.url == f"{server.url}/" and "Sign in" in page.text_content(".account-nav")
    assert dialogs == []  # nothing was waiting: no question asked
    cached = page.evaluate(CACHED_URLS)
    assert entry_pages(cached) == [], cached
    assert "/static/web/site.css" in cached  # the site's files are nobody's: they stay for offline use
    # The queue's database is left as it is (and no other is made).
    assert page.evaluate("indexedDB.databases().then(dbs => dbs.map(d => d.name))") == ["manille-entry"]
    # Offline, the entry page no longer opens from this phone.
    context.set_offline(True)
    response = page.goto(url)
    assert response.status == 503 and tournament.name not in page.content()
    context.close()


def test_hands_waiting_make_the_sign_out_ask_first_and_stay_for_the_next_sign_in(browser, site):  # noqa: F811
    server, tournament, match, keeper = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    context.add_cookies([session_cookie(server, keeper)])
    page = context.new_page()
    open_entry_pages(page, server, tournament, match)
    # The hall's wifi lets no hand through: two hands wait in the queue.
    hands_url = f"**/my/t/{tournament.slug}/score/{match.pk}/hands/"
    context.route(hands_url, lambda route: route.abort("internetdisconnected"))
    for trump, tricks, points in (("H", "5", "37"), ("S", "3", "20")):
        page.check(f"input[name=trump][value={trump}]")
        page.fill("input[name=tricks_ns]", tricks)
        page.fill("input[name=points_ns]", points)
        page.click("#hand-save")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=queued]').length == 2")

    dialogs = []
    page.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.click(SIGN_OUT)
    page.wait_for_function("document.querySelector(\".account-nav form[action$='/logout/']\").dataset.leaving === ''")
    assert dialogs == ["Hands waiting to be sent: 2. They stay on this device and are sent when someone who keeps "
                       "the score of their tournament signs in here again and opens their match. Sign out?"]
    # Not signed out, nothing removed.
    assert page.url.endswith(f"/score/{match.pk}/") and len(entry_pages(page.evaluate(CACHED_URLS))) == 2

    page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    with page.expect_navigation():
        page.click(SIGN_OUT)
    page.wait_for_load_state()
    assert len(dialogs) == 2 and page.url == f"{server.url}/"
    assert entry_pages(page.evaluate(CACHED_URLS)) == []
    assert page.evaluate(QUEUED) == [[match.pk, "queued"], [match.pk, "queued"]]
    assert Hand.objects.filter(game__match=match).count() == 1

    # Another scorekeeper of the tournament signs in on this phone: the match's page sends them, each once.
    other = UserFactory(username="keeper-2")
    tournament.scorekeepers.add(other)
    context.unroute(hands_url)
    context.add_cookies([session_cookie(server, other)])
    page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
    page.wait_for_function("document.querySelectorAll('#queue-list li[data-status=stored]').length == 2",
                           timeout=20000)
    assert list(Hand.objects.filter(game__match=match).order_by("number").values_list("number", "trump")) == [
        (1, "H"), (2, "H"), (3, "S")]
    context.close()
