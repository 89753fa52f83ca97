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


def tie_hand(number: int) -> dict:
    """Hand ``number`` (1-based) of a game dealt first by N: a 30-30 tie, which scores nothing (the game goes on)."""
    return {"dealer": "NESW"[(number - 1) % 4], "trump": "H", "tricks": {"ns": 4, "ew": 4},
            "points": {"ns": 30, "ew": 30}}


def reads_data(db_url: str, *, large: bool = True) -> dict:
    """Migrate ``db_url`` and load what the read benchmarks (bench_http, bench_server) measure, through the services:

    * "Gentse Beker" (``gentse-beker``), a public Belgian tournament of 64 teams, round 1 paired, its first
      match with 59 hands (30-30 ties: the game goes on), 4 hands in each of the next 8, standings computed;
    * with ``large``, "Grote Beker", 1,024 teams, round 1 paired, standings computed;
    * a superuser with 8 API tokens.

    Return the ids (``small``, ``large``, ``board``: the 59-hand match, its ``table``), the large round's
    matches (``post_matches``) and the ``tokens``. Sets up Django on ``db_url`` (the tree on sys.path; an
    older tree without knox gets DRF's tokens, one a user).
    """
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import Club, Entry, Player, Team, Tournament
    from tournaments.services.hands import hand_enter
    from tournaments.services.rounds import round_pair
    from tournaments.services.standings import standings_recompute

    call_command("migrate", verbosity=0)

    def tournament(name, slug, teams):
        club = Club.objects.create(name=f"Club {slug}", city="Gent")
        t = Tournament.objects.create(name=name, slug=slug, variant="belgian-manille", best_of=3, rounds=5,
                                      public=True, club=club)
        players = Player.objects.bulk_create([Player(club=club, name=f"Speler {i + 1}") for i in range(2 * teams)])
        made = Team.objects.bulk_create([Team(name=f"Ploeg {i + 1}", club=club, player_1=players[2 * i],
                                              player_2=players[2 * i + 1]) for i in range(teams)])
        Entry.objects.bulk_create([Entry(tournament=t, team=team, seed=i + 1) for i, team in enumerate(made)])
        rnd = round_pair(tournament=t)
        return t, list(rnd.matches.filter(ew__isnull=False).order_by("table"))

    small, matches = tournament("Gentse Beker", "gentse-beker", 64)
    board = matches[0]
    for n in range(1, 60):
        hand_enter(match=board, data=tie_hand(n))
    for m in matches[1:9]:  # a few results for the standings
        for n in range(1, 5):
            hand_enter(match=m, data={"dealer": "NESW"[(n - 1) % 4], "trump": "H", "tricks": {"ns": 5, "ew": 3},
                                      "points": {"ns": 37, "ew": 23}})
    standings_recompute(tournament=small)
    large_t, large_matches = tournament("Grote Beker", "grote-beker", 1024) if large else (None, [])
    if large_t is not None:
        standings_recompute(tournament=large_t)
    user = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-password-1")
    from django.conf import settings

    if "knox" in settings.INSTALLED_APPS:
        from api.models import AuthToken

        tokens = [AuthToken.objects.create(user)[1] for _ in range(8)]
    else:  # an older tree: DRF's tokens, one a user
        from rest_framework.authtoken.models import Token

        tokens = [Token.objects.create(user=get_user_model().objects.create_superuser(
            f"bench{i}", f"b{i}@example.org", "bench-password-1")).key for i in range(8)]
    return {"small": small.pk, "large": large_t.pk if large_t else None, "board": board.pk, "table": board.table,
            "post_matches": [m.pk for m in large_matches], "tokens": tokens}


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


def group_pids(groups: set[int]) -> list[int]:
    """Every process whose process group is one of ``groups`` (a server started in a session of its own)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) in groups:
                found.append(int(entry))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The CPU seconds (user and system) ``pids`` have used so far."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def answers_healthz(port: int, processes: list[subprocess.Popen], timeout: float = 60) -> bool:
    """Wait until ``127.0.0.1:port`` answers ``/healthz/`` with a 200: True; False once ``timeout`` seconds have
    passed or one of ``processes`` (the server's) has exited."""
    import time
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=5) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            return False
        time.sleep(0.1)


# --- the production set: proxy, web and live, as docker-compose runs them ------------------------------------

def compose_command(service: str, env: dict | None = None) -> list[str]:
    """The command docker-compose.yml gives ``service``, with ``gunicorn`` and ``celery`` run by this Python
    (``-m``) and compose's ``${NAME:-default}`` filled in from ``env`` (default: this environment) as compose would."""
    import re

    import yaml

    with open(os.path.join(ROOT, "docker-compose.yml")) as f:
        command = list(yaml.safe_load(f)["services"][service]["command"])
    if command[0] in ("gunicorn", "celery"):
        command[:1] = [sys.executable, "-m", command[0]]
    values = os.environ if env is None else env
    return [re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: values.get(m.group(1)) or m.group(2), part)
            for part in command]


def compose_environment(service: str) -> dict[str, str]:
    """The environment docker-compose.yml gives ``service`` (the shared anchor's and its own), values as written."""
    import yaml

    with open(os.path.join(ROOT, "docker-compose.yml")) as f:
        environment = yaml.safe_load(f)["services"][service].get("environment") or {}
    return {key: str(value) for key, value in environment.items()}


def compose_default(service: str, name: str) -> str:
    """The value docker-compose.yml gives ``name`` for ``service`` when the environment does not set it
    (``${NAME:-default}``'s default, or the value as written)."""
    import re

    value = compose_environment(service)[name]
    match = re.fullmatch(r"\$\{\w+:-([^}]*)\}", value)
    return match.group(1) if match else value


def nginx_config(directory: str, proxy_port: int, web_port: int, live_port: int) -> str:
    """Write a main nginx.conf in ``directory`` around deploy/nginx's template, filled in as the nginx image
    fills it (``${NAME}`` from the environment; nginx's own ``$names`` left alone); return its path."""
    import re

    values = {"WEB_UPSTREAM": f"127.0.0.1:{web_port}", "LIVE_UPSTREAM": f"127.0.0.1:{live_port}",
              "PROXY_PORT": f"127.0.0.1:{proxy_port}",
              "MAX_BODY_SIZE": os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", "2621440")}
    with open(os.path.join(ROOT, "deploy", "nginx", "default.conf.template")) as f:
        server = re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], f.read())
    with open(os.path.join(directory, "default.conf"), "w") as f:
        f.write(server)
    temp = os.path.join(directory, "temp")
    os.makedirs(temp, exist_ok=True)
    main = os.path.join(directory, "nginx.conf")
    with open(main, "w") as f:
        # As root, nginx's worker would run as nobody, who may not write this (private) folder's temp files.
        user = "user root;\n" if os.geteuid() == 0 else ""
        f.write(f"""daemon off;
{user}worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    # As the nginx image logs every request (on its stdout), so that its cost is measured; web does not (ACCESS_LOG=0).
    access_log /dev/null combined;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {directory}/default.conf;
}}
""")
    return main


class Production:
    """docker-compose's proxy, web and live on this machine: nginx (Debian's, from deploy/nginx's template) on
    ``port``, web (gunicorn's sync workers; threaded with ``web_threads`` above 1) and live (uvicorn workers)
    behind it, each in a process group of its own, with the commands docker-compose.yml gives them; web's
    workers and threads by default as the compose file's. Without nginx (``proxy=False``, or none installed)
    web answers on ``port`` itself and live on ``live_port``.
    """

    def __init__(self, env: dict, port: int, *, web_workers: int | None = None, web_threads: int | None = None,
                 live_workers: int = 1, asgi_http_threads: int = 2, proxy: bool = True, directory: str | None = None,
                 **popen):
        import shutil
        import tempfile

        web_workers = web_workers or int(compose_default("web", "WEB_CONCURRENCY"))
        web_threads = web_threads or int(compose_default("web", "WEB_THREADS"))

        self.port = port
        self.proxy = proxy and shutil.which("nginx") is not None
        self.web_port = free_port() if self.proxy else port
        self.live_port = free_port()
        self.directory = directory or tempfile.mkdtemp(prefix="manille-production-")
        self.env = {**env, "TRUSTED_PROXIES": env.get("TRUSTED_PROXIES", "1" if self.proxy else "0")}
        # web's access log as compose sets it (off: nginx logs every request); without nginx, web logs them.
        access = compose_environment("web").get("ACCESS_LOG", "1") if self.proxy else "1"
        self.web_env = {**self.env, "WEB_CONCURRENCY": str(web_workers), "WEB_THREADS": str(web_threads),
                        "ACCESS_LOG": env.get("ACCESS_LOG", access)}
        self.live_env = {**self.env, "WEB_CONCURRENCY": str(live_workers), "ASGI_HTTP_THREADS": str(asgi_http_threads)}
        self.popen = popen
        self.processes: list[subprocess.Popen] = []

    @property
    def bound(self) -> int:
        """The database connections web and live may hold at most (README "Sizing")."""
        web = int(self.web_env["WEB_CONCURRENCY"]) * int(self.web_env["WEB_THREADS"])
        live = int(self.live_env["WEB_CONCURRENCY"]) * (int(self.live_env["ASGI_HTTP_THREADS"]) + 1)
        return web + live

    def start(self, timeout: float = 60) -> "Production":
        import time

        def run(command, env, port):
            # A server that logs each request (config/gunicorn.py's ACCESS_LOG) writes its lines to /dev/null: the
            # cost is measured, the output of the tests and benchmarks stays readable.
            access = [] if env.get("ACCESS_LOG") == "0" else ["--access-logfile", "/dev/null"]
            self.processes.append(subprocess.Popen([*command, "-b", f"127.0.0.1:{port}", "--log-level", "warning",
                                                    *access],
                                                   cwd=ROOT, env=env, start_new_session=True, **self.popen))

        run(compose_command("web"), self.web_env, self.web_port)
        run(compose_command("live"), self.live_env, self.live_port)
        if self.proxy:
            config = nginx_config(self.directory, self.port, self.web_port, self.live_port)
            self.processes.append(subprocess.Popen(["nginx", "-c", config, "-p", self.directory],
                                                   start_new_session=True, **self.popen))
        deadline = time.monotonic() + timeout
        for port in {self.port, self.web_port, self.live_port}:
            if not answers_healthz(port, self.processes, deadline - time.monotonic()):
                self.stop()
                raise RuntimeError(f"the production set did not start (port {port})")
        return self

    def pids(self) -> list[int]:
        """Every process of web and live (masters and workers) and nginx's."""
        return group_pids({p.pid for p in self.processes})

    def stop(self) -> None:
        for process in self.processes:
            stop_server(process)
        self.processes = []

    def __enter__(self) -> "Production":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
