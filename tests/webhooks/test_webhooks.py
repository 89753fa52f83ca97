"""Webhooks (issue #13): organizers register URLs; signed JSON events reach a real HTTP server; retries with
backoff; a delivery log; a test event; and the hook adds no SQL statement to the request that stores a hand."""

import hashlib
import hmac
import json

import pytest
from django.db import connection
from django.db.models.signals import post_delete, post_save
from django.test.utils import CaptureQueriesContext

from api.models import AuthToken
from tests.api.deals import summary
from tests.factories import ClubFactory, MatchFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.models import Hand
from tournaments.services.rounds import round_pair
from webhooks import signals
from webhooks.models import Delivery, Endpoint
from webhooks.services import endpoint_create
from webhooks.tasks import MAX_RETRIES, deliver_task
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

SEATS = "NESW"


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    """These tests' receivers listen on 127.0.0.1, which webhooks may reach only when the site allows it
    (tests/webhooks/test_targets.py checks the refusals with the default setting: nothing allowed)."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Gentse Beker", club=ClubFactory(), variant="belgian-manille", best_of=3)


@pytest.fixture
def organizer(tournament):
    user = UserFactory(username="organizer")
    tournament.organizers.add(user)
    return user


@pytest.fixture
def scorekeeper(tournament):
    user = UserFactory(username="scorekeeper")
    tournament.scorekeepers.add(user)
    return user


@pytest.fixture
def match(tournament):
    club = tournament.club
    return MatchFactory(round__tournament=tournament, round__number=1, table=1,
                        ns=TeamFactory(name="De Manilles", club=club), ew=TeamFactory(name="De Muulen", club=club))


def hooks_url(tournament, pk=None, action=None):
    url = f"/api/v1/tournaments/{tournament.pk}/webhooks/"
    if pk is not None:
        url += f"{pk}/"
    if action:
        url += f"{action}/"
    return url


def verify(request: dict, secret: str) -> bool:
    """What a receiver does: HMAC-SHA256 of the raw body with the endpoint's secret, compared in constant time."""
    expected = "sha256=" + hmac.new(secret.encode(), request["body"], hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, request["headers"]["X-Manille-Signature"])


def register(organizer, tournament, receiver, **extra):
    response = client_for(organizer).post(hooks_url(tournament), {"url": receiver.url, **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_hand_entered_reaches_the_receiver_signed(django_capture_on_commit_callbacks, organizer, scorekeeper,
                                                    match, tournament, receiver):
    hook = register(organizer, tournament, receiver, description="The club's screen")
    assert len(hook["secret"]) == 64 and hook["events"] == [] and hook["last_delivery"] is None
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", summary("N", 37), format="json")
    assert answer.status_code == 201
    # Every event by default: the hand, then the standings it changed (recomputed in-process here).
    assert receiver.events() == ["hand.entered", "standings.updated"]
    request = receiver.requests[0]
    assert verify(request, hook["secret"]) and not verify(request, "another secret")
    assert request["headers"]["Content-Type"] == "application/json"
    assert int(request["headers"]["X-Manille-Timestamp"]) > 1_700_000_000
    body = json.loads(request["body"])
    assert body["event"] == "hand.entered" and body["id"] == request["headers"]["X-Manille-Delivery"]
    assert body["tournament"] == tournament.pk  # the id, the tournament beside it (issue 29)
    assert body["tournament_detail"] == {"id": tournament.pk, "name": "Gentse Beker", "slug": tournament.slug}
    assert body["data"]["hand"]["id"] == answer.json()["id"]
    assert body["data"]["hand"]["input"] == summary("N", 37)
    assert body["data"]["hand"]["totals"] == answer.json()["totals"]
    assert body["data"]["match"]["ns"] == match.ns_id
    assert body["data"]["match"]["ns_detail"] == {"id": match.ns_id, "name": "De Manilles"}
    # The delivery log: status, the answer's start, duration, attempts.
    delivery = Delivery.objects.get(event="hand.entered")
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("succeeded", 1, 200)
    assert delivery.response_body.startswith("answer 1: 200") and len(delivery.response_body) == 1000
    assert delivery.duration_ms is not None and delivery.body.encode() == request["body"]
    shown = client_for(organizer).get(hooks_url(tournament, hook["id"])).json()["last_delivery"]
    assert shown["status"] == "succeeded" and shown["event"] == "standings.updated"


def test_hooking_the_hand_adds_no_sql_statement_to_the_request(django_capture_on_commit_callbacks, organizer,
                                                                 scorekeeper, match, tournament, receiver):
    """The same POST with and without the webhook receivers connected: the same statements; one callback more."""
    register(organizer, tournament, receiver)
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    client.post(url, summary("N", 37), format="json")  # warm up (the token's user, the first game)
    receivers = [(post_save, signals.hand_saved, Hand, "webhooks.hand_saved"),
                 (post_delete, signals.hand_deleted, Hand, "webhooks.hand_deleted")]
    for signal, _fn, sender, uid in receivers:
        signal.disconnect(sender=sender, dispatch_uid=uid)
    try:
        with django_capture_on_commit_callbacks() as without_callbacks, CaptureQueriesContext(connection) as without:
            assert client.post(url, summary("E", 37), format="json").status_code == 201
    finally:
        for signal, fn, sender, uid in receivers:
            signal.connect(fn, sender=sender, dispatch_uid=uid)
    with django_capture_on_commit_callbacks() as with_callbacks, CaptureQueriesContext(connection) as with_hook:
        assert client.post(url, summary("S", 37), format="json").status_code == 201
    assert len(with_hook) == len(without), [q["sql"] for q in with_hook.captured_queries]
    assert len(with_callbacks) == len(without_callbacks) + 1


def test_a_tournament_nobody_listens_to_queues_no_task(django_capture_on_commit_callbacks, organizer, scorekeeper,
                                                       match, tournament, receiver):
    """No active endpoint: a hand queues no webhook task (known from the tournament's stamp, no SQL); an endpoint
    registered, then switched off, is seen at the next hand."""
    from celery.signals import task_prerun

    ran = []

    def seen(sender=None, **kwargs):
        ran.append(sender.name)

    task_prerun.connect(seen, weak=False)
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(url, summary("N", 37), format="json").status_code == 201
        assert "webhooks.event_task" not in ran and Delivery.objects.count() == 0
        hook = register(organizer, tournament, receiver, events=["hand.entered"])
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(url, summary("E", 37), format="json").status_code == 201
        assert "webhooks.event_task" in ran and receiver.events() == ["hand.entered"]
        client_for(organizer).patch(hooks_url(tournament, hook["id"]), {"active": False}, format="json")
        ran.clear()
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(url, summary("S", 37), format="json").status_code == 201
        assert "webhooks.event_task" not in ran and receiver.events() == ["hand.entered"]
    finally:
        task_prerun.disconnect(seen)


def test_events_filter_and_inactive_endpoints(django_capture_on_commit_callbacks, organizer, scorekeeper, match,
                                              tournament, receiver):
    register(organizer, tournament, receiver, events=["standings.updated"])
    register(organizer, tournament, receiver, active=False)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", summary("N", 37), format="json")
    assert "hand.entered" not in receiver.events()
    assert set(receiver.events()) <= {"standings.updated"}


def test_correction_deletion_and_the_match_decided(django_capture_on_commit_callbacks, organizer, scorekeeper, match,
                                                   tournament, receiver):
    register(organizer, tournament, receiver, events=["hand.entered", "hand.corrected", "hand.deleted",
                                                      "match.finished"])
    client = client_for(scorekeeper)
    url = f"/api/v1/matches/{match.pk}/hands/"
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, summary("N", 37), format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.patch(f"/api/v1/hands/{first['id']}/", {"points": {"ns": 40, "ew": 20}},
                            format="json").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert client.delete(f"/api/v1/hands/{first['id']}/").status_code == 204
    assert receiver.events() == ["hand.entered", "hand.corrected", "hand.deleted"]
    deleted = json.loads(receiver.requests[2]["body"])["data"]
    assert deleted["hand"] == {"id": first["id"], "game": 1, "number": 1}
    receiver.requests.clear()
    for dealer in range(4):  # all eight tricks each hand: the match is decided by the fourth
        with django_capture_on_commit_callbacks(execute=True):
            client.post(url, summary(SEATS[dealer], 60, tricks=(8, 0)), format="json")
    assert receiver.events() == ["hand.entered"] * 4 + ["match.finished"]
    finished = json.loads(receiver.requests[-1]["body"])["data"]["match"]
    assert finished["winner"] == "ns" and finished["games_won"] == {"ns": 2, "ew": 0}


def test_round_paired_and_standings_updated(django_capture_on_commit_callbacks, organizer, tournament, receiver):
    from tournaments.models import Entry

    for i in range(4):
        Entry.objects.create(tournament=tournament, team=TeamFactory(club=tournament.club), seed=i + 1)
    # ``round.paired`` reaches the endpoints an organizer registered (the round may not be published yet).
    endpoint_create(tournament=tournament, url=receiver.url, events=["round.paired", "standings.updated"],
                    user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_pair(tournament=tournament)
    assert "round.paired" in receiver.events()
    paired = json.loads(receiver.requests[receiver.events().index("round.paired")]["body"])["data"]["round"]
    assert paired["number"] == rnd.number and len(paired["matches"]) == 2
    assert all(m["ns_detail"]["name"] and m["ns"] == m["ns_detail"]["id"] for m in paired["matches"])
    assert "standings.updated" in receiver.events()
    rows = json.loads(receiver.requests[receiver.events().index("standings.updated")]["body"])["data"]["standings"]
    assert len(rows) == 4 and {"rank", "team", "match_points"} <= set(rows[0])


def test_retries_after_500_then_succeeds(tournament, receiver):
    # In-process retries run at once (no 2, 4, 8 s waits); each raises its Retry unless told not to propagate.
    deliver_task.app.conf.task_eager_propagates = False  # the suite's conftest restores it after the test
    receiver.script = [500, 503, 200]
    endpoint = endpoint_create(tournament=tournament, url=receiver.url)
    delivery = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body='{"x":1}')
    deliver_task.apply((delivery.pk,), throw=False)  # in-process: the retries follow at once instead of after 2, 4 s
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("succeeded", 3, 200)
    assert len(receiver.requests) == 3
    assert len({r["body"] for r in receiver.requests}) == 1
    assert len({r["headers"]["X-Manille-Delivery"] for r in receiver.requests}) == 1
    assert all(verify(r, endpoint.secret) for r in receiver.requests)


def test_gives_up_after_the_last_retry(tournament, receiver):
    # In-process retries run at once (no 2, 4, 8 s waits); each raises its Retry unless told not to propagate.
    deliver_task.app.conf.task_eager_propagates = False  # the suite's conftest restores it after the test
    receiver.script = [500]
    endpoint = endpoint_create(tournament=tournament, url=receiver.url)
    delivery = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body="{}")
    deliver_task.apply((delivery.pk,), throw=False)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("failed", MAX_RETRIES + 1, 500)


def test_a_refusal_is_final_and_an_unreachable_receiver_is_logged(tournament, receiver):
    receiver.script = [410]
    endpoint = endpoint_create(tournament=tournament, url=receiver.url)
    delivery = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body="{}")
    deliver_task.apply((delivery.pk,), throw=False)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("failed", 1, 410)
    receiver.close()
    gone = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body="{}")
    deliver_task.apply((gone.pk,), retries=MAX_RETRIES)  # the last try
    gone.refresh_from_db()
    assert gone.status == "failed" and gone.response_status is None and "Connection" in gone.error
    receiver.server = type("Closed", (), {"shutdown": lambda s: None, "server_close": lambda s: None})()


@pytest.mark.django_db(transaction=True)
def test_send_a_test_event_from_the_api(organizer, tournament, receiver):
    hook = register(organizer, tournament, receiver, events=["match.finished"])
    answer = client_for(organizer).post(hooks_url(tournament, hook["id"], "test"))
    assert answer.status_code == 202
    assert answer.json()["status"] == "succeeded" and answer.json()["response_status"] == 200
    assert receiver.events() == ["webhook.test"] and verify(receiver.requests[0], hook["secret"])
    log = client_for(organizer).get(hooks_url(tournament, hook["id"], "deliveries")).json()
    assert log["count"] == 1 and [d["event"] for d in log["results"]] == ["webhook.test"]


@pytest.mark.django_db(transaction=True)
def test_rotate_the_secret(organizer, tournament, receiver):
    hook = register(organizer, tournament, receiver)
    rotated = client_for(organizer).post(hooks_url(tournament, hook["id"], "rotate-secret")).json()
    assert rotated["secret"] != hook["secret"] and len(rotated["secret"]) == 64
    client_for(organizer).post(hooks_url(tournament, hook["id"], "test"))
    assert verify(receiver.requests[0], rotated["secret"]) and not verify(receiver.requests[0], hook["secret"])


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x", "gopher://x", "javascript:alert(1)",
                                 "http://", "not a url"])
def test_only_http_urls_are_accepted(organizer, tournament, url):
    response = client_for(organizer).post(hooks_url(tournament), {"url": url}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["attr"] == "url"
    assert not Endpoint.objects.exists()


def test_a_non_http_url_stored_anyway_is_never_fetched(tournament):
    endpoint = endpoint_create(tournament=tournament, url="http://127.0.0.1:9/x")
    Endpoint.objects.filter(pk=endpoint.pk).update(url="file:///etc/passwd")
    delivery = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body="{}")
    deliver_task.apply((delivery.pk,), throw=False)
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts == 1 and delivery.response_body == ""


def test_unknown_events_are_refused(organizer, tournament, receiver):
    response = client_for(organizer).post(hooks_url(tournament), {"url": receiver.url, "events": ["hand.eaten"]},
                                          format="json")
    assert response.status_code == 400


def test_only_organizers_and_staff(organizer, scorekeeper, tournament, receiver):
    hook = register(organizer, tournament, receiver)
    stranger = UserFactory(username="stranger")
    staff = UserFactory(username="staff", is_staff=True, is_superuser=True)
    assert APIClient().get(hooks_url(tournament)).status_code == 401
    for user in (scorekeeper, stranger):
        client = client_for(user)
        assert client.get(hooks_url(tournament)).status_code == 403
        assert client.post(hooks_url(tournament), {"url": receiver.url}, format="json").status_code == 403
        assert client.post(hooks_url(tournament, hook["id"], "test")).status_code == 403
        assert client.delete(hooks_url(tournament, hook["id"])).status_code == 403
    assert [h["id"] for h in client_for(staff).get(hooks_url(tournament)).json()["results"]] == [hook["id"]]
    private = TournamentFactory(public=False)
    assert client_for(stranger).get(hooks_url(private)).status_code == 404
    # Another tournament's organizer does not reach this one's webhooks through their own tournament.
    other = TournamentFactory()
    other.organizers.add(stranger)
    assert client_for(stranger).get(hooks_url(other, hook["id"])).status_code == 404
    edited = client_for(organizer).patch(hooks_url(tournament, hook["id"]), {"active": False}, format="json")
    assert edited.status_code == 200 and edited.json()["active"] is False
    assert client_for(organizer).delete(hooks_url(tournament, hook["id"])).status_code == 204
    assert not Endpoint.objects.exists()


def test_the_log_keeps_the_last_deliveries(settings, django_capture_on_commit_callbacks, tournament, receiver):
    from webhooks import services

    endpoint = endpoint_create(tournament=tournament, url=receiver.url)
    old = services.LOG_SIZE
    services.LOG_SIZE = 3
    try:
        for i in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                services.event_fanout(event="standings.updated", ids={"tournament": tournament.pk})
    finally:
        services.LOG_SIZE = old
    assert endpoint.deliveries.count() == 3 and len(receiver.requests) == 5


def test_a_directors_action_and_its_reversal_reach_the_receiver(django_capture_on_commit_callbacks, organizer, match,
                                                                tournament, receiver):
    register(organizer, tournament, receiver, events=["director.action"])
    url = f"/api/v1/tournaments/{tournament.pk}/actions/"
    with django_capture_on_commit_callbacks(execute=True):
        action = client_for(organizer).post(url, {"kind": "forfeit", "match": match.pk, "reason": "no-show",
                                                  "params": {"absent": "ew"}}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        client_for(organizer).post(f"{url}{action['id']}/revert/", {"reason": "they came"}, format="json")
    assert receiver.events() == ["director.action", "director.action"]
    taken, reverted = (json.loads(r["body"])["data"] for r in receiver.requests)
    assert (taken["action"]["kind"], taken["action"]["active"], taken["match"]["winner"]) == ("forfeit", True, "ns")
    assert (reverted["action"]["active"], reverted["action"]["revert_reason"], reverted["match"]["winner"]) == (
        False, "they came", None)
