"""The browser tests' server (tests/web/browser.py) beside writes from the test's own thread: on SQLite's
shared-cache test database a page read while the test writes must neither fail nor make the write fail (it did,
"database table is locked", before the server's connections read uncommitted)."""

import threading
import time

import httpx
import pytest
from django.db import connection, transaction

from tests.factories import ClubFactory
from tests.web.browser import AsgiServer
from tournaments.models import Club

pytestmark = pytest.mark.django_db(transaction=True)


def test_pages_read_while_the_test_thread_writes():
    ClubFactory.create_batch(5)
    failures: list[str] = []
    reads: list[int] = []
    stop = threading.Event()
    with AsgiServer() as server:
        def poll():
            try:
                with httpx.Client(base_url=server.url, timeout=10) as client:
                    while not stop.is_set():
                        answer = client.get("/api/v1/clubs/")
                        reads.append(answer.status_code)
                        if answer.status_code != 200:
                            failures.append(f"page {answer.status_code}")
            except Exception as error:  # noqa: BLE001 (the test's verdict, below)
                failures.append(repr(error))
        httpx.get(f"{server.url}/api/v1/clubs/", timeout=30)  # warm: the first answer compiles and loads
        readers = [threading.Thread(target=poll) for _ in range(3)]
        for reader in readers:
            reader.start()
        try:
            while len(reads) < 3 and not failures:  # the readers are reading
                time.sleep(0.01)
            for number in range(150):
                with transaction.atomic():
                    club = ClubFactory(name=f"Written {number}")
                    Club.objects.filter(pk=club.pk).update(city="Gent")
        finally:
            stop.set()
            for reader in readers:
                reader.join(15)
    assert failures == []
    assert len(reads) >= 6  # the API was read while the test wrote
    assert Club.objects.filter(name__startswith="Written").count() == 150
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:  # the server's exit set this thread's connection back
            assert cursor.execute("PRAGMA read_uncommitted").fetchone() == (0,)
