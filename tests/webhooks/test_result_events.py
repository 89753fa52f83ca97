"""The confirmation's webhook events (issue 28): ``result.confirmed``, ``result.disputed`` and ``result.settled``,
sent to a real receiver when the other side confirms or disputes a result and when a director settles it;
their payloads name the step and the player, never the phone nor the address it came from."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tests.webhooks.test_webhooks import client_for, register
from tournaments.models import Match
from tournaments.services.confirmation import (
    acting, personal_codes, result_confirm_on_paper, result_settle, results_auto_confirm,
)
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


def finish(match, device="phone-a"):
    with acting(device=device, address="10.0.0.7"):
        for i in range(40):
            entered, _ = hand_enter(match=match, data={"dealer": "NESW"[i % 4], "trump": "H",
                                                       "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 50, "ew": 10}})
            if entered.game_winner:
                break
    match.refresh_from_db()


@pytest.fixture
def event():
    tournament = TournamentFactory(best_of=1, confirmation="opponents", auto_confirm_minutes=10)
    rnd = RoundFactory(tournament=tournament, number=1)
    matches = [MatchFactory(round=rnd, table=t) for t in (1, 2, 3)]
    for m in matches:
        for team in (m.ns, m.ew):
            EntryFactory(tournament=tournament, team=team)
    organizer = UserFactory()
    tournament.organizers.add(organizer)
    codes = personal_codes(tournament, [m.ew.player_1_id for m in matches])
    return tournament, matches, organizer, codes


def bodies(receiver):
    return [json.loads(r["body"]) for r in receiver.requests]


def test_confirmed_disputed_and_settled_reach_the_receiver(django_capture_on_commit_callbacks, event, receiver):
    tournament, (first, second, _third), organizer, codes = event
    register(organizer, tournament, receiver, events=["result.confirmed", "result.disputed", "result.settled"])
    with django_capture_on_commit_callbacks(execute=True):
        finish(first)
        finish(second)
    assert receiver.requests == []  # entered: not an event of its own (hand.entered and match.finished say it)
    anon = APIClient()
    ew = first.ew.player_1
    with django_capture_on_commit_callbacks(execute=True):
        answer = anon.post(f"/api/v1/matches/{first.pk}/confirm/", {"player": ew.pk, "code": codes[ew.pk]},
                           format="json", HTTP_X_DEVICE="phone-b", REMOTE_ADDR="10.0.0.8")
    assert answer.status_code == 200, answer.json()
    other = second.ew.player_1
    with django_capture_on_commit_callbacks(execute=True):
        answer = anon.post(f"/api/v1/matches/{second.pk}/dispute/",
                           {"player": other.pk, "code": codes[other.pk], "reason": "the last hand was 40-20"},
                           format="json", HTTP_X_DEVICE="phone-c")
    assert answer.status_code == 200, answer.json()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(organizer).post(f"/api/v1/matches/{second.pk}/settle/", {"reason": "sheet checked"},
                                            format="json")
    assert answer.status_code == 200, answer.json()
    assert receiver.events() == ["result.confirmed", "result.disputed", "result.settled"]
    confirmed, disputed, settled = bodies(receiver)
    assert confirmed["tournament"] == tournament.pk and confirmed["event"] == "result.confirmed"
    step = confirmed["data"]["step"]
    assert (step["kind"], step["status"], step["side"], step["player"], step["player_detail"]) == (
        "confirmed", "confirmed", "ew", ew.pk, {"id": ew.pk, "name": ew.name})
    assert confirmed["data"]["match"]["id"] == first.pk and confirmed["data"]["match"]["winner"] == "ns"
    assert (disputed["data"]["step"]["kind"], disputed["data"]["step"]["reason"]) == (
        "disputed", "the last hand was 40-20")
    assert disputed["data"]["step"]["side"] == "ew" and disputed["data"]["step"]["player"] == other.pk
    assert (settled["data"]["step"]["kind"], settled["data"]["step"]["status"], settled["data"]["step"]["user"],
            settled["data"]["step"]["reason"], settled["data"]["step"]["player"]) == (
        "settled", "final", organizer.pk, "sheet checked", None)
    for request in receiver.requests:  # never where it came from
        assert b"10.0.0." not in request["body"] and b"phone-" not in request["body"]
        assert "address" not in request["body"].decode() and "device" not in request["body"].decode()


def test_on_paper_automatically_and_a_directors_change_are_the_same_events(django_capture_on_commit_callbacks,
                                                                            event, receiver):
    tournament, (first, second, third), organizer, _codes = event
    register(organizer, tournament, receiver)  # every event: only the result's are looked at here
    with django_capture_on_commit_callbacks(execute=True):
        for m in (first, second, third):
            finish(m)
    receiver.requests.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm_on_paper(match_id=first.pk, user=organizer, reason="phones dead")
    Match.objects.filter(pk=second.pk).update(result_at=timezone.now() - timedelta(minutes=11))
    with django_capture_on_commit_callbacks(execute=True):
        assert results_auto_confirm() == 1
    with django_capture_on_commit_callbacks(execute=True):
        result_settle(match_id=third.pk, user=organizer, reason="as it stands")
    results = [b for b in bodies(receiver) if b["event"].startswith("result.")]
    assert [(b["event"], b["data"]["step"]["kind"], b["data"]["match"]["id"]) for b in results] == [
        ("result.confirmed", "paper", first.pk), ("result.confirmed", "auto", second.pk),
        ("result.settled", "settled", third.pk)]
    assert results[1]["data"]["step"]["reason"] == "10 min" and results[1]["data"]["step"]["user"] is None


def test_a_tournament_without_confirmation_or_without_the_event_wanted_sends_none(django_capture_on_commit_callbacks,
                                                                                   receiver):
    plain = TournamentFactory(best_of=1)
    match = MatchFactory(round=RoundFactory(tournament=plain, number=1), table=1)
    organizer = UserFactory()
    plain.organizers.add(organizer)
    register(organizer, plain, receiver, events=["result.confirmed", "result.settled"])
    with django_capture_on_commit_callbacks(execute=True):
        finish(match)
    assert receiver.requests == []  # confirmation off: final at once, no step, no event
    refused = client_for(organizer).post(f"/api/v1/tournaments/{plain.pk}/webhooks/",
                                         {"url": receiver.url, "events": ["result.confirmd"]}, format="json")
    assert refused.status_code == 400
