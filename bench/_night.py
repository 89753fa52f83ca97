"""What the evening benchmarks share (bench_night, bench_championship): the production set with its Celery
processes on a throw-away database, the load generator (scorekeepers posting hands through the API, viewers
on the public pages, on WebSockets or polling), and the measures (latencies, deliveries to the pages,
PostgreSQL connections, CPU, the servers' logs).

Imported by the scripts of this folder (run as ``python bench/<script>.py``, so this folder is on sys.path).
The generator's processes are started with ``spawn`` and import this module again: nothing here runs on import.
"""

from __future__ import annotations

import asyncio
import html
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from urllib.parse import urlsplit, urlunsplit

from _servers import (
    ROOT,
    Production,
    compose_command,
    cpu_seconds,
    free_port,
    group_pids,
    recreate_database,
    stop_server,
)

POLL_SECONDS = 1.5          # web/static/web/live.js's POLL_MS
RECONNECT_SECONDS = 1.0     # live.js's first backoff
GRACE_SECONDS = 5.0         # after the last hand: the pushes still on their way
RETRIES = 3                 # a hand POST sent again (same Idempotency-Key) after a network error or a 5xx
LANGUAGES = [("nl", 0.7), ("fr", 0.2), ("en", 0.1)]
REGION = re.compile(r'<div class="live" data-live-kind="(\w+)" data-live-pk="(\d+)" data-live-etag="([^"]*)"')
BODY_LANG = re.compile(r'<body [^>]*data-lang="([\w-]*)"')
HAND_ROW = '<td class="deal">'  # web/templates/web/regions/match.html: one a hand
REGION_KINDS = ("match", "round", "standings", "wall")
# Card points of Belgian manille, best first (10, A, K, Q, J of four suits, then 9, 8, 7): the most n cards hold.
_CARDS = sorted([5, 4, 3, 2, 1, 0, 0, 0] * 4, reverse=True)


def now() -> float:
    """A clock shared by every process of the machine."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def pct(values, p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def ms(value: float) -> str:
    return "-" if value != value else f"{value * 1000:.0f} ms"


# -- hands ----------------------------------------------------------------------------------------------------------

def played_hand(rng: random.Random, dealer: str, number: int, decisive: bool = False) -> dict:
    """A Belgian hand the rules allow: NS's tricks, card points a plausible split of them; trumps in turn, so
    that two hands in a row never repeat (the duplicate check of a new game's first hand)."""
    tricks = rng.choice((1, 2, 6, 7) if decisive else (2, 3, 3, 4, 4, 4, 5, 5, 6))
    high = sum(_CARDS[:4 * tricks])
    low = 60 - sum(_CARDS[:4 * (8 - tricks)])
    points = min(high, max(low, round(7.5 * tricks + rng.uniform(-6, 6))))
    return {"dealer": dealer, "trump": "SHDC"[number % 4], "tricks": {"ns": tricks, "ew": 8 - tricks},
            "points": {"ns": points, "ew": 60 - points}}


def tie(dealer: str) -> dict:
    """A 30-30 tie: it scores nothing, so the game never ends."""
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 30, "ew": 30}}


def hands_by_match(matches: list[int]) -> dict[int, int]:
    """The hands stored in each of ``matches`` (Django set up)."""
    from django.db.models import Count

    from tournaments.models import Hand

    counts = dict(Hand.objects.filter(game__match_id__in=matches).values_list("game__match_id")
                  .annotate(n=Count("id")).values_list("game__match_id", "n"))
    return {m: counts.get(m, 0) for m in matches}


def scorekeeper_tokens(tournament, count: int, prefix: str = "tafel") -> list[str]:
    """``count`` scorekeeper accounts named in ``tournament``, an API token each (Django set up). They have no
    password (the phones use the token): hashing one costs half a second, a minute for a championship's tables."""
    from django.contrib.auth import get_user_model

    from api.models import AuthToken

    tokens = []
    for i in range(count):
        user = get_user_model().objects.create_user(f"{prefix}{i + 1}", f"{prefix}{i + 1}@example.org")
        tournament.scorekeepers.add(user)
        tokens.append(AuthToken.objects.create(user)[1])
    return tokens


# -- the load generator ---------------------------------------------------------------------------------------------

class Record:
    """What one generator process saw."""

    def __init__(self):
        self.errors: Counter = Counter()
        self.error_samples: list[str] = []
        self.latency: dict[str, list[tuple[float, float]]] = defaultdict(list)  # kind: (sent, seconds)
        self.pushes: Counter = Counter()
        self.answers: Counter = Counter()  # the polls' statuses
        self.sockets = 0
        self.hands: dict[int, list[float]] = defaultdict(list)   # match: the 201s' times, in order
        self.before: dict[int, int] = {}                           # match: hands before the night
        # A match page's region, as one viewer saw it: (match, "socket" or "poll", [(time, hands it held)]), each
        # push, catch-up GET or poll answered 200 (304s hold nothing new).
        self.arrivals: list[tuple[int, str, list[tuple[float, int]]]] = []
        self.decided = 0
        self.stopped = 0

    def error(self, kind: str, what: str) -> None:
        """Count an error of ``kind``; keep its text as a sample unless one like it (but for numbers) is kept."""
        self.errors[kind] += 1
        self._sample(f"{kind}: {what}"[:300])

    def _sample(self, sample: str) -> None:
        alike = re.sub(r"\d+", "N", sample)
        if len(self.error_samples) < 12 and all(re.sub(r"\d+", "N", kept) != alike for kept in self.error_samples):
            self.error_samples.append(sample)

    def merge(self, other: dict) -> None:
        """Add another process's record (its ``__dict__``, as it came through the pipe)."""
        self.errors.update(other["errors"])
        for sample in other["error_samples"]:
            self._sample(sample)
        for kind, values in other["latency"].items():
            self.latency[kind] += values
        self.pushes.update(other["pushes"])
        self.answers.update(other["answers"])
        self.sockets += other["sockets"]
        self.hands.update(other["hands"])
        self.before.update(other["before"])
        self.arrivals += other["arrivals"]
        self.decided += other["decided"]
        self.stopped += other["stopped"]


async def sleep_until(moment: float) -> None:
    delay = moment - now()
    if delay > 0:
        await asyncio.sleep(delay)


def new_client(base: str, ssl_context, **headers):
    import httpx

    # One SSL context for all (never used: plain HTTP), not one built per client.
    return httpx.AsyncClient(base_url=base, headers=headers, timeout=30, verify=ssl_context,
                             limits=httpx.Limits(max_connections=2))


async def load_page(client, path: str, record: Record) -> tuple[list[tuple[str, int, str]], str] | None:
    """GET the page as a browser would; return its live regions (kind, pk, ETag) and its data-lang."""
    started = now()
    try:
        response = await client.get(path, headers={"Accept": "text/html"})
    except Exception as exc:  # noqa: BLE001 - any network error is the night's error
        record.error("page GET", f"{path}: {exc!r}")
        return None
    record.latency["page"].append((started, now() - started))
    if response.status_code != 200:
        record.error("page GET", f"{path}: {response.status_code}")
        return None
    text = response.text
    regions = [(k, int(pk), html.unescape(etag)) for k, pk, etag in REGION.findall(text)]
    lang = BODY_LANG.search(text)
    if not regions:
        record.error("page GET", f"{path}: no live region")
        return None
    return regions, lang.group(1) if lang else ""


async def fetch_region(client, kind: str, pk: int, etag: str, record: Record, what: str,
                       arrivals: list | None = None) -> str:
    """One conditional GET of a region, as live.js's fetch(); return the ETag the page then holds. A match
    region answered 200 is noted in ``arrivals`` with the hands it holds."""
    started = now()
    try:
        response = await client.get(f"/live/{kind}/{pk}/", headers={
            "X-Requested-With": "live", "If-None-Match": etag, "Cache-Control": "no-cache"})
    except Exception as exc:  # noqa: BLE001
        record.error(what, f"{kind} {pk}: {exc!r}")
        return etag
    answered = now()
    record.latency[f"{what}:{kind}"].append((started, answered - started))
    if what == "poll":
        record.answers[response.status_code] += 1
    if response.status_code == 200:
        if arrivals is not None:
            arrivals.append((answered, response.text.count(HAND_ROW)))
        return response.headers.get("ETag", etag)
    if response.status_code != 304:
        record.error(what, f"{kind} {pk}: {response.status_code}")
    return etag


async def poll_viewer(plan: dict, viewer: dict, ssl_context, record: Record) -> None:
    await sleep_until(viewer["arrive"])
    async with new_client(plan["base"], ssl_context, **{"Accept-Language": viewer["lang"]}) as client:
        page = await load_page(client, viewer["path"], record)
        if page is None:
            return

        async def poll(kind, pk, etag):
            arrivals = None
            if kind == "match":
                arrivals = []
                record.arrivals.append((pk, "poll", arrivals))
            tick = now() + POLL_SECONDS
            while tick < plan["end"]:
                await sleep_until(tick)
                etag = await fetch_region(client, kind, pk, etag, record, "poll", arrivals)
                tick = max(tick + POLL_SECONDS, now())  # setInterval: a late tick is not made up

        await asyncio.gather(*(poll(*region) for region in page[0]))


async def socket_viewer(plan: dict, viewer: dict, ssl_context, record: Record) -> None:
    import websockets

    await sleep_until(viewer["arrive"])
    async with new_client(plan["base"], ssl_context, **{"Accept-Language": viewer["lang"]}) as client:
        page = await load_page(client, viewer["path"], record)
        if page is None:
            return
        regions, lang = page

        async def listen(kind, pk, etag):
            arrivals = None
            if kind == "match":
                arrivals = []
                record.arrivals.append((pk, "socket", arrivals))
            url = f"{plan['ws']}/ws/live/{kind}/{pk}/?lang={lang}"
            while now() < plan["end"]:
                try:
                    async with websockets.connect(url, origin=plan["base"], open_timeout=30, ping_interval=None,
                                                  max_size=2 ** 22, compression=None,
                                                  additional_headers={"Accept-Language": viewer["lang"]}) as ws:
                        record.sockets += 1
                        etag = await fetch_region(client, kind, pk, etag, record, "catch-up GET", arrivals)
                        while True:
                            message = await asyncio.wait_for(ws.recv(), max(0.0, plan["end"] - now()))
                            arrived = now()
                            data = json.loads(message)
                            etag = data.get("etag", etag)
                            record.pushes[kind] += 1
                            if arrivals is not None:
                                arrivals.append((arrived, data["html"].count(HAND_ROW)))
                except (TimeoutError, asyncio.TimeoutError):
                    return  # the night is over
                except Exception as exc:  # noqa: BLE001 - refused, dropped, closed by the server
                    record.error("websocket", f"{kind} {pk}: {exc!r}")
                    await asyncio.sleep(RECONNECT_SECONDS)

        await asyncio.gather(*(listen(*region) for region in regions))


async def scorekeeper(plan: dict, keeper: dict, ssl_context, record: Record) -> None:
    """Enter the match's next hand, wait, again, until the match is decided or the night's hands are over.

    ``plan["pace"]``: "think" (wait ``plan["interval"]`` seconds, at random, after each answer), "every" (a hand
    every ``interval`` seconds, at random, from the last one's sending; a late answer is not made up) or "none"
    (back to back); the first hand within the interval's lower end (at once with "none"), so the tables start
    spread out. ``plan["hands"]``: "played" (realistic) or "ties" (30-30: the game never ends).
    """
    import httpx

    rng = random.Random(keeper["seed"])
    match = keeper["match"]
    pace, interval = plan["pace"], plan["interval"]
    await sleep_until(plan["hands_from"] + (rng.uniform(0, interval[0]) if pace != "none" else 0))
    async with new_client(plan["base"], ssl_context, Authorization=f"Token {keeper['token']}") as client:
        board = None
        while board is None:  # the tablet opens the match; it tries again until the server answers
            try:
                board = (await client.get(f"/api/v1/matches/{match}/")).raise_for_status().json()
            except Exception as exc:  # noqa: BLE001
                record.error("scoreboard GET", f"{match}: {exc!r}")
                if now() > plan["hands_until"]:
                    record.stopped += 1
                    return
                await asyncio.sleep(RECONNECT_SECONDS)
        number = sum(len(game["hands"]) for game in board["games"])
        record.before[match] = number
        dealer = board["next_dealer"] or "N"
        if board["status"] == "finished":
            record.decided += 1
            return
        while now() < plan["hands_until"]:
            body = played_hand(rng, dealer, number) if plan["hands"] == "played" else tie(dealer)
            key = str(uuid.uuid4())
            answer = None
            tick = now()
            for _attempt in range(RETRIES + 1):
                started = now()
                try:
                    response = await client.post(f"/api/v1/matches/{match}/hands/", json=body,
                                                 headers={"Idempotency-Key": key})
                except httpx.HTTPError as exc:
                    record.error("hand POST", f"{match}: {exc!r}")
                    continue
                record.latency["hand"].append((started, now() - started))
                if response.status_code == 201:
                    answer = response.json()
                    break
                record.error("hand POST", f"{match}: {response.status_code} {response.text[:200]}")
                if response.status_code < 500:
                    break
            if answer is None:
                record.stopped += 1
                return
            record.hands[match].append(now())
            number += 1
            if answer["match"]["status"] == "finished":
                record.decided += 1
                return
            dealer = answer["match"]["next_dealer"] or "N"
            if pace == "think":
                await asyncio.sleep(rng.uniform(*interval))
            elif pace == "every":
                await sleep_until(tick + rng.uniform(*interval))


def generator(plan: dict, part: dict, conn) -> None:
    """A load-generator process: the scorekeepers when ``part["keepers"]``, and the viewers of ``part["viewers"]``
    (indices into ``plan["viewers"]``); sends its Record and its CPU seconds back on ``conn``."""
    import ssl

    async def run():
        ssl_context = ssl.create_default_context()
        record = Record()
        tasks = []
        if part["keepers"]:
            tasks += [scorekeeper(plan, keeper, ssl_context, record) for keeper in plan["keepers"]]
        for i in part["viewers"]:
            viewer = plan["viewers"][i]
            tasks.append((socket_viewer if viewer["socket"] else poll_viewer)(plan, viewer, ssl_context, record))
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(outcome, BaseException):  # a bug of the generator, not the server's: shown all the same
                record.error("load generator", repr(outcome))
        return record

    record = asyncio.run(run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    conn.send((record.__dict__, usage.ru_utime + usage.ru_stime))


def viewers_plan(rng: random.Random, count: int, data: dict, start: float, ramp: float, polling: float) -> list[dict]:
    """``count`` viewers arriving over ``ramp`` seconds: 60% on match pages (spread over ``data["matches"]``), 25% on
    the round's page, 8% on the standings, 7% on the wall; a share ``polling`` of each kind polls, the rest listen."""
    slug, matches = data["slug"], data["matches"]
    kinds = ["match"] * 60 + ["round"] * 25 + ["standings"] * 8 + ["wall"] * 7  # of 100
    viewers = []
    for i in range(count):
        kind = kinds[i * 100 // count]
        path = {"match": f"/t/{slug}/matches/{matches[i % len(matches)]}/", "round": f"/t/{slug}/rounds/{data['round']}/",
                "standings": f"/t/{slug}/standings/", "wall": f"/t/{slug}/wall/"}[kind]
        lang = rng.choices([code for code, _ in LANGUAGES], [w for _, w in LANGUAGES])[0]
        polls = int((i + 1) * polling) > int(i * polling)  # spread evenly over the kinds: every other at 0.5
        viewers.append({"kind": kind, "path": path, "lang": lang, "socket": not polls,
                        "arrive": start + rng.uniform(0, ramp)})
    return viewers


# -- measuring the servers ------------------------------------------------------------------------------------------

def machine_busy() -> tuple[float, float]:
    """The machine's busy and total CPU seconds so far (/proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - fields[3] - fields[4]) / tick, sum(fields) / tick


class ConnectionSampler(threading.Thread):
    """The bench database's connections (by application_name, PGAPPNAME) every 100 ms, from the postgres database."""

    def __init__(self, admin_url: str, database: str):
        super().__init__(daemon=True)
        self.admin_url, self.database = admin_url, database
        self.most, self.most_by, self.samples = 0, Counter(), 0
        self.done = threading.Event()

    def run(self):
        import psycopg

        with psycopg.connect(urlunsplit(urlsplit(self.admin_url)._replace(path="/postgres")), autocommit=True) as db:
            while not self.done.is_set():
                rows = db.execute("SELECT application_name, count(*) FROM pg_stat_activity WHERE datname = %s "
                                  "GROUP BY 1", [self.database]).fetchall()
                total = sum(n for _, n in rows)
                self.samples += 1
                if total > self.most:
                    self.most = total
                for name, n in rows:
                    self.most_by[name or "?"] = max(self.most_by[name or "?"], n)
                self.done.wait(0.1)

    def stop(self):
        self.done.set()
        self.join(10)


class Logs:
    """The servers' own logs in the bench's directory: what each night added to them, summed up."""

    TRACEBACK_END = re.compile(r"^(\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt)\b.*)$")

    def __init__(self, directory: str):
        self.directory = directory
        self.offsets: dict[str, int] = {}

    def files(self) -> list[str]:
        return sorted(os.path.join(self.directory, f) for f in os.listdir(self.directory) if f.endswith(".log"))

    def mark(self) -> None:
        self.offsets = {path: os.path.getsize(path) for path in self.files()}

    def since_mark(self) -> Counter:
        """Exceptions (a traceback's last line), gunicorn's ERROR/CRITICAL lines and nginx's [error]/[crit]
        lines written since ``mark``, by message without its time and numbers."""
        found: Counter = Counter()
        for path in self.files():
            with open(path, errors="replace") as f:
                f.seek(self.offsets.get(path, 0))
                lines = f.read().splitlines()
            name = os.path.basename(path)[:-4]
            for line in lines:
                if name == "error":  # nginx's error.log
                    hit = re.search(r"\[(error|crit|alert|emerg)\] [\d#]+: \*?\d* ?(.*?)(, client:|$)", line)
                    what = f"nginx: {hit.group(2)}" if hit else None
                elif self.TRACEBACK_END.match(line):
                    what = f"{name}: {line}"
                else:
                    hit = re.search(r"\[(CRITICAL|ERROR)\] (.*)", line) or re.search(r" (CRITICAL|ERROR) (.*)", line)
                    what = f"{name}: {hit.group(2)}" if hit and "Exception in ASGI application" not in line else None
                if what:
                    found[re.sub(r"\d+", "N", what)[:160]] += 1
        return found


# -- the bench's database, Redis and servers ------------------------------------------------------------------------

class Bench:
    """A throw-away PostgreSQL database (``<DATABASE_URL's name>_<suffix>``) and an emptied Redis database,
    Django set up on them; then (``start``) the production set on them: nginx, web, live, a Celery worker, the
    standings worker and beat, each with the command docker-compose.yml gives it. ``close`` stops them all,
    empties the Redis database and drops the database and the logs (unless ``keep``).
    """

    def __init__(self, *, program: str, suffix: str, redis_db: int, viewers: int, keep: bool):
        if shutil.which("nginx") is None:
            sys.exit(f"{program} needs nginx (apt-get install nginx-light): the production set's proxy")
        self.db_admin = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/manille")
        if not self.db_admin.startswith(("postgres://", "postgresql://")):
            sys.exit(f"{program} needs DATABASE_URL on PostgreSQL")
        self.name = (urlsplit(self.db_admin).path.lstrip("/") or "manille") + f"_{suffix}"
        self.db_url = urlunsplit(urlsplit(self.db_admin)._replace(path=f"/{self.name}"))
        self.redis_db = redis_db
        self.redis_url = urlunsplit(urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))._replace(
            path=f"/{redis_db}"))
        self.keep = keep
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 4 * viewers + 4096
        if soft < wanted:  # inherited by the servers and the generators
            resource.setrlimit(resource.RLIMIT_NOFILE,
                               (wanted if hard == resource.RLIM_INFINITY else min(hard, wanted), hard))
        self.env = {**os.environ, "DATABASE_URL": self.db_url, "REDIS_URL": self.redis_url, "DEBUG": "0",
                    "SECRET_KEY": f"bench-{suffix}", "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost",
                    "LOG_LEVEL": "WARNING", "THROTTLE_WRITES": "1000000/min",
                    "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONWARNINGS": "ignore:No directory at"}
        for variable in ("WEB_CONCURRENCY", "WEB_THREADS", "ASGI_HTTP_THREADS", "WORKER_CONCURRENCY", "PGAPPNAME"):
            self.env.pop(variable, None)
        self.directory = tempfile.mkdtemp(prefix=f"manille-{suffix.replace('_', '-')}-")
        self.production: Production | None = None
        self.celery: list[subprocess.Popen] = []
        self.bounds: dict[str, int] = {}
        self.base = ""

    def prepare(self) -> None:
        """Empty the Redis database, make the database anew and set Django up on them."""
        os.environ.update(self.env)
        for variable in ("WEB_CONCURRENCY", "WEB_THREADS", "ASGI_HTTP_THREADS", "WORKER_CONCURRENCY", "PGAPPNAME"):
            os.environ.pop(variable, None)
        sys.path.insert(0, ROOT)
        import django
        import redis

        redis.Redis.from_url(self.redis_url).flushdb()
        recreate_database(self.db_admin, self.name)
        django.setup()

    def start(self, *, web_workers: int | None = None, web_threads: int | None = None) -> None:
        """Start the production set and the Celery processes; wait until they answer."""
        servers_log = open(os.path.join(self.directory, "servers.log"), "w")  # noqa: SIM115 - web, live
        self.production = Production(self.env, free_port(), web_workers=web_workers, web_threads=web_threads,
                                     directory=self.directory, stdout=servers_log, stderr=subprocess.STDOUT)
        self.production.web_env["PGAPPNAME"] = "web"  # the sampler tells the processes' connections apart
        self.production.live_env["PGAPPNAME"] = "live"
        worker = compose_command("worker", self.env)
        concurrency = int(next(part.split("=", 1)[1] for part in worker if part.startswith("--concurrency=")))
        schedule = os.path.join(self.directory, "celerybeat-schedule")
        for service, command in (("worker", [*worker, "-n", "bench-worker@%h"]),
                                 ("standings", [*compose_command("standings", self.env), "-n", "bench-standings@%h"]),
                                 ("beat", [f"--schedule={schedule}" if part.startswith("--schedule=") else part
                                           for part in compose_command("beat", self.env)])):
            log = open(os.path.join(self.directory, f"{service}.log"), "w")  # noqa: SIM115 - closed with the process
            self.celery.append(subprocess.Popen(command, cwd=ROOT, env={**self.env, "PGAPPNAME": service}, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True))
        self.production.start()
        from config.celery import app

        deadline = now() + 90
        while len(app.control.ping(timeout=1.0) or []) < 2:
            if now() > deadline or any(p.poll() is not None for p in self.celery):
                raise RuntimeError(f"the Celery workers did not start (logs in {self.directory})")
        self.bounds = {"web+live": self.production.bound, "worker": concurrency, "standings": 1, "beat": 1}
        self.base = f"http://127.0.0.1:{self.production.port}"

    @property
    def bound(self) -> int:
        """The documented bound on the database connections (README "Sizing"), summed."""
        return sum(self.bounds.values())

    def server_pids(self) -> list[int]:
        pids = self.production.pids() if self.production is not None else []
        return pids + group_pids({p.pid for p in self.celery})

    def close(self) -> None:
        import redis
        from django.db import connections

        if self.production is not None:
            self.production.stop()
        for process in self.celery:
            stop_server(process)
        connections.close_all()
        redis.Redis.from_url(self.redis_url).flushdb()
        if not self.keep:
            recreate_database(self.db_admin, self.name, drop_only=True)
            shutil.rmtree(self.directory, ignore_errors=True)
        else:
            print(f"kept: the database {self.name} and the servers' logs in {self.directory}")


# -- one night ------------------------------------------------------------------------------------------------------

def make_plan(*, rng: random.Random, base: str, data: dict, viewers: int, ramp: float, polling: float,
              minutes: float, pace: str, interval: tuple[float, float], hands: str) -> dict:
    """What the generators do, on one clock: the viewers arrive over ``ramp`` seconds (from 5 s on: the
    generators' imports), then a scorekeeper at each of ``data["matches"]`` (``data["tokens"]``) enters hands for
    ``minutes`` (``pace``, ``interval`` and ``hands`` as ``scorekeeper`` reads them), then ``GRACE_SECONDS``."""
    start = now() + 5
    hands_from = start + ramp
    hands_until = hands_from + minutes * 60
    return {"base": base, "ws": base.replace("http://", "ws://"), "pace": pace, "interval": interval, "hands": hands,
            "start": start, "hands_from": hands_from, "hands_until": hands_until, "end": hands_until + GRACE_SECONDS,
            "viewers": viewers_plan(rng, viewers, data, start, ramp, polling),
            "keepers": [{"match": m, "token": t, "seed": rng.randrange(2 ** 32)}
                        for m, t in zip(data["matches"], data["tokens"], strict=True)]}


def spawn_generators(target, plan: dict, parts: list[dict]) -> tuple[list, list]:
    """Start one load-generator process a ``parts`` entry, each ``target(plan, part, pipe)``; return the pipes
    they answer on and the processes."""
    ctx = multiprocessing.get_context("spawn")
    pipes, procs = [], []
    for part in parts:
        ours, theirs = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=target, args=(plan, part, theirs), daemon=True)
        proc.start()
        pipes.append(ours)
        procs.append(proc)
    return pipes, procs


def night(plan: dict, parts: list[dict], bench: Bench, logs: Logs) -> dict:
    """Run one night of ``plan`` (``start``, ``end`` and what the generators read) in one generator process per
    ``parts`` entry; return the merged record and the servers' figures."""
    start = plan["start"]
    pipes, procs = spawn_generators(generator, plan, parts)
    logs.mark()
    sampler = ConnectionSampler(bench.db_admin, bench.name)
    sampler.start()
    try:
        time.sleep(max(0.0, start - now()))
        busy0, total0 = machine_busy()
        pids = bench.server_pids()
        servers0 = cpu_seconds(pids)
        results = []
        for pipe, proc in zip(pipes, procs, strict=True):
            deadline = plan["end"] + 120
            while not pipe.poll(1.0):
                if not proc.is_alive() or now() > deadline:
                    raise RuntimeError("a load-generator process did not report (its error is above)")
            results.append(pipe.recv())
        busy1, total1 = machine_busy()
        servers1 = cpu_seconds(pids)
        elapsed = now() - start
    finally:
        sampler.stop()
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.terminate()
    merged = Record()
    generator_cpu = 0.0
    for record, cpu in results:
        generator_cpu += cpu
        merged.merge(record)
    time.sleep(1)  # the servers' last log lines
    return {"record": merged, "plan": plan, "elapsed": elapsed, "logged": logs.since_mark(), "generator_cpu": generator_cpu,
            "servers_cpu": servers1 - servers0, "machine": (busy1 - busy0) / max(total1 - total0, 1e-9),
            "connections": (sampler.most, dict(sampler.most_by), sampler.samples)}


# -- what a night's figures say -------------------------------------------------------------------------------------

def during(result: dict, *kinds: str) -> list[float]:
    """The latencies of ``kinds`` of requests sent while the scorekeepers were entering hands."""
    r, plan = result["record"], result["plan"]
    return [seconds for kind in kinds for sent, seconds in r.latency.get(kind, [])
            if plan["hands_from"] <= sent <= plan["hands_until"]]


def stored_once(result: dict, stored: dict[int, int]) -> tuple[int, int, bool]:
    """The hands answered 201, the rows written meanwhile, and whether they agree match by match."""
    r = result["record"]
    answered = {m: len(times) for m, times in r.hands.items()}
    written = {m: stored[m] - r.before.get(m, stored[m]) for m in stored}
    return sum(answered.values()), sum(written.values()), all(written[m] == answered.get(m, 0) for m in stored)


def delivery_lags(result: dict, sources: tuple[str, ...] = ("socket", "poll")) -> tuple[list[float], int]:
    """For every match page's region watched by a viewer of ``sources`` and every hand of its match answered 201:
    the seconds from the 201 to the first push or answer (200) that holds the hand (negative: the push came before
    the 201 reached its scorekeeper), and how many hands never arrived."""
    r = result["record"]
    lags, missed = [], 0
    for match, source, arrivals in r.arrivals:
        if source not in sources:
            continue
        before, times = r.before.get(match, 0), r.hands.get(match, [])
        k = 0
        for j, answered_at in enumerate(times):
            while k < len(arrivals) and arrivals[k][1] < before + j + 1:
                k += 1
            if k < len(arrivals):
                lags.append(arrivals[k][0] - answered_at)
            else:
                missed += 1
    return lags, missed


def missed_at_the_end(result: dict, sources: tuple[str, ...] = ("socket", "poll"), seconds: float = 10.0) -> int:
    """How many of ``delivery_lags``' hands that never arrived were answered in the run's last ``seconds`` (their
    push or poll may have been on its way when the viewers stopped listening)."""
    r, end = result["record"], result["plan"]["end"]
    late = 0
    for match, source, arrivals in r.arrivals:
        if source not in sources:
            continue
        before, times = r.before.get(match, 0), r.hands.get(match, [])
        held = max((count for _, count in arrivals), default=0)
        late += sum(1 for j, answered_at in enumerate(times) if before + j + 1 > held and answered_at > end - seconds)
    return late


def errors_text(result: dict) -> str:
    errors = result["record"].errors
    total = sum(errors.values())
    return f"{total}" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(errors.items()))})" if total else "")


def connections_text(result: dict) -> str:
    most, most_by, samples = result["connections"]
    return f"{most} ({', '.join(f'{k} {v}' for k, v in sorted(most_by.items()))}; {samples} samples)"


def cpu_text(result: dict) -> tuple[str, str]:
    """The load generator's CPU share, and the servers' and the machine's."""
    ncpu = os.cpu_count()
    generator = (f"{result['generator_cpu']:.1f} s in {result['elapsed']:.0f} s: "
                 f"{result['generator_cpu'] / result['elapsed'] / ncpu:.0%} of the {ncpu} CPUs")
    servers = f"{result['servers_cpu'] / result['elapsed'] / ncpu:.0%}; the machine busy {result['machine']:.0%}"
    return generator, servers


def print_logged(result: dict, width: int) -> None:
    """The servers' errors and exceptions, and the generator's own error samples."""
    logged = result["logged"]
    print(f"  {'server logs: errors and exceptions':{width}} {sum(logged.values())}")
    for what, n in logged.most_common(8):
        print(f"    {n:5}x {what}")
    for sample in result["record"].error_samples:
        print(f"  error: {' '.join(sample.split())[:200]}")
