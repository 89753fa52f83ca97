"""Cache work done when a transaction commits, sent to Redis in one round trip where it can be.

A hand POST's commit replaces the match's version stamps (``versions.bump``), sets the standings'
pending flag (``standings.standings_recompute_schedule``) and reads whether its tournament has
webhooks (``webhooks.signals``): three round trips to Redis, one after the other. Each registers its
work here with ``at_commit`` instead. The work is still a commit callback of its own: it runs at its
turn after the commit, and a rollback drops it. But the first one to run sends the commands of all
the work of its transaction in one Redis pipeline, and each then takes its replies at its turn.

Only work registered in the outermost block with no savepoint open goes with the others. A
savepoint rolled back later cannot drop it, and a rollback of the whole transaction drops all of it.
Work registered under a savepoint, outside a transaction, or with a cache that is not Redis (the
zero-setup run) sends its own commands at its turn, through the cache's API.

Commands: ``("set", key, value, timeout)`` (replies True), ``("add", key, value, timeout)`` (True
when the key was not there) and ``("get_many", keys)`` (a dict of the keys found). ``then`` is given
the list of replies, or the exception that stopped the round trip; it must not raise.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction

_BATCH_ATTR = "_manille_commit_cache"


class _Work:
    """One caller's commands and what it does with their replies: a commit callback."""

    __slots__ = ("batch", "commands", "replies", "then")

    def __init__(self, commands: list[tuple], then: Callable, batch: list | None):
        self.commands, self.then, self.batch, self.replies = commands, then, batch, None

    def __call__(self) -> None:
        if self.replies is None:
            _send([w for w in self.batch if w.replies is None] if self.batch else [self])
        self.then(self.replies)


def at_commit(commands: list[tuple], then: Callable) -> None:
    """Run ``commands`` on the cache when the current transaction commits (now outside one), then ``then``."""
    connection = transaction.get_connection()
    batch = None
    if connection.in_atomic_block and len(connection.atomic_blocks) == 1 and not connection.savepoint_ids:
        batch = getattr(connection, _BATCH_ATTR, None)
        # The batch is this transaction's while its first work waits among its commit callbacks; one left
        # by a transaction that committed or rolled back is not.
        if not batch or not any(func is batch[0] for _, func, _ in connection.run_on_commit):
            batch = []
            setattr(connection, _BATCH_ATTR, batch)
    work = _Work(commands, then, batch)
    if batch is not None:
        batch.append(work)
    transaction.on_commit(work)


def is_django_redis(a_cache) -> bool:
    """Whether ``a_cache`` is django-redis's (its client gives the redis-py client for pipelines and scripts)."""
    return hasattr(getattr(a_cache, "client", None), "get_client")


def _send(works: list[_Work]) -> None:
    """Run the commands of ``works`` (one pipeline on Redis) and give each its replies or the exception."""
    try:
        if is_django_redis(cache):
            replies = _pipeline([c for w in works for c in w.commands])
        else:
            replies = [_one(c) for w in works for c in w.commands]
    except Exception as exc:  # noqa: BLE001 - each caller decides what a cache outage means for it
        for w in works:
            w.replies = exc
        return
    start = 0
    for w in works:
        w.replies, start = replies[start:start + len(w.commands)], start + len(w.commands)


def _one(command: tuple):
    name, *args = command
    if name == "get_many":
        return cache.get_many(args[0])
    key, value, timeout = args
    if name == "add":
        return cache.add(key, value, timeout=timeout)
    cache.set(key, value, timeout=timeout)
    return True


def _pipeline(commands: list[tuple]) -> list:
    client = cache.client
    pipe = client.get_client(write=True).pipeline(transaction=False)
    for name, *args in commands:
        if name == "get_many":
            pipe.mget([client.make_key(k) for k in args[0]])
        else:
            key, value, timeout = args
            px = None if timeout is None else int(timeout * 1000)
            pipe.set(client.make_key(key), client.encode(value), nx=name == "add", px=px)
    replies = []
    for (name, *args), reply in zip(commands, pipe.execute(), strict=True):
        if name == "get_many":
            replies.append({k: client.decode(v) for k, v in zip(args[0], reply, strict=True) if v is not None})
        else:
            replies.append(bool(reply))
    return replies
