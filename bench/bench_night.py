"""Benchmark (#24): a tournament night on the production set, scorekeepers and 500 viewers at once.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and nginx (Debian's). Creates a throw-away
database on that server (``<name>_bench_night``, dropped at the end unless --keep), empties a Redis
database of its own (--redis-db, 7 by default; emptied again at the end), loads through the services
a public Belgian tournament of 60 teams from 6 clubs (--tables 30 tables), round 1 played in full
(realistic hands, every match decided), standings computed, round 2 paired; one scorekeeper account a
table, named in the tournament, with an API token. Then it starts what docker-compose runs, each
with the command docker-compose.yml gives it (``_servers.Production`` and ``compose_command``):
nginx, web (--web-workers × --web-threads, 2 × 4 as docker-compose), live (1 worker), a Celery worker (``-Q celery``, concurrency 2),
the standings worker (``-Q standings -c 1``) and beat. The write throttle is raised (a scorekeeper
never posts 600 hands a minute; --no-think does); everything else is the settings' default.

The night, from two load-generator processes (asyncio: httpx and websockets), on one clock:

* --viewers (500) arrive over --ramp seconds (20): 60% on match pages (spread over the tables),
  25% on the round's page, 15% on the standings and wall pages; 70% Dutch, 20% French, 10% English.
  Each loads its page once (GET, as a browser), then keeps its live regions (read from the page, as
  web/static/web/live.js does) up to date: half (1 - --polling) on the region's WebSocket through nginx
  (``/ws/live/<kind>/<pk>/?lang=<the page's data-lang>``, the page's Origin; one catch-up GET of the
  region when the socket opens, as the page does), half (--polling) polling ``/live/<kind>/<pk>/`` every 1.5 s
  with ``If-None-Match``;
* then, for --minutes (3), a scorekeeper at each table enters a hand (POST /api/v1/matches/<id>/hands/
  with its token and an Idempotency-Key, retried with the same key after a network error or a 5xx,
  as the phones' queue does), waits 5-15 s (random, --seed), and so on until its match is decided.
  The hands are realistic (seeded): tricks and card points that the rules allow, trumps in turn.

It reports the errors (a non-2xx/304 answer, a network error, a socket refused or dropped; by
kind), whether every hand answered 201 is stored exactly once (rows in the database against 201s,
match by match), the hand POSTs' and polls' p50/p95/p99 while the scorekeepers work, the WebSocket
pushes received and, for the match pages' sockets, the lag from a hand's 201 to the first push that
holds it (negative: the push came before the 201), the PostgreSQL connections on the bench database
sampled every 100 ms (their most, by process, against the sum of the documented bounds:
``Production.bound`` + the worker's concurrency + 1 standings + 1 beat), and the CPU shares of the
load generator, the servers and the whole machine, and what the servers logged meanwhile (exceptions,
ERROR lines, nginx's errors; the logs are kept with --keep). The goals (a 2-core machine): no error, every
hand stored once, hand POST p95 < 300 ms, poll p95 < 200 ms, connections within the bound; exit
status 1 when one is missed.

--no-think adds a second night on the same servers and viewers' pages: the scorekeepers post back
to back, 30-30 ties (the game goes on, so no table runs out of hands), reported without goals.
About 4 minutes with the defaults, 8 with --no-think (./dev bench skips it: run it by hand).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_night.py [--minutes 3] [--no-think]
"""
# ./dev bench: skip (about 4 minutes, 8 with --no-think; run it by hand)

from __future__ import annotations

import argparse
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

from _servers import ROOT, Production, compose_command, cpu_seconds, free_port, group_pids, recreate_database, stop_server

THINK_SECONDS = (5.0, 15.0)
POLL_SECONDS = 1.5          # web/static/web/live.js's POLL_MS
RECONNECT_SECONDS = 1.0     # live.js's first backoff
GRACE_SECONDS = 5.0         # after the last hand: the pushes still on their way
RETRIES = 3                 # a hand POST sent again (same Idempotency-Key) after a network error or a 5xx
GOAL_HAND_P95 = 0.300
GOAL_POLL_P95 = 0.200
CLUBS = ["Aalst", "Dendermonde", "Lokeren", "Ninove", "Wetteren", "Zottegem"]
LANGUAGES = [("nl", 0.7), ("fr", 0.2), ("en", 0.1)]
REGION = re.compile(r'<div class="live" data-live-kind="(\w+)" data-live-pk="(\d+)" data-live-etag="([^"]*)"')
BODY_LANG = re.compile(r'<body [^>]*data-lang="([\w-]*)"')
HAND_ROW = '<td class="deal">'  # web/templates/web/regions/match.html: one a hand
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
    """A 30-30 tie: it scores nothing, so the game never ends (--no-think)."""
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 30, "ew": 30}}


# -- the tournament -------------------------------------------------------------------------------------------------

def load(tables: int, seed: int) -> dict:
    """Migrate and load the night's tournament through the services (Django set up); return what the night needs."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from api.models import AuthToken
    from tournaments.models import Club, Entry, Player, Team, Tournament
    from tournaments.services.hands import hand_enter
    from tournaments.services.rounds import round_pair
    from tournaments.services.standings import standings_recompute

    rng = random.Random(seed)
    call_command("migrate", verbosity=0)
    clubs = [Club.objects.create(name=f"KMC {town}", city=town) for town in CLUBS]
    tournament = Tournament.objects.create(name="Manillenacht Oost-Vlaanderen", slug="manillenacht",
                                           variant="belgian-manille", best_of=3, rounds=5, public=True,
                                           club=clubs[0], status=Tournament.Status.RUNNING)
    for i in range(2 * tables):
        club = clubs[i % len(clubs)]
        p1 = Player.objects.create(club=club, name=f"Speler {2 * i + 1}")
        p2 = Player.objects.create(club=club, name=f"Speler {2 * i + 2}")
        team = Team.objects.create(name=f"{club.city} {i // len(clubs) + 1}", club=club, player_1=p1, player_2=p2)
        Entry.objects.create(tournament=tournament, team=team, seed=i + 1)
    first = round_pair(tournament=tournament)
    for match in first.matches.filter(ew__isnull=False):
        dealer, number = "N", 0
        for _ in range(300):  # bounded: a decisive hand scores at least 8
            hand, _stored = hand_enter(match=match, data=played_hand(rng, dealer, number, decisive=True))
            number += 1
            if hand.game.match.status == "finished":
                break
            dealer = (hand.game.next_dealer if hand.game.status == "playing" else "") or "N"
        else:
            raise RuntimeError(f"round 1, match {match.pk} never ended")
    standings_recompute(tournament=tournament)
    second = round_pair(tournament=tournament)
    matches = list(second.matches.filter(ew__isnull=False).order_by("table").values_list("pk", flat=True))
    tokens = []
    for i in range(len(matches)):
        user = get_user_model().objects.create_user(f"tafel{i + 1}", f"tafel{i + 1}@example.org", "bench-password-1")
        tournament.scorekeepers.add(user)
        tokens.append(AuthToken.objects.create(user)[1])
    return {"tournament": tournament.pk, "slug": tournament.slug, "round": second.number, "matches": matches,
            "tokens": tokens}


def hands_by_match(matches: list[int]) -> dict[int, int]:
    from django.db.models import Count

    from tournaments.models import Hand

    counts = dict(Hand.objects.filter(game__match_id__in=matches).values_list("game__match_id")
                  .annotate(n=Count("id")).values_list("game__match_id", "n"))
    return {m: counts.get(m, 0) for m in matches}


# -- the load generator (two processes) -----------------------------------------------------------------------------

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
        self.arrivals: list[tuple[int, list[tuple[float, int]]]] = []  # a match socket's (time, hands) pushes
        self.decided = 0
        self.stopped = 0

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 12:
            self.error_samples.append(f"{kind}: {what}"[:300])


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


async def fetch_region(client, kind: str, pk: int, etag: str, record: Record, what: str) -> str:
    """One conditional GET of a region, as live.js's fetch(); return the ETag the page then holds."""
    started = now()
    try:
        response = await client.get(f"/live/{kind}/{pk}/", headers={
            "X-Requested-With": "live", "If-None-Match": etag, "Cache-Control": "no-cache"})
    except Exception as exc:  # noqa: BLE001
        record.error(what, f"{kind} {pk}: {exc!r}")
        return etag
    record.latency[f"{what}:{kind}"].append((started, now() - started))
    if what == "poll":
        record.answers[response.status_code] += 1
    if response.status_code == 200:
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
            tick = now() + POLL_SECONDS
            while tick < plan["end"]:
                await sleep_until(tick)
                etag = await fetch_region(client, kind, pk, etag, record, "poll")
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
            arrivals: list[tuple[float, int]] = []
            if kind == "match":
                record.arrivals.append((pk, arrivals))
            url = f"{plan['ws']}/ws/live/{kind}/{pk}/?lang={lang}"
            while now() < plan["end"]:
                try:
                    async with websockets.connect(url, origin=plan["base"], open_timeout=30, ping_interval=None,
                                                  max_size=2 ** 22, compression=None,
                                                  additional_headers={"Accept-Language": viewer["lang"]}) as ws:
                        record.sockets += 1
                        etag = await fetch_region(client, kind, pk, etag, record, "catch-up GET")
                        while True:
                            message = await asyncio.wait_for(ws.recv(), max(0.0, plan["end"] - now()))
                            arrived = now()
                            data = json.loads(message)
                            etag = data.get("etag", etag)
                            record.pushes[kind] += 1
                            if kind == "match":
                                arrivals.append((arrived, data["html"].count(HAND_ROW)))
                except (TimeoutError, asyncio.TimeoutError):
                    return  # the night is over
                except Exception as exc:  # noqa: BLE001 - refused, dropped, closed by the server
                    record.error("websocket", f"{kind} {pk}: {exc!r}")
                    await asyncio.sleep(RECONNECT_SECONDS)

        await asyncio.gather(*(listen(*region) for region in regions))


async def scorekeeper(plan: dict, keeper: dict, ssl_context, record: Record) -> None:
    """Enter the match's next hand, think, again, until the match is decided or the night's hands are over."""
    import httpx

    rng = random.Random(keeper["seed"])
    match = keeper["match"]
    think = plan["think"]
    await sleep_until(plan["hands_from"] + (rng.uniform(0, THINK_SECONDS[0]) if think else 0))
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
            body = played_hand(rng, dealer, number) if think else tie(dealer)
            key = str(uuid.uuid4())
            answer = None
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
            if think:
                await asyncio.sleep(rng.uniform(*THINK_SECONDS))


def generator(plan: dict, role: str, conn) -> None:
    """A load-generator process: ``role`` "keepers+sockets" or "pollers"; sends its Record back on ``conn``."""
    import ssl

    async def run():
        ssl_context = ssl.create_default_context()
        record = Record()
        tasks = []
        if role == "keepers+sockets":
            tasks += [scorekeeper(plan, keeper, ssl_context, record) for keeper in plan["keepers"]]
            tasks += [socket_viewer(plan, v, ssl_context, record) for v in plan["viewers"] if v["socket"]]
        else:
            tasks += [poll_viewer(plan, v, ssl_context, record) for v in plan["viewers"] if not v["socket"]]
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(outcome, BaseException):  # a bug of the generator, not the server's: shown all the same
                record.error("load generator", repr(outcome))
        return record

    record = asyncio.run(run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    conn.send((record.__dict__, usage.ru_utime + usage.ru_stime))


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


# -- one night ------------------------------------------------------------------------------------------------------

def viewers_plan(rng: random.Random, count: int, data: dict, start: float, ramp: float, polling: float) -> list[dict]:
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


def night(args, data: dict, base: str, think: bool, seed: int, sampler_args: tuple, server_pids, logs: Logs) -> dict:
    """One night: the generators' plan, their records merged, the servers' figures."""
    rng = random.Random(seed)
    start = now() + 5  # the generators' imports
    hands_from = start + args.ramp
    hands_until = hands_from + args.minutes * 60
    plan = {"base": base, "ws": base.replace("http://", "ws://"), "think": think, "hands_from": hands_from,
            "hands_until": hands_until, "end": hands_until + GRACE_SECONDS,
            "viewers": viewers_plan(rng, args.viewers, data, start, args.ramp, args.polling),
            "keepers": [{"match": m, "token": t, "seed": rng.randrange(2 ** 32)}
                        for m, t in zip(data["matches"], data["tokens"], strict=True)]}
    ctx = multiprocessing.get_context("spawn")
    pipes, procs = [], []
    for role in ("keepers+sockets", "pollers"):
        ours, theirs = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=generator, args=(plan, role, theirs), daemon=True)
        proc.start()
        pipes.append(ours)
        procs.append(proc)
    logs.mark()
    sampler = ConnectionSampler(*sampler_args)
    sampler.start()
    try:
        time.sleep(max(0.0, start - now()))
        busy0, total0 = machine_busy()
        pids = server_pids()
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
        merged.errors.update(record["errors"])
        merged.error_samples += record["error_samples"]
        for kind, values in record["latency"].items():
            merged.latency[kind] += values
        merged.pushes.update(record["pushes"])
        merged.answers.update(record["answers"])
        merged.sockets += record["sockets"]
        merged.hands.update(record["hands"])
        merged.before.update(record["before"])
        merged.arrivals += record["arrivals"]
        merged.decided += record["decided"]
        merged.stopped += record["stopped"]
    time.sleep(1)  # the servers' last log lines
    return {"record": merged, "plan": plan, "elapsed": elapsed, "logged": logs.since_mark(), "generator_cpu": generator_cpu,
            "servers_cpu": servers1 - servers0, "machine": (busy1 - busy0) / max(total1 - total0, 1e-9),
            "connections": (sampler.most, dict(sampler.most_by), sampler.samples)}


def report(title: str, result: dict, stored: dict[int, int], bound: int, bounds: dict, goals: bool) -> bool:
    """Print one night's figures (with the goals when ``goals``); return whether every goal was met."""
    r, plan = result["record"], result["plan"]
    within = (plan["hands_from"], plan["hands_until"])

    def during(*kinds):
        return [seconds for kind in kinds for sent, seconds in r.latency.get(kind, []) if within[0] <= sent <= within[1]]

    region_kinds = ("match", "round", "standings", "wall")
    hands, polls = during("hand"), during(*(f"poll:{kind}" for kind in region_kinds))
    by_region = ", ".join(f"{kind} {ms(pct(during(f'poll:{kind}'), 95))}" for kind in region_kinds
                          if during(f"poll:{kind}"))
    answered = {m: len(times) for m, times in r.hands.items()}
    written = {m: stored[m] - r.before.get(m, stored[m]) for m in stored}
    exactly_once = all(written[m] == answered.get(m, 0) for m in stored)
    lags, missed = [], 0
    for match, arrivals in r.arrivals:
        before, times = r.before.get(match, 0), r.hands.get(match, [])
        k = 0
        for j, answered_at in enumerate(times):
            while k < len(arrivals) and arrivals[k][1] < before + j + 1:
                k += 1
            if k < len(arrivals):
                lags.append(arrivals[k][0] - answered_at)
            else:
                missed += 1
    most, most_by, samples = result["connections"]
    errors = sum(r.errors.values())
    ncpu = os.cpu_count()
    rows = [
        ("errors", f"{errors}" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(r.errors.items()))})" if errors else ""),
         "0", errors == 0),
        ("hands stored once", f"{sum(answered.values())} answered 201, {sum(written.values())} rows"
         + ("" if exactly_once else " (NOT equal match by match)"), "every hand once", exactly_once),
        ("hand POST p50 / p95 / p99", f"{ms(pct(hands, 50))} / {ms(pct(hands, 95))} / {ms(pct(hands, 99))}"
         f" ({len(hands)} POSTs)", "p95 < 300 ms", bool(hands) and pct(hands, 95) < GOAL_HAND_P95),
        ("poll p50 / p95 / p99", f"{ms(pct(polls, 50))} / {ms(pct(polls, 95))} / {ms(pct(polls, 99))}"
         f" ({len(polls)} polls)", "p95 < 200 ms",
         pct(polls, 95) < GOAL_POLL_P95 if polls else all(v["socket"] for v in plan["viewers"])),  # none: none polls
        ("PostgreSQL connections, most", f"{most} ({', '.join(f'{k} {v}' for k, v in sorted(most_by.items()))}; "
         f"{samples} samples)", f"<= {bound} ({', '.join(f'{k} {v}' for k, v in bounds.items())})", most <= bound),
    ]
    info = [
        ("pages loaded (GET) p50 / p95", f"{ms(pct([s for _, s in r.latency.get('page', [])], 50))} / "
         f"{ms(pct([s for _, s in r.latency.get('page', [])], 95))} ({len(r.latency.get('page', []))} pages)"),
        ("poll p95 by region", by_region),
        ("polls answered", ", ".join(f"{n} {status}" for status, n in sorted(r.answers.items()))),
        ("WebSockets opened", f"{r.sockets}"),
        ("pushes received", f"{sum(r.pushes.values())} ({', '.join(f'{k} {v}' for k, v in sorted(r.pushes.items()))})"),
        ("hand 201 -> push on its match p50 / p95", f"{ms(pct(lags, 50))} / {ms(pct(lags, 95))} "
         f"({len(lags)} deliveries, {missed} never pushed)"),
        ("tables decided / scorekeepers stopped", f"{r.decided} / {r.stopped}"),
        ("load generator CPU", f"{result['generator_cpu']:.1f} s in {result['elapsed']:.0f} s: "
         f"{result['generator_cpu'] / result['elapsed'] / ncpu:.0%} of the {ncpu} CPUs"),
        ("servers' CPU (nginx, web, live, workers, beat)",
         f"{result['servers_cpu'] / result['elapsed'] / ncpu:.0%}; the machine busy {result['machine']:.0%}"),
    ]
    print(f"\n{title}")
    width = 44
    for label, measured, goal, ok in rows:
        verdict = ("ok" if ok else "MISSED") if goals else ""
        print(f"  {label:{width}} {measured:60} {goal if goals else '':28} {verdict}")
    for label, measured in info:
        print(f"  {label:{width}} {measured}")
    logged = result["logged"]
    print(f"  {'server logs: errors and exceptions':{width}} {sum(logged.values())}")
    for what, n in logged.most_common(8):
        print(f"    {n:5}x {what}")
    for sample in r.error_samples:
        print(f"  error: {' '.join(sample.split())[:200]}")
    return all(ok for *_, ok in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long the scorekeepers enter hands")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which the viewers arrive")
    parser.add_argument("--polling", type=float, default=0.5, help="the viewers' share that polls (0-1; the rest "
                                                                   "are on WebSockets)")
    parser.add_argument("--no-think", action="store_true", help="one more night, the hands posted back to back")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--web-workers", type=int, default=2, help="web's WEB_CONCURRENCY (docker-compose's default)")
    parser.add_argument("--web-threads", type=int, default=4, help="web's WEB_THREADS (docker-compose's default)")
    parser.add_argument("--redis-db", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the bench database and the servers' logs")
    args = parser.parse_args()
    if not 1 <= args.tables <= 200 or not 0 <= args.viewers <= 5000 or not 0 <= args.polling <= 1:
        sys.exit("--tables must be 1-200, --viewers 0-5000 and --polling 0-1")
    if shutil.which("nginx") is None:
        sys.exit("bench_night needs nginx (apt-get install nginx-light): the production set's proxy")
    db_admin = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/manille")
    if not db_admin.startswith(("postgres://", "postgresql://")):
        sys.exit("bench_night needs DATABASE_URL on PostgreSQL")
    name = (urlsplit(db_admin).path.lstrip("/") or "manille") + "_bench_night"
    db_url = urlunsplit(urlsplit(db_admin)._replace(path=f"/{name}"))
    redis_url = urlunsplit(urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))._replace(
        path=f"/{args.redis_db}"))

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * args.viewers + 4096
    if soft < wanted:  # inherited by the servers and the generators
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(hard, wanted),
                                                    hard))
    env = {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": redis_url, "DEBUG": "0", "SECRET_KEY": "bench-night",
           "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING",
           "THROTTLE_WRITES": "1000000/min", "DJANGO_SETTINGS_MODULE": "config.settings",
           "PYTHONWARNINGS": "ignore:No directory at"}
    for variable in ("WEB_CONCURRENCY", "WEB_THREADS", "ASGI_HTTP_THREADS", "WORKER_CONCURRENCY", "PGAPPNAME"):
        env.pop(variable, None)
    os.environ.update(env)
    sys.path.insert(0, ROOT)
    import django
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    recreate_database(db_admin, name)
    django.setup()
    from django.db import connections

    directory = tempfile.mkdtemp(prefix="manille-night-")
    production, celery = None, []
    met = True
    try:
        started = now()
        data = load(args.tables, args.seed)
        connections.close_all()
        print(f"loaded in {now() - started:.0f} s: {args.tables * 2} teams, round 1 played, round {data['round']} "
              f"paired ({len(data['matches'])} tables); PostgreSQL {name}, Redis db {args.redis_db}; "
              f"{os.cpu_count()} CPUs")

        servers_log = open(os.path.join(directory, "servers.log"), "w")  # noqa: SIM115 - web, live (nginx: error.log)
        production = Production(env, free_port(), web_workers=args.web_workers, web_threads=args.web_threads,
                                directory=directory, stdout=servers_log, stderr=subprocess.STDOUT)
        production.web_env["PGAPPNAME"] = "web"  # the sampler tells the processes' connections apart
        production.live_env["PGAPPNAME"] = "live"
        worker = compose_command("worker", env)
        concurrency = int(next(part.split("=", 1)[1] for part in worker if part.startswith("--concurrency=")))
        schedule = os.path.join(directory, "celerybeat-schedule")
        for service, command in (("worker", [*worker, "-n", "night-worker@%h"]),
                                 ("standings", [*compose_command("standings", env), "-n", "night-standings@%h"]),
                                 ("beat", [f"--schedule={schedule}" if part.startswith("--schedule=") else part
                                           for part in compose_command("beat", env)])):
            log = open(os.path.join(directory, f"{service}.log"), "w")  # noqa: SIM115 - closed with the process
            celery.append(subprocess.Popen(command, cwd=ROOT, env={**env, "PGAPPNAME": service}, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True))
        production.start()
        from config.celery import app

        deadline = now() + 90
        while len(app.control.ping(timeout=1.0) or []) < 2:
            if now() > deadline or any(p.poll() is not None for p in celery):
                raise RuntimeError(f"the Celery workers did not start (logs in {directory})")
        bounds = {"web+live": production.bound, "worker": concurrency, "standings": 1, "beat": 1}
        bound = sum(bounds.values())
        base = f"http://127.0.0.1:{production.port}"
        print(f"nginx on {production.port}: web ({args.web_workers} workers x {args.web_threads} threads), live (1 worker), "
              f"worker (concurrency {concurrency}), standings (1), beat; {args.viewers} viewers over {args.ramp:g} s, "
              f"{len(data['matches'])} "
              f"scorekeepers for {args.minutes:g} min")

        logs = Logs(directory)

        def server_pids():
            return production.pids() + group_pids({p.pid for p in celery})

        nights = [("a tournament night: think 5-15 s between hands", True)]
        if args.no_think:
            nights.append(("no think time: every scorekeeper posts back to back (30-30 ties; no goal)", False))
        for i, (title, think) in enumerate(nights):
            result = night(args, data, base, think, args.seed + i, (db_admin, name), server_pids, logs)
            stored = hands_by_match(data["matches"])
            connections.close_all()
            met &= report(title, result, stored, bound, bounds, goals=think) or not think
    finally:
        if production is not None:
            production.stop()
        for process in celery:
            stop_server(process)
        connections.close_all()
        redis.Redis.from_url(redis_url).flushdb()
        if not args.keep:
            recreate_database(db_admin, name, drop_only=True)
            shutil.rmtree(directory, ignore_errors=True)
        else:
            print(f"kept: the database {name} and the servers' logs in {directory}")
    print("\nEvery goal met." if met else "\nA goal was missed.")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
