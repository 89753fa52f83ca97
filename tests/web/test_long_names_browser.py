"""Long team names on a phone (390 px) and a desktop (1280 px) in headless Chromium: the public round cards and the
workspace's entry board (and its list of matches) break a name between its words only, as the wall does, and a
single word wider than its side is cut with an ellipsis inside its card, never broken in the middle.

Screenshots go to $LONG_NAMES_SHOTS when it is set (a folder), for a person to look at.
"""

import os

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.factories import UserFactory
from tests.web.browser import browser, save_shot, server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("LONG_NAMES_SHOTS", "")
LONG = "Koninklijke Kaartersbond Sint-Martinus Roeselare-Beveren"
WORD = "Kaartersbondkampioenschapsfinalisten"

#: Each piece of a name (its words, split after a hyphen too) and on how many lines it is drawn: 1 when whole.
PIECES = """els => els.map(el => {
    const text = [...el.childNodes].find(n => n.nodeType === 3), found = [], re = /[^\\s-]+-?/g;
    let m;
    while ((m = re.exec(text.data))) {
      const r = document.createRange();
      r.setStart(text, m.index);
      r.setEnd(text, m.index + m[0].length);
      const tops = [...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top));
      found.push([m[0], new Set(tops).size]);
    }
    return found;
  })"""


def shot(page, name: str) -> None:
    save_shot(SHOTS, page, name)


def long_named():
    """A tournament whose table 1 is the long name of many words against the one word wider than any card."""
    from tests.web.conftest import make_tournament
    from tournaments.models import Match

    tournament = make_tournament(4, name="Beker van Roeselare", slug="beker")
    match = Match.objects.get(round__tournament=tournament, table=1)
    match.ns.name, match.ew.name = LONG, WORD
    match.ns.save()
    match.ew.save()
    return tournament, match


def assert_whole_words(page, names_selector: str, box_selector: str, width: int) -> None:
    """The long name drawn word by word, each word on one line; the overlong word ellipsized inside its box."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    found = page.locator(names_selector).evaluate_all(PIECES)
    drawn = {"".join(p for p, _ in name): name for name in found}
    assert LONG.replace(" ", "") in drawn and WORD in drawn, drawn.keys()
    assert all(lines == 1 for name in found for _, lines in name), (width, found)  # no word broken across lines
    word = page.locator(names_selector, has_text=WORD).first
    style = word.evaluate("e => [getComputedStyle(e).textOverflow, getComputedStyle(e).overflowX]")
    assert style == ["ellipsis", "hidden"]
    box = page.locator(box_selector).first.bounding_box()
    side = word.bounding_box()
    assert box["x"] - 1 <= side["x"] and side["x"] + side["width"] <= box["x"] + box["width"] + 1, (box, side)


def test_the_public_round_cards_break_long_names_between_words_only(browser, server):  # noqa: F811
    tournament, _match = long_named()
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="nl")
        page = context.new_page()
        page.goto(f"{server.url}/t/{tournament.slug}/rounds/1/")
        assert_whole_words(page, ".round-tables .side .name", ".round-tables .table-link", width)
        shot(page, f"round-cards-long-names-{width}")
        context.close()


def test_the_entry_board_breaks_long_names_between_words_only(browser, server):  # noqa: F811
    tournament, match = long_named()
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    client = Client()
    client.force_login(keeper)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="nl")
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
        page = context.new_page()
        page.goto(f"{server.url}/my/t/{tournament.slug}/score/")
        assert_whole_words(page, ".score-match .team", ".score-match", width)
        shot(page, f"entry-matches-long-names-{width}")
        page.goto(f"{server.url}/my/t/{tournament.slug}/score/{match.pk}/")
        assert_whole_words(page, ".entry-board .name", ".entry-board", width)
        shot(page, f"entry-board-long-names-{width}")
        context.close()
