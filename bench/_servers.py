"""What the benchmark and probe scripts share: a throw-away database, a loaded tournament, the production server.

Imported by the scripts of this folder (run as ``python bench/<script>.py``, so this folder is on sys.path).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    """Return a free TCP port on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recreate_database(admin_url: str, name: str, drop_only: bool = False) -> None:
    """Drop the PostgreSQL database ``name`` on the server of ``admin_url`` and create it empty (unless ``drop_only``)."""
    import psycopg

    parts = urlsplit(admin_url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def paired_tournament(*, name: str, slug: str, club: str, teams: int):
    """Migrate, then load a public Belgian Swiss tournament of ``teams`` teams with round 1 paired.

    Return the tournament and the ids of its played tables, in table order. Django must be set up.
    """
    from django.core.management import call_command

    from tournaments.models import Club, Entry, Player, Team, Tournament
    from tournaments.services.rounds import round_pair

    call_command("migrate", verbosity=0)
    club_row = Club.objects.create(name=club, city="Gent")
    tournament = Tournament.objects.create(name=name, slug=slug, variant="belgian-manille", best_of=3, rounds=5,
                                           public=True, club=club_row)
    for i in range(teams):
        p1 = Player.objects.create(club=club_row, name=f"Speler {2 * i + 1}")
        p2 = Player.objects.create(club=club_row, name=f"Speler {2 * i + 2}")
        team = Team.objects.create(name=f"Ploeg {i + 1}", club=club_row, player_1=p1, player_2=p2)
        Entry.objects.create(tournament=tournament, team=team, seed=i + 1)
    rnd = round_pair(tournament=tournament)
    return tournament, list(rnd.matches.filter(ew__isnull=False).order_by("table").values_list("pk", flat=True))


def start_server(env: dict, port: int, workers: int, *options: str, **popen) -> subprocess.Popen:
    """Start the production server (gunicorn, uvicorn workers, config.asgi) in a process group of its own."""
    cmd = [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "config.uvicorn_worker.Worker",
           "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--graceful-timeout", "5",
           *options]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, **popen)


def stop_server(server: subprocess.Popen) -> None:
    """Stop gunicorn and its workers (its whole process group): TERM, then KILL after 15 s."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(5)
