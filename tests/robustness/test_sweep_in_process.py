"""Issue #11, point 3, without a broker: the web process sweeps the stale standings itself.

A real process loads the WSGI application (config/wsgi.py, as ``./dev start``'s server does)
without REDIS_URL, so tasks run in-process and no Celery beat exists; its sweep thread recomputes
standings whose changes were written behind the services' back (a bulk update: the database
triggers log them, nothing queues a recompute).
"""

import os
import subprocess
import sys
import time

import pytest
from django.db import connection

from tests.robustness.processes import ROOT, wait_for, worker_database_url
from tests.tournaments.test_rounds_service import make_tournament
from tournaments.models import Match, Standing, StandingsChange
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_web_process_recomputes_standings_nobody_queued():
    if connection.vendor != "postgresql":
        pytest.skip("the web process needs the test database on PostgreSQL")
    tournament, _ = make_tournament(6)
    rnd = round_pair(tournament=tournament)  # its recompute runs in-process, on commit
    played = list(rnd.matches.exclude(ew=None))
    Match.objects.filter(pk__in=[m.pk for m in played]).update(
        status=Match.Status.FINISHED, winner=Match.Winner.NS, games_won_ns=2)
    assert StandingsChange.objects.filter(tournament_id=tournament.pk).exists()

    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=worker_database_url(), SWEEP_SECONDS="0.5", STANDINGS_STALE_SECONDS="1",
               DJANGO_SETTINGS_MODULE="config.settings")
    web = subprocess.Popen([sys.executable, "-c", "import time, config.wsgi; time.sleep(120)"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    started = time.monotonic()
    try:
        def right():
            rows = dict(Standing.objects.filter(tournament=tournament).values_list("team_id", "match_points"))
            return all(rows.get(m.ns_id) == tournament.points_win for m in played)

        assert wait_for(right, timeout=30, interval=0.2)
    finally:
        web.kill()
        _, err = web.communicate(timeout=10)
    took = time.monotonic() - started
    assert not StandingsChange.objects.filter(tournament_id=tournament.pk).exists()
    assert b"Traceback" not in err, err.decode(errors="replace")[-2000:]
    print(f"\nin-process sweep: standings right {took:.1f} s after the web process started")
