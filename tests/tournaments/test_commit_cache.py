"""commit_cache: the cache work of a transaction's commit, sent in one round trip (Redis) where it can be."""

import uuid

import pytest
from django.core.cache import cache
from django.db import transaction

from tournaments import commit_cache

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: the batch is the outermost block's


@pytest.fixture
def sends(monkeypatch):
    """The lists of works each round trip sent."""
    sent, real = [], commit_cache._send

    def record(works):
        sent.append(len(works))
        real(works)

    monkeypatch.setattr(commit_cache, "_send", record)
    return sent


def key():
    return f"test-commit-cache-{uuid.uuid4().hex}"


def test_the_work_of_a_transaction_goes_in_one_round_trip_and_each_gets_its_replies(sends):
    a, b, c = key(), key(), key()
    cache.set(c, "kept")
    got = []
    with transaction.atomic():
        commit_cache.at_commit([("set", a, "one", None), ("add", b, 1, 60)], lambda r: got.append(("first", r)))
        commit_cache.at_commit([("add", b, 2, 60)], lambda r: got.append(("second", r)))
        commit_cache.at_commit([("get_many", [a, c, key()])], lambda r: got.append(("third", r)))
        assert not got and cache.get(a) is None  # nothing before the commit
    assert sends == [3]
    assert got == [("first", [True, True]), ("second", [False]), ("third", [{a: "one", c: "kept"}])]
    assert cache.get(b) == 1


def test_work_under_a_savepoint_goes_alone_and_a_rolled_back_one_never(sends):
    kept, dropped, inner = key(), key(), key()
    got = []
    with transaction.atomic():
        commit_cache.at_commit([("set", kept, 1, None)], lambda r: got.append("kept"))
        try:
            with transaction.atomic():
                commit_cache.at_commit([("set", dropped, 1, None)], lambda r: got.append("dropped"))
                raise RuntimeError
        except RuntimeError:
            pass
        with transaction.atomic():
            commit_cache.at_commit([("set", inner, 1, None)], lambda r: got.append("inner"))
    assert got == ["kept", "inner"] and sends == [1, 1]
    assert cache.get(kept) == cache.get(inner) == 1 and cache.get(dropped) is None


def test_a_rolled_back_transactions_work_is_never_sent_with_the_next(sends):
    lost, next_one = key(), key()
    got = []
    try:
        with transaction.atomic():
            commit_cache.at_commit([("add", lost, 1, 60)], lambda r: got.append("lost"))
            raise RuntimeError
    except RuntimeError:
        pass
    with transaction.atomic():
        commit_cache.at_commit([("add", next_one, 1, 60)], lambda r: got.append(("next", r)))
    assert got == [("next", [True])] and sends == [1]
    assert cache.get(lost) is None


def test_outside_a_transaction_the_work_is_done_at_once(sends):
    a, got = key(), []
    commit_cache.at_commit([("set", a, "now", None)], got.append)
    assert got == [[True]] and cache.get(a) == "now"


def test_a_cache_that_fails_gives_each_work_the_exception(monkeypatch):
    def down(*args):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(commit_cache, "_pipeline", down)
    monkeypatch.setattr(commit_cache, "_one", down)
    got = []
    with transaction.atomic():
        commit_cache.at_commit([("set", key(), 1, None)], got.append)
        commit_cache.at_commit([("get_many", [key()])], got.append)
    assert [type(r) for r in got] == [ConnectionError, ConnectionError]
