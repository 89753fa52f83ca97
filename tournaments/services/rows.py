"""Rows for the result services' hot path: statements written once, instances built as the ORM builds them.

A hand is entered many times a minute at every table, and the ORM builds and compiles each of its
statements anew: that was most of a hand POST's time (issue 14). Here each statement's text is
made once per process from the models' own metadata (their columns, in their order), and

* ``Columns.build`` turns a row into an ordinary model instance as a queryset does: each field's
  database converters, then ``Model.from_db``;
* ``update`` writes named fields the way ``save(update_fields=...)`` does (``auto_now`` fields
  included, each value through its field's ``get_db_prep_save``), without the model signals: the
  callers do what the receivers would (``tournaments.versions``);
* ``insert_with_history`` inserts a hand and its django-simple-history record, and updates its
  game and match, in one statement on PostgreSQL (data-modifying WITHs); elsewhere (SQLite) it
  answers False and the caller saves and updates.

On PostgreSQL these statements run on a cursor that binds its parameters on the server
(``cursor``): psycopg prepares a statement after a connection has run it five times
(``DATABASE_PREPARE_THRESHOLD``), and PostgreSQL then neither parses nor plans it again, while
the rest of the project keeps Django's client-side binding (never prepared).
"""

import contextlib
import functools

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import AutoField, Model

from tournaments.models import Hand

_HISTORY_COLUMNS = ("history_date", "history_change_reason", "history_user_id", "history_type")


def qn(name: str) -> str:
    return connection.ops.quote_name(name)


@contextlib.contextmanager
def cursor():
    """A Django cursor (wrapped as ``connection.cursor()`` wraps, so it is logged and counted the same)
    that binds parameters on the server on PostgreSQL; ``connection.cursor()`` elsewhere. Use it in a
    ``with`` block.

    On PostgreSQL the connection keeps one such cursor and lends it to one block at a time (a block
    inside another gets a cursor of its own): making a psycopg cursor copies the connection's adapters,
    which cost more than the hot statements' own work.
    """
    conn = connections[DEFAULT_DB_ALIAS]  # once: every attribute of the ``connection`` proxy is a lookup
    if conn.vendor != "postgresql":
        with conn.cursor() as c:
            yield c
        return
    conn.ensure_connection()
    conn.validate_thread_sharing()
    pg = conn.connection
    kept = conn.__dict__.get(_KEPT)
    if kept is None or kept[0] is not pg or kept[1].closed:  # none yet, or the connection's was closed
        kept = [pg, _server_binding_cursor(conn), False]
        setattr(conn, _KEPT, kept)
    if kept[2]:  # lent to an enclosing block
        with _wrapped(conn, _server_binding_cursor(conn)) as c:
            yield c
        return
    kept[2] = True
    try:
        yield _wrapped(conn, kept[1])
    finally:
        kept[2] = False


_KEPT = "_manille_kept_cursor"  # on the connection's wrapper: [its psycopg connection, the cursor, lent]


def _server_binding_cursor(conn):
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    raw = ServerBindingCursor(conn.connection)
    if conn.timezone != conn.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
        register_tzloader(conn.timezone, raw)  # as the backend's create_cursor() does
    return raw


def _wrapped(conn, raw):
    return conn.make_debug_cursor(raw) if conn.queries_logged else conn.make_cursor(raw)


class Columns:
    """A model's concrete columns under a table alias: the SELECT list and the instance of a row."""

    def __init__(self, model: type[Model], alias: str):
        self.model, self.alias = model, alias
        self.fields = list(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: dict[str, list] = {}

    def select(self) -> str:
        return ", ".join(f"{self.alias}.{qn(f.column)}" for f in self.fields)

    def _converters_of(self, conn) -> list:
        found = self._converters.get(conn.vendor)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.alias)
                converters = conn.ops.get_db_converters(col) + field.get_db_converters(conn)
                if converters:
                    found.append((i, col, converters))
            self._converters[conn.vendor] = found
        return found

    def values(self, row, start: int = 0) -> list | None:
        """The converted values of the columns starting at ``row[start]``; None for a row of NULLs (an
        outer join's miss)."""
        values = list(row[start:start + self.width])
        if values[0] is None:  # the primary key comes first
            return None
        conn = connections[DEFAULT_DB_ALIAS]  # once: every attribute of the ``connection`` proxy is a lookup
        for i, col, converters in self._converters_of(conn):
            value = values[i]
            for convert in converters:
                value = convert(value, col, conn)
            values[i] = value
        return values

    def build(self, row, start: int = 0):
        """The model instance of the columns starting at ``row[start]`` (``Model.from_db``), or None."""
        values = self.values(row, start)
        return None if values is None else self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, values)


@functools.cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> tuple[str, list]:
    """The UPDATE of ``names`` and the model's ``auto_now`` fields by primary key, and those fields in order."""
    meta = model._meta
    fields = [meta.get_field(n) for n in names]
    fields += [f for f in meta.concrete_fields if getattr(f, "auto_now", False) and f not in fields]
    assignments = ", ".join(f"{qn(f.column)} = %s" for f in fields)
    return f"UPDATE {qn(meta.db_table)} SET {assignments} WHERE {qn(meta.pk.column)} = %s", fields


def _update_params(instance: Model, fields: list, conn) -> list:
    return [*(f.get_db_prep_save(f.pre_save(instance, False), conn) for f in fields), instance.pk]


def update(instance: Model, names: tuple[str, ...]) -> None:
    """UPDATE the fields ``names`` (and the model's ``auto_now`` fields) of a saved instance, in one statement."""
    sql, fields = _update_sql(type(instance), names)
    with cursor() as c:
        c.execute(sql, _update_params(instance, fields, connections[DEFAULT_DB_ALIAS]))


@functools.cache
def _insert_sql(updates: tuple[tuple[type[Model], tuple[str, ...]], ...]) -> tuple[str, list, list]:
    """The statement of ``insert_with_history`` for ``updates`` (models and field names), the hand's fields it
    inserts and the updates' fields, in the order of its parameters."""
    fields = [f for f in Hand._meta.concrete_fields if not isinstance(f, AutoField)]
    statements = [_update_sql(model, names) for model, names in updates]
    history = Hand.history.model._meta
    pk = qn(Hand._meta.pk.column)
    columns = ", ".join(qn(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    from_h = ", ".join(f"h.{qn(f.column)}" for f in fields)
    history_columns = ", ".join(qn(c) for c in _HISTORY_COLUMNS)
    also = "".join(f", u{i} AS ({update_sql})" for i, (update_sql, _) in enumerate(statements))
    # The record's date is the hand's ``updated_at`` (the moment of the insert, as the history's own
    # receiver would take it), not a parameter of its own: every parameter counts (see above).
    sql = (f"WITH h AS (INSERT INTO {qn(Hand._meta.db_table)} ({columns}) VALUES ({marks}) RETURNING *){also} "
           f"INSERT INTO {qn(history.db_table)} ({pk}, {columns}, {history_columns}) "
           f"SELECT h.{pk}, {from_h}, h.{qn(Hand._meta.get_field('updated_at').column)}, %s, %s, '+' FROM h "
           f"RETURNING {pk}")
    return sql, fields, [update_fields for _, update_fields in statements]


def insert_with_history(hand: Hand, history_user_id: int | None, reason: str,
                        updates: tuple[tuple[Model, tuple[str, ...]], ...] = ()) -> bool:
    """Insert a new hand and its history record ("+", ``reason``, by ``history_user_id``), and make the
    ``updates`` (instances and the names of the fields to write, as ``update``), in one statement.

    Its parameters must stay within psycopg's ``MAX_CACHED_STATEMENT_PARAMS`` (50; tested): beyond it
    psycopg parses the statement's text anew on every call, which costs more than running it.

    Sets ``hand.pk`` and its ``auto_now``/``auto_now_add`` dates; False (nothing written) where the
    database has no data-modifying WITH (SQLite): the caller then saves the hand the ORM's way and
    makes the updates. A unique constraint's refusal raises ``IntegrityError``, as ``save()`` does.
    """
    conn = connections[DEFAULT_DB_ALIAS]  # once: every attribute of the ``connection`` proxy is a lookup
    if conn.vendor != "postgresql":
        return False
    sql, fields, update_fields = _insert_sql(tuple((type(instance), names) for instance, names in updates))
    params = [f.get_db_prep_save(f.pre_save(hand, True), conn) for f in fields]
    for (instance, _), fields_of in zip(updates, update_fields, strict=True):
        params += _update_params(instance, fields_of, conn)
    with cursor() as c:
        c.execute(sql, [*params, reason, history_user_id])
        hand.pk = c.fetchone()[0]
    hand._state.adding = False
    hand._state.db = conn.alias
    return True
