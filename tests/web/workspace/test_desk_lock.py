"""Desk mode on a shared tablet (web/workspace/desk_lock.py): a director sets a PIN; the device then opens only the
desk (every other page, signing out and the API lead back to it or are refused); settling a result and leaving
need the PIN; wrong PINs are counted and refused past the limit."""

import pytest
from django.urls import reverse

from tests.web.workspace.test_desk import event, finish  # noqa: F401 (fixture)
from tournaments.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


@pytest.fixture
def tablet(client, event):  # noqa: F811 (the fixture)
    tournament, matches, director = event
    client.force_login(director)
    answer = client.post(reverse("ws:desk-lock", args=[tournament.slug]), {"pin": "2468", "pin_again": "2468"})
    assert answer.status_code == 302
    return client, tournament, matches


def test_setting_a_pin_needs_it_twice_and_digits(client, event):  # noqa: F811
    tournament, _matches, director = event
    client.force_login(director)
    url = reverse("ws:desk-lock", args=[tournament.slug])
    assert "The two PINs differ." in client.post(url, {"pin": "2468", "pin_again": "2469"}, follow=True
                                                   ).content.decode()
    assert "The PIN is 4 to 8 digits." in client.post(url, {"pin": "12a4", "pin_again": "12a4"}, follow=True
                                                        ).content.decode()
    assert "desk_lock" not in client.session
    page = client.get(reverse("ws:desk", args=[tournament.slug])).content.decode()
    assert "Start desk mode" in page and "Leave desk mode" not in page


def test_in_desk_mode_only_the_desk_is_open(tablet):
    client, tournament, _matches = tablet
    desk = reverse("ws:desk", args=[tournament.slug])
    page = client.get(desk)
    assert page.status_code == 200 and "Leave desk mode" in page.content.decode()
    nav = page.content.decode().split('class="ws-nav"')[1].split("</nav>")[0]
    assert reverse("ws:home") not in nav and "Desk mode" in nav
    assert 'class="account-nav"' not in page.content.decode()  # no way out but the PIN
    for url in (reverse("ws:home"), reverse("ws:desk-codes", args=[tournament.slug]),
                reverse("ws:actions", args=[tournament.slug]), f"/t/{tournament.slug}/", "/", "/admin/"):
        answer = client.get(url)
        assert (answer.status_code, answer["Location"]) == (302, desk), url
    assert client.get(reverse("ws:desk-rows", args=[tournament.slug])).status_code == 200
    assert client.post(reverse("ws:logout")).status_code == 403  # signing out is leaving
    assert client.get(f"/api/v1/tournaments/{tournament.pk}/").status_code == 403


def test_a_decision_needs_the_pin_and_leaving_too(tablet):
    client, tournament, matches = tablet
    finish(matches[0])
    decide = reverse("ws:desk-decide", args=[tournament.slug, matches[0].pk])
    page = client.post(decide, {"action": "settle", "reason": "checked"}, follow=True).content.decode()
    assert "Wrong PIN." in page
    assert Match.objects.get(pk=matches[0].pk).result_status == "entered"
    assert 'name="pin"' in client.get(reverse("ws:desk-rows", args=[tournament.slug])).content.decode()
    client.post(decide, {"action": "settle", "reason": "checked", "pin": "2468"})
    assert Match.objects.get(pk=matches[0].pk).result_status == "final"
    unlock = reverse("ws:desk-unlock", args=[tournament.slug])
    assert "Wrong PIN." in client.post(unlock, {"pin": "1111"}, follow=True).content.decode()
    assert "desk_lock" in client.session
    client.post(unlock, {"pin": "2468"})
    assert "desk_lock" not in client.session
    assert client.get(reverse("ws:home")).status_code == 200


def test_wrong_pins_are_refused_past_the_limit_even_the_right_one(tablet):
    client, tournament, _matches = tablet
    unlock = reverse("ws:desk-unlock", args=[tournament.slug])
    for pin in ("0000", "1111", "2222", "3333", "4444"):
        assert "Wrong PIN." in client.post(unlock, {"pin": pin}, follow=True).content.decode()
    page = client.post(unlock, {"pin": "2468"}, follow=True).content.decode()
    assert "Too many wrong PINs" in page and "desk_lock" in client.session

