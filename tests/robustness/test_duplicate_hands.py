"""Issue #11, point 4: a retried hand is never stored twice, Idempotency-Key or not.

The hand that decides a game, repeated (a lost answer, a double tap, a client's retry), used to
be stored again as hand 1 of the next game. It is refused (409 ``duplicate_hand``) unless the
client names the hand (``number``) it means.
"""

import os
import threading

import pytest
from django.db import connection, connections
from api.models import AuthToken
from rest_framework.test import APIClient

from tests.api.deals import summary
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tournaments.models import Game, Hand
from tournaments.services.games import game_start

ALL_TRICKS = {"tricks": (8, 0)}  # 60 points and every trick: two such hands decide a Belgian game


def deciding(dealer):
    return summary(dealer, 60, **ALL_TRICKS)


@pytest.fixture
def setup(db, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "duplicate-hands"}}
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    user = UserFactory(username="keeper")
    tournament.scorekeepers.add(user)
    match = MatchFactory(round__tournament=tournament, round__number=1, table=1)
    token = AuthToken.objects.create(user)[1]
    return match, token


def client(token) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c


def url(match):
    return f"/api/v1/matches/{match.pk}/hands/"


@pytest.mark.django_db
def test_a_repeated_deciding_hand_is_refused_as_a_duplicate(setup):
    match, token = setup
    c = client(token)
    assert c.post(url(match), deciding("N"), format="json").status_code == 201
    first = c.post(url(match), deciding("E"), format="json")
    assert first.status_code == 201 and first.json()["game_winner"] == "ns"
    retry = c.post(url(match), deciding("E"), format="json")
    assert retry.status_code == 409, retry.json()
    assert retry.json()["type"] == "client_error"
    assert retry.json()["errors"][0]["code"] == "duplicate_hand"
    assert Hand.objects.filter(game__match=match).count() == 2
    assert not Game.objects.filter(match=match, number=2).exists()  # nothing left behind


@pytest.mark.django_db
def test_the_same_hand_named_as_hand_1_opens_the_next_game(setup):
    match, token = setup
    c = client(token)
    c.post(url(match), deciding("N"), format="json")
    c.post(url(match), deciding("E"), format="json")
    named = c.post(url(match), {**deciding("E"), "number": 1}, format="json")
    assert named.status_code == 201, named.json()
    assert (named.json()["game"], named.json()["number"]) == (2, 1)
    # and a retry of that request is refused: hand 1 of game 2 exists
    again = c.post(url(match), {**deciding("E"), "number": 1}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "hand_exists"


@pytest.mark.django_db
def test_a_different_first_hand_of_the_next_game_is_not_a_duplicate(setup):
    match, token = setup
    c = client(token)
    c.post(url(match), deciding("N"), format="json")
    c.post(url(match), deciding("E"), format="json")
    response = c.post(url(match), summary("S", 37), format="json")
    assert response.status_code == 201 and response.json()["game"] == 2


@pytest.mark.django_db
def test_a_retry_into_a_game_started_empty_is_refused_too(setup):
    match, token = setup
    c = client(token)
    c.post(url(match), deciding("N"), format="json")
    c.post(url(match), deciding("E"), format="json")
    game_start(match=match, first_dealer="E")
    retry = c.post(url(match), deciding("E"), format="json")
    assert retry.status_code == 409 and retry.json()["errors"][0]["code"] == "duplicate_hand"


@pytest.mark.django_db
def test_within_a_game_a_repeat_is_refused_by_the_dealer_rule(setup):
    match, token = setup
    c = client(token)
    c.post(url(match), summary("N", 37), format="json")
    retry = c.post(url(match), summary("N", 37), format="json")
    assert retry.status_code == 400 and retry.json()["errors"][0]["code"] == "dealer_out_of_turn"
    assert Hand.objects.filter(game__match=match).count() == 1


# Skipped before any database is set up: a transactional test flushes the tables (the Volunteers group a
# migration made included) even when it skips in its body, which would break the tests after it.
@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
                    reason="real concurrency needs PostgreSQL (row locks between connections): set DATABASE_URL")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_identical_deciding_hands_store_one(setup):
    assert connection.vendor == "postgresql"
    match, token = setup
    assert client(token).post(url(match), deciding("N"), format="json").status_code == 201
    n = 20
    barrier = threading.Barrier(n)
    answers: list = [None] * n

    def post(i):
        try:
            barrier.wait(timeout=30)
            r = client(token).post(url(match), deciding("E"), format="json")
            answers[i] = (r.status_code, r.json()["errors"][0]["code"] if r.status_code >= 400 else None)
        except Exception as exc:  # noqa: BLE001 - reported below
            answers[i] = ("exception", repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    statuses = sorted(a[0] for a in answers if a)
    assert statuses.count(201) == 1, answers
    assert statuses.count(409) == n - 1, answers
    assert {a[1] for a in answers if a[0] == 409} == {"duplicate_hand"}, answers
    assert Hand.objects.filter(game__match=match).count() == 2
    assert list(Hand.objects.filter(game__match=match).values_list("game__number", "number")
                .order_by("game__number", "number")) == [(1, 1), (1, 2)]


@pytest.mark.django_db
def test_naming_the_game_opens_it_or_refuses_another(setup):
    match, token = setup
    c = client(token)
    c.post(url(match), deciding("N"), format="json")
    c.post(url(match), deciding("E"), format="json")
    wrong = c.post(url(match), {**deciding("E"), "game": 1}, format="json")
    assert wrong.status_code == 409 and wrong.json()["errors"][0]["code"] == "game_number"
    named = c.post(url(match), {**deciding("E"), "game": 2, "number": 1}, format="json")
    assert named.status_code == 201 and (named.json()["game"], named.json()["number"]) == (2, 1)
