"""The production set, as docker-compose runs it: nginx (deploy/nginx's template), web (gunicorn's sync
workers, config.wsgi) and live (uvicorn workers, config.asgi), real processes on the test database
(``bench/_servers.Production``, which the benchmarks use too).

- More concurrent requests than the set has database connections: every answer a 200, and PostgreSQL
  never sees more connections than the documented bound (README "Sizing"). Before: Django's ASGI
  handler opened one a request, with no bound, and a busy evening ended in "too many clients" 500s.
- ``X-Forwarded-For`` is believed only as far as ``TRUSTED_PROXIES`` says: from a client on the host
  itself too (gunicorn's and uvicorn's own defaults believed it from 127.0.0.1).
"""

import random
import shutil
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from axes.models import AccessAttempt
from django.db import connection

from tests.factories import UserFactory
from tests.robustness.processes import ROOT, production_set, server_env

sys.path.insert(0, str(ROOT / "bench"))
from _servers import free_port  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("real server processes on the test database: set DATABASE_URL to PostgreSQL (bash .ci/run does)")


needs_nginx = pytest.mark.skipif(shutil.which("nginx") is None,
                                 reason="Debian's nginx runs deploy/nginx's template (apt-get install nginx-light; "
                                        "bash .ci/run installs it)")


def server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                       [connection.settings_dict["NAME"]])
        return cursor.fetchone()[0]


def status_of(url: str, data: bytes | None = None, headers: dict | None = None) -> int:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def hammer(urls: list[str], clients: int, each: int) -> tuple[list[int], int]:
    """``clients`` threads, each reading ``each`` of ``urls`` in turn; the statuses and the most connections seen."""
    statuses, seen = [], [0]

    def client(offset):
        for i in range(each):
            statuses.append(status_of(urls[(offset + i) % len(urls)]))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        seen.append(server_connections())
        time.sleep(0.02)
    for t in threads:
        t.join()
    return statuses, max(seen)


def readable_paths() -> list[str]:
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(public=True)
    return ["/api/v1/tournaments/", f"/api/v1/tournaments/{tournament.pk}/", "/", f"/t/{tournament.slug}/"]


@needs_nginx
def test_more_requests_than_connections_through_the_proxy_answer_200(tmp_path):
    paths = readable_paths()
    port = free_port()
    # web as docker-compose runs it, sync workers (one connection each), two of them here.
    with production_set(server_env("production-set", 60), port, web_workers=2, web_threads=1, live_workers=1,
                        asgi_http_threads=2, directory=str(tmp_path)) as production:
        assert production.proxy and production.bound == 2 + 3
        statuses, most = hammer([f"http://127.0.0.1:{port}{p}" for p in paths], clients=48, each=8)
        assert statuses.count(200) == len(statuses) == 48 * 8, sorted(set(statuses))
        assert most <= production.bound, most


def test_more_requests_than_connections_on_the_asgi_server_alone_answer_200(tmp_path):
    """The image's own command (one container, HTTP and WebSockets): HTTP in ASGI_HTTP_THREADS threads."""
    paths = readable_paths()
    with production_set(server_env("production-live", 60), free_port(), web_workers=1, web_threads=1,
                        live_workers=1, asgi_http_threads=2, proxy=False, directory=str(tmp_path)) as production:
        statuses, most = hammer([f"http://127.0.0.1:{production.live_port}{p}" for p in paths], clients=40, each=8)
        assert statuses.count(200) == len(statuses) == 320, sorted(set(statuses))
        assert most <= 1 + 2 + 1, most  # web's one thread; live's two HTTP threads and its consumers' one


def guess(base: str, username: str, forwarded_for: str) -> int:
    return status_of(f"{base}/api/v1/auth/token/", data=f"username={username}&password=guess".encode(),
                     headers={"X-Forwarded-For": forwarded_for,
                              "Content-Type": "application/x-www-form-urlencoded"})


def random_ip() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def limits_env(**extra) -> dict:
    return {**server_env("forwarded-for", 60), "LOGIN_FAILURE_LIMIT": "2", "LOGIN_FAILURE_LIMIT_ADDRESS": "6",
            "THROTTLE_TOKEN": "1000/min", **extra}


@pytest.mark.parametrize("server", ["web", "live"])
def test_a_forwarded_for_from_the_host_itself_is_not_believed(server, tmp_path):
    """TRUSTED_PROXIES=0: guesses at six accounts, each with another X-Forwarded-For, all count against the
    socket's address, which is locked out at its limit (six)."""
    UserFactory(username="victim").set_password("right")
    with production_set(limits_env(TRUSTED_PROXIES="0"), free_port(), web_workers=1, web_threads=1, proxy=False,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port if server == 'web' else production.live_port}"
        assert [guess(base, f"nobody-{i}", random_ip()) for i in range(5)] == [400] * 5
        assert guess(base, "nobody-else", random_ip()) == 429  # the sixth failure: the address's limit
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_trusted_proxies_is_read_by_the_application_not_the_server(tmp_path):
    """TRUSTED_PROXIES=1 without a proxy: the last X-Forwarded-For entry is the client (the server passed the
    header on untouched), so six addresses each stay under the limit."""
    with production_set(limits_env(TRUSTED_PROXIES="1"), free_port(), web_workers=1, web_threads=1, proxy=False,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port}"
        addresses = [f"198.51.100.{i}" for i in range(1, 8)]
        assert [guess(base, f"nobody-{i}", address) for i, address in enumerate(addresses)] == [400] * 7
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == set(addresses)


@needs_nginx
def test_behind_the_proxy_a_forged_forwarded_for_is_not_believed(tmp_path):
    """docker-compose's set (TRUSTED_PROXIES=1): nginx appends the address it saw; what the client wrote before
    it is ignored, so the guesses all count against that address."""
    with production_set(limits_env(), free_port(), web_workers=1, web_threads=2, directory=str(tmp_path)) as production:
        assert production.proxy and production.env["TRUSTED_PROXIES"] == "1"
        base = f"http://127.0.0.1:{production.port}"
        assert [guess(base, f"nobody-{i}", random_ip()) for i in range(5)] == [400] * 5
        assert guess(base, "nobody-else", random_ip()) == 429  # the sixth failure: the address's limit
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


@needs_nginx
def test_a_body_over_the_limit_is_refused_by_the_proxy_in_the_apis_shape(tmp_path):
    """nginx refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE with the API's 413 (the app answered such a body
    without reading it and closed, and nginx, still sending it, answered 502)."""
    import json

    big = json.dumps({"dealer": "N", "junk": "x" * 3_000_000}).encode()
    with production_set(server_env("body-limit", 60), free_port(), web_workers=1, web_threads=2,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port}"
        for path in ("/api/v1/matches/1/hands/", "/api/v1/auth/token/"):
            request = urllib.request.Request(base + path, data=big, headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request, timeout=60)
                raise AssertionError("accepted")
            except urllib.error.HTTPError as error:
                assert error.code == 413
                assert [e["code"] for e in json.loads(error.read())["errors"]] == ["too_large"]
        assert status_of(f"{base}/api/v1/tournaments/") == 200


@needs_nginx
def test_a_body_answered_before_it_is_read_leaves_the_kept_connection_usable(tmp_path):
    """A POST refused before its body is read (here a 401), then the next request on nginx's kept connection to
    web: answered, never nginx's 502 (gunicorn closed the connection, config/drain_body.py reads the rest)."""
    unread = b"[" * 100_000 + b"]" * 100_000
    with production_set(server_env("drain-body", 60), free_port(), web_workers=1, web_threads=1,
                        directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port}"
        statuses = []
        for _ in range(5):
            statuses.append(status_of(f"{base}/api/v1/matches/1/hands/", data=unread,
                                      headers={"Content-Type": "application/json"}))
            statuses += [status_of(f"{base}/api/v1/matches/1/hands/", data=b"{}",
                                   headers={"Content-Type": "application/json"}) for _ in range(2)]
        assert statuses == [401] * 15
