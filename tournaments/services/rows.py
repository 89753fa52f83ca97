"""Rows for the result services' hot path: statements written once, instances built as the ORM builds them.

A hand is entered many times a minute at every table, and the ORM builds and compiles each of its
statements anew: that was most of a hand POST's time (issue 14). Here each statement's text is
made once per process from the models' own metadata (their columns, in their order), and

* ``Columns.build`` turns a row into an ordinary model instance as a queryset does: each field's
  database converters, then ``Model.from_db``;
* ``update`` writes named fields the way ``save(update_fields=...)`` does (``auto_now`` fields
  included, each value through its field's ``get_db_prep_save``), without the model signals: the
  callers do what the receivers would (``tournaments.versions``);
* ``insert_with_history`` inserts a hand and its django-simple-history record in one statement on
  PostgreSQL (a data-modifying WITH); elsewhere (SQLite) it answers None and the caller saves.
"""

from django.db import connection
from django.db.models import AutoField, Model
from django.utils import timezone

from tournaments.models import Hand

_HISTORY_COLUMNS = ("history_date", "history_change_reason", "history_type", "history_user_id")


def qn(name: str) -> str:
    return connection.ops.quote_name(name)


class Columns:
    """A model's concrete columns under a table alias: the SELECT list and the instance of a row.

    ``only``: the attribute names to read (the primary key first); the others are deferred, as
    with ``QuerySet.only()``.
    """

    def __init__(self, model: type[Model], alias: str, only: tuple[str, ...] | None = None):
        self.model, self.alias = model, alias
        self.fields = [model._meta.get_field(n) for n in only] if only else list(model._meta.concrete_fields)
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

    def build(self, row, start: int = 0):
        """The instance whose columns start at ``row[start]``; None for a row of NULLs (an outer join's miss)."""
        values = list(row[start:start + self.width])
        if values[0] is None:  # the primary key comes first
            return None
        for i, col, converters in self._converters_of(connection):
            value = values[i]
            for convert in converters:
                value = convert(value, col, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.attnames, values)


_UPDATES: dict[tuple, tuple[str, list]] = {}


def update(instance: Model, names: tuple[str, ...]) -> None:
    """UPDATE the fields ``names`` (and the model's ``auto_now`` fields) of a saved instance, in one statement."""
    model = type(instance)
    key = (model, names)
    found = _UPDATES.get(key)
    if found is None:
        meta = model._meta
        fields = [meta.get_field(n) for n in names]
        fields += [f for f in meta.concrete_fields if getattr(f, "auto_now", False) and f not in fields]
        assignments = ", ".join(f"{qn(f.column)} = %s" for f in fields)
        found = _UPDATES[key] = (f"UPDATE {qn(meta.db_table)} SET {assignments} WHERE {qn(meta.pk.column)} = %s",
                                 fields)
    sql, fields = found
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])


_INSERT: list = []


def _insert_sql() -> tuple[str, list]:
    if not _INSERT:
        fields = [f for f in Hand._meta.concrete_fields if not isinstance(f, AutoField)]
        history = Hand.history.model._meta
        columns = ", ".join(qn(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        from_h = ", ".join(f"h.{qn(f.column)}" for f in fields)
        history_columns = ", ".join(qn(c) for c in _HISTORY_COLUMNS)
        sql = (f"WITH h AS (INSERT INTO {qn(Hand._meta.db_table)} ({columns}) VALUES ({marks}) "
               f"RETURNING *) "
               f"INSERT INTO {qn(history.db_table)} ({qn(Hand._meta.pk.column)}, {columns}, {history_columns}) "
               f"SELECT h.{qn(Hand._meta.pk.column)}, {from_h}, %s, %s, %s, %s FROM h "
               f"RETURNING {qn(Hand._meta.pk.column)}")
        _INSERT.extend([sql, fields])
    return _INSERT[0], _INSERT[1]


def insert_with_history(hand: Hand, history_user_id: int | None, reason: str) -> bool:
    """Insert a new hand and its history record ("+", ``reason``, by ``history_user_id``) in one statement.

    Sets ``hand.pk`` and its ``auto_now``/``auto_now_add`` dates; False (nothing written) where the
    database has no data-modifying WITH (SQLite): the caller then saves the hand the ORM's way. A
    unique constraint's refusal raises ``IntegrityError``, as ``save()`` does.
    """
    if connection.vendor != "postgresql":
        return False
    sql, fields = _insert_sql()
    values = [f.get_db_prep_save(f.pre_save(hand, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, timezone.now(), reason, "+", history_user_id])
        hand.pk = cursor.fetchone()[0]
    hand._state.adding = False
    hand._state.db = connection.alias
    return True
