"""Benchmark: live updates of 500 open match pages under the production server.

Needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). Creates a throw-away database on that server
(``<name>_bench_live``, dropped at the end unless --keep) and uses a Redis database of its own
(--redis-db, 15 by default, emptied at the start and at the end), loads a public Belgian tournament
through the services, starts the production server as a subprocess on a free loopback port:

    gunicorn config.asgi:application -k config.uvicorn_worker.Worker -w 2

and then measures:

1. the hand entry rate (sequential POST /api/v1/matches/{id}/hands/ with a token) with no viewer,
2. with --viewers WebSockets open on one match's live region (/ws/live/match/<id>/, spread over a
   few client processes so that the clients are not the bottleneck): for --hands hands entered one
   at a time, the time from each hand's 201 to its new HTML on every socket (per hand: the last
   socket; per socket: each arrival), then
3. the hand entry rate into that watched match, and how long the last socket takes to receive the
   last hand after its 201.

Both rate runs start on a game of the same length (the unwatched match gets the same warm-up hands),
and the hands are 30-30 ties, so the game never ends and any number of hands is valid. Celery has no
worker here: the standings recomputes the hands queue wait in the bench's Redis database and go
with it, so the figures are the web server's alone. Every loop is bounded and every wait has a timeout.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_live.py
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import time
from urllib.parse import urlsplit, urlunsplit

from _servers import free_port, paired_tournament, recreate_database, start_server, stop_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIENT_PROCESSES = 4
SETTLE_SECONDS = 0.05  # between two hands of the latency run, after every socket has the previous one
HAND_TIMEOUT = 15.0    # the longest wait for every socket to receive one hand


def now() -> float:
    """A clock shared by every process of the machine."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def tie_hand(number: int) -> dict:
    """Hand ``number`` (1-based) of a game dealt first by N: a 30-30 tie, which scores nothing."""
    return {"dealer": "NESW"[(number - 1) % 4], "trump": "H", "tricks": {"ns": 4, "ew": 4},
            "points": {"ns": 30, "ew": 30}}


def pct(values, p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def ms(value: float) -> str:
    return f"{value * 1000:7.1f} ms"


# -- the viewers (client processes) -----------------------------------------------------------------------------------

def viewers_process(url: str, origin: str, count: int, conn) -> None:
    """Open ``count`` WebSockets, report "ready", record every message's arrival until told to stop."""
    import websockets

    async def run():
        arrivals = [[] for _ in range(count)]
        sockets = []

        async def one(i: int):
            ws = await websockets.connect(url, origin=origin, open_timeout=30, max_size=2 ** 22,
                                          ping_interval=None)
            sockets.append(ws)
            try:
                async for message in ws:
                    arrivals[i].append(now())
                    json.loads(message)  # as a page would
            except websockets.ConnectionClosed:
                pass

        tasks = []
        for start in range(0, count, 50):  # connect in batches: no thundering herd at the accept queue
            batch = [asyncio.create_task(one(i)) for i in range(start, min(count, start + 50))]
            tasks += batch
            deadline = now() + 30
            while len(sockets) < min(count, start + 50) and now() < deadline:
                failed = [t for t in batch if t.done() and t.exception()]
                if failed:
                    raise failed[0].exception()
                await asyncio.sleep(0.01)
        conn.send(("ready", len(sockets)))
        loop = asyncio.get_running_loop()
        while True:  # commands: "counts" (messages received by each socket so far) or "stop"
            command = await loop.run_in_executor(None, conn.recv)
            if command == "counts":
                conn.send([len(a) for a in arrivals])
            else:
                break
        for ws in sockets:
            await ws.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        conn.send(arrivals)

    asyncio.run(run())


class Viewers:
    """--viewers WebSockets spread over a few client processes."""

    def __init__(self, url: str, origin: str, total: int):
        ctx = multiprocessing.get_context("spawn")
        self.pipes, self.procs = [], []
        share = [total // CLIENT_PROCESSES + (1 if i < total % CLIENT_PROCESSES else 0) for i in range(CLIENT_PROCESSES)]
        for n in share:
            if not n:
                continue
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=viewers_process, args=(url, origin, n, theirs), daemon=True)
            proc.start()
            self.pipes.append(ours)
            self.procs.append(proc)

    def wait_ready(self, timeout: float = 120) -> int:
        opened = 0
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise RuntimeError("the viewers did not connect in time")
            status, n = pipe.recv()
            opened += n
        return opened

    def counts(self) -> list[int]:
        out = []
        for pipe in self.pipes:
            pipe.send("counts")
        for pipe in self.pipes:
            if not pipe.poll(30):
                raise RuntimeError("a viewer process does not answer")
            out += pipe.recv()
        return out

    def wait_all(self, at_least: int, timeout: float) -> bool:
        """Wait until every socket has ``at_least`` messages; False after ``timeout``."""
        deadline = now() + timeout
        while now() < deadline:
            if min(self.counts()) >= at_least:
                return True
            time.sleep(0.005)
        return False

    def stop(self) -> list[list[float]]:
        arrivals = []
        for pipe in self.pipes:
            pipe.send("stop")
        for pipe in self.pipes:
            arrivals += pipe.recv() if pipe.poll(60) else []
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.terminate()
        return arrivals


# -- setup: database, data, server ----------------------------------------------------------------------------------

def bench_urls(redis_db: int) -> tuple[str, str, str]:
    db_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not db_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        sys.exit("bench_live needs DATABASE_URL on PostgreSQL and REDIS_URL")
    parts = urlsplit(db_url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_bench_live"
    bench_db = urlunsplit(parts._replace(path=f"/{name}"))
    rparts = urlsplit(redis_url)
    bench_redis = urlunsplit(rparts._replace(path=f"/{redis_db}"))
    return db_url, bench_db, bench_redis


def load_data():
    """A public Belgian tournament of 8 teams, round 1 paired; a superuser's API token."""
    from django.contrib.auth import get_user_model
    from api.models import AuthToken

    _, matches = paired_tournament(name="Live bench", slug="live-bench", club="Bench club", teams=8)
    user = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench")
    return AuthToken.objects.create(user)[1], matches


def wait_up(base: str, server: subprocess.Popen, timeout: float = 60) -> None:
    import httpx

    deadline = now() + timeout
    while now() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode})")
        try:
            if httpx.get(f"{base}/healthz/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not answer /healthz/ in time")


# -- the runs -------------------------------------------------------------------------------------------------------

class Scorekeeper:
    """Posts the next hands of matches through the API, as a scorekeeper's tablet would."""

    def __init__(self, base: str, token: str):
        import httpx

        self.client = httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=30)
        self.entered: dict[int, int] = {}

    def post(self, match_id: int) -> tuple[float, float]:
        """Enter the match's next hand; return the times the POST left and its 201 came back."""
        number = self.entered.get(match_id, 0) + 1
        sent = now()
        response = self.client.post(f"/api/v1/matches/{match_id}/hands/", json=tie_hand(number))
        done = now()
        if response.status_code != 201:
            raise RuntimeError(f"hand {number} of match {match_id}: {response.status_code} {response.text[:300]}")
        self.entered[match_id] = number
        return sent, done

    def rate(self, match_id: int, hands: int) -> float:
        started = now()
        for _ in range(hands):
            self.post(match_id)
        return hands / (now() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--hands", type=int, default=20, help="hands timed one by one to every viewer")
    parser.add_argument("--rate-hands", type=int, default=100, help="hands of each entry-rate run")
    parser.add_argument("--warmup", type=int, default=5, help="hands entered before the first timed one")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--redis-db", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    for name in ("viewers", "hands", "rate_hands"):
        if not 0 < getattr(args, name) <= 5000:
            sys.exit(f"--{name.replace('_', '-')} must be between 1 and 5000")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * args.viewers + 1024)) if hard != resource.RLIM_INFINITY else max(soft, 4096)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))  # inherited by the server and the viewers

    admin_db, bench_db, bench_redis = bench_urls(args.redis_db)
    name = urlsplit(bench_db).path.lstrip("/")
    recreate_database(admin_db, name)
    import redis

    redis.Redis.from_url(bench_redis).flushdb()

    env = {**os.environ, "DATABASE_URL": bench_db, "REDIS_URL": bench_redis, "DEBUG": "0",
           "SECRET_KEY": "bench-live-only", "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "LIVE_PUSH": "1",
           "THROTTLE_WRITES": "1000000/min", "LOG_LEVEL": "WARNING", "CELERY_TASK_ALWAYS_EAGER": "0",
           "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONWARNINGS": "ignore:No directory at"}
    os.environ.update(env)
    sys.path.insert(0, ROOT)
    import django

    django.setup()
    from django.db import connections

    token, matches = load_data()
    watched, unwatched = matches[0], matches[1]
    connections.close_all()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(env, port, args.workers, "--backlog", "2048")
    viewers = None
    try:
        wait_up(base, server)
        keeper = Scorekeeper(base, token)
        print(f"gunicorn config.asgi:application -k config.uvicorn_worker.Worker -w {args.workers} on {base}; "
              f"PostgreSQL {name}, Redis db {args.redis_db}; {os.cpu_count()} CPUs")

        # 1. The entry rate with nobody watching, on a game as long as the watched one will be.
        for _ in range(args.warmup + args.hands):
            keeper.post(unwatched)
        rate_alone = keeper.rate(unwatched, args.rate_hands)

        # 2. The viewers, then hands one at a time.
        for _ in range(args.warmup):
            keeper.post(watched)
        started = now()
        viewers = Viewers(f"ws://127.0.0.1:{port}/ws/live/match/{watched}/?lang=nl", base, args.viewers)
        opened = viewers.wait_ready()
        print(f"{opened} WebSockets open on match {watched} in {now() - started:.1f} s")
        if opened != args.viewers:
            raise RuntimeError(f"only {opened} of {args.viewers} sockets opened")
        times = []
        late = 0
        for k in range(1, args.hands + 1):
            times.append(keeper.post(watched))
            if not viewers.wait_all(k, HAND_TIMEOUT):
                late += 1
            time.sleep(SETTLE_SECONDS)

        # 3. The entry rate with everybody watching, then how long the last socket lags.
        first_rate_message = args.hands
        rate_started = now()
        rate_times = []
        for _ in range(args.rate_hands):
            rate_times.append(keeper.post(watched))
        rate_watched = args.rate_hands / (now() - rate_started)
        drained = viewers.wait_all(first_rate_message + args.rate_hands, 60)
        arrivals = viewers.stop()
        viewers = None
    finally:
        if viewers is not None:
            viewers.stop()
        stop_server(server)
        redis.Redis.from_url(bench_redis).flushdb()
        if not args.keep:
            connections.close_all()
            recreate_database(admin_db, name, drop_only=True)

    per_hand_all, per_hand_post, per_socket = [], [], []
    for k, (sent, done) in enumerate(times):
        got = [a[k] for a in arrivals if len(a) > k]
        per_hand_all.append(max(got) - done)
        per_hand_post.append(max(got) - sent)
        per_socket += [t - done for t in got]
    missing = sum(1 for a in arrivals for k in range(len(times)) if len(a) <= k)
    last_201 = rate_times[-1][1]
    last_index = first_rate_message + args.rate_hands - 1
    lag = [a[last_index] - last_201 for a in arrivals if len(a) > last_index]

    print()
    print(f"{args.viewers} live match pages, {args.hands} hands entered one at a time through the API")
    print(f"  201 -> new HTML on all {args.viewers} pages   p50 {ms(pct(per_hand_all, 50))}   "
          f"p95 {ms(pct(per_hand_all, 95))}   max {ms(max(per_hand_all))}")
    print(f"  POST sent -> on all pages             p50 {ms(pct(per_hand_post, 50))}   "
          f"p95 {ms(pct(per_hand_post, 95))}")
    print(f"  201 -> new HTML, each page            p50 {ms(pct(per_socket, 50))}   "
          f"p95 {ms(pct(per_socket, 95))}   (negative: before the 201 came back)")
    print(f"  POST -> 201 (the hand itself)          p50 {ms(pct([d - s for s, d in times], 50))}   "
          f"p95 {ms(pct([d - s for s, d in times], 95))}")
    print(f"  missed deliveries: {missing}; hands not on every page within {HAND_TIMEOUT:.0f} s: {late}")
    print()
    print(f"Hand entry rate, {args.rate_hands} sequential POSTs (one scorekeeper, keep-alive)")
    print(f"  no viewers                {rate_alone:7.1f} hands/s")
    print(f"  {args.viewers} viewers of the match   {rate_watched:7.1f} hands/s")
    if lag:
        print(f"  last hand's 201 -> on all pages: {ms(max(lag))} "
              f"({'every page got every hand' if drained and len(lag) == len(arrivals) else 'NOT every page got every hand'})")


if __name__ == "__main__":
    main()
