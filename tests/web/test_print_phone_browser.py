"""The print pages and the wall on a phone (390 px) and a desktop (1280 px) in headless Chromium.

The print pages keep their A4 layout: on a screen narrower than A4 the sheet is scaled down to the screen's width
(site.js, print.css ``html.sheet-fit``), so the page never scrolls sideways; at 1280 px and on paper nothing changes.
The wall breaks a long team name between its words only, a word longer than its card cut with an ellipsis.
"""

import os

import pytest

from tests.web.browser import browser, save_shot, server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Set to a folder to keep the screenshots the tests take (e.g. /work/wt/shots/stage-print).
SHOTS = os.environ.get("PRINT_SHOTS", "")
A4 = 210 * 96 / 25.4  # CSS pixels


def shot(page, name: str) -> None:
    save_shot(SHOTS, page, name)


def test_the_print_pages_fit_a_phone_and_keep_their_a4_layout(browser, server):  # noqa: F811
    from tests.individual import make_individual
    from tests.web.stage_pages import roeselare_event

    roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, knockout_rounds_played=1, name="Duo", slug="duo")
    make_individual(22, drawn=1)
    addresses = {"pairings": "/t/duo/rounds/1/print/", "standings": "/t/duo/standings/print/",
                 "sheets": "/t/duo/rounds/1/sheets/", "knockout-sheets": "/t/duo/stages/2/rounds/1/sheets/",
                 "bracket": "/t/duo/stages/2/bracket/print/", "seats": "/t/kaarting/rounds/1/seats/print/",
                 "individual-sheets": "/t/kaarting/rounds/1/sheets/",
                 "individual-pairings": "/t/kaarting/rounds/1/print/",
                 "individual-standings": "/t/kaarting/standings/print/"}
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en")
        page = context.new_page()
        for name, address in addresses.items():
            page.goto(server.url + address)
            sheet = page.locator(".print-main")
            box = sheet.bounding_box()
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
            fitted = page.evaluate("document.documentElement.classList.contains('sheet-fit')")
            if width < A4:
                # Laid out at A4's width, shown at the screen's: the whole sheet in view, nothing wrapped anew.
                room = page.evaluate("document.documentElement.clientWidth")
                assert fitted and abs(box["width"] - room) < 2, (name, box)
                laid_out = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.print-main')).width)")
                assert abs(laid_out - A4) < 1, (name, laid_out)
                assert page.locator(".print-toolbar button").bounding_box()["height"] >= 24  # the toolbar unscaled
            else:
                assert not fitted and abs(box["width"] - A4) < 2, (name, box)
            shot(page, f"print-{name}-{width}")
            if width < A4:  # printed from the phone: the paper's layout, no zoom
                page.emulate_media(media="print")
                assert page.evaluate("getComputedStyle(document.querySelector('.print-main')).zoom") == "1"
                page.emulate_media(media="screen")
        context.close()


LONG = "Koninklijke Kaartersbond Sint-Martinus Roeselare-Beveren"
WORD = "Kaartersbondkampioenschapsfinalisten"


def test_the_wall_breaks_long_team_names_between_words_only(browser, server):  # noqa: F811
    from tests.web.conftest import make_tournament
    from tournaments.models import Match

    tournament = make_tournament(4, name="Beker van Roeselare", slug="beker")
    match = Match.objects.get(round__tournament=tournament, table=1)
    match.ns.name, match.ew.name = LONG, WORD
    match.ns.save()
    match.ew.save()
    # Each piece of a name (its words, split after a hyphen too) and how many lines it is drawn on.
    pieces = """els => els.map(el => {
        const text = el.firstChild, found = [], re = /[^\\s-]+-?/g;
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
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="nl")
        page = context.new_page()
        page.goto(f"{server.url}/t/{tournament.slug}/wall/")
        names = page.locator(".side .name")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        found = names.evaluate_all(pieces)
        drawn = {"".join(p for p, _ in name): name for name in found}
        assert LONG.replace(" ", "") in drawn and WORD in drawn
        assert all(lines == 1 for name in found for _, lines in name), (width, found)  # no word broken across lines
        # The single word wider than its card is cut with an ellipsis, kept inside its card.
        word = page.locator(".side .name", has_text=WORD)
        style = word.evaluate("e => [getComputedStyle(e).textOverflow, getComputedStyle(e).overflowX]")
        assert style == ["ellipsis", "hidden"]
        card = page.locator(".table-link").first.bounding_box()
        side = word.bounding_box()
        assert side["x"] + side["width"] <= card["x"] + card["width"] + 1
        shot(page, f"wall-long-names-{width}")
        context.close()
