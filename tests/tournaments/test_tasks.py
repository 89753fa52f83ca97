"""The tasks on a real Celery worker against Redis (REDIS_URL) and PostgreSQL, started by the test.

The worker runs in threads of this process, consuming a queue of its own (so a developer's worker
on the same Redis never takes these tasks); the tests use real transactions so that the worker's
own database connections see the rows.
"""

import ast
import os
import re
import threading
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.core.cache import cache
from django.db import connection, connections

from config.celery import app
from tests.tournaments.test_rounds_service import finish, make_tournament
from tournaments.models import Round, Standing, StandingsSnapshot, TaskRecord
from tournaments.selectors.standings import task_status
from tournaments.services import standings as standings_service
from tournaments.services.rounds import round_pair, round_pair_request
from tournaments.tasks import round_pair_task, standings_recompute_task

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL: a real worker uses Redis as broker"),
]

QUEUE = f"test-{uuid.uuid4().hex[:12]}"
RUNS: list[tuple[str, str]] = []
_runs_lock = threading.Lock()


def _count_and_close(sender=None, task_id=None, **kwargs):
    with _runs_lock:
        RUNS.append((sender.name, task_id))
    connections.close_all()  # the worker thread's own connections: none left open at teardown


@pytest.fixture
def worker(settings):
    if connection.vendor != "postgresql":
        pytest.skip("the worker's threads need a database they can share: set DATABASE_URL to PostgreSQL")
    queue = QUEUE
    previous = app.conf.task_always_eager, app.conf.task_routes
    app.conf.task_always_eager = False
    app.conf.task_routes = {"tournaments.*": {"queue": queue}}
    _reroute()
    RUNS.clear()
    task_postrun.connect(_count_and_close, weak=False)
    cache.clear()
    try:
        with start_worker(app, pool="threads", concurrency=4, perform_ping_check=False, queues=[queue],
                          shutdown_timeout=20):
            yield
    finally:
        task_postrun.disconnect(_count_and_close)
        app.conf.task_always_eager, app.conf.task_routes = previous
        _reroute()
        cache.clear()


def _reroute():
    """Make the producer read task_routes again (Celery caches the router)."""
    app.amqp.__dict__.pop("router", None)
    app.amqp.flush_routes()


def wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_two_pair_requests_at_once_make_one_round(worker):
    tournament, _ = make_tournament(41)
    # Two requests that raced past the request-time checks (they take no lock): both ask for round 1.
    first = round_pair_request(tournament=tournament, refuse_at_once=False)
    second = round_pair_request(tournament=tournament, refuse_at_once=False)
    assert first.params["number"] == second.params["number"] == 1
    assert wait_for(lambda: TaskRecord.objects.filter(
        pk__in=[first.pk, second.pk], status__in=["succeeded", "failed"]).count() == 2)
    statuses = [task_status(first.pk), task_status(second.pk)]
    assert [s["status"] for s in statuses] == ["succeeded", "succeeded"]
    assert statuses[0]["result"]["round_id"] == statuses[1]["result"]["round_id"]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert {name for name, _ in RUNS} == {"tournaments.round_pair_task"}
    # Celery's own record agrees (what a client polling the result backend would see).
    assert round_pair_task.AsyncResult(str(first.pk)).get(timeout=10)["round"] == 1


def test_pairing_refusal_is_reported_as_failed(worker):
    tournament, _ = make_tournament(6)
    round_pair(tournament=tournament)
    record = round_pair_request(tournament=tournament, refuse_at_once=False)  # round 1 unfinished: the worker says so
    assert wait_for(lambda: TaskRecord.objects.get(pk=record.pk).status == "failed")
    status = task_status(record.pk)
    assert status["error"]["code"] == "round_unfinished"


def test_a_burst_of_results_recomputes_once(worker, monkeypatch):
    monkeypatch.setattr(standings_service, "COALESCE_SECONDS", 1)
    tournament, _ = make_tournament(20)
    rnd = round_pair(tournament=tournament)
    for match in rnd.matches.order_by("table"):
        finish(match)  # each commits and calls match_result_changed
    assert wait_for(lambda: StandingsSnapshot.objects.filter(tournament=tournament).exists())
    time.sleep(1.5)  # a second run, if one had been queued, would have started by now
    runs = [task_id for name, task_id in RUNS if name == "tournaments.standings_recompute_task"]
    assert len(runs) == 1
    assert Standing.objects.filter(tournament=tournament).count() == 20
    assert Standing.objects.filter(tournament=tournament, match_points=tournament.points_win).count() == 10


def test_concurrent_recomputes_are_safe(worker):
    tournament, _ = make_tournament(30)
    rnd = round_pair(tournament=tournament)
    for match in rnd.matches.all():
        finish(match)
    results = [standings_recompute_task.apply_async((tournament.pk,)) for _ in range(4)]
    for result in results:
        assert result.get(timeout=30)["tournament"] == tournament.pk
    rows = Standing.objects.filter(tournament=tournament)
    assert rows.count() == 30 and len({r.position for r in rows}) == 30
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == 1


def test_a_long_pairing_keeps_its_lease_alive_and_is_never_taken_as_lost(worker, settings):
    settings.TASK_LEASE_SECONDS = 0.6  # a heartbeat every 0.2 s
    settings.FAULT_TASK_DELAY_SECONDS = 2  # the pairing waits, mid-way, for more than three leases
    from tournaments.services.sweep import task_records_expire

    tournament, _ = make_tournament(6)
    record = round_pair_request(tournament=tournament)
    assert wait_for(lambda: TaskRecord.objects.get(pk=record.pk).status == "running")
    leases = set()
    deadline = time.monotonic() + 30
    while TaskRecord.objects.get(pk=record.pk).status == "running" and time.monotonic() < deadline:
        assert task_records_expire() == 0  # alive: its lease is always ahead
        leases.add(TaskRecord.objects.get(pk=record.pk).lease_expires_at)
        time.sleep(0.1)
    done = TaskRecord.objects.get(pk=record.pk)
    assert done.status == "succeeded" and done.attempts == 1 and done.lease_expires_at is None
    assert len(leases - {None}) >= 4  # pushed forward again and again


SUCCEEDED = re.compile(r"Task tournaments\.standings_recompute_task\[[^\]]+\] succeeded in [\d.]+s: (\{.*\})")


def recomputes(worker) -> list[dict]:
    """What each recompute of a worker process returned, in order (its log's "succeeded" lines)."""
    return [ast.literal_eval(m.group(1)) for m in SUCCEEDED.finditer(worker.output())]


def test_two_shard_workers_keep_each_tournaments_recomputes_in_one_process(settings, monkeypatch, tmp_path):
    """Two single-process shard workers (``celery -A config worker -Q standings.K -c 1``, real processes):
    each tournament's recomputes run in the process of its shard and, after the first, on the inputs it
    kept. A recompute left in a queue no worker serves any more (the number of shards changed) is caught
    by the sweep; one sent to the other shard loads everything and is right, and so is the next one."""
    from tests.robustness.processes import CeleryProcess
    from tests.tournaments.test_standings_incremental import fresh, saved
    from tournaments.services.sweep import standings_sweep

    if connection.vendor != "postgresql":
        pytest.skip("the worker processes need the test database on PostgreSQL")
    queues = ["standings", "standings.0", "standings.1"]

    def purge():
        with app.connection_for_write() as conn:
            for queue in queues:
                conn.default_channel.queue_purge(queue)

    purge()
    cache.clear()
    monkeypatch.setattr(standings_service, "COALESCE_SECONDS", 0.2)
    env = {"STANDINGS_SHARDS": 2, "STANDINGS_COALESCE_SECONDS": 0.2}
    tournaments = [make_tournament(8)[0] for _ in range(4)]
    first = tournaments[0]
    matches = {}
    for tournament in tournaments:
        # The first one while the deployment still had one shard: its recompute waits in "standings" (and
        # its "recompute pending" flag makes its next result wait for that one).
        settings.STANDINGS_SHARDS = 1 if tournament == first else 2
        matches[tournament.pk] = list(round_pair(tournament=tournament).matches.exclude(ew=None).order_by("table"))
    finish(matches[first.pk][0])
    settings.STANDINGS_SHARDS = 2

    def won(tournament, n):
        return lambda: Standing.objects.filter(tournament=tournament, won=1).count() == n

    workers = [CeleryProcess("worker", os.environ["REDIS_URL"], tmp_path, queues=f"standings.{k}", **env)
               for k in range(2)]
    try:
        for worker in workers:
            worker.start()
        assert wait_for(lambda: all(StandingsSnapshot.objects.filter(tournament=t).exists() for t in tournaments[1:]))
        time.sleep(0.5)
        assert not StandingsSnapshot.objects.filter(tournament=first).exists(), "its recompute waits in the old queue"
        # The sweep (beat's, every SWEEP_SECONDS) finds it stale and queues it to the tournament's shard.
        assert standings_sweep(older_than=0) == [first.pk]
        assert wait_for(won(first, 1))
        for k in range(3):  # results one by one, each recompute waited for
            for tournament in tournaments:
                if (tournament, k) != (first, 0):
                    finish(matches[tournament.pk][k])
                assert wait_for(won(tournament, k + 1))
        for tournament in tournaments:
            assert saved(tournament) == fresh(tournament)

        assert not any("to which no standings recompute goes" in w.output() for w in workers)
        ran = [recomputes(worker) for worker in workers]
        for k, reports in enumerate(ran):
            by_tournament = {}
            for report in reports:
                by_tournament.setdefault(report["tournament"], []).append(report["path"])
            assert set(by_tournament) == {t.pk for t in tournaments if t.pk % 2 == k}, (k, by_tournament)
            for tournament, paths in by_tournament.items():
                # The new round's load, then every result on the kept inputs.
                assert paths == ["full"] + ["incremental"] * (len(paths) - 1), (tournament, paths)
                assert len(paths) >= 3
        with app.connection_for_write() as conn:
            assert conn.default_channel.client.llen("standings") == 1, "the old queue's message: never needed"

        # A recompute on the wrong shard (a misrouted message): a full load there, right; back on its own
        # shard, whose kept inputs are stale now, a full load again, right.
        other = tournaments[1]
        wrong = standings_recompute_task.apply_async((other.pk,), queue=f"standings.{(other.pk + 1) % 2}").get(30)
        assert wrong["path"] == "full" and saved(other) == fresh(other)
        finish(matches[other.pk][3])
        assert wait_for(won(other, 4))
        assert recomputes(workers[other.pk % 2])[-1]["path"] == "full"
        assert saved(other) == fresh(other)
    finally:
        for worker in workers:
            worker.kill()
        purge()
        cache.clear()
