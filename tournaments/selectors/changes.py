"""What changed since a cursor: the rows of a list changed (and the hands deleted) after a position, in change order.

A position is a change's moment (``updated_at``, or a deletion's ``history_date``, in microseconds), its
kind (0 a row, 1 a deletion) and an id: two writes in the same microsecond are told apart by their ids,
so a page that ends between them loses neither. The cursor handed to clients is that position, opaque.

A row's ``updated_at`` is taken when it is written, but other clients see it only once its transaction
commits, which may come after a later write's commit. So a page lists only the changes older than a
*horizon*: a moment before which every transaction that wrote has committed (``changes_horizon``: now
less ``API_CHANGES_SETTLE_SECONDS``, and on PostgreSQL never after the start of the oldest transaction
still writing). A change is therefore listed up to a second late, never skipped; a page that lists
everything up to the horizon answers the horizon as its cursor.

Deleted hands come from django-simple-history's records (``history_type`` "-", dated when the hand
was deleted), scoped through the hand's game: a hand deleted together with its match (a match or a
round deleted in the admin) has no game left to say whose it was, and is not listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments import access
from tournaments.models import Hand

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MAX_ID = 2**63 - 1
ROW, DELETION = 0, 1


@dataclass(frozen=True, order=True)
class Position:
    """A place in the change order: the moment (microseconds since 1970, UTC), the kind, the id."""

    at: int
    kind: int
    id: int

    @property
    def moment(self) -> datetime:
        return _EPOCH + timedelta(microseconds=self.at)


START = Position(0, -1, 0)


def _micros(moment: datetime) -> int:
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


#: What ``updated_after`` accepts beside an ISO 8601 time: ``0`` or a cursor (its version, the moment, the kind,
#: the id). Every string it matches is a position (the moment under year 5000, the id under 2**63): the schema
#: declares it, so a request the schema allows is never refused.
CURSOR_PATTERN = r"^(0|1\.[0-9]{1,17}\.(-1|0|1)\.[0-9]{1,18})$"


def cursor_of(position: Position) -> str:
    """Return the cursor of a position (opaque to clients: they send it back as it is)."""
    return f"1.{position.at}.{position.kind}.{position.id}"


def position_of(value: str) -> Position | None:
    """Read ``updated_after``: a cursor answered earlier, ``0`` (from the start), or an ISO 8601 time with its offset
    (the changes after it). None: none of these."""
    value = (value or "").strip()
    if value == "0":
        return START
    if len(value) > 100:
        return None
    try:
        moment = parse_datetime(value) if "-" in value[:5] else None
    except ValueError:  # shaped as a time, but none (a 13th month): not a position
        return None
    if moment is not None:
        return None if timezone.is_naive(moment) else Position(_micros(moment), 9, _MAX_ID)
    if not re.match(CURSOR_PATTERN, value):
        return None
    version, at, kind, pk = value.split(".")
    found = Position(int(at), int(kind), int(pk))
    if version != "1" or found.kind not in (-1, ROW, DELETION) or not (0 <= found.at and 0 <= found.id <= _MAX_ID):
        return None
    return found


def changes_horizon() -> datetime:
    """Return the moment before which every change is committed and visible (module docstring)."""
    settle = timedelta(seconds=float(getattr(settings, "API_CHANGES_SETTLE_SECONDS", 1.0)))
    horizon = timezone.now() - settle
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            if connection.in_atomic_block:  # PostgreSQL keeps what a transaction read of the activity first
                c.execute("SELECT pg_stat_clear_snapshot()")
            # The transactions of this database that have written (an xid) and are still open; ours aside.
            c.execute("SELECT min(xact_start) FROM pg_stat_activity WHERE datname = current_database() "
                      "AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()")
            oldest = c.fetchone()[0]
        if oldest is not None:
            horizon = min(horizon, oldest - settle)
    return horizon


def _after(qs: QuerySet, field: str, id_field: str, kind: int, position: Position) -> QuerySet:
    """The rows of ``qs`` whose (``field``, ``kind``, ``id_field``) comes after ``position``."""
    moment = position.moment
    later = Q(**{f"{field}__gt": moment})
    if kind > position.kind:
        later |= Q(**{field: moment})
    elif kind == position.kind:
        later |= Q(**{field: moment, f"{id_field}__gt": position.id})
    return qs.filter(later)


@dataclass
class ChangesPage:
    """A page of changes: (kind, row) in change order, the cursor to send next, whether more wait, how many did."""

    changes: list[tuple[int, object]]
    cursor: str
    more: bool
    count: int


def changed_since(*, rows: QuerySet, position: Position, limit: int, deletions: QuerySet | None = None,
                  field: str = "updated_at") -> ChangesPage:
    """Return the rows of ``rows`` changed after ``position`` (and the ``deletions``, historical records, made after
    it) up to the horizon, the first ``limit`` of them in change order."""
    horizon = changes_horizon()
    sources = [(ROW, _after(rows.filter(**{f"{field}__lt": horizon}), field, "pk", ROW, position), field, "pk")]
    if deletions is not None:
        sources.append((DELETION, _after(deletions.filter(history_date__lt=horizon), "history_date", "history_id",
                                         DELETION, position), "history_date", "history_id"))
    found, count = [], 0
    for kind, qs, at, pk in sources:
        count += qs.count()
        found += [(Position(_micros(getattr(r, at)), kind, getattr(r, pk)), kind, r)
                  for r in qs.order_by(at, pk)[:limit + 1]]
    found.sort(key=lambda item: item[0])
    page, more = found[:limit], len(found) > limit
    last = page[-1][0] if page else position
    end = last if more else max(last, position, Position(_micros(horizon), -1, 0))
    return ChangesPage([(kind, row) for _, kind, row in page], cursor_of(end), more, count)


def deleted_hands(*, user) -> QuerySet:
    """Return the records of the hands deleted from the games ``user`` may see (history ``-``), with their game: the
    hands of the rounds they see, as ``access.visible_hands`` keeps the stored ones (a round not yet published:
    its organizers', directors' and scorekeepers' alone)."""
    records = Hand.history.model.objects.filter(
        history_type="-", game__match__round__tournament__in=access.visible_tournaments(user))
    if not access.is_unscoped(user):
        records = records.filter(access.published_q(user, "game__match__round__"))
    return records.select_related("game")


def hand_listed(hand: Hand) -> dict:
    """Return a hand as the hands list shows it: the stored hand, its game and match (``game`` joined)."""
    from tournaments.selectors.matches import hand_computed

    return {**hand_computed(hand), "game": hand.game.number, "game_id": hand.game_id, "match": hand.game.match_id,
            "updated_at": hand.updated_at, "deleted": False}


def hand_tombstone(record) -> dict:
    """Return a deleted hand as the hands list shows it, from its deletion's history record (``game`` joined)."""
    return {"id": record.id, "deleted": True, "deleted_at": record.history_date, "game_id": record.game_id,
            "match": record.game.match_id}
