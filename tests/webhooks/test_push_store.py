"""The push channel's store, in process and on a real Redis: ids that order every event, the replay window, the
mark that says from when everything is kept, the connections' count, and the reader that hands events on."""

import threading
import time

import pytest
from django.test import override_settings

from tests.webhooks.push_fixtures import memory_store, redis_store, store  # noqa: F401 (fixtures)
from webhooks import push_store
from webhooks.push_store import parse_id


def test_ids_increase_over_every_tournament_and_each_tournament_replays_its_own(store):
    ids = [store.record(t, public, f'{{"n":{n}}}') for n, (t, public) in enumerate(
        [(1, True), (2, False), (1, True), (1, True), (2, False)])]
    keys = [parse_id(i) for i in ids]
    assert keys == sorted(keys) and len(set(keys)) == 5
    state = store.state()
    assert state.last == keys[-1]
    one = store.replay(keys[0], state.last, 1, limit=100)
    assert [e.body for e in one] == ['{"n":2}', '{"n":3}'] and all(e.tournament == 1 and e.public for e in one)
    every = store.replay((0, 0), state.last, None, limit=100)
    assert [e.id for e in every] == ids and [e.public for e in every] == [True, False, True, True, False]
    assert store.replay((0, 0), state.last, None, limit=4) is None  # more than a replay gives: the caller resets
    assert store.replay(keys[1], keys[3], None, limit=100)[-1].id == ids[3]  # up to a given id, included


def test_the_mark_says_from_when_everything_is_kept(store):
    assert not store.watched() and store.state().since is None
    store.watch()
    first = store.state()
    assert store.watched() and first.since is not None and abs(first.since[0] - first.now_ms) < 5000
    store.watch()  # a heartbeat renews it without moving it
    assert store.state().since == first.since
    event = parse_id(store.record(3, True, "{}"))
    assert store.state().position == max(event, first.since)


def test_events_older_than_the_window_are_gone(store, settings):
    settings.PUSH_REPLAY_SECONDS = 1
    old = store.record(1, True, '{"old":1}')
    time.sleep(1.2)
    new = store.record(1, True, '{"new":1}')
    assert [e.id for e in store.replay((0, 0), parse_id(new), 1, limit=10)] == [new]
    assert [e.id for e in store.replay((0, 0), parse_id(new), None, limit=10)] == [new]
    assert parse_id(old) < parse_id(new)


def test_connections_are_counted_per_owner_and_lapse_without_a_heartbeat(store, settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.2
    assert store.connection_open("user:1", "a", 2) and store.connection_open("user:1", "b", 2)
    assert not store.connection_open("user:1", "c", 2)
    assert store.connection_open("user:2", "c", 2)  # another owner
    assert store.connection_open("user:1", "a", 2)  # a heartbeat of one counted already
    store.connection_close("user:1", "b")
    assert store.connection_open("user:1", "c", 2)
    time.sleep(0.7)  # three heartbeats missed: a killed process's streams stop counting
    assert store.connection_open("user:1", "d", 1)


def test_a_listener_hears_each_new_event_once(store):
    heard, done = [], threading.Event()

    def listener(events, gap):
        heard.extend((e.id, e.tournament, gap) for e in events)
        if len(heard) >= 3:
            done.set()

    store.listen(listener)
    try:
        ids = [store.record(t, True, "{}") for t in (4, 5, 4)]
        assert done.wait(10)
    finally:
        store.unlisten(listener)
    assert heard == [(ids[0], 4, False), (ids[1], 5, False), (ids[2], 4, False)]


def test_a_reader_that_missed_entries_says_so(redis_store):
    """The tail's entries name the one before: an entry whose predecessor the reader never read (trimmed while it
    was away, Redis emptied) is a gap, and the streams of that process end (their clients replay)."""
    import redis

    heard, done = [], threading.Event()

    def listener(events, gap):
        heard.append(([e.id for e in events], gap))
        done.set()

    redis_store.record(1, True, "{}")
    redis_store.listen(listener)
    try:
        client = redis_store._client()
        # An entry added past the script, as if others had been trimmed away before the reader came to them.
        client.xadd(redis_store.key("push:tail"), {"prev": "1-1", "t": 1, "p": "1", "b": "{}"})
        assert done.wait(10)
    finally:
        redis_store.unlisten(listener)
    assert heard[0][1] is True
    assert isinstance(client, redis.Redis)


def test_ids_are_parsed_strictly():
    assert parse_id("1732445316073-0") == (1732445316073, 0)
    for bad in ("", "12", "a-1", "1-b", "-1", "1--1", "１-1", "1-1 ", None, 12, "9" * 50):
        assert parse_id(bad) is None, bad


def test_redis_away_is_unavailable():
    nowhere = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
                           "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2}}}
    with override_settings(CACHES=nowhere):
        store = push_store.get()
        for call in (lambda: store.record(1, True, "{}"), store.watch, store.state, store.watched,
                     lambda: store.replay((0, 0), (1, 0), None, 10), lambda: store.connection_open("u", "m", 1)):
            with pytest.raises(push_store.Unavailable):
                call()
        store.connection_close("u", "m")  # never raises: the entry lapses by itself
