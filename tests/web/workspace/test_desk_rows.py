"""The director's desk rows after the user walk-through: each row leads to its match (to correct a disputed hand),
a result that waits less than a minute waits "just now", and a reason typed before a wrong PIN stays."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.web.workspace.test_desk import event, finish  # noqa: F401 (fixture)
from tournaments.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def _row(page: str, match) -> str:
    start = page.index(f'id="desk-{match.pk}"')
    return page[start:page.index("</li>", start)]


def test_each_row_links_to_its_match_and_a_fresh_result_waits_just_now(client, event):  # noqa: F811
    tournament, (first, second), director = event
    finish(first)
    finish(second)
    Match.objects.filter(pk=second.pk).update(result_at=timezone.now() - datetime.timedelta(minutes=3))
    client.force_login(director)
    page = client.get(reverse("ws:desk", args=[tournament.slug])).content.decode()
    fresh, older = _row(page, first), _row(page, second)
    assert f'href="{reverse("ws:score-match", args=[tournament.slug, first.pk])}"' in fresh
    assert "just now" in fresh and "0 minutes" not in fresh
    assert "for 3 minutes" in older
    # The director may open the match the row leads to.
    assert client.get(reverse("ws:score-match", args=[tournament.slug, first.pk])).status_code == 200


def test_a_reason_typed_before_a_wrong_pin_stays_in_its_row(client, event):  # noqa: F811
    tournament, (first, _second), director = event
    finish(first)
    client.force_login(director)
    client.post(reverse("ws:desk-lock", args=[tournament.slug]), {"pin": "2468", "pin_again": "2468"})
    answer = client.post(reverse("ws:desk-decide", args=[tournament.slug, first.pk]),
                         {"action": "settle", "reason": "Scores checked on the sheet", "pin": "1111"})
    page = answer.content.decode()
    assert "Wrong PIN." in page
    assert 'value="Scores checked on the sheet"' in _row(page, first)
    assert Match.objects.get(pk=first.pk).result_status == "entered"
    # In desk mode the row leads nowhere: only the desk is open on the tablet.
    assert reverse("ws:score-match", args=[tournament.slug, first.pk]) not in page


def test_the_desk_modes_heading_looks_expandable():
    from django.contrib.staticfiles import finders

    with open(finders.find("web/ws-entry.css"), encoding="utf-8") as f:
        css = f.read()
    assert ".desk-lock summary::before" in css  # a flex summary shows no marker of its own
