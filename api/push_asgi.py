"""The push channel's stream on the ASGI server: ``GET /api/v1/push/stream/?ticket=...`` as Server-Sent Events.

``config/asgi.py`` sends this one path here, before Django's WSGI handler, whose pool of threads would give a
stream a thread for as long as it lasts. Here a stream is a coroutine: hundreds of them cost a process little.

Each event loop has one ``_Hub``, the store's listener for all its streams: the store (its reader thread with
Redis, the producing thread in process) hands it each batch of new events once, and it hands the batch to
every stream of the loop. A stream's own work (who may see a private tournament, the heartbeat's count) runs in
threads: the database's in Channels' database thread (``database_sync_to_async``, the one connection the
README's sizing counts for the consumers), the store's in a pool thread.

Refusals answer JSON in the API's error shape (``api.push.Refused``), in the request's language. The answer's
CORS headers are django-cors-headers' own (its middleware run on the request), as for the rest of ``/api/``.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import deque

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from corsheaders.middleware import CorsMiddleware
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.utils import translation

from config.auth import client_ip

from .push import Refused, Session

logger = logging.getLogger(__name__)

#: Events waiting for a slow client before its stream is closed (it comes back and has them replayed).
BACKLOG = 10_000


class _Stream:
    """One stream's inbox, filled by its loop's hub."""

    def __init__(self):
        self.events: deque = deque()
        self.wake = asyncio.Event()
        self.broken = False

    def put(self, events: list, gap: bool) -> None:
        if gap or len(self.events) + len(events) > BACKLOG:
            self.broken = True  # events were missed: end the stream, the client replays from its last id
        else:
            self.events.extend(events)
        self.wake.set()


class _Hub:
    """The store's one listener for the streams of one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, store):
        self.loop, self.store, self.streams = loop, store, set()
        self.start: tuple[int, int] | None = None  # the store hands on every event after it

    def listener(self, events: list, gap: bool) -> None:  # any thread
        self.loop.call_soon_threadsafe(self.dispatch, events, gap)

    def dispatch(self, events: list, gap: bool) -> None:
        for stream in list(self.streams):
            stream.put(events, gap)

    async def add(self, stream: _Stream) -> tuple[int, int] | None:
        """Hand the stream every new event; return the id after which none is missed (None: unknown)."""
        first = not self.streams
        self.streams.add(stream)
        if first or self.start is None:  # None: the reader had not started; ask again
            self.start = await sync_to_async(self.store.listen, thread_sensitive=False)(self.listener)
        return self.start

    def discard(self, stream: _Stream) -> None:
        self.streams.discard(stream)
        if not self.streams:
            self.store.unlisten(self.listener)


_hubs: dict[tuple[int, int], _Hub] = {}


def _hub(store) -> _Hub:
    loop = asyncio.get_running_loop()
    key = (id(loop), id(store))
    hub = _hubs.get(key)
    if hub is None or hub.loop is not loop:
        hub = _hubs[key] = _Hub(loop, store)
    return hub


def _headers(response: HttpResponse) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode("latin-1"), str(value).encode("latin-1")) for name, value in response.items()]


async def _answer(send, response: HttpResponse) -> None:
    body = response.content
    response["Content-Length"] = str(len(body))
    await send({"type": "http.response.start", "status": response.status_code, "headers": _headers(response)})
    await send({"type": "http.response.body", "body": body})


def _refusal(refused: Refused) -> HttpResponse:
    response = HttpResponse(json.dumps(refused.body(), ensure_ascii=False), status=refused.status,
                            content_type="application/json")
    if refused.retry_after:
        response["Retry-After"] = str(refused.retry_after)
    return response


def _with_cors(request, response: HttpResponse) -> HttpResponse:
    """The response as django-cors-headers leaves it (a preflight answered by the library itself)."""
    return CorsMiddleware(lambda _request: response)(request)


async def push_stream(scope, receive, send) -> None:
    """The ASGI application of ``STREAM_PATH``."""
    more = True
    while more:  # the request's body (none, for a GET)
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        more = message.get("more_body", False)
    request = ASGIRequest(scope, io.BytesIO())
    language = translation.get_language_from_request(request)
    with translation.override(language):
        try:
            request.get_host()
        except DisallowedHost:
            await _answer(send, HttpResponse("Bad Request", status=400, content_type="text/plain"))
            return
        if request.method != "GET":  # a preflight is answered by django-cors-headers; anything else 405
            answer = _with_cors(request, HttpResponse(status=200 if request.method == "OPTIONS" else 405))
            answer["Allow"] = "GET, OPTIONS"
            await _answer(send, answer)
            return
        try:
            session = await database_sync_to_async(_open)(request.GET.get("ticket", ""), client_ip(request),
                                                          language)
        except Refused as refused:
            await _answer(send, _with_cors(request, _refusal(refused)))
            return
    try:
        await _serve(request, session, send, receive, language)
    finally:
        await sync_to_async(session.close, thread_sensitive=False)()


def _open(ticket: str, address: str | None, language: str) -> Session:
    with translation.override(language):
        return Session.open(ticket=ticket, address=address)


def _begin(session: Session, last_event_id: str | None, language: str) -> bytes:
    with translation.override(language):
        return b"".join(session.begin(last_event_id))


async def _serve(request, session: Session, send, receive, language: str) -> None:
    stream = _Stream()
    hub = _hub(session.store)
    start = await hub.add(stream)
    try:
        last_event_id = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
        try:
            first = await database_sync_to_async(_begin)(session, last_event_id, language)
        except Refused as refused:
            await _answer(send, _with_cors(request, _refusal(refused)))
            return
        if start is None or start > session.cursor:
            # This process's reader of the store started after the stream's place (a busy machine, Redis just
            # back): events between would be missed. The stream ends after ``ready``; its client comes back with
            # that id and has them replayed.
            stream.broken = True
            stream.wake.set()
        response = HttpResponse(content_type="text/event-stream; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
        response["X-Content-Type-Options"] = "nosniff"
        response = _with_cors(request, response)
        await send({"type": "http.response.start", "status": 200, "headers": _headers(response)})
        await send({"type": "http.response.body", "body": first, "more_body": True})
        pump = asyncio.ensure_future(_pump(session, stream, send))
        gone = asyncio.ensure_future(_disconnected(receive))
        done, _pending = await asyncio.wait({pump, gone}, return_when=asyncio.FIRST_COMPLETED)
        for task in (pump, gone):
            if task not in done:
                task.cancel()
        if pump in done:
            failure = pump.exception()
            if failure is not None and not isinstance(failure, OSError):  # OSError: the client went away
                logger.error("push stream failed", exc_info=failure)
            if gone not in done and failure is None:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        hub.discard(stream)


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _pump(session: Session, stream: _Stream, send) -> None:
    """Write the stream's events as they come, a heartbeat when none came for a while; end when it must."""
    loop = asyncio.get_running_loop()
    beat = loop.time() + settings.PUSH_HEARTBEAT_SECONDS
    while not session.expired():
        if loop.time() >= beat:  # every heartbeat's time, whether events come or not
            await send({"type": "http.response.body", "body": await sync_to_async(
                session.heartbeat, thread_sensitive=False)(), "more_body": True})
            beat = loop.time() + settings.PUSH_HEARTBEAT_SECONDS
        try:
            await asyncio.wait_for(stream.wake.wait(), max(0.0, beat - loop.time()))
        except TimeoutError:
            continue
        stream.wake.clear()
        if stream.broken:
            return
        out = []
        while stream.events:
            event = stream.events.popleft()
            wanted = session.check(event)
            if wanted is None:
                wanted = await database_sync_to_async(session.may_see)(event.tournament)
            if wanted:
                out.append(event.frame())
        if out:
            await send({"type": "http.response.body", "body": b"".join(out), "more_body": True})
