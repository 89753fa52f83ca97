"""Two scorekeepers entering the same hand at once: exactly one is stored, the other is a conflict."""

import threading

import pytest
from django.db import connection, connections

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Hand
from tournaments.services.errors import Conflict
from tournaments.services.hands import hand_enter

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"),
]

HAND = {"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}}


def enter_concurrently(match, count=2, **kwargs):
    """Run ``count`` hand entries in threads released together; return (stored hands, errors)."""
    barrier = threading.Barrier(count)
    outcomes: list = []

    def enter():
        try:
            barrier.wait()
            outcomes.append(hand_enter(match=match, data=HAND, **kwargs))
        except Exception as exc:  # noqa: BLE001 - the outcome under test
            outcomes.append(exc)
        finally:
            connections.close_all()  # each thread has its own connection

    threads = [threading.Thread(target=enter) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    errors = [o for o in outcomes if isinstance(o, Exception)]
    return [o for o in outcomes if not isinstance(o, Exception)], errors


def test_same_hand_number_at_once_stores_one_and_refuses_the_other():
    match = MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille"))
    stored, errors = enter_concurrently(match, number=1)
    assert len(stored) == 1 and stored[0][1] is True
    assert len(errors) == 1 and isinstance(errors[0], Conflict) and errors[0].code == "hand_exists"
    assert Hand.objects.count() == 1


def test_same_idempotency_key_at_once_stores_one_and_answers_both():
    match = MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille"))
    stored, errors = enter_concurrently(match, idempotency_key="retry-1")
    assert errors == []
    assert sorted(created for _, created in stored) == [False, True]
    assert len({hand.pk for hand, _ in stored}) == 1
    assert Hand.objects.count() == 1
