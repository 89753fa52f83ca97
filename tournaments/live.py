"""Live updates: tell the open pages that a match or a tournament changed, once per change, on commit.

The message goes to a Channels group ("match-<id>", "tournament-<id>") through the channel layer
(Redis in production, so every web process hears it); each process renders the changed region
once and pushes it to its own viewers (``web.consumers``). This module only publishes: it knows
nothing about pages, and a failure to publish (Redis down, no layer) is logged, never raised, so
a result is never refused because a scoreboard could not be told about it.

A synchronous caller (a request of a sync worker, a Celery task) publishes through one event loop
per process that lives in a daemon thread (``_Publisher``): the Redis layer keeps its connections
per event loop, so ``async_to_sync`` (a new loop, new connections and their teardown on every
call, about 10 ms) is paid once per process instead of once per hand. The caller hands the
message to that loop and goes on: it does not wait for the send's Redis round trips (a hand POST
answers sooner and its worker takes the next one). Each send is given ``REDIS_TIMEOUT``; a failure
or a timeout is logged when it comes, never raised. A process that exits at once after a change
(a management command) may leave its last message unsent; the open pages then see the change at
their next poll or reconnect. Layers kept in process memory (the zero-setup run, the tests) are sent to
from the caller's thread as before: their queues belong to the loops of their listeners.

Coalescing. The publisher sends to a group at most once every ``LIVE_COALESCE_SECONDS`` (0.25 s by
default): the first change goes at once, the changes that follow inside that time go as one message
at its end, and a change whose group already has a message waiting adds nothing. Every message sent
carries a new version made when it goes, after the changes it stands for were committed, so a
listener that renders on it sees them all. A busy tournament (hands from every table) then costs its
pages a few renders a second, not one per hand. The groups of a whole tournament's pages (``WIDE_GROUPS``)
are told at most once every ``LIVE_WIDE_SECONDS`` (1 s): a championship's 136 tables enter nine hands a
second, and its round, standings and wall are 130 to 460 KB of HTML each.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "region.changed"
#: The groups of a whole tournament's pages (its round, standings and wall), told of every table's hands: told at
#: most once every ``LIVE_WIDE_SECONDS`` (1 s), a match's group every ``LIVE_COALESCE_SECONDS``.
WIDE_GROUPS = ("tournament-", "standings-")


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def standings_group(tournament_id: int) -> str:
    """The standings page's group: told only when the standings were recomputed, not after every hand."""
    return f"standings-{tournament_id}"


async def _send_all(layer, groups: list[str], message: dict) -> None:
    for group in groups:
        await layer.group_send(group, message)


class _Publisher:
    """One event loop in a daemon thread per process (made again in a forked child), sending on the layer.

    Sends to a group are coalesced (the module's docstring): ``_due`` holds the groups whose message is
    scheduled and not yet gone, ``_last`` when each group's last message went.
    """

    #: ``_last`` is emptied of entries older than the coalescing time once it holds this many groups.
    LAST_MAX = 10_000

    def __init__(self):
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid: int | None = None
        self._layers: tuple = (None, None)  # (the process's layer, the publisher's own of the same settings)
        self._state = threading.Lock()  # guards _due and _last (the callers' threads and the loop's)
        self._due: set[str] = set()
        self._last: dict[str, float] = {}
        self._sending: set[asyncio.Task] = set()  # the loop keeps only weak references to its tasks

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        pid = os.getpid()
        if self._pid != pid:
            with self._lock:
                if self._pid != pid:  # first use, or a forked child: the parent's thread did not follow
                    loop = asyncio.new_event_loop()
                    threading.Thread(target=loop.run_forever, name="live-publisher", daemon=True).start()
                    self._loop, self._pid, self._layers = loop, pid, (None, None)
                    self._due, self._last = set(), {}
        return self._loop

    def _own_layer(self, layer):
        """A layer of the same settings as ``layer`` for the publisher alone.

        A Redis layer keeps a pool per event loop and its ``flush()`` closes them all from the caller's
        loop: the process's layer, shared with the consumers, must never hold the publisher's.
        """
        shared, own = self._layers
        if shared is not layer:
            from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

            own = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
            self._layers = (layer, own)
        return own

    def send(self, layer, groups: list[str], timeout: float, interval: float, wide: float | None = None) -> None:
        """Have a change message sent to each of ``groups``, within ``interval`` of the group's last one
        (``wide``, when given, for a whole tournament's groups: ``WIDE_GROUPS``).

        A group with a message already waiting is skipped; the others are handed to the publisher's loop
        without waiting for Redis. Each send is given ``timeout``; a failure is logged when it comes.
        """
        loop = self._running_loop()
        own = self._own_layer(layer)
        now = time.monotonic()
        due = []
        with self._state:
            for group in groups:
                if group not in self._due:
                    every = wide if wide is not None and group.startswith(WIDE_GROUPS) else interval
                    self._due.add(group)
                    due.append((group, max(0.0, self._last.get(group, now - every) + every - now)))
        if due:
            loop.call_soon_threadsafe(self._schedule, own, due, timeout)

    def _schedule(self, layer, due: list[tuple[str, float]], timeout: float) -> None:
        """In the loop: send each group's message now or after its delay."""
        for group, delay in due:
            if delay > 0:
                self._loop.call_later(delay, self._go, layer, group, timeout)
            else:
                self._go(layer, group, timeout)

    def _go(self, layer, group: str, timeout: float) -> None:
        """In the loop: send a group its message, with a version made now (after the changes it stands for)."""
        now = time.monotonic()
        with self._state:
            self._due.discard(group)  # a change committed from now on schedules a message of its own
            if len(self._last) >= self.LAST_MAX:
                self._last = {g: at for g, at in self._last.items() if now - at < 60}
            self._last[group] = now
        message = {"type": MESSAGE_TYPE, "version": uuid.uuid4().hex}
        task = self._loop.create_task(asyncio.wait_for(layer.group_send(group, message), timeout))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        task.add_done_callback(lambda t: _log_failure(t, [group]))


def _log_failure(future, groups: list[str]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("live update to %s not published", ", ".join(groups), exc_info=future.exception())


_publisher = _Publisher()


def _in_process(layer) -> bool:
    """Tell whether the layer keeps its messages in this process's memory (sent from the caller's thread)."""
    return type(layer).__module__.startswith("channels.layers")


def _send(groups: list[str]) -> None:
    """Send one change message to each group now; log and swallow any failure."""
    try:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        if _in_process(layer):
            async_to_sync(_send_all)(layer, groups, {"type": MESSAGE_TYPE, "version": uuid.uuid4().hex})
        else:
            _publisher.send(layer, groups, timeout=getattr(settings, "REDIS_TIMEOUT", 1.0),
                            interval=getattr(settings, "LIVE_COALESCE_SECONDS", 0.25),
                            wide=getattr(settings, "LIVE_WIDE_SECONDS", 1.0))
    except Exception:
        logger.exception("live update to %s not published", ", ".join(groups))


def publish_match_changed(match_id: int, tournament_id: int) -> None:
    """On commit, tell the match's pages and its tournament's pages that they changed."""
    groups = [match_group(match_id), tournament_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))


def publish_tournament_changed(tournament_id: int) -> None:
    """On commit, tell the tournament's round and wall pages that they changed (a round was paired)."""
    groups = [tournament_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))


def publish_standings_changed(tournament_id: int) -> None:
    """On commit, tell the tournament's standings, round and wall pages that the standings were recomputed."""
    groups = [tournament_group(tournament_id), standings_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))
