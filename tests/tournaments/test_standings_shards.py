"""Standings over several worker processes (STANDINGS_SHARDS): each tournament's recomputes on one queue.

The routing is checked through Celery's own router (what ``apply_async`` consults) and through the
messages really published (``before_task_publish``, on the configured broker: Redis, or Celery's
in-memory transport without REDIS_URL). That correctness never depends on the routing (a recompute in
another process loads everything) is checked on the task's own report of its path.
"""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from celery.signals import before_task_publish
from django.core.cache import cache
from django.utils import timezone

from config.celery import app
from tests.tournaments.test_rounds_service import finish, make_tournament
from tests.tournaments.test_standings_incremental import fresh, saved
from tournaments.models import StandingsChange
from tournaments.services import standings as service
from tournaments.services.rounds import round_pair
from tournaments.services.sweep import standings_sweep
from tournaments.tasks import standings_recompute_task

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent.parent
RECOMPUTE = "tournaments.standings_recompute_task"


@pytest.fixture(autouse=True)
def _nothing_kept():
    service.kept_inputs_clear()
    cache.clear()
    yield
    service.kept_inputs_clear()
    cache.clear()


def routed(tournament_id, **kwargs) -> str:
    """The queue Celery's router gives a recompute of the tournament (as ``apply_async`` asks it)."""
    args, kw = ((), {"tournament_id": tournament_id}) if kwargs.get("by_name") else ((tournament_id,), {})
    return app.amqp.router.route({}, RECOMPUTE, args, kw)["queue"].name


def test_one_shard_by_default_one_standings_queue(settings):
    assert settings.STANDINGS_SHARDS == 1
    assert {service.standings_queue(t) for t in range(1, 50)} == {"standings"}
    assert {routed(t) for t in range(1, 50)} == {"standings"}
    assert routed(1, by_name=True) == "standings"
    assert app.amqp.router.route({}, "tournaments.round_pair_task", (1,), {})["queue"].name == "celery"
    assert app.amqp.router.route({}, "tournaments.sweep_task", (), {})["queue"].name == "celery"


def test_n_shards_route_each_tournament_to_the_same_queue(settings):
    settings.STANDINGS_SHARDS = 4
    queues = {t: routed(t) for t in range(1, 41)}
    assert queues == {t: f"standings.{t % 4}" for t in range(1, 41)}
    assert {t: routed(t) for t in range(1, 41)} == queues, "stable"
    assert {t: service.standings_queue(t) for t in range(1, 41)} == queues
    assert routed(7, by_name=True) == "standings.3"
    assert sorted(set(queues.values())) == [f"standings.{k}" for k in range(4)], "every shard used, evenly"
    assert all(list(queues.values()).count(q) == 10 for q in set(queues.values()))


def settings_in_a_process(**env) -> subprocess.CompletedProcess:
    probe = ("import json, config.settings as s; print(json.dumps({'queues': [q.name for q in s.CELERY_TASK_QUEUES], "
             "'shards': s.STANDINGS_SHARDS, 'coalesce': s.STANDINGS_COALESCE_SECONDS, "
             "'keep': s.STANDINGS_KEEP_TOURNAMENTS}))")
    return subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, **env}, capture_output=True,
                          text=True)


def test_the_settings_declare_one_queue_per_shard():
    out = settings_in_a_process(STANDINGS_SHARDS="3", STANDINGS_COALESCE_SECONDS="0.5",
                                STANDINGS_KEEP_TOURNAMENTS="100")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == {
        "queues": ["celery", "standings.0", "standings.1", "standings.2"], "shards": 3, "coalesce": 0.5,
        "keep": 100}
    default = settings_in_a_process(STANDINGS_SHARDS="1")
    assert json.loads(default.stdout.splitlines()[-1])["queues"] == ["celery", "standings"]
    wrong = settings_in_a_process(STANDINGS_SHARDS="0")
    assert wrong.returncode != 0 and "STANDINGS_SHARDS must be 1 or more" in wrong.stderr


@pytest.fixture
def published():
    """The recomputes published to the broker, as (tournament, queue); tasks not run here; the queues emptied after."""
    sent: list[tuple[int, str]] = []

    def record(sender=None, body=None, routing_key=None, **kwargs):
        if sender == RECOMPUTE:
            sent.append((body[0][0], routing_key))

    before_task_publish.connect(record, weak=False)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield sent
    finally:
        app.conf.task_always_eager = eager
        before_task_publish.disconnect(record)
        with app.connection_for_write() as conn:
            for queue in {q for _, q in sent}:
                conn.default_channel.queue_purge(queue)


def test_results_and_the_sweep_queue_each_recompute_to_its_shard(settings, published,
                                                                 django_capture_on_commit_callbacks):
    settings.STANDINGS_SHARDS = 2
    pairs = [make_tournament(4)[0] for _ in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        matches = [round_pair(tournament=t).matches.exclude(ew=None).first() for t in pairs]
    assert sorted(published) == sorted((t.pk, f"standings.{t.pk % 2}") for t in pairs)  # the new rounds
    published.clear()
    cache.clear()  # as if those had run (each clears its tournament's flag)
    with django_capture_on_commit_callbacks(execute=True):
        for match in matches:
            finish(match)
    assert sorted(published) == sorted((t.pk, f"standings.{t.pk % 2}") for t in pairs)

    # Never run (as if lost, or waiting in a queue no worker serves): the sweep queues them again, to
    # their shards, although each one's "recompute pending" flag is still set.
    published.clear()
    waiting = StandingsChange.objects.update(created_at=timezone.now() - timedelta(seconds=11))
    assert sorted(standings_sweep(older_than=10)) == sorted(t.pk for t in pairs)
    assert sorted(published) == sorted((t.pk, f"standings.{t.pk % 2}") for t in pairs)
    # The next pass, before those have run: not queued twice.
    published.clear()
    assert standings_sweep(older_than=10) == []
    assert published == []
    assert StandingsChange.objects.count() == waiting, "queued, not run in the sweep's process"


def test_a_recompute_in_another_process_loads_everything_and_is_right():
    """The task reports its path; a recompute in a process other than the tournament's (a wrong route, a
    changed number of shards) finds a generation it did not write, and so do the shard's own after it."""
    tournament, _ = make_tournament(8)
    matches = list(round_pair(tournament=tournament).matches.exclude(ew=None).order_by("table"))
    first = standings_recompute_task.apply(args=(tournament.pk,)).get()
    assert first["path"] == "full"
    finish(matches[0])
    after_one = standings_recompute_task.apply(args=(tournament.pk,)).get()
    assert (after_one["path"], after_one["changes"]) == ("incremental", [matches[0].pk])

    shards_own = service._take_kept(tournament.pk)  # the shard's process; another one recomputes meanwhile
    finish(matches[1])
    elsewhere = standings_recompute_task.apply(args=(tournament.pk,)).get()
    assert (elsewhere["path"], elsewhere["changes"]) == ("full", [matches[1].pk])
    assert saved(tournament) == fresh(tournament)

    service._KEPT[tournament.pk] = shards_own  # back on its shard, whose inputs miss that result
    finish(matches[2])
    back = standings_recompute_task.apply(args=(tournament.pk,)).get()
    assert (back["path"], back["changes"]) == ("full", [matches[2].pk])
    assert saved(tournament) == fresh(tournament)
    finish(matches[3])
    assert standings_recompute_task.apply(args=(tournament.pk,)).get()["path"] == "incremental"
    assert saved(tournament) == fresh(tournament)


def test_a_worker_on_a_standings_queue_nothing_goes_to_is_told(settings):
    assert service.standings_queues_unused(["celery", "standings"]) == []
    assert service.standings_queues_unused(["standings.0"]) == ["standings.0"]  # a shard worker, one shard here
    settings.STANDINGS_SHARDS = 2
    assert service.standings_queues_unused(["celery", "standings.0", "standings.1"]) == []
    assert service.standings_queues_unused(["standings", "standings.2", "standings.1"]) == ["standings", "standings.2"]
