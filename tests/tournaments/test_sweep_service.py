"""The periodic sweep (tournaments/services/sweep.py) and the pairing's lease, in-process.

The same with real worker, beat and Redis processes killed and restarted: tests/robustness/.
"""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.test_rounds_service import finish, make_tournament
from tournaments.models import Round, Standing, StandingsChange, TaskRecord
from tournaments.services import sweep
from tournaments.services.errors import Conflict
from tournaments.services.rounds import round_pair, round_pair_request
from tournaments.tasks import round_pair_task

pytestmark = pytest.mark.django_db


def record(tournament, status, *, lease=None, age=0, **fields):
    created = TaskRecord.objects.create(id=uuid.uuid4(), kind=TaskRecord.Kind.ROUND_PAIR, tournament=tournament,
                                        status=status, params={"number": 1, "force": False}, **fields)
    past = timezone.now() - timedelta(seconds=age)
    TaskRecord.objects.filter(pk=created.pk).update(
        created_at=past, updated_at=past,
        lease_expires_at=None if lease is None else timezone.now() + timedelta(seconds=lease))
    return created


def reload(rec):
    return TaskRecord.objects.get(pk=rec.pk)


def test_a_running_task_past_its_lease_is_reported_failed_and_one_under_it_is_left(settings):
    settings.TASK_LEASE_SECONDS = 30
    tournament, _ = make_tournament(4)
    lost = record(tournament, "running", lease=-1)
    alive = record(tournament, "running", lease=20)
    legacy = record(tournament, "running", age=60)  # no lease (written before leases): untouched for one
    assert sweep.task_records_expire() == 2
    assert reload(lost).status == reload(legacy).status == "failed"
    assert reload(lost).error["code"] == "worker_lost" and "worker" in reload(lost).error["detail"]
    assert reload(lost).lease_expires_at is None
    assert reload(alive).status == "running"


def test_a_pending_request_no_worker_started_is_given_up_after_a_while():
    tournament, _ = make_tournament(4)
    old = record(tournament, "pending", age=sweep.PENDING_GIVE_UP_SECONDS + 5)
    young = record(tournament, "pending", age=5)
    assert sweep.task_records_expire(tournament=tournament) == 1
    assert reload(old).status == "failed" and reload(old).error["code"] == "not_started"
    assert reload(young).status == "pending"


def test_a_pair_request_is_refused_under_a_live_lease_and_accepted_once_it_has_passed():
    tournament, _ = make_tournament(4)
    running = record(tournament, "running", lease=20)
    with pytest.raises(Conflict) as refused:
        round_pair_request(tournament=tournament)
    assert refused.value.code == "pairing_in_progress"
    TaskRecord.objects.filter(pk=running.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    accepted = round_pair_request(tournament=tournament)  # no sweep needed: the request expires it
    assert reload(running).status == "failed"
    assert accepted.params["number"] == 1


def test_a_request_that_never_started_is_queued_again_and_pairs(settings, django_capture_on_commit_callbacks):
    settings.TASK_LEASE_SECONDS = 30
    tournament, _ = make_tournament(4)
    waiting = record(tournament, "pending", age=31)
    fresh = record(tournament, "pending", age=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.task_records_requeue() == 1  # in-process here: it runs at once
    done = reload(waiting)
    assert done.status == "succeeded" and done.attempts == 1 and done.result["round"] == 1
    assert reload(fresh).status == "pending"
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_a_task_run_again_after_it_finished_returns_its_result_without_pairing_again():
    tournament, _ = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    done = record(tournament, "succeeded", result={"ok": True, "round": 1, "round_id": rnd.pk})
    again = round_pair_task.apply(args=(tournament.pk,), kwargs={"number": 2}, task_id=str(done.pk)).get()
    assert again == {"ok": True, "round": 1, "round_id": rnd.pk}
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert reload(done).attempts == 0


def test_a_claimed_task_holds_a_lease_until_it_ends(settings):
    settings.TASK_LEASE_SECONDS = 30
    tournament, _ = make_tournament(4)
    pending = record(tournament, "pending")
    round_pair_task.apply(args=(tournament.pk,), kwargs={"number": 1}, task_id=str(pending.pk)).get()
    done = reload(pending)
    assert done.status == "succeeded" and done.attempts == 1
    assert done.started_at is not None and done.lease_expires_at is None


def test_stale_standings_are_recomputed_and_fresh_ones_left_to_their_task(django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(4)
    other, _ = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    round_pair(tournament=other)
    for match in rnd.matches.exclude(ew=None):
        finish(match)  # its recompute, queued on commit, is never run here: as if it had been lost
    assert set(sweep.standings_stale(older_than=10)) == set()  # a few seconds: still the task's business
    StandingsChange.objects.filter(tournament_id=tournament.pk).update(
        created_at=timezone.now() - timedelta(seconds=11))
    assert sweep.standings_stale(older_than=10) == [tournament.pk]
    assert sweep.standings_sweep(older_than=10) == [tournament.pk]
    assert not StandingsChange.objects.filter(tournament_id=tournament.pk).exists()
    assert Standing.objects.filter(tournament=tournament, match_points=tournament.points_win).count() == 2
    assert StandingsChange.objects.filter(tournament_id=other.pk).exists()  # not stale: left alone


def test_a_sweep_with_nothing_to_do_costs_six_queries(django_assert_num_queries):
    # two expiries, the requeue look-up, the stale standings, the rounds whose clock is over, the results waiting
    # for an automatic confirmation; and once an hour the result steps to forget
    from django.core.cache import cache

    cache.delete(sweep.RESULT_EVENTS_KEY)
    with django_assert_num_queries(7):
        assert sweep.sweep_run() == {"tasks_failed": 0, "tasks_requeued": 0, "standings": [], "clocks": 0,
                                     "results_confirmed": 0, "result_steps": 0}
    with django_assert_num_queries(6):
        assert sweep.sweep_run()["result_steps"] == 0


def test_the_sweep_finishes_the_timed_matches_of_a_round_whose_clock_is_over():
    from tests.tournaments.test_individual_services import _boam, _team_match
    from tournaments.models import Match, Round
    from tournaments.services.clock import round_clock_start

    match = _team_match(match_length="timed", minutes=30)
    round_clock_start(round=match.round)
    _boam(match, 50)
    Round.objects.filter(pk=match.round_id).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    assert sweep.sweep_run()["clocks"] == 1
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, "ns")
    assert sweep.sweep_run()["clocks"] == 0


def test_the_in_process_sweep_starts_only_without_a_broker(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert sweep.sweep_thread_start() is False  # beat's job
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.SWEEP_SECONDS = 0
    assert sweep.sweep_thread_start() is False  # switched off


def test_the_phone_and_address_of_old_result_steps_are_forgotten_and_the_steps_kept(settings):
    from django.core.cache import cache

    from tests.factories import MatchFactory
    from tournaments.models import ResultEvent

    settings.RESULT_EVENTS_KEEP_DAYS = 400
    match = MatchFactory()
    old = ResultEvent.objects.create(match=match, kind="confirmed", status="confirmed", device="phone-a",
                                     address="10.0.0.7", side="ew")
    blank = ResultEvent.objects.create(match=match, kind="auto", status="confirmed")
    young = ResultEvent.objects.create(match=match, kind="entered", status="entered", device="phone-b",
                                       address="2001:db8::7")
    ResultEvent.objects.filter(pk__in=[old.pk, blank.pk]).update(at=timezone.now() - timedelta(days=401))
    ResultEvent.objects.filter(pk=young.pk).update(at=timezone.now() - timedelta(days=399))
    cache.delete(sweep.RESULT_EVENTS_KEY)
    assert sweep.sweep_run()["result_steps"] == 1  # the old one with a phone; the blank one costs no write
    assert sweep.result_events_expire() == 0  # an hour has not passed
    forgotten = ResultEvent.objects.get(pk=old.pk)
    assert (forgotten.device, forgotten.address, forgotten.kind, forgotten.side) == ("", None, "confirmed", "ew")
    kept = ResultEvent.objects.get(pk=young.pk)
    assert (kept.device, kept.address) == ("phone-b", "2001:db8::7")
    settings.RESULT_EVENTS_KEEP_DAYS = 30
    assert sweep.result_events_expire(force=True) == 1  # a shorter setting reaches the younger one
    settings.RESULT_EVENTS_KEEP_DAYS = 0  # kept for good
    ResultEvent.objects.filter(pk=young.pk).update(device="phone-c")
    assert sweep.result_events_expire(force=True) == 0
    assert ResultEvent.objects.count() == 3
