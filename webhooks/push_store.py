"""The push channel's store: the events of the last ``PUSH_REPLAY_SECONDS``, by tournament, under ids that order them.

An event is the webhooks' JSON body (``webhooks.push``) with its tournament and whether that tournament was public.
Its id is ``<milliseconds>-<sequence>`` (``1732445316073-0``), increasing over every event of every tournament,
so one ``Last-Event-ID`` says where a client stands whatever it follows.

**Redis** (the cache is django-redis, as with ``REDIS_URL``): one Lua script per event, atomic, adds it

- to ``push:tail``, a stream of every event kept ``TAIL_SECONDS``, that each serving process reads as it grows
  (``XREAD BLOCK``, one thread a process) and hands to its open streams; each entry names the one before it
  (``prev``), so a reader that missed entries (trimmed while it was away, Redis emptied) knows;
- to ``push:t:<tournament>``, the tournament's stream kept ``PUSH_REPLAY_SECONDS`` under the same id, which a
  reconnect replays from (and ``push:active``, the tournaments with an event in that time, for a client that
  follows them all);

and sets ``push:last``. Every process that serves streams, and every process that makes events (web, the
workers), reaches the same Redis, so any of them may serve any client.

**In process** (the zero-setup run: no Redis): the same in this process's memory, which is enough when one
process both makes the events and serves the streams (``runserver``, or one ASGI worker without Redis).

**Only while someone listens.** An event is built and kept only while ``push:watched`` exists: every open stream
sets it, for ``PUSH_REPLAY_SECONDS`` and a minute more, at its start and every heartbeat, so a tournament's
hands cost nothing while nobody follows the push channel (the check joins the commit's cache round trip,
``webhooks.signals``). When it appears, ``push:since`` says from which id on everything is kept; a
``Last-Event-ID`` before it (or before the replay window, or unknown) is answered ``reset``.

**Connections** are counted per user (or address) in a sorted set whose entries expire unless their stream's
heartbeat renews them, so a killed process's streams stop counting within three heartbeats.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)

#: How long every event stays in the tail that the serving processes read: a process that falls further
#: behind closes its streams, whose clients come back with their Last-Event-ID and get the rest replayed.
TAIL_SECONDS = 60
#: How long a serving process's ``XREAD`` blocks before it asks again.
BLOCK_SECONDS = 5
WATCHED = "push:watched"  # the cache key ``webhooks.signals`` reads with the commit's other keys

Listener = Callable[[list["Event"], bool], None]  # (new events, whether some were missed before them)


def window_ms() -> int:
    return int(settings.PUSH_REPLAY_SECONDS * 1000)


def watch_ms() -> int:
    """How long a stream's mark keeps events being made: the replay window and a minute."""
    return window_ms() + 60_000


def parse_id(value) -> tuple[int, int] | None:
    """``"<ms>-<seq>"`` as a pair of integers, or None when it is not an id."""
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    if not isinstance(value, str) or len(value) > 40:
        return None
    ms, sep, seq = value.partition("-")
    if not (sep and ms.isdigit() and seq.isdigit() and ms.isascii() and seq.isascii()):
        return None
    return int(ms), int(seq)


def format_id(pair: tuple[int, int]) -> str:
    return f"{pair[0]}-{pair[1]}"


class Unavailable(Exception):
    """The store could not be reached (Redis away): no stream can be opened now."""


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    tournament: int
    public: bool
    body: str  # the event's JSON, as the webhooks send it

    @property
    def key(self) -> tuple[int, int]:
        return parse_id(self.id)

    def frame(self) -> bytes:
        """The event as Server-Sent Events write it (the body is one line: compact JSON)."""
        return f"id: {self.id}\ndata: {self.body}\n\n".encode()


@dataclass(frozen=True, slots=True)
class State:
    last: tuple[int, int]  # the newest event's id ((0, 0): none)
    since: tuple[int, int] | None  # everything after it is kept (None: nobody listens, nothing is kept)
    now_ms: int  # the store's clock

    @property
    def position(self) -> tuple[int, int]:
        """Where a client that starts now stands: the newest event, or the mark if it is later."""
        return max(self.last, self.since or (0, 0))


# --- in process ---------------------------------------------------------------------------------------------------

class MemoryStore:
    """The store in this process's memory (no Redis): one lock, the events in a deque, listeners called at once."""

    in_process = True

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self._lock = threading.Lock()
        self._events: deque[tuple[int, Event]] = deque()  # (ms, event), oldest first
        self._last = (0, 0)
        self._since: tuple[int, int] | None = None
        self._watched_until = 0.0
        self._listeners: set[Listener] = set()
        self._connections: dict[str, dict[str, float]] = {}

    @staticmethod
    def _now_ms() -> int:
        return int(time.time() * 1000)

    def record(self, tournament: int, public: bool, body: str) -> str:
        with self._lock:
            ms = self._now_ms()
            self._last = (ms, 0) if ms > self._last[0] else (self._last[0], self._last[1] + 1)
            event = Event(format_id(self._last), tournament, public, body)
            self._events.append((self._last[0], event))
            horizon = self._last[0] - window_ms()
            while self._events and self._events[0][0] < horizon:
                self._events.popleft()
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener([event], False)
            except Exception:  # noqa: BLE001 - a stream's failure is its own
                logger.exception("push listener failed")
        return event.id

    def watched(self) -> bool:
        return time.time() < self._watched_until

    def watch(self) -> None:
        with self._lock:
            now = time.time()
            if now >= self._watched_until or self._since is None:
                self._since = (self._now_ms(), 0)
            self._watched_until = now + watch_ms() / 1000

    def state(self) -> State:
        with self._lock:
            since = self._since if self.watched() else None
            return State(self._last, since, self._now_ms())

    def replay(self, after: tuple[int, int], upto: tuple[int, int], tournament: int | None,
               limit: int) -> list[Event] | None:
        with self._lock:
            found = [e for _ms, e in self._events
                     if after < e.key <= upto and (tournament is None or e.tournament == tournament)]
        return None if len(found) > limit else found

    def listen(self, listener: Listener) -> tuple[int, int] | None:
        """Call ``listener`` with every event from now on; return the id after which it hears every one."""
        with self._lock:
            self._listeners.add(listener)
            return (0, 0)  # told by ``record`` itself: nothing recorded from now on is missed

    def unlisten(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.discard(listener)

    def connection_open(self, owner: str, member: str, limit: int) -> bool:
        with self._lock:
            now = time.time()
            held = {m: t for m, t in self._connections.get(owner, {}).items() if t > now}
            if member not in held and len(held) >= limit:
                self._connections[owner] = held
                return False
            held[member] = now + 3 * settings.PUSH_HEARTBEAT_SECONDS
            self._connections[owner] = held
            return True

    def connection_close(self, owner: str, member: str) -> None:
        with self._lock:
            self._connections.get(owner, {}).pop(member, None)


# --- Redis ---------------------------------------------------------------------------------------------------------

_RECORD = """
local prev = redis.call('GET', KEYS[1]) or ''
local id = redis.call('XADD', KEYS[2], '*', 'prev', prev, 't', ARGV[1], 'p', ARGV[2], 'b', ARGV[3])
local ms = tonumber(string.match(id, '^(%d+)'))
redis.call('XTRIM', KEYS[2], 'MINID', string.format('%d-0', ms - tonumber(ARGV[5])))
redis.call('XADD', KEYS[3], 'MINID', string.format('%d-0', ms - tonumber(ARGV[4])), id, 'p', ARGV[2], 'b', ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
redis.call('ZADD', KEYS[4], ms, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', string.format('(%d', ms - tonumber(ARGV[4])))
redis.call('PEXPIRE', KEYS[4], ARGV[6])
redis.call('SET', KEYS[1], id)
return id
"""
# KEYS: watched, since. A new mark starts "since" at the store's now.
_WATCH = """
local t = redis.call('TIME')
local now = string.format('%d-0', t[1] * 1000 + math.floor(t[2] / 1000))
if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then
  redis.call('SET', KEYS[2], now, 'PX', ARGV[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  if redis.call('PEXPIRE', KEYS[2], ARGV[1]) == 0 then redis.call('SET', KEYS[2], now, 'PX', ARGV[1]) end
end
return 1
"""
# KEYS: last, since, watched.
_STATE = """
local t = redis.call('TIME')
local since = ''
if redis.call('EXISTS', KEYS[3]) == 1 then since = redis.call('GET', KEYS[2]) or '' end
return {redis.call('GET', KEYS[1]) or '', since, t[1] * 1000 + math.floor(t[2] / 1000)}
"""
# KEYS: the owner's connections. ARGV: member, limit, lifetime (ms).
_CONNECTION = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
"""


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else (value or "")


class RedisStore:
    """The store in the Redis of the default cache (django-redis): shared by every process."""

    in_process = False

    def __init__(self):
        self._tails: dict[str, _Tail] = {}
        self._lock = threading.Lock()

    # Each call takes the thread's cache object (Django keeps one a thread); they share one connection pool.
    @staticmethod
    def _cache():
        return caches["default"]

    def _client(self):
        return self._cache().client.get_client(write=True)

    def key(self, name: str) -> str:
        return self._cache().make_key(name)

    def _run(self, script: str, keys: list[str], args: list):
        client = self._client()
        sha = _sha(script)
        import redis

        try:
            try:
                return client.evalsha(sha, len(keys), *keys, *args)
            except redis.exceptions.NoScriptError:
                return client.eval(script, len(keys), *keys, *args)
        except redis.exceptions.RedisError as exc:
            raise Unavailable(str(exc)) from exc

    def record(self, tournament: int, public: bool, body: str) -> str:
        keys = [self.key("push:last"), self.key("push:tail"), self.key(f"push:t:{tournament}"),
                self.key("push:active")]
        return _text(self._run(_RECORD, keys, [tournament, "1" if public else "0", body, window_ms(),
                                                TAIL_SECONDS * 1000, watch_ms()]))

    def watched(self) -> bool:
        import redis

        try:
            return bool(self._client().exists(self.key(WATCHED)))
        except redis.exceptions.RedisError as exc:
            raise Unavailable(str(exc)) from exc

    def watch(self) -> None:
        self._run(_WATCH, [self.key(WATCHED), self.key("push:since")], [watch_ms()])

    def state(self) -> State:
        last, since, now_ms = self._run(_STATE, [self.key("push:last"), self.key("push:since"), self.key(WATCHED)],
                                        [])
        return State(parse_id(_text(last)) or (0, 0), parse_id(_text(since)), int(now_ms))

    def replay(self, after: tuple[int, int], upto: tuple[int, int], tournament: int | None,
               limit: int) -> list[Event] | None:
        import redis

        start, end = f"({format_id(after)}", format_id(upto)
        try:
            client = self._client()
            if tournament is not None:
                tournaments = [tournament]
            else:
                tournaments = [int(t) for t in client.zrangebyscore(self.key("push:active"), after[0], "+inf")]
            pipe = client.pipeline(transaction=False)
            for t in tournaments:
                pipe.xrange(self.key(f"push:t:{t}"), start, end, count=limit + 1)
            replies = pipe.execute() if tournaments else []
        except redis.exceptions.RedisError as exc:
            raise Unavailable(str(exc)) from exc
        found = [Event(_text(raw_id), t, fields[b"p"] == b"1", _text(fields[b"b"]))
                 for t, entries in zip(tournaments, replies, strict=True) for raw_id, fields in entries]
        if len(found) > limit:
            return None
        found.sort(key=lambda e: e.key)
        return found

    def listen(self, listener: Listener) -> tuple[int, int] | None:
        """Call ``listener`` with the new events from this process's reader of the tail; return the id after
        which the reader hands on every event (None: it could not start). A stream that starts before that id
        would miss events: it ends at once, and its client comes back with its last id (``api.push_asgi``)."""
        where = (self._location(), self.key("push:tail"))
        with self._lock:
            tail = self._tails.get(where)
            if tail is None or tail.pid != os.getpid():
                tail = self._tails[where] = _Tail(where[0], self.key("push:last"), where[1])
        return tail.add(listener)

    def unlisten(self, listener: Listener) -> None:
        with self._lock:
            tail = self._tails.get((self._location(), self.key("push:tail")))
        if tail is not None:
            tail.discard(listener)

    @staticmethod
    def _location() -> str:
        location = settings.CACHES["default"]["LOCATION"]
        return location if isinstance(location, str) else location[0]

    def connection_open(self, owner: str, member: str, limit: int) -> bool:
        lifetime = int(3 * settings.PUSH_HEARTBEAT_SECONDS * 1000)
        return bool(self._run(_CONNECTION, [self.key(f"push:connections:{owner}")], [member, limit, lifetime]))

    def connection_close(self, owner: str, member: str) -> None:
        import redis

        try:
            self._client().zrem(self.key(f"push:connections:{owner}"), member)
        except redis.exceptions.RedisError:
            pass  # it expires within three heartbeats


_SHAS: dict[str, str] = {}


def _sha(script: str) -> str:
    sha = _SHAS.get(script)
    if sha is None:
        sha = _SHAS[script] = hashlib.sha1(script.encode()).hexdigest()
    return sha


class _Tail:
    """This process's reader of ``push:tail``: one daemon thread, one blocking connection, every listener told."""

    def __init__(self, location: str, last_key: str, tail_key: str):
        self.location, self.last_key, self.tail_key = location, last_key, tail_key
        self.pid = os.getpid()
        self.listeners: set[Listener] = set()
        self.lock = threading.Lock()
        self.started = threading.Event()  # set once the reader knows where it starts
        self.start: tuple[int, int] | None = None  # the id after which it hands on every event
        self.thread: threading.Thread | None = None

    def add(self, listener: Listener) -> tuple[int, int] | None:
        with self.lock:
            self.listeners.add(listener)
            if self.thread is None:
                self.started = started = threading.Event()
                self.start = None
                self.thread = threading.Thread(target=self.run, args=(started,), name="push-tail", daemon=True)
                self.thread.start()
            started = self.started
        started.wait(BLOCK_SECONDS * 6)  # a busy machine may take a while; Redis away, the stream is refused anyway
        return self.start

    def discard(self, listener: Listener) -> None:
        with self.lock:
            self.listeners.discard(listener)

    def notify(self, events: list[Event], gap: bool) -> None:
        with self.lock:
            listeners = list(self.listeners)
        for listener in listeners:
            try:
                listener(events, gap)
            except Exception:  # noqa: BLE001
                logger.exception("push listener failed")

    def run(self, started: threading.Event) -> None:
        import redis

        client = redis.Redis.from_url(self.location, socket_timeout=BLOCK_SECONDS + 5,
                                      socket_connect_timeout=settings.REDIS_TIMEOUT)
        last = None
        while True:
            with self.lock:
                if not self.listeners:  # no stream left in this process: the next one starts a reader again
                    self.thread = None
                    client.close()
                    return
            try:
                if last is None:
                    last = _text(client.get(self.last_key)) or "0-0"
                    self.start = parse_id(last)
                    started.set()
                reply = client.xread({self.tail_key: last}, count=1000, block=BLOCK_SECONDS * 1000)
            except redis.exceptions.RedisError:
                logger.warning("push: the tail of %s could not be read; trying again", self.tail_key, exc_info=True)
                time.sleep(1)
                continue
            events, gap = [], False
            for _stream, entries in reply or []:
                for raw_id, fields in entries:
                    event_id = _text(raw_id)
                    if (_text(fields.get(b"prev")) or "0-0") != last:
                        gap = True  # entries before this one are gone: the streams close, their clients replay
                    last = event_id
                    events.append(Event(event_id, int(fields[b"t"]), fields[b"p"] == b"1", _text(fields[b"b"])))
            if events:
                self.notify(events, gap)


_memory = MemoryStore()
_redis = RedisStore()


def get() -> MemoryStore | RedisStore:
    """The store: Redis when the default cache is django-redis's, else this process's memory."""
    cache = caches["default"]
    return _redis if hasattr(getattr(cache, "client", None), "get_client") else _memory
