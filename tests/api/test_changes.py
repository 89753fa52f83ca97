"""What changed since a cursor (issue 29, point 4): ``?updated_after=`` on the matches and hands lists."""

import datetime

import pytest
from django.utils import timezone

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.factories import MatchFactory
from tournaments.models import Hand, Match
from tournaments.selectors.changes import START, Position, cursor_of, position_of
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_settling(settings):
    """The tests' writes are their own transaction's: nothing to wait for."""
    settings.API_CHANGES_SETTLE_SECONDS = 0


def poll(client, path, cursor, **params):
    """Follow ``next`` from ``cursor`` to the end; return the rows seen and the last cursor."""
    rows = []
    answer = client.get(path, {"updated_after": cursor, **params}).json()
    rows += answer["results"]
    while answer["next"]:
        answer = client.get(answer["next"]).json()
        rows += answer["results"]
    return rows, answer["cursor"]


def test_a_poller_sees_each_hand_change_once_deletions_included(match, anon, monkeypatch):
    monkeypatch.setattr("api.views.matches.changes_limit", lambda: 2)
    first = hand_enter(match=match, data=summary("N"))[0]
    second = hand_enter(match=match, data=summary("E"))[0]
    third = hand_enter(match=match, data=summary("S"))[0]
    rows, cursor = poll(anon, "/api/v1/hands/", "0", match=match.pk)
    assert [r["id"] for r in rows] == [first.pk, second.pk, third.pk]
    assert all(r["deleted"] is False and r["match"] == match.pk and r["game"] == 1 for r in rows)
    # Nothing changed: nothing listed, the same place.
    again, cursor = poll(anon, "/api/v1/hands/", cursor)
    assert again == []
    hand_correct(hand=second, data={"points": {"ns": 40, "ew": 20}})
    hand_delete_last(hand=Hand.objects.get(pk=third.pk))
    fourth = hand_enter(match=match, data=summary("S"))[0]
    rows, cursor = poll(anon, "/api/v1/hands/", cursor)
    # The third hand, re-scored by the correction and deleted since, is listed once: as deleted.
    assert [(r["id"], r["deleted"]) for r in rows] == [(second.pk, False), (third.pk, True), (fourth.pk, False)]
    assert rows[0]["points"] == {"ns": 40, "ew": 20}
    assert set(rows[1]) == {"id", "deleted", "deleted_at", "game_id", "match"} and rows[1]["match"] == match.pk
    assert poll(anon, "/api/v1/hands/", cursor)[0] == []


def test_two_writes_in_the_same_microsecond_are_both_seen(match, tournament, anon, monkeypatch):
    monkeypatch.setattr("api.views.matches.changes_limit", lambda: 1)
    other = MatchFactory(round=match.round, table=2)
    moment = timezone.now() - datetime.timedelta(seconds=5)
    Match.objects.filter(pk__in=[match.pk, other.pk]).update(updated_at=moment)
    earlier = MatchFactory(round=match.round, table=3)
    Match.objects.filter(pk=earlier.pk).update(updated_at=moment - datetime.timedelta(seconds=1))
    path = "/api/v1/matches/"
    page = anon.get(path, {"updated_after": "0", "tournament": tournament.pk}).json()
    assert [r["id"] for r in page["results"]] == [earlier.pk] and page["count"] == 3 and page["next"]
    # A page that ends between the two writes of one microsecond loses neither.
    page = anon.get(page["next"]).json()
    assert [r["id"] for r in page["results"]] == [min(match.pk, other.pk)]
    page = anon.get(page["next"]).json()
    assert [r["id"] for r in page["results"]] == [max(match.pk, other.pk)] and page["next"] is None
    assert anon.get(path, {"updated_after": page["cursor"]}).json()["results"] == []
    # A time: the changes after it.
    after = poll(anon, path, (moment - datetime.timedelta(microseconds=1)).isoformat())[0]
    assert sorted(r["id"] for r in after) == sorted([match.pk, other.pk])
    assert poll(anon, path, moment.isoformat())[0] == []


def test_a_match_changed_by_a_hand_is_listed_again(match, anon):
    rows, cursor = poll(anon, "/api/v1/matches/", "0")
    assert [r["id"] for r in rows] == [match.pk] and rows[0]["updated_at"]
    hand_enter(match=match, data=summary("N"))
    rows, cursor = poll(anon, "/api/v1/matches/", cursor)
    assert [(r["id"], r["status"]) for r in rows] == [(match.pk, "playing")]


def test_changes_not_yet_settled_wait_for_the_next_poll(match, anon, settings):
    settings.API_CHANGES_SETTLE_SECONDS = 3600
    rows, cursor = poll(anon, "/api/v1/matches/", "0")
    assert rows == []
    settings.API_CHANGES_SETTLE_SECONDS = 0
    assert [r["id"] for r in poll(anon, "/api/v1/matches/", cursor)[0]] == [match.pk]


def test_private_tournaments_changes_stay_hidden(private_match, anon, staff):
    hand = hand_enter(match=private_match, data=summary("N"))[0]
    hand_delete_last(hand=hand)
    hand_enter(match=private_match, data=summary("N"))
    assert poll(anon, "/api/v1/hands/", "0")[0] == []
    assert poll(anon, "/api/v1/matches/", "0")[0] == []
    seen = poll(client_for(staff), "/api/v1/hands/", "0")[0]
    assert [r["deleted"] for r in seen] == [True, False]


def test_a_hand_deleted_in_another_match_is_not_listed_under_this_one(match, anon):
    other = MatchFactory(round=match.round, table=2)
    hand_delete_last(hand=hand_enter(match=other, data=summary("N"))[0])
    hand_enter(match=match, data=summary("N"))
    assert [r["match"] for r in poll(anon, "/api/v1/hands/", "0", match=match.pk)[0]] == [match.pk]
    assert [r["deleted"] for r in poll(anon, "/api/v1/hands/", "0", match=other.pk)[0]] == [True]


def test_a_bad_cursor_is_a_400_on_the_parameter(anon):
    for value in ("nonsense", "", "2026-11-24T10:00:00", "2026-13-45T10:00:00+01:00", cursor_of(Position(1, 7, 1)),
                  "MS4x", "1.99999999999999999999.0.1"):
        answer = anon.get("/api/v1/matches/", {"updated_after": value})
        assert answer.status_code == 400, value
        assert answer.json()["errors"][0]["attr"] == "updated_after"
        assert anon.get("/api/v1/hands/", {"updated_after": value}).status_code == 400


def test_the_cursor_is_opaque_and_read_back():
    position = Position(1_764_148_096_402_113, 1, 57)
    assert position_of(cursor_of(position)) == position
    assert position_of("0") == START


def test_the_hands_list_without_a_cursor_is_paginated(match, anon):
    for seat in "NES":
        hand_enter(match=match, data=summary(seat))
    page = anon.get("/api/v1/hands/", {"match": match.pk}).json()
    assert page["count"] == 3 and [r["number"] for r in page["results"]] == [1, 2, 3]
    assert "cursor" not in page
    assert anon.get("/api/v1/hands/", {"match": "x"}).status_code == 400


def test_a_page_of_changes_costs_the_same_queries_for_3_hands_as_for_30(match, anon):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    other = MatchFactory(round=match.round, table=2)
    for seat in "NES":
        hand_enter(match=match, data=summary(seat))
    hand_delete_last(hand=Hand.objects.filter(game__match=match).order_by("-number").first())
    for _ in range(30):
        hand_enter(match=other, data=summary("NESW"[Hand.objects.filter(game__match=other).count() % 4]))
    counts = {}
    for m in (match, other):
        with CaptureQueriesContext(connection) as ctx:
            answer = anon.get("/api/v1/hands/", {"updated_after": "0", "match": m.pk})
        assert answer.status_code == 200
        counts[m.pk] = len(ctx.captured_queries)
    # The horizon (on PostgreSQL: the open transactions, and in the tests' transaction only a fresh look at
    # them); the hands changed, counted and read with their games; the deletions, counted and read.
    assert counts[match.pk] == counts[other.pk] == (6 if connection.vendor == "postgresql" else 4), counts


def test_the_horizon_waits_for_a_transaction_still_writing(db, settings):
    """A write not yet committed may carry an earlier time than one already listed: the horizon stays before it."""
    from django.db import connection, connections

    from tournaments.selectors.changes import changes_horizon

    if connection.vendor != "postgresql":
        pytest.skip("the open transactions are PostgreSQL's")
    settings.API_CHANGES_SETTLE_SECONDS = 0
    other = connections.create_connection("default")
    try:
        other.ensure_connection()
        other.set_autocommit(False)
        with other.cursor() as c:
            c.execute("SELECT pg_current_xact_id(), xact_start FROM pg_stat_activity WHERE pid = pg_backend_pid()")
            started = c.fetchone()[1]
        assert changes_horizon() <= started
        other.rollback()
        assert changes_horizon() > started
    finally:
        other.close()


def test_a_hand_deleted_in_a_round_not_yet_published_is_listed_only_to_those_who_see_the_round(
        match, tournament, anon, stranger, organizer, staff):
    """The deletions follow the rounds' publication as the stored hands do (issue 28)."""
    from tournaments.models import Round
    from tournaments.services.publication import round_publish

    Round.objects.filter(pk=match.round_id).update(published_at=None)  # paired while publishing on purpose
    tournament.auto_publish = False
    tournament.save(update_fields=["auto_publish"])
    hand_delete_last(hand=hand_enter(match=match, data=summary("N"))[0])
    for client in (anon, client_for(stranger)):
        assert poll(client, "/api/v1/hands/", "0")[0] == []
        assert poll(client, "/api/v1/hands/", "0", match=match.pk)[0] == []
        assert poll(client, "/api/v1/hands/", "0", tournament=tournament.pk)[0] == []
    for user in (organizer, staff):
        assert [r["deleted"] for r in poll(client_for(user), "/api/v1/hands/", "0", match=match.pk)[0]] == [True]
    round_publish(round=match.round)
    assert [r["deleted"] for r in poll(anon, "/api/v1/hands/", "0", match=match.pk)[0]] == [True]
