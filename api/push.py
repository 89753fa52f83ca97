"""The push channel for API clients (docs/api.md "The push channel"): tickets, and what one stream says.

A client asks ``POST /api/v1/push/tickets/`` with its token (or nothing, for the public tournaments) for a ticket:
a random string kept in the cache ``PUSH_TICKET_SECONDS`` (60) and bound to the user and to what they follow
(one tournament, or every tournament they may see). It opens ``GET /api/v1/push/stream/?ticket=...`` with it,
once: the stream is Server-Sent Events, served by the ASGI server (``api.push_asgi``; under ``runserver`` by
``api.views.push`` when the store is in process). The token never travels in a URL.

``Session`` is one stream, whichever server holds it: ``open`` takes the ticket (refusals in the API's error
shape, ``Refused``), ``begin`` says where the client stands (the events it missed since its ``Last-Event-ID``,
or ``reset``, then ``ready``), ``wants`` whether an event reaches it (the tournament it follows; a private
tournament's only to whoever may see it, as the API's reads), ``heartbeat`` keeps it counted and listened.
Everything here is synchronous (the database, the cache, the store); the ASGI server calls it in its
database thread.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import refusals
from tournaments.access import is_unscoped, visible_tournaments
from webhooks import push_store

STREAM_PATH = "/api/v1/push/stream/"
HEARTBEAT = b": keep-alive\n\n"
#: How long a stream believes its user may (or may not) see a private tournament before it asks again.
ACCESS_SECONDS = 30
RESET_WORDS = {
    "expired": _("Your last event is older than what the server keeps: read the state again (the REST API), then "
                 "follow the events from here."),
    "unknown": _("The server does not know your last event: read the state again (the REST API), then follow the "
                 "events from here."),
    "too_many": _("More events happened since your last one than a reconnection replays: read the state again "
                  "(the REST API), then follow the events from here."),
}


class Refused(Exception):
    """A stream refused before it starts: an HTTP status and an error in the API's shape (its words written when
    it is raised, in the request's language)."""

    def __init__(self, status: int, code: str, detail: str, retry_after: int | None = None):
        super().__init__(code)
        self.status, self.code, self.detail, self.retry_after = status, code, detail, retry_after

    def body(self) -> dict:
        kind = "server_error" if self.status >= 500 else "client_error"
        return {"type": kind, "errors": [{"code": self.code, "detail": self.detail, "attr": None}]}


def unavailable() -> Refused:
    return Refused(503, "push_unavailable", refusals.words("push_unavailable"), retry_after=5)


def _ticket_key(ticket: str) -> str:
    return "push:ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def ticket_issue(*, user, tournament) -> tuple[str, datetime]:
    """A new ticket for ``user`` (None: anonymous) following ``tournament`` (None: all they may see)."""
    ticket = secrets.token_urlsafe(32)
    expires = timezone.now() + timedelta(seconds=settings.PUSH_TICKET_SECONDS)
    data = {"user": getattr(user, "pk", None), "tournament": getattr(tournament, "pk", None),
            "expires": expires.timestamp()}
    # Kept ten minutes past its end, so that a late use is told "expired" rather than "unknown".
    cache.set(_ticket_key(ticket), data, timeout=settings.PUSH_TICKET_SECONDS + 600)
    return ticket, expires


def ticket_claim(ticket: str) -> dict:
    """The ticket's data, once: a second use, an expired or an unknown ticket is refused (401)."""
    if not ticket or len(ticket) > 100:
        raise Refused(401, "ticket_invalid", refusals.words("ticket_invalid"))
    key = _ticket_key(ticket)
    data = cache.get(key)
    if not isinstance(data, dict):
        raise Refused(401, "ticket_invalid", refusals.words("ticket_invalid"))
    if data["expires"] < time.time():
        raise Refused(401, "ticket_expired",
                      refusals.words("ticket_expired", {"seconds": settings.PUSH_TICKET_SECONDS}))
    if not cache.add(key + ":used", 1, timeout=settings.PUSH_TICKET_SECONDS + 600):  # atomic: one use wins
        raise Refused(401, "ticket_used", refusals.words("ticket_used"))
    return data


def _json(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def control_frame(event_id: tuple[int, int], data: dict) -> bytes:
    return f"id: {push_store.format_id(event_id)}\ndata: {_json(data)}\n\n".encode()


class Session:
    """One client's stream: who it is, what it follows, where it stands."""

    def __init__(self, *, user, tournament: dict | None, owner: str):
        self.user, self.tournament, self.owner = user, tournament, owner
        self.unscoped = is_unscoped(user)
        self.member = uuid.uuid4().hex
        self.store = push_store.get()
        self.cursor: tuple[int, int] = (0, 0)
        self.started = time.monotonic()
        self._access: dict[int, tuple[bool, float]] = {}

    @classmethod
    def open(cls, *, ticket: str, address: str | None) -> Session:
        """Take the ticket and count the connection; raise ``Refused``."""
        data = ticket_claim(ticket)
        user = None
        if data["user"] is not None:
            user = get_user_model().objects.filter(pk=data["user"], is_active=True).first()
            if user is None:
                raise Refused(401, "ticket_invalid", refusals.words("ticket_invalid"))
        tournament = None
        if data["tournament"] is not None:  # seen when the ticket was issued; maybe no longer
            tournament = (visible_tournaments(user).filter(pk=data["tournament"]).values("id", "slug", "name")
                          .first())
            if tournament is None:
                raise Refused(404, "not_found", refusals.words("not_found"))
        owner, limit = ((f"user:{user.pk}", settings.PUSH_CONNECTIONS_PER_USER) if user is not None
                        else (f"address:{address}", settings.PUSH_CONNECTIONS_PER_ADDRESS))
        session = cls(user=user, tournament=tournament, owner=owner)
        try:
            admitted = session.store.connection_open(owner, session.member, limit)
            if admitted:
                session.store.watch()
        except push_store.Unavailable:
            raise unavailable() from None
        if not admitted:
            raise Refused(429, "push_connections", refusals.words("push_connections", {"limit": limit}),
                          retry_after=int(settings.PUSH_HEARTBEAT_SECONDS))
        return session

    def begin(self, last_event_id: str | None) -> list[bytes]:
        """The frames a stream starts with: the events missed since ``last_event_id`` (or ``reset``), then
        ``ready``. Everything after ``self.cursor`` comes live; call it once listening."""
        try:
            state = self.store.state()
            frames, replayed, reason = [], 0, None
            if last_event_id:
                after = push_store.parse_id(last_event_id)
                if after is None or after > state.position:
                    reason = "unknown"
                elif state.since is None or after < state.since or after[0] < state.now_ms - push_store.window_ms():
                    reason = "expired"
                else:
                    found = self.store.replay(after, state.position, self._followed(), settings.PUSH_REPLAY_MAX)
                    if found is None:
                        reason = "too_many"
                    else:
                        for event in found:
                            wanted = self.wants(event)
                            if wanted or (wanted is None and self.may_see(event.tournament)):
                                frames.append(event.frame())
                                replayed += 1
        except push_store.Unavailable:
            raise unavailable() from None
        self.cursor = state.position
        if reason is not None:
            frames.append(control_frame(self.cursor, {"event": "reset", "reason": reason,
                                                      "detail": str(RESET_WORDS[reason]),
                                                      "kept_seconds": settings.PUSH_REPLAY_SECONDS}))
        frames.append(control_frame(self.cursor, {"event": "ready", "replayed": replayed,
                                                  "kept_seconds": settings.PUSH_REPLAY_SECONDS,
                                                  "tournament": self._followed(),
                                                  "tournament_detail": self.tournament}))
        return [b"retry: 5000\n\n", *frames]

    def _followed(self) -> int | None:
        return None if self.tournament is None else self.tournament["id"]

    def wants(self, event: push_store.Event) -> bool | None:
        """Whether the event reaches this stream: True, False, or None when ``may_see`` must ask the database."""
        if self.tournament is not None and event.tournament != self.tournament["id"]:
            return False
        if event.public or self.unscoped:
            return True
        if self.user is None:
            return False
        known = self._access.get(event.tournament)
        if known is not None and known[1] > time.monotonic():
            return known[0]
        return None

    def may_see(self, tournament_id: int) -> bool:
        """Whether the user may see the (private) tournament now; believed ``ACCESS_SECONDS``."""
        if self.unscoped:
            return True
        known = self._access.get(tournament_id)
        if known is not None and known[1] > time.monotonic():
            return known[0]
        seen = self.user is not None and visible_tournaments(self.user).filter(pk=tournament_id).exists()
        self._access[tournament_id] = (seen, time.monotonic() + ACCESS_SECONDS)
        return seen

    def check(self, event: push_store.Event) -> bool | None:
        """For a live event: False when it is old to this stream (replayed, or from before it began) or not
        wanted, else ``wants``' answer (None: ask ``may_see``). Moves the stream past it."""
        if event.key <= self.cursor:
            return False
        self.cursor = event.key
        return self.wants(event)

    def heartbeat(self) -> bytes:
        """Renew the stream's count and the store's mark; a comment line keeps proxies and clients awake."""
        try:
            self.store.connection_open(self.owner, self.member, 1 << 30)
            self.store.watch()
        except push_store.Unavailable:
            pass  # the count and the mark outlive two missed heartbeats
        return HEARTBEAT

    def expired(self) -> bool:
        """Whether the stream has lasted ``PUSH_STREAM_MAX_SECONDS``: then it ends, and the client comes back
        with a new ticket (its token checked again) and its Last-Event-ID."""
        return time.monotonic() - self.started > settings.PUSH_STREAM_MAX_SECONDS

    def close(self) -> None:
        self.store.connection_close(self.owner, self.member)
