"""After a Redis restart the live pages keep working on the first try (the live server as production runs it,
a real redis-server restarted under it): a new page's WebSocket opens (it answered 500 once per worker,
its stale connection to the channel layer failing the group's join) and the first change after the
restart reaches it (the publisher's stale connection lost it). The channel layer's connections now
reconnect and retry once (config/settings.py, ``retry_on_error``).
"""

import asyncio
import json
import sys
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.robustness.processes import ROOT, production_set, server_env

sys.path.insert(0, str(ROOT / "bench"))
from _servers import free_port  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


def post_hand(base: str, match: int, token: str, dealer: str) -> int:
    body = {"dealer": dealer, "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}}
    request = urllib.request.Request(f"{base}/api/v1/matches/{match}/hands/", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


async def watch_then_change(url: str, origin: str, change) -> str:
    """Open the region's socket, make the change once it is open, return the first message pushed."""
    import websockets

    async with websockets.connect(url, origin=origin, open_timeout=10) as socket:
        await asyncio.to_thread(change)
        return await asyncio.wait_for(socket.recv(), timeout=15)


def test_the_first_page_and_the_first_change_after_a_redis_restart_work(private_redis, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("a real server process on the test database: set DATABASE_URL to PostgreSQL")
    from api.models import AuthToken
    from tournaments.services.rounds import round_pair

    tournament = TournamentFactory(public=True)
    for _ in range(2):
        EntryFactory(tournament=tournament)
    match = round_pair(tournament=tournament).matches.get().pk
    token = AuthToken.objects.create(UserFactory(is_staff=True, is_superuser=True))[1]
    env = {**server_env("redis-restart", 60), "REDIS_URL": private_redis.url, "LIVE_PUSH": "1",
           "LIVE_COALESCE_SECONDS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    with production_set(env, free_port(), web_workers=1, web_threads=1, live_workers=1, proxy=False,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.live_port}"  # the live server serves the hands' POSTs too
        url = f"ws://127.0.0.1:{production.live_port}/ws/live/match/{match}/?lang=en"
        pushed = asyncio.run(watch_then_change(url, base, lambda: post_hand(base, match, token, "N")))
        assert "html" in json.loads(pushed)

        private_redis.kill()
        private_redis.start()  # the same port, empty: every kept connection to it is stale

        pushed = asyncio.run(watch_then_change(url, base, lambda: post_hand(base, match, token, "E")))
        assert "html" in json.loads(pushed)
