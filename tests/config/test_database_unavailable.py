"""A request that meets a database fault answers 503 with Retry-After and stores nothing half-done
(config/database_unavailable.py, api/exceptions.py), through a real server process on the test database:

- PostgreSQL refuses the server's connections (its kept ones ended, no new one allowed): the API's
  writes and reads, the pages and the admin answer 503, in the visitor's language; once the database
  is back the same hand is stored, once.
- The backend of a hand POST is terminated inside the hand's transaction (while it waits for the match's
  lock): 503, no hand stored, the match unchanged; the retry stores it.
"""

import json
import sys
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.db import connection

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.robustness.processes import ROOT, production_set, server_env, wait_for, worker_database_url

sys.path.insert(0, str(ROOT / "bench"))
from _servers import free_port  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

HAND = {"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}}


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("real server processes on the test database: set DATABASE_URL to PostgreSQL (bash .ci/run does)")


@pytest.fixture
def table():
    """A paired Belgian match and an organizer's token: (match id, token)."""
    from api.models import AuthToken
    from tournaments.services.rounds import round_pair

    tournament = TournamentFactory(public=True)
    for _ in range(2):
        EntryFactory(tournament=tournament)
    match = round_pair(tournament=tournament).matches.get()
    user = UserFactory(is_staff=True, is_superuser=True)
    return match.pk, AuthToken.objects.create(user)[1]


def call(url: str, *, body: dict | None = None, token: str | None = None, language: str = "en"):
    headers = {"Accept": "application/json, text/html", "Accept-Language": language}
    if token:
        headers["Authorization"] = f"Token {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def admin_sql(sql: str, *params) -> list:
    """A statement on a connection of its own to the server's ``postgres`` database (autocommit), as an
    administrator would run it."""
    url = urlunsplit(urlsplit(worker_database_url())._replace(path="/postgres"))
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def server_backends() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                       [connection.settings_dict["NAME"]])
        return [pid for pid, in cursor.fetchall()]


def hands() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM tournaments_hand")
        return cursor.fetchone()[0]


def database_unavailable(status, headers, body) -> bool:
    return (status == 503 and int(headers["Retry-After"]) > 0
            and [e["code"] for e in json.loads(body)["errors"]] == ["database_unavailable"])


def test_refused_connections_answer_503_everywhere_then_the_hand_is_stored_once(table, tmp_path):
    match, token = table
    name = connection.settings_dict["NAME"]
    with production_set(server_env("database-unavailable", 600), free_port(), web_workers=1, web_threads=2,
                        proxy=False, directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port}"
        assert call(f"{base}/api/v1/tournaments/")[0] == 200
        try:
            admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            kept = server_backends()
            admin_sql("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", kept)
            assert wait_for(lambda: not set(kept) & set(server_backends()), timeout=10)

            hand = call(f"{base}/api/v1/matches/{match}/hands/", body=HAND, token=token)
            assert database_unavailable(*hand), hand
            assert database_unavailable(*call(f"{base}/api/v1/tournaments/"))
            dutch = call(f"{base}/api/v1/tournaments/", language="nl")
            assert database_unavailable(*dutch) and "database" in json.loads(dutch[2])["errors"][0]["detail"]
            assert json.loads(dutch[2])["errors"][0]["detail"] != json.loads(hand[2])["errors"][0]["detail"]
            for path in ("/", "/t/no-such-cup/standings/"):  # both read the database
                status, headers, page = call(base + path, language="fr")
                assert status == 503 and int(headers["Retry-After"]) > 0, (path, status, page[:300])
                assert '<html lang="fr"' in page and "<h1>" in page
        finally:
            admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        stored = call(f"{base}/api/v1/matches/{match}/hands/", body=HAND, token=token)
        assert stored[0] == 201, stored
    assert hands() == 1


def test_a_backend_terminated_inside_the_hands_transaction_answers_503_and_stores_nothing(table, tmp_path):
    match, token = table
    name = connection.settings_dict["NAME"]
    with production_set(server_env("backend-terminated", 600), free_port(), web_workers=1, web_threads=2,
                        proxy=False, directory=str(tmp_path)) as production:
        base = f"http://127.0.0.1:{production.port}"
        answers = []
        with psycopg.connect(worker_database_url()) as holder:  # holds the match's lock: the POST waits for it
            holder.execute("SELECT id FROM tournaments_match WHERE id = %s FOR UPDATE", [match])
            post = threading.Thread(target=lambda: answers.append(
                call(f"{base}/api/v1/matches/{match}/hands/", body=HAND, token=token)))
            post.start()

            def waiting() -> list[int]:
                return [pid for pid, in admin_sql(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'", name)]

            assert wait_for(lambda: waiting(), timeout=30), "the POST waits for the match's lock in its transaction"
            admin_sql("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", waiting())
            time.sleep(0.2)
            holder.rollback()
            post.join(60)
        assert database_unavailable(*answers[0]), answers
        assert hands() == 0
        with connection.cursor() as cursor:
            cursor.execute("SELECT status, games_won_ns, games_won_ew FROM tournaments_match WHERE id = %s", [match])
            assert cursor.fetchone() == ("scheduled", 0, 0)
        retried = call(f"{base}/api/v1/matches/{match}/hands/", body=HAND, token=token)
        assert retried[0] == 201, retried
    assert hands() == 1
