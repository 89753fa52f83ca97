"""The push channel on the production set, real processes as docker-compose runs them (``bench/_servers.Production``):
nginx in front, web (gunicorn's threads) storing the hands, live (uvicorn) holding the streams, Redis between them,
on the test database.

A hand POSTed through the proxy reaches a stream opened through the proxy (nginx sends the path to live and passes
each event on: a buffered event would never come, the stream staying open); a reconnection with its last id has
the missed hand replayed by another connection; a stream sent to web by mistake is refused, not held.
"""

import json
import os
import shutil
import sys
import threading
import uuid

import httpx
import pytest
from django.db import connection

from api.models import AuthToken
from tests.factories import UserFactory
from tests.robustness.processes import ROOT, production_set, server_env
from tests.web.conftest import belgian_hand, make_tournament
from tournaments.models import Match

sys.path.insert(0, str(ROOT / "bench"))
from _servers import free_port  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(shutil.which("nginx") is None, reason="Debian's nginx runs deploy/nginx's template "
                                                                      "(apt-get install nginx-light)")]


@pytest.fixture(autouse=True)
def _postgresql_and_redis():
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("real server processes on the test database and Redis: set DATABASE_URL to PostgreSQL and "
                    "REDIS_URL (bash .ci/run does)")


@pytest.fixture
def servers(tmp_path):
    import redis

    prefix = f"push-server-{uuid.uuid4().hex[:10]}"
    env = {**server_env("push-server", 60), "REDIS_URL": os.environ["REDIS_URL"], "CACHE_KEY_PREFIX": prefix,
           "CHANNELS_PREFIX": prefix, "CELERY_TASK_ALWAYS_EAGER": "1", "PUSH_HEARTBEAT_SECONDS": "1"}
    yield env
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


class Reader(threading.Thread):
    """A stream read in a thread, as a client reads it: its events (id, JSON) as they come."""

    def __init__(self, url: str, last_event_id: str | None = None):
        super().__init__(daemon=True)
        self.url, self.headers = url, ({"Last-Event-ID": last_event_id} if last_event_id else {})
        self.events: list[tuple[str, dict]] = []
        self.status, self.response_headers = None, {}
        self.changed = threading.Condition()
        self.stop = threading.Event()

    def run(self):
        try:
            self.read()
        except httpx.HTTPError:
            if not self.stop.is_set():  # the servers stopped after the test: no matter then
                raise

    def read(self):
        with httpx.Client(timeout=httpx.Timeout(10, read=30)) as client:
            with client.stream("GET", self.url, headers=self.headers) as stream:
                self.status, self.response_headers = stream.status_code, dict(stream.headers)
                event_id, data = None, []
                for line in stream.iter_lines():
                    if self.stop.is_set():
                        return
                    if line.startswith("id:"):
                        event_id = line[3:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif not line and data:
                        with self.changed:
                            self.events.append((event_id, json.loads("\n".join(data))))
                            self.changed.notify_all()
                        data = []

    def wait_for(self, found, timeout: float = 30) -> list:
        """The events once ``found(events)`` holds (or raise)."""
        with self.changed:
            assert self.changed.wait_for(lambda: found(self.events), timeout), self.events
            return list(self.events)


def hand_ids(events) -> list[int]:
    return [data["data"]["hand"]["id"] for _id, data in events if data["event"] == "hand.entered"]


def test_a_hand_stored_by_web_reaches_a_stream_held_by_live_through_the_proxy(servers, tmp_path):
    env = servers
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    keeper = UserFactory(username="keeper-push")
    tournament.scorekeepers.add(keeper)
    token = AuthToken.objects.create(keeper)[1]
    port = free_port()
    with production_set(env, port, web_workers=1, web_threads=2, live_workers=1, asgi_http_threads=2,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{port}/api/v1"
        with httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=30) as api:
            def ticket():
                answer = api.post("/push/tickets/", json={"tournament": tournament.slug})
                assert answer.status_code == 201, answer.text
                return answer.json()["url"]

            def enter(number):
                answer = api.post(f"/matches/{match.pk}/hands/", json=belgian_hand(number))
                assert answer.status_code == 201, answer.text
                return answer.json()["id"]

            reader = Reader(ticket())
            reader.start()
            ready = reader.wait_for(lambda events: events)
            assert reader.status == 200 and reader.response_headers["content-type"].startswith("text/event-stream")
            assert ready[0][1]["event"] == "ready"
            first = enter(1)
            seen = reader.wait_for(lambda events: first in hand_ids(events))
            last_id = next(i for i, data in seen if data["event"] == "hand.entered")
            reader.stop.set()
            missed = enter(2)
            again = Reader(ticket(), last_event_id=last_id)
            again.start()
            replay = again.wait_for(lambda events: events and events[-1][1]["event"] == "ready")
            assert hand_ids(replay) == [missed] and replay[-1][1]["replayed"] >= 1
            live = enter(3)
            assert live in hand_ids(again.wait_for(lambda events: live in hand_ids(events)))
            again.stop.set()
            # A stream sent to web, not live, is refused: web's threads must not be held by streams.
            refused = httpx.get(f"http://127.0.0.1:{production.web_port}/api/v1/push/stream/?ticket=x", timeout=10)
            assert refused.status_code == 503 and refused.json()["errors"][0]["code"] == "push_unavailable"
