"""The SVG charts: every number an SVG attribute holds is a plain decimal inside the viewBox, in every language."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from tests.web.conftest import enter_hands
from tournaments.models import Match
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute
from web.charts import Series, line_chart, svg_number

LANGUAGES = ["en", "nl", "fr", "es", "ca"]
#: What SVG reads as a number: digits, at most one decimal point, never a comma.
SVG_NUMBER = re.compile(r"-?\d+(\.\d+)?")
X_ATTRS, Y_ATTRS = ("x", "x1", "x2", "cx"), ("y", "y1", "y2", "cy")


class SvgCollector(HTMLParser):
    """Collect each <svg> of a page: its viewBox and the numeric attributes of the shapes inside it."""

    def __init__(self):
        super().__init__()
        self.charts = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "viewbox" in attrs:
            self.charts.append({"viewBox": attrs["viewbox"], "shapes": []})
        elif self.charts and tag in ("line", "text", "polyline", "circle"):
            self.charts[-1]["shapes"].append((tag, attrs))

    def handle_endtag(self, tag):
        pass


def charts_of(html: str) -> list[dict]:
    parser = SvgCollector()
    parser.feed(html)
    # The site's icon (base.html) has no chart shapes; the charts have axes.
    return [c for c in parser.charts if any(tag == "line" for tag, _ in c["shapes"])]


def number(text: str) -> float:
    assert SVG_NUMBER.fullmatch(text), f"not an SVG number: {text!r}"
    return float(text)


def assert_chart_is_drawable(chart: dict) -> int:
    """Assert every coordinate parses as SVG reads it and lies within the viewBox; return the dots counted."""
    min_x, min_y, width, height = (number(v) for v in chart["viewBox"].split())
    dots = 0
    for tag, attrs in chart["shapes"]:
        for name in X_ATTRS + Y_ATTRS + ("r",):
            if name in attrs:
                value = number(attrs[name])
                if name in X_ATTRS:
                    assert min_x <= value <= min_x + width, (tag, name, value)
                elif name in Y_ATTRS:
                    assert min_y <= value <= min_y + height, (tag, name, value)
        if tag == "polyline":
            for pair in attrs["points"].split():
                x, y = pair.split(",")
                assert min_x <= number(x) <= min_x + width and min_y <= number(y) <= min_y + height, pair
        dots += tag == "circle"
    return dots


def test_svg_number_writes_a_decimal_point_whatever_the_language():
    for lang in LANGUAGES:
        with translation.override(lang):
            assert svg_number(30) == "30"
            assert svg_number(45.3) == "45.3"
            assert svg_number(1234.56) == "1234.6"


def test_every_chart_coordinate_is_a_string_so_no_template_can_localize_it():
    chart = line_chart([0, 1, 2], [Series("ns", [0, 12, 61], "ns"), Series("ew", [0, None, 40], "ew")], guide=61)
    coordinates = [chart["width"], chart["height"], chart["left"], chart["right"], chart["top"], chart["bottom"],
                   chart["tick_x"], chart["x_tick_y"], chart["guide"]]
    coordinates += [t["x"] for t in chart["x_ticks"]] + [t["y"] for t in chart["y_ticks"]]
    coordinates += [v for s in chart["series"] for d in s["dots"] for v in (d["x"], d["y"])]
    assert all(isinstance(c, str) and SVG_NUMBER.fullmatch(c) for c in coordinates), coordinates
    assert chart["series"][1]["points"] == "30,142 312,54.1"  # 8 + 134 × (1 − 40/61)


@pytest.fixture
def two_rounds(tournament):
    """The page tests' tournament with round 1 finished and round 2 played, so a team's charts have two rounds."""
    for match in Match.objects.filter(round__tournament=tournament, round__number=1, ew__isnull=False):
        while match.status != Match.Status.FINISHED:
            enter_hands(match, 1, ns=60)
            match.refresh_from_db()
    standings_recompute(tournament=tournament)
    round_pair(tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament, round__number=2, ew__isnull=False).first()
    enter_hands(match, 2)
    standings_recompute(tournament=tournament)
    return tournament


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_match_pages_chart_is_drawable_in_each_language(client, tournament, lang):
    match = Match.objects.get(round__tournament=tournament, round__number=1, table=1)  # three hands entered
    html = client.get(reverse("web:match", args=[tournament.slug, match.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert f'<html lang="{lang}">' in html.content.decode()
    charts = charts_of(html.content.decode())
    assert len(charts) == 1
    assert assert_chart_is_drawable(charts[0]) == 2 * 4  # each side: the start and three hands


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_team_pages_charts_are_drawable_in_each_language(client, two_rounds, lang):
    match = Match.objects.filter(round__tournament=two_rounds, round__number=2, ew__isnull=False).first()
    html = client.get(reverse("web:team", args=[two_rounds.slug, match.ns_id]), HTTP_ACCEPT_LANGUAGE=lang)
    assert f'<html lang="{lang}">' in html.content.decode()
    charts = charts_of(html.content.decode())
    assert len(charts) == 2  # match points and rank after each round
    assert [assert_chart_is_drawable(c) for c in charts] == [2, 2]
