"""An individual event's round in the workspace: the drawn tables with seats and codes, who sits out, the draw with
its seed and every redraw, the link to its inputs, and the round clock kept by the server."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Match, Round, RoundDraw, RoundSeat, TaskRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = UserFactory(username="orga")
    client.force_login(user)
    return user


@pytest.fixture
def event(organizer):
    return individual_event(22, organizer=organizer)


def round_url(t, n=1):
    return reverse("ws:round", args=[t.slug, n])


def clock(client, t, action, n=1, **data):
    return client.post(reverse("ws:round-clock", args=[t.slug, n]), {"action": action, **data}, follow=True)


def test_the_round_page_shows_seats_codes_and_who_sits_out(client, event):
    seat_round(event, 1, codes=["ACD347", "KMN679", "PQR333", "TUV444", "WXY666"])
    page = client.get(round_url(event)).content.decode()
    assert "5 tables" in page and "ACD347" in page and "WXY666" in page
    # Table 1: N An Peeters, E Bart Claes, S Chris Wouters, W Dirk Maes; the partnerships N & S, E & W.
    table = page.split('id="table-1"')[1].split("</li>\n    \n    <li")[0]
    for name in ("An Peeters", "Bart Claes", "Chris Wouters", "Dirk Maes"):
        assert name in table
    assert "An Peeters &amp; Chris Wouters" in table and "Bart Claes &amp; Dirk Maes" in table
    assert "Sitting out" in page and "21. Vic Renard" in page and "22. Wim Segers" in page
    assert "/my/t/kaarting-de-kat/table/" in page  # where a phone types the code
    assert "/api/v1/tournaments/{}/rounds/1/draw/".format(event.pk) in page


def test_the_clock_runs_pauses_resumes_gets_more_time_and_ends(client, event):
    seat_round(event, 1)
    rnd = Round.objects.get(tournament=event, number=1)
    page = client.get(round_url(event)).content.decode()
    assert "Not started" in page and 'value="30"' in page and "30:00" in page
    assert "The clock runs: 30 minutes." in clock(client, event, "start", minutes="30").content.decode()
    rnd.refresh_from_db()
    assert rnd.clock_ends_at - rnd.clock_started_at == timedelta(minutes=30)
    state = client.get(reverse("ws:round-clock-state", args=[event.slug, 1])).json()
    assert state["status"] == "running" and 1790 <= state["remaining"] <= 1800
    running = client.get(round_url(event)).content.decode()
    assert re.search(r'data-remaining="(179\d|1800)"', running) and ">Pause<" in running
    paused = clock(client, event, "pause").content.decode()
    assert "The clock is paused." in paused and ">Resume<" in paused
    assert client.get(reverse("ws:round-clock-state", args=[event.slug, 1])).json()["status"] == "paused"
    clock(client, event, "extend", minutes="5")
    rnd.refresh_from_db()
    assert 2090 <= rnd.clock_paused_left <= 2100
    clock(client, event, "resume")
    ended = clock(client, event, "end").content.decode()
    assert "The round&#x27;s time is up." in ended and "Time is up" in ended
    assert client.get(reverse("ws:round-clock-state", args=[event.slug, 1])).json() == {
        "status": "over", "label": "Time is up", "remaining": 0}
    clock(client, event, "extend", minutes="3")  # an ended clock runs again
    assert client.get(reverse("ws:round-clock-state", args=[event.slug, 1])).json()["status"] == "running"


def test_a_clock_refusal_is_said_and_changes_nothing(client, event):
    seat_round(event, 1)
    assert "The clock of round 1 is not running." in clock(client, event, "pause").content.decode()
    assert "Give the minutes as a whole number from 1 to 600, not 0." in clock(
        client, event, "start", minutes="0").content.decode()
    assert Round.objects.get(tournament=event).clock_ends_at is None
    assert client.post(reverse("ws:round-clock", args=[event.slug, 1]), {"action": "spin"}).status_code == 400


def test_the_page_shows_the_servers_time_left_right_after_a_reload(client, event):
    seat_round(event, 1)
    Round.objects.filter(tournament=event).update(clock_started_at=timezone.now() - timedelta(minutes=20),
                                                  clock_ends_at=timezone.now() + timedelta(minutes=10))
    page = client.get(round_url(event)).content.decode()
    assert re.search(r'data-remaining="(59\d|600)"', page)
    assert re.search(r">(9:5\d|10:00)<", page)


def test_the_clock_is_the_organizers(client, event):
    seat_round(event, 1)
    client.force_login(UserFactory(username="stranger"))
    assert clock(client, event, "start", minutes="30").status_code == 404
    assert client.get(reverse("ws:round-clock-state", args=[event.slug, 1])).status_code == 404
    assert client.post(reverse("ws:round-redraw", args=[event.slug, 1])).status_code == 404
    assert Round.objects.get(tournament=event).clock_ends_at is None


# -- with the draw ------------------------------------------------------------------------------------------


def draw_round(client, t, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("ws:pair", args=[t.slug]))
    task = TaskRecord.objects.get(tournament=t)
    assert answer["Location"] == reverse("ws:pair-task", args=[t.slug, task.id])
    return client.get(answer["Location"])


def test_draw_round_one_redraw_and_every_draw_kept(client, event, django_capture_on_commit_callbacks):
    dashboard = client.get(reverse("ws:tournament", args=[event.slug])).content.decode()
    assert "Draw round 1" in dashboard and "22 entered" in dashboard
    followed = draw_round(client, event, django_capture_on_commit_callbacks)
    assert followed["Location"] == round_url(event)
    rnd = Round.objects.get(tournament=event, number=1)
    assert Match.objects.filter(round=rnd).count() == 5
    assert RoundSeat.objects.filter(round=rnd, match__isnull=True).count() == 2
    page = client.get(round_url(event)).content.decode()
    first_seed = rnd.seed
    assert first_seed in page and "Draw again" in page
    codes = set(Match.objects.filter(round=rnd).values_list("table_code", flat=True))
    assert all(code in page for code in codes)
    again = client.post(reverse("ws:round-redraw", args=[event.slug, 1]), follow=True).content.decode()
    rnd.refresh_from_db()
    assert rnd.seed != first_seed and "is drawn again" in again
    assert RoundDraw.objects.filter(round=rnd).count() == 2
    assert first_seed in again and rnd.seed in again and "2 draws of this round" in again
    assert codes.isdisjoint(Match.objects.filter(round=rnd).values_list("table_code", flat=True))


def test_no_redraw_once_a_game_is_started(client, event, django_capture_on_commit_callbacks):
    from tournaments.services.games import game_start

    draw_round(client, event, django_capture_on_commit_callbacks)
    rnd = Round.objects.get(tournament=event, number=1)
    game_start(match=Match.objects.filter(round=rnd).first(), first_dealer="N")
    page = client.get(round_url(event)).content.decode()
    assert "Draw again" not in page
    refused = client.post(reverse("ws:round-redraw", args=[event.slug, 1]))
    assert refused.status_code == 400
    assert "Round 1 has started: its pairings can no longer change." in refused.content.decode()
    assert RoundDraw.objects.filter(round=rnd).count() == 1


def test_a_draw_needs_four_players(client, organizer):
    t = individual_event(3, organizer=organizer, slug="drie", name="Drie")
    page = client.get(reverse("ws:tournament", args=[t.slug])).content.decode()
    assert "Enter at least four players first." in page
    refused = client.post(reverse("ws:pair", args=[t.slug]), follow=True)
    assert not Round.objects.filter(tournament=t).exists()
    assert "A draw needs at least 4 players; 3 are entered." in refused.content.decode()


def test_a_clock_ended_early_is_reopened_or_kept_from_the_round_page(client, event):
    from tournaments.models import DirectorAction

    seat_round(event, 1)
    event.__class__.objects.filter(pk=event.pk).update(match_length="timed", minutes=30)
    clock(client, event, "start", minutes="30")
    ended = clock(client, event, "end").content.decode()
    assert 'id="clock-cut"' in ended and "about 30 min left" in ended
    refused = clock(client, event, "reopen", reason="").content.decode()
    assert "Give the reason for this action" in refused and not DirectorAction.objects.exists()
    reopened = clock(client, event, "reopen", reason="wrong round ended").content.decode()
    assert "The clock runs again" in reopened and 'id="clock-cut"' not in reopened
    action = DirectorAction.objects.get()
    assert (action.kind, action.reason, action.round.number) == ("clock_reopened", "wrong round ended", 1)
    actions = client.get(reverse("ws:actions", args=[event.slug])).content.decode()
    assert "Round reopened after its clock was ended early" in actions and "wrong round ended" in actions
    assert reverse("ws:actions-revert", args=[event.slug, action.pk]) not in actions  # not reverted like the others
    clock(client, event, "end")
    kept = clock(client, event, "keep", reason="all done").content.decode()
    assert "The results stand as the clock" in kept
    assert DirectorAction.objects.filter(kind="clock_kept").count() == 1
