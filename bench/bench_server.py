"""Benchmark (#24): the production set's read paths against two sync gunicorn workers, side by side in one run.

Is docker-compose's production set (nginx in front of web, gunicorn's sync workers, and live, the
ASGI server) at least as fast on the reads as two plain sync workers without the proxy? For each read path
(scoreboard of 59 hands 200, its 304, round 304, standings of 64 teams 200, the standings page's 304)
and each connection count (--connections, 8 and 64), the goal is the production set's requests a
second at least 0.9 of the same path under ``gunicorn config.wsgi:application -w 2 -k sync``.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL), wrk and nginx (Debian's ``wrk`` and ``nginx``).
Creates a throw-away database on that server (``<name>_bench_server``, dropped at the end unless
--keep), empties a Redis database of its own (--redis-db, 6 by default; emptied again at the end),
loads bench_http's small tournament through the services (``_servers.reads_data``: 64 teams,
round 1 paired, one match with 59 hands, some results, standings computed), then starts, on that
same database and Redis database, side by side:

* the production set (``_servers.Production``: nginx from deploy/nginx's template, logging every
  request as the image does, web with the command and workers docker-compose gives it (4 sync workers;
  --web-workers and --web-threads to measure others, threaded workers above one thread), no access log
  of its own (the compose file's ACCESS_LOG=0), and live), measured through nginx and, to show the
  proxy's cost, on web directly;
* the baseline, ``gunicorn config.wsgi:application -w 2 -k sync`` on a port of its own;
* with --image, the Docker image alone (no compose, no proxy): the Dockerfile's CMD (the compose file's ``live``
  command: gunicorn with uvicorn workers, HTTP in ASGI_HTTP_THREADS threads a worker) with the image's
  WEB_CONCURRENCY 2 and the settings' defaults, logging each request as it does (to /dev/null here).

No Celery worker runs: the loading computes the standings itself, and the recomputes its hands
queued wait in the bench's Redis database, so no answer changes while it is measured.

For each path and connection count, wrk measures --windows windows of --seconds seconds on each of
the three, in alternating order (production, sync, direct; direct, sync, production; ...), after a
one-second warm-up of each per path, so that the machine's drift falls on all three alike. It prints
each one's median requests a second, the ratios of the medians to the baseline's (and the range of
the windows' own ratios), the server processes' CPU per request, and wrk's CPU as a share of the
machine (the load generator's). A row under 0.9 is marked, and the exit status is then 1.
About 8 minutes with the defaults (./dev bench skips it: run it by hand).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_server.py [--seconds 5] [--windows 3] [--connections 8,64]
"""
# ./dev bench: skip (about 8 minutes; run it by hand)

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from _servers import (
    ROOT,
    Production,
    answers_healthz,
    compose_command,
    compose_default,
    cpu_seconds,
    free_port,
    group_pids,
    reads_data,
    recreate_database,
    stop_server,
)

GOAL = 0.9


def get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wrk(url: str, headers: dict, connections: int, seconds: float) -> tuple[float, float, str]:
    """Requests a second, wrk's own CPU seconds, and its socket errors ("" when none). A non-2xx/3xx answer raises."""
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s"]
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    before = children_cpu()
    out = subprocess.run([*cmd, url], capture_output=True, text=True, timeout=seconds + 60).stdout
    cpu = children_cpu() - before
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise RuntimeError(f"{url}: errors\n{out}")
    errors = re.search(r"Socket errors: (.*)", out)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), cpu, errors.group(1) if errors else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="each wrk window")
    parser.add_argument("--windows", type=int, default=3, help="windows of each server, per path and connection count")
    parser.add_argument("--connections", default="8,64", help="comma-separated connection counts")
    parser.add_argument("--web-workers", type=int, default=int(compose_default("web", "WEB_CONCURRENCY")),
                        help="the production set's WEB_CONCURRENCY (docker-compose's by default)")
    parser.add_argument("--web-threads", type=int, default=int(compose_default("web", "WEB_THREADS")),
                        help="the production set's WEB_THREADS (docker-compose's by default; above 1, threaded workers)")
    parser.add_argument("--image", action="store_true", help="also measure the Dockerfile's CMD alone (no proxy)")
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    counts = [int(c) for c in args.connections.split(",") if c.strip()]
    for tool in ("wrk", "nginx"):
        if shutil.which(tool) is None:
            sys.exit(f"bench_server needs {tool} (apt-get install {tool})")

    db_admin = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/manille")
    if not db_admin.startswith(("postgres://", "postgresql://")):
        sys.exit("bench_server needs DATABASE_URL on PostgreSQL")
    name = (urlsplit(db_admin).path.lstrip("/") or "manille") + "_bench_server"
    db_url = urlunsplit(urlsplit(db_admin)._replace(path=f"/{name}"))
    redis_url = urlunsplit(urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))._replace(
        path=f"/{args.redis_db}"))
    env = {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": redis_url, "DEBUG": "0", "SECRET_KEY": "bench-server",
           "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING",
           "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONWARNINGS": "ignore:No directory at"}
    env.pop("WEB_CONCURRENCY", None)
    os.environ.update(env)
    sys.path.insert(0, ROOT)
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    recreate_database(db_admin, name)
    production = baseline = image = None
    try:
        info = reads_data(db_url, large=False)
        from django.db import connections

        connections.close_all()
        production = Production(env, free_port(), web_workers=args.web_workers, web_threads=args.web_threads,
                                stdout=subprocess.DEVNULL).start()
        sync_port = free_port()
        baseline = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi:application", "-w", "2",
                                     "-k", "sync", "-b", f"127.0.0.1:{sync_port}", "--log-level", "warning"],
                                    cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
        if not answers_healthz(sync_port, [baseline]):
            raise RuntimeError("the sync server did not start")

        if args.image:  # the Dockerfile's CMD (compose's live runs the same command), as the image alone runs it
            image_port = free_port()
            image_env = {k: v for k, v in env.items() if k not in ("ASGI_HTTP_THREADS", "TRUSTED_PROXIES", "ACCESS_LOG")}
            image = subprocess.Popen([*compose_command("live"), "-b", f"127.0.0.1:{image_port}", "--log-level",
                                      "warning", "--access-logfile", "/dev/null"],
                                     cwd=ROOT, env={**image_env, "WEB_CONCURRENCY": "2"}, start_new_session=True,
                                     stdout=subprocess.DEVNULL)
            if not answers_healthz(image_port, [image]):
                raise RuntimeError("the image's server did not start")

        web_master, live_master, nginx = (p.pid for p in production.processes)
        targets = {  # name: base URL, the process groups whose CPU it costs
            "production": (f"http://127.0.0.1:{production.port}", {web_master, nginx}),
            "sync": (f"http://127.0.0.1:{sync_port}", {baseline.pid}),
            "direct": (f"http://127.0.0.1:{production.web_port}", {web_master}),
        }
        order = ["production", "sync", "direct"]
        if image is not None:
            targets["image"] = (f"http://127.0.0.1:{image_port}", {image.pid})
            order.append("image")
        kind = "threaded" if args.web_threads > 1 else "sync"
        print(f"production: nginx on {production.port} -> web ({args.web_workers} {kind} workers x {args.web_threads} "
              f"threads) and live; "
              f"sync: gunicorn -w 2 -k sync on {sync_port}; direct: web on {production.web_port}")
        print(f"PostgreSQL {name}, Redis db {args.redis_db}; {os.cpu_count()} CPUs; "
              f"{args.windows} windows of {args.seconds:g} s each, connections {counts}")

        small, board = info["small"], info["board"]
        paths = [
            ("scoreboard, 59 hands, 200", f"/api/v1/matches/{board}/", False),
            ("scoreboard, 304", f"/api/v1/matches/{board}/", True),
            ("round (32 tables), 304", f"/api/v1/tournaments/{small}/rounds/1/", True),
            ("standings, 64 teams, 200", f"/api/v1/tournaments/{small}/standings/", False),
            ("standings page, 304", "/t/gentse-beker/standings/", True),
        ]
        rows = []
        for label, path, conditional in paths:
            headers = {}
            base = targets["production"][0]
            status, answer, body = get(base + path)
            if status != 200:
                raise RuntimeError(f"{path}: {status} {body[:300]}")
            if conditional:
                cookie = answer.get("Set-Cookie", "").split(";")[0]
                if cookie:  # a page that set its CSRF cookie: the browser sends it back with the ETag
                    headers["Cookie"] = cookie
                    answer = get(base + path, headers)[1]
                headers["If-None-Match"] = answer["ETag"]
            for target in order:  # the same database and cache: every server gives the same answer and ETag
                status, _, body = get(targets[target][0] + path, headers)
                if status != (304 if conditional else 200):
                    raise RuntimeError(f"{target} {path}: {status} {body[:300]}")
            for target in order:
                wrk(targets[target][0] + path, headers, 8, 1)  # warm-up
            for connections_ in counts:
                rates = {t: [] for t in order}
                cpu = {t: 0.0 for t in order}
                requests = {t: 0.0 for t in order}
                wrk_cpu = wall = 0.0
                socket_errors = []
                sequence = list(order)
                for _ in range(args.windows):
                    for target in sequence:
                        base, groups = targets[target]
                        pids = group_pids(groups)
                        before = cpu_seconds(pids)
                        started = time.monotonic()
                        rate, used, errors = wrk(base + path, headers, connections_, args.seconds)
                        wall += time.monotonic() - started
                        cpu[target] += cpu_seconds(pids) - before
                        requests[target] += rate * args.seconds
                        wrk_cpu += used
                        rates[target].append(rate)
                        if errors:
                            socket_errors.append(f"{target}: {errors}")
                    sequence.reverse()
                medians = {t: statistics.median(rates[t]) for t in order}
                window_ratios = [p / s for p, s in zip(rates["production"], rates["sync"], strict=True)]
                rows.append({
                    "label": label, "connections": connections_, "medians": medians,
                    "ratio": medians["production"] / medians["sync"],
                    "direct_ratio": medians["direct"] / medians["sync"],
                    "image_ratio": medians["image"] / medians["sync"] if "image" in medians else None,
                    "range": (min(window_ratios), max(window_ratios)),
                    "cpu": {t: cpu[t] / max(requests[t], 1) for t in order},
                    "wrk": wrk_cpu / (wall * os.cpu_count()), "errors": socket_errors,
                })
                print(f"  {label}, {connections_} connections: production {medians['production']:.0f}, "
                      f"sync {medians['sync']:.0f}, direct {medians['direct']:.0f} req/s", flush=True)
    finally:
        for server in (baseline, image):
            if server is not None:
                stop_server(server)
        if production is not None:
            production.stop()
            shutil.rmtree(production.directory, ignore_errors=True)
        from django.db import connections

        connections.close_all()
        redis.Redis.from_url(redis_url).flushdb()
        if not args.keep:
            recreate_database(db_admin, name, drop_only=True)

    print(f"\nrequests/s, median of {args.windows} windows of {args.seconds:g} s (goal: production >= {GOAL} x sync)")
    print(f"{'path':28} {'conns':>5} {'production':>10} {'sync':>7} {'direct':>7} {'prod/sync':>9} "
          f"{'windows':>11} {'direct/sync':>11} {'wrk CPU':>8}")
    missed = 0
    for r in rows:
        m = r["medians"]
        mark = f"  < {GOAL}" if r["ratio"] < GOAL else ""
        missed += bool(mark)
        print(f"{r['label']:28} {r['connections']:5} {m['production']:10.0f} {m['sync']:7.0f} {m['direct']:7.0f} "
              f"{r['ratio']:9.2f} {r['range'][0]:5.2f}-{r['range'][1]:<5.2f} {r['direct_ratio']:11.2f} "
              f"{r['wrk'] * 100:7.0f}%{mark}")
    print("\nserver CPU per request (ms; production: web and nginx, direct: web, sync: its workers)")
    print(f"{'path':28} {'conns':>5} {'production':>10} {'sync':>7} {'direct':>7}")
    for r in rows:
        c = r["cpu"]
        print(f"{r['label']:28} {r['connections']:5} {c['production'] * 1000:10.2f} {c['sync'] * 1000:7.2f} "
              f"{c['direct'] * 1000:7.2f}")
    if image is not None:
        print("\nthe Docker image alone (the Dockerfile's CMD, 2 uvicorn workers, HTTP in threads), req/s (ratio to sync)")
        for r in rows:
            print(f"{r['label']:28} {r['connections']:5} {r['medians']['image']:10.0f} ({r['image_ratio']:.2f}), "
                  f"CPU a request {r['cpu']['image'] * 1000:.2f} ms")
    for r in rows:
        for error in r["errors"]:
            print(f"socket errors, {r['label']}, {r['connections']} connections, {error}")
    print(f"\nwrk CPU: its share of the machine's {os.cpu_count()} CPUs while it ran. "
          f"{'Every row meets the goal.' if not missed else f'{missed} row(s) under {GOAL}.'}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
