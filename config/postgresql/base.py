"""Django's PostgreSQL backend with a health check that costs no round trip.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection before a request first uses it, by running
``SELECT 1``: one more round trip on every request that touches the database. Here the check asks the
connection's socket instead. Between requests a healthy connection is idle and the server has nothing
to say, so its socket has nothing to read. A server that ends the connection (a restart, a terminated
backend, ``idle_session_timeout``) sends its error and closes, and the socket becomes readable: the
connection is then closed and a new one opened, as after a failed ``SELECT 1``. A peer that vanished
without a word (the network cut) answers neither check; the statement's own error tells, as it would
with ``SELECT 1``.
"""

import select

import psycopg
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from psycopg import pq


class DatabaseWrapper(PostgresWrapper):
    def is_usable(self):
        conn = self.connection
        if conn is None or conn.closed:
            return False
        pgconn = conn.pgconn
        if pgconn.status != pq.ConnStatus.OK or pgconn.transaction_status != pq.TransactionStatus.IDLE:
            return super().is_usable()  # not the between-requests case: ask the server as Django does
        try:
            readable, _, _ = select.select([pgconn.socket], [], [], 0)
        except (OSError, ValueError, psycopg.Error):
            return False
        # Anything the server sent to an idle connection is its goodbye (or, rarely, a notice): either
        # way a new connection is the safe answer.
        return not readable
