"""The bracket's print page with long names, in headless Chromium with print media and as a PDF: a name too long
for its line is written whole on two lines of smaller type (paper has no tooltip), inside its match's box, in the
match for third place under the final too.

The PDF and screenshots go to $BRACKET_SHOTS when it is set (a folder), for a person to look at.
"""

import os
import shutil
import subprocess

import pytest

from tests.web.browser import browser, server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("BRACKET_SHOTS", "")
LONG = "Koninklijke Kaartersbond Sint-Martinus Roeselare-Beveren"
OTHER = "Koninklijke Maatschappij De Gouden Leeuw Sint-Eloois-Winkel"


#: Each match box's names as drawn: the box's right edge, and each name's lines with their right edges.
BOXES = """svg => [...svg.querySelectorAll('g.bk-match')].map(g => {
    const box = g.querySelector('rect.bk-box').getBoundingClientRect();
    const names = [...g.querySelectorAll('text.bk-name')].map(t => {
      const lines = t.querySelectorAll('tspan').length ? [...t.querySelectorAll('tspan')] : [t];
      return lines.map(l => [l.textContent, l.getBoundingClientRect().right]);
    });
    return {right: box.right, names};
  })"""


def test_the_bracket_print_page_writes_long_names_whole_in_the_match_for_third_place(browser, server, tmp_path):  # noqa: F811
    from tests.web.stage_pages import knockout_event
    from tournaments.models import Match

    tournament = knockout_event(4, decided=2, third_place=True, slug="beker")
    third = Match.objects.get(round__tournament=tournament, round__number=2, table=2)
    third.ns.name, third.ew.name = LONG, OTHER  # the semi-finals' losers
    third.ns.save()
    third.ew.save()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    page = context.new_page()
    page.goto(f"{server.url}/t/{tournament.slug}/stages/1/bracket/print/")
    page.emulate_media(media="print")
    boxes = page.locator(".print-bracket svg").evaluate(BOXES)
    drawn = {" ".join(text for text, _right in name): name for box in boxes for name in box["names"]}
    assert LONG in drawn and OTHER in drawn, drawn.keys()  # whole, on two lines, not cut with "…"
    assert all(len(drawn[n]) == 2 for n in (LONG, OTHER))
    for box in boxes:  # every line inside its box
        assert all(right <= box["right"] for name in box["names"] for _text, right in name), box
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "bracket-third-place-print.png"), full_page=True)
    pdf = tmp_path / "bracket.pdf"
    page.pdf(path=str(pdf), format="A4")
    if SHOTS:
        shutil.copy(pdf, os.path.join(SHOTS, "bracket-third-place-print.pdf"))
    if shutil.which("pdftotext"):
        text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                       check=True).stdout.split())
        assert all(word in text for word in (LONG + " " + OTHER).split()), text
    context.close()
