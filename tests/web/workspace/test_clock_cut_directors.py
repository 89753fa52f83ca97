"""A clock ended early by mistake is reopened or kept by a director in the workspace as through the API
(``POST …/rounds/{n}/clock/reopen/`` and ``…/keep/``, ``DirectorOnly``): the director's decisions page offers the
two buttons to the event's organizers and directors, and the clock's view takes those two actions from them; the
clock's other actions and the round page stay the organizers'. A scorekeeper and a stranger get a 404."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import DirectorAction, Round
from tournaments.services.clock import round_clock_end, round_clock_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def cut():
    """Round 1 of a timed individual event whose clock was ended with its 30 minutes nearly whole; one account of
    each kind."""
    organizer = UserFactory(username="orga")
    event = individual_event(8, organizer=organizer)
    rnd = seat_round(event, 1)
    round_clock_start(round=rnd, minutes=30)
    round_clock_end(round=rnd)
    director, scorekeeper = UserFactory(username="arbiter"), UserFactory(username="scorer")
    event.directors.add(director)
    event.scorekeepers.add(scorekeeper)
    return {"event": event, "organizer": organizer, "director": director, "scorekeeper": scorekeeper,
            "stranger": UserFactory(username="stranger")}


def decide(client, event, action, **data):
    return client.post(reverse("ws:round-clock", args=[event.slug, 1]), {"action": action, **data})


@pytest.mark.parametrize("role", ["organizer", "director"])
def test_an_organizer_and_a_director_see_the_buttons_on_the_decisions_page_and_reopen(client, cut, role):
    client.force_login(cut[role])
    page = client.get(reverse("ws:actions", args=[cut["event"].slug]))
    assert page.status_code == 200
    body = page.content.decode()
    round_id = Round.objects.get(tournament=cut["event"]).pk
    assert f'id="clock-cut-{round_id}"' in body and "Clocks ended early" in body
    assert 'value="reopen"' in body and 'value="keep"' in body and 'name="back" value="actions"' in body
    answer = decide(client, cut["event"], "reopen", reason="ended the wrong round", back="actions")
    assert answer.status_code == 302 and answer["Location"].endswith("/actions/#clock-cuts")
    action = DirectorAction.objects.get()
    assert (action.kind, action.actor, action.reason) == ("clock_reopened", cut[role], "ended the wrong round")
    assert Round.objects.get(tournament=cut["event"]).clock_cut_left is None
    after = client.get(reverse("ws:actions", args=[cut["event"].slug])).content.decode()
    assert f'id="clock-cut-{round_id}"' not in after  # decided: no more buttons


def test_a_director_keeps_the_results_and_comes_back_to_the_decisions(client, cut):
    client.force_login(cut["director"])
    answer = decide(client, cut["event"], "keep", reason="the round was over anyway")
    assert answer.status_code == 302 and answer["Location"].endswith("/actions/#clock-cuts")
    assert DirectorAction.objects.get().kind == "clock_kept"


def test_the_clocks_other_actions_and_the_round_page_stay_the_organizers(client, cut):
    client.force_login(cut["director"])
    assert client.get(reverse("ws:round", args=[cut["event"].slug, 1])).status_code == 404
    assert decide(client, cut["event"], "extend", minutes="5").status_code == 404
    assert Round.objects.get(tournament=cut["event"]).clock_cut_left is not None  # untouched


@pytest.mark.parametrize("role", ["scorekeeper", "stranger"])
def test_a_scorekeeper_and_a_stranger_get_a_404(client, cut, role):
    client.force_login(cut[role])
    assert client.get(reverse("ws:actions", args=[cut["event"].slug])).status_code == 404
    for action in ("reopen", "keep"):
        assert decide(client, cut["event"], action, reason="not mine to decide").status_code == 404
    assert not DirectorAction.objects.exists()
    assert Round.objects.get(tournament=cut["event"]).clock_cut_left is not None


def test_the_organizers_round_page_keeps_its_buttons(client, cut):
    client.force_login(cut["organizer"])
    page = client.get(reverse("ws:round", args=[cut["event"].slug, 1])).content.decode()
    assert 'id="clock-cut"' in page and 'value="reopen"' in page and 'name="back"' not in page
    answer = decide(client, cut["event"], "keep", reason="fine as it is")
    assert answer.status_code == 302 and answer["Location"].endswith("/rounds/1/#clock")


@pytest.mark.parametrize("role", ["organizer", "director"])
def test_a_director_who_does_not_organize_sees_no_organizers_tab(client, cut, role):
    """The decisions page's tabs: a director who does not organize the event gets no Dashboard, Entries or Stages
    (each a 404 for them), its organizers all of them."""
    client.force_login(cut[role])
    slug = cut["event"].slug
    body = client.get(reverse("ws:actions", args=[slug])).content.decode()
    tabs = [reverse("ws:tournament", args=[slug]), reverse("ws:entries", args=[slug]), reverse("ws:stages", args=[slug])]
    for url in tabs:
        assert (f'href="{url}"' in body) == (role == "organizer"), url
        assert client.get(url).status_code == (200 if role == "organizer" else 404)
    assert f'href="{reverse("ws:actions", args=[slug])}"' in body
