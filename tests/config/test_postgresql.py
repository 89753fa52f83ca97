"""The PostgreSQL backend's health check (config/postgresql/base.py): the socket asked, not the server."""

import time

import psycopg
import pytest
from django.db import connection, connections

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def kept():
    """A connection of its own to the test database, used once and left idle as between two requests."""
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL backend's check: the suite runs on SQLite")
    wrapper = connections.create_connection("default")
    wrapper.health_check_enabled = True
    with wrapper.cursor() as c:
        c.execute("SELECT pg_backend_pid(), 'kept connection marker'")
        wrapper.test_pid = c.fetchone()[0]
    yield wrapper
    wrapper.close()


def backend(pid: int) -> tuple | None:
    with connection.cursor() as c:
        c.execute("SELECT state, query FROM pg_stat_activity WHERE pid = %s", [pid])
        return c.fetchone()


def test_a_healthy_idle_connection_is_usable_without_a_statement(kept):
    assert kept.is_usable()
    assert kept.is_usable()
    state, query = backend(kept.test_pid)
    assert state == "idle"
    assert "kept connection marker" in query  # the last statement the server ran is still the request's own


def test_a_connection_the_server_ended_is_closed_and_replaced(kept):
    with connection.cursor() as c:
        c.execute("SELECT pg_terminate_backend(%s)", [kept.test_pid])
    deadline = time.monotonic() + 10
    while kept.is_usable():
        assert time.monotonic() < deadline, "the terminated connection still looked usable"
        time.sleep(0.02)
    # The next request: Django resets the check, then the first statement checks, closes and reconnects.
    kept.close_if_unusable_or_obsolete()
    with kept.cursor() as c:
        c.execute("SELECT pg_backend_pid()")
        assert c.fetchone()[0] != kept.test_pid


def test_a_connection_in_a_transaction_is_asked_with_a_statement(kept):
    kept.connection.execute("BEGIN")
    try:
        assert kept.is_usable()
    finally:
        kept.connection.execute("ROLLBACK")


def test_a_closed_connection_is_not_usable(kept):
    kept.connection.close()
    assert not kept.is_usable()
    with pytest.raises(psycopg.OperationalError):
        kept.connection.execute("SELECT 1")
