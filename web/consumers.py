"""The live regions' WebSocket: join the region's group, push its new HTML after every change.

``tournaments.live`` publishes one ``region.changed`` message per change to a group; every
connection of a process that listens to the region gets it, and the process renders the region
once per (region, language, change) however many of its viewers watch it (a shared cache with a
per-key lock), then sends each viewer the same HTML. Nothing is computed per viewer. A visitor's match
region is the rendering the web processes keep for its pollers (``web.regions.visitor_rendering``): whoever
comes first renders it, for pushes and polls alike, and its ETag is the one the polls answer with.

A region of the whole tournament (``WIDE_KINDS``: the round, the standings, the wall) hears of every hand
of every table, from every process that publishes (each coalesces on its own). It is rendered at most once
every ``LIVE_WIDE_SECONDS`` per process and language, or 20 times as long as its last rendering took
(``web.regions.WIDE_SHARE``) (``wide_rendering``): a change that comes sooner waits
for the end of that time, and the changes that come meanwhile share that one rendering. A rendering that has
begun reading never stands for a change that comes after it began: that change gets the next one.

A region that is unknown or not public is refused: the socket is accepted and closed at once with
code 4404, which tells the page not to try again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http import Http404

from web.regions import (REGION_KINDS, WIDE_KINDS, etag_of, region_group, render_region, visitor_rendering,
                         wide_seconds)

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
_KEEP = 256  # renderings kept per process: a few recent changes of every watched region and language

_rendered: OrderedDict[tuple, tuple[str, str, str]] = OrderedDict()
_locks: dict[tuple, asyncio.Lock] = {}


def _language(query_string: bytes) -> str:
    """Return the ``lang`` of the query string when it is one of the site's languages, else the default."""
    values = parse_qs(query_string.decode("latin-1")).get("lang", [])
    codes = {code for code, _name in settings.LANGUAGES}
    return values[0] if values and values[0] in codes else settings.LANGUAGE_CODE


async def rendering(kind: str, pk: int, lang: str, version: str, user=None) -> tuple[str, str, str]:
    """Return a region's (html, etag, message) after change ``version``, rendered and encoded once per process."""
    key = (kind, pk, lang, version)
    hit = _rendered.get(key)
    if hit is not None:
        return hit
    lock = _locks.setdefault(key, asyncio.Lock())
    try:
        async with lock:
            hit = _rendered.get(key)
            if hit is None:
                shared = None
                if kind not in WIDE_KINDS and (user is None or not user.is_authenticated):
                    # A visitor's: the rendering the web processes' pollers get too, made once for all of them.
                    shared = await database_sync_to_async(visitor_rendering)(kind, pk, lang)
                if shared is not None:
                    html, etag = shared
                else:
                    html = await database_sync_to_async(render_region)(kind, pk, lang, user)
                    etag = etag_of(html, lang)
                hit = _rendered[key] = (html, etag, json.dumps({"html": html, "etag": etag}))
                while len(_rendered) > _KEEP:
                    _rendered.popitem(last=False)
    finally:
        # Waiters keep their reference to the lock and find the rendering; later callers find it first.
        _locks.pop(key, None)
    return hit


class _Wide:
    """The next rendering of one wide region in one language: when it reads, and whether it has begun."""

    __slots__ = ("at", "task", "started", "took")

    def __init__(self, at: float):
        self.at, self.task, self.started, self.took = at, None, False, 0.0


_wide: dict[tuple, _Wide] = {}
_WIDE_KEEP = 1_000  # regions remembered per process before those quiet for a minute are forgotten


async def wide_rendering(kind: str, pk: int, lang: str, user=None) -> tuple[str, str, str]:
    """Return a wide region's (html, etag, message) for a change just heard, rendered at most once a bound.

    The change is seen by a rendering that has not begun yet: the one scheduled (joined), or a new one at the
    end of ``LIVE_WIDE_SECONDS`` after the last one began (at once when that is past).
    """
    key = (kind, pk, lang)
    loop = asyncio.get_running_loop()
    now = loop.time()
    pending = _wide.get(key)
    if pending is None or pending.started:
        if pending is None and len(_wide) >= _WIDE_KEEP:
            for old in [k for k, w in _wide.items() if w.task.done() and now - w.at > 60]:
                del _wide[old]
        last = pending
        pending = _Wide(now if last is None else max(now, last.at + wide_seconds(last.took)))
        pending.task = loop.create_task(_render_wide(key, pending, user))
        _wide[key] = pending
    return await asyncio.shield(pending.task)


async def _render_wide(key: tuple, pending: _Wide, user) -> tuple[str, str, str]:
    kind, pk, lang = key
    delay = pending.at - asyncio.get_running_loop().time()
    if delay > 0:
        await asyncio.sleep(delay)
    pending.started = True  # from here on, a change heard is not covered by this rendering
    began = time.perf_counter()
    html = await database_sync_to_async(render_region)(kind, pk, lang, user)
    pending.took = time.perf_counter() - began
    etag = etag_of(html, lang)
    return html, etag, json.dumps({"html": html, "etag": etag})


def rendering_cache_clear() -> None:
    _rendered.clear()
    _locks.clear()
    _wide.clear()


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one live region (match, round, standings, wall)."""

    group: str | None = None
    _sent: str | None = None

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.kind, self.pk = kwargs["kind"], int(kwargs["pk"])
        self.lang = _language(self.scope.get("query_string", b""))
        group = (await database_sync_to_async(region_group)(self.kind, self.pk, self.scope.get("user"))
                 if self.kind in REGION_KINDS else None)
        if group is None:
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        # In the group before the page hears "open": no change falls between its catch-up fetch and the socket.
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive_json(self, content, **kwargs):
        """The page says nothing over the socket; anything it sends is ignored."""

    async def region_changed(self, event):
        """Push the region's new HTML (rendered once per process for this change and language; a wide region at
        most once every ``LIVE_WIDE_SECONDS``)."""
        try:
            if self.kind in WIDE_KINDS:
                _html, _etag, message = await wide_rendering(self.kind, self.pk, self.lang, self.scope.get("user"))
            else:
                _html, _etag, message = await rendering(self.kind, self.pk, self.lang,
                                                        str(event.get("version", "")), self.scope.get("user"))
        except Http404:  # deleted, or no longer public
            await self.close(code=CLOSE_NOT_FOUND)
            return
        except Exception:
            logger.exception("live region %s %s not rendered", self.kind, self.pk)
            return
        if message is self._sent:  # changes that shared one rendering: pushed once
            return
        self._sent = message
        await self.send(text_data=message)  # {"html": ..., "etag": ...}, encoded once for every viewer
