"""Benchmark (#14): the HTTP paths measured against Django's own floor, a trivial view, in one run.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and wrk (Debian's ``wrk``). Creates a throw-away
database on that server (``<name>_bench_http``, dropped at the end unless --keep), empties a Redis
database of its own (--redis-db, 13 by default), loads through the services

* a public Belgian tournament of 64 teams, round 1 paired, one match with 59 hands (30-30 ties: the
  game goes on), some matches played, standings computed;
* a public tournament of 1,024 teams, round 1 paired, standings computed;

then starts gunicorn as production would run it with sync workers (``config.wsgi``, -w 2, DEBUG=0,
SECURE_HTTPS=0), with the project's settings plus one trivial JSON view (``bench/_trivial_urls.py``),
and a Celery worker (the standings recomputes the hands queue), and measures with wrk at
--connections connections (default 8) for --seconds each:

    trivial view; scoreboard (59 hands) 200 and 304; round 304; standings (64, 1,024 teams) 200 and
    304, the 1,024 top 10; the public standings and match pages 304; hand POSTs at 1 and 8 clients
    (a Python client a match, keep-alive, a token each).

For each it prints req/s, the ratio to the trivial view and the gunicorn workers' CPU per request
(from /proc). Ratios, not absolute figures, are what compare across machines.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_http.py

--root runs another checkout (the same script against an older tree: ``git archive <commit>``) for a
before/after comparison of the same paths; a path the older tree answers without an ETag or a 304 is
printed as such. Give that tree its own virtualenv (``pip install -e`` of it; the project's editable
install maps its packages to this checkout whatever the path) and run from outside both trees:

    cd /tmp && /tmp/old-venv/bin/python /path/to/bench/bench_http.py --root /tmp/old

--compare measures the hand POST of two trees in one run: both are loaded and served side by side
(each its own database, Redis database, gunicorn and worker; the one not measured is idle), and
their 8-client windows alternate (A B B A A B ...), so that the machine's drift over minutes
falls on both alike. It prints each window and the ratio of each adjacent pair:

    cd /tmp && /path/to/.venv/bin/python /path/to/bench/bench_http.py \\
        --compare /tmp/old --compare-python /tmp/old-venv/bin/python --windows 6 --post-seconds 15
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from _servers import cpu_seconds, free_port, reads_data, recreate_database, stop_server

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.dirname(HERE), help="the checkout to serve (default: this one)")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--redis-db", type=int, default=13)
    p.add_argument("--post-seconds", type=float, default=6.0)
    p.add_argument("--keep", action="store_true")
    p.add_argument("--only", default="", help="comma-separated row names to run (default: all)")
    p.add_argument("--compare", default="", help="another checkout: alternate hand POST windows with it")
    p.add_argument("--compare-python", default=sys.executable, help="the Python of --compare's virtualenv")
    p.add_argument("--windows", type=int, default=6, help="--compare: the 8-client windows of each tree")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # --compare's children
    p.add_argument("--tag", default="", help=argparse.SUPPRESS)  # a child's database name suffix
    return p.parse_args()


ARGS = parse_args()
ROOT = os.path.abspath(ARGS.root)
sys.path.insert(0, ROOT)


def setup(db_url: str) -> dict:
    """Migrate and load the two tournaments; return the ids, tokens and paths the runs need."""
    return reads_data(db_url)


def worker_pids(master: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == master:
                    pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return pids


def wrk(url: str, headers: dict) -> float:
    cmd = ["wrk", "-t2", f"-c{ARGS.connections}", f"-d{ARGS.seconds:g}s"]
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, timeout=ARGS.seconds + 60).stdout
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise RuntimeError(f"{url}: errors\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def get(url: str, headers: dict | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def poster(base: str, token: str, matches: list[int], deadline: float, counts: list, index: int, errors: list):
    """Enter hands into ``matches`` one after another (a new match once one is decided) until ``deadline``."""
    import http.client

    host = urlsplit(base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    dealer, n, done = "N", 0, 0
    queue = list(matches)
    while queue and time.monotonic() < deadline:
        ns = 37 if n % 2 == 0 else 23
        body = json.dumps({"dealer": dealer, "trump": "H", "tricks": {"ns": 5 if ns > 30 else 3,
                                                                      "ew": 3 if ns > 30 else 5},
                           "points": {"ns": ns, "ew": 60 - ns}})
        conn.request("POST", f"/api/v1/matches/{queue[0]}/hands/", body, headers)
        response = conn.getresponse()
        data = response.read()
        if response.status != 201:
            errors.append((response.status, data[:300]))
            queue.pop(0)
            dealer, n = "N", 0
            continue
        answer = json.loads(data)["match"]
        done += 1
        n += 1
        if answer["status"] == "finished":
            queue.pop(0)
            dealer, n = "N", 0
        else:
            dealer = answer["next_dealer"] or "N"
    counts[index] = done
    conn.close()


def post_rate(base: str, info: dict, clients: int, pids: list[int], runs_left: int = 1) -> tuple[float, float]:
    """Hands a second from ``clients`` clients, each on matches of its own no earlier run has used
    (``runs_left``: this run and the ones still to come share the matches left)."""
    free = info["post_matches"]
    per = 64 if clients == 1 else len(free) // (clients * runs_left)  # 1 client: 64 matches are plenty
    matches, info["post_matches"] = free[:per * clients], free[per * clients:]
    deadline = time.monotonic() + ARGS.post_seconds
    counts, errors = [0] * clients, []
    start_cpu, start = cpu_seconds(pids), time.monotonic()
    threads = [threading.Thread(target=poster, args=(base, info["tokens"][i],
                                                     matches[i * per:(i + 1) * per], deadline,
                                                     counts, i, errors)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(ARGS.post_seconds + 60)
    elapsed = time.monotonic() - start
    if errors and not sum(counts):
        raise RuntimeError(f"hand POSTs failed: {errors[:3]}")
    total = sum(counts)
    return total / elapsed, (cpu_seconds(pids) - start_cpu) / max(total, 1)


def databases(tag: str = "") -> tuple[str, str, str, str]:
    """The admin URL of the PostgreSQL server, the throw-away database's name and URL, and the Redis URL."""
    db_admin = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/manille")
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    name = (urlsplit(db_admin).path.lstrip("/") or "manille") + "_bench_http" + tag
    db_url = urlunsplit(urlsplit(db_admin)._replace(path=f"/{name}"))
    return db_admin, name, db_url, urlunsplit(urlsplit(redis)._replace(path=f"/{ARGS.redis_db}"))


def start(db_url: str, redis_url: str) -> tuple[str, dict, subprocess.Popen, subprocess.Popen]:
    """Load the data and start gunicorn and a worker on it; the base URL, ``setup``'s ids and the processes."""
    info = setup(db_url)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": redis_url, "DEBUG": "0", "SECRET_KEY": "bench",
           "SECURE_HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "THROTTLE_WRITES": "10000000/min",
           "DJANGO_SETTINGS_MODULE": "_trivial_settings", "PYTHONPATH": f"{HERE}:{ROOT}", "LOG_LEVEL": "WARNING"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi:application", "-w", "2",
                               "-k", "sync", "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
                              cwd=ROOT, env=env, start_new_session=True, stdout=sys.stderr)  # stdout: --serve's
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-Q",
                               "celery,standings", "-c", "1", "--loglevel", "WARNING"],
                              cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
                              start_new_session=True, stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            if get(f"{base}/bench/trivial/")[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.1)
    return base, info, server, worker


def run_served(tag: str, body) -> None:
    """Recreate the throw-away databases, ``start``, call ``body(base, info, server)``, then stop and drop."""
    db_admin, name, db_url, redis_url = databases(tag)
    os.environ["REDIS_URL"] = redis_url
    import redis as redis_client

    redis_client.Redis.from_url(redis_url).flushdb()
    recreate_database(db_admin, name)
    server = worker = None
    try:
        base, info, server, worker = start(db_url, redis_url)
        body(base, info, server)
    finally:
        for process in (server, worker):
            if process is not None:
                stop_server(process)
        from django.db import connections

        connections.close_all()
        if not ARGS.keep:
            recreate_database(db_admin, name, drop_only=True)
            redis_client.Redis.from_url(redis_url).flushdb()


def serve(base: str, info: dict, server: subprocess.Popen) -> None:
    """--serve (a child of --compare): tell the parent where the server is, and keep it until stdin closes."""
    print(json.dumps({"base": base, "info": info, "master": server.pid}), flush=True)
    sys.stdin.read()


def compare() -> None:
    """--compare: both trees served side by side, their 8-client hand POST windows alternating."""
    trees = [(sys.executable, ROOT), (ARGS.compare_python, os.path.abspath(ARGS.compare))]
    children, served = [], []
    try:
        for i, (python, root) in enumerate(trees):
            children.append(subprocess.Popen(
                [python, os.path.abspath(__file__), "--serve", "--root", root, "--tag", f"_{i}",
                 "--redis-db", str(ARGS.redis_db + i)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True))
        for child in children:
            line = child.stdout.readline()
            if not line:
                raise RuntimeError("a tree could not be served (its error is above)")
            served.append(json.loads(line))
        pids = [worker_pids(s["master"]) for s in served]
        rates = [[], []]
        order = [0, 1]
        for window in range(ARGS.windows):
            for tree in order:
                rate, _ = post_rate(served[tree]["base"], served[tree]["info"], 8, pids[tree],
                                    runs_left=ARGS.windows - window)
                rates[tree].append(rate)
            order.reverse()  # A B, B A, A B...: each tree measured first as often as second
        print(f"\nhand POST, 8 clients, {ARGS.post_seconds:g}-second windows (hands/s)")
        print(f"{'window':>6} {'this tree':>10} {'--compare':>10} {'ratio':>7}")
        ratios = [a / b for a, b in zip(*rates, strict=True)]
        for i, (a, b, r) in enumerate(zip(*rates, ratios, strict=True)):
            print(f"{i + 1:>6} {a:10.0f} {b:10.0f} {r:7.2f}")
        print(f"ratios {min(ratios):.2f}-{max(ratios):.2f}, median {statistics.median(ratios):.2f}")
    finally:
        for child in children:
            child.stdin.close()  # the child stops its servers and drops its databases
        for child in children:
            child.wait(120)


def measure(base: str, info: dict, server: subprocess.Popen) -> None:
    """The table: each row's rate, its ratio to the trivial view's and the workers' CPU per request."""
    pids = worker_pids(server.pid)
    small, large, board = info["small"], info["large"], info["board"]
    rows = [
        ("trivial view", "/bench/trivial/", False),
        ("scoreboard, 59 hands", f"/api/v1/matches/{board}/", False),
        ("scoreboard, If-None-Match -> 304", f"/api/v1/matches/{board}/", True),
        ("round (32 tables), 304", f"/api/v1/tournaments/{small}/rounds/1/", True),
        ("standings, 64 teams", f"/api/v1/tournaments/{small}/standings/", False),
        ("standings, 64 teams, 304", f"/api/v1/tournaments/{small}/standings/", True),
        ("standings, 1,024 teams", f"/api/v1/tournaments/{large}/standings/", False),
        ("standings, 1,024 teams, gzip", f"/api/v1/tournaments/{large}/standings/", "gzip"),
        ("standings, 1,024 teams, ?limit=10", f"/api/v1/tournaments/{large}/standings/?limit=10", False),
        ("standings page, 304", "/t/gentse-beker/standings/", True),
        ("match page, 304", f"/t/gentse-beker/matches/{board}/", True),
    ]
    only = {s.strip() for s in ARGS.only.split(",") if s.strip()}
    results = []
    floor = None
    for label, path, conditional in rows:
        if only and label != "trivial view" and not any(o in label for o in only):
            continue
        status, headers, body = get(base + path)
        if status != 200:
            raise RuntimeError(f"{path}: {status} {body[:300]}")
        wrk_headers = {}
        if conditional is True:
            cookie = headers.get("Set-Cookie", "").split(";")[0]
            if cookie:  # a page that set its CSRF cookie: the browser sends it back with the ETag
                wrk_headers["Cookie"] = cookie
                headers = get(base + path, wrk_headers)[1]
            if "ETag" not in headers:  # an older tree (--root) without ETags on this path
                results.append((f"{label} (no ETag)", 0.0, 0.0, 0.0, 0))
                continue
            wrk_headers["If-None-Match"] = headers["ETag"]
            if get(base + path, wrk_headers)[0] != 304:
                results.append((f"{label} (no 304)", 0.0, 0.0, 0.0, 0))
                continue
        elif conditional == "gzip":
            wrk_headers["Accept-Encoding"] = "gzip"
        size = len(get(base + path, wrk_headers)[2])
        before = cpu_seconds(pids)
        rate = wrk(base + path, wrk_headers)
        cpu = (cpu_seconds(pids) - before) / max(rate * ARGS.seconds, 1)
        floor = floor or rate
        results.append((label, rate, rate / floor, cpu, size))
    if not only or any("post" in o for o in only):
        for clients in (1, 8):
            rate, cpu = post_rate(base, info, clients, pids)
            results.append((f"hand POST, {clients} client{'s' if clients > 1 else ''} (hands/s)", rate,
                            rate / floor, cpu, 0))
    print(f"\n{'path':44} {'req/s':>9} {'÷ trivial':>10} {'worker CPU/req':>15} {'bytes':>8}")
    for label, rate, ratio, cpu, size in results:
        print(f"{label:44} {rate:9.0f} {ratio:10.3f} {cpu * 1000:12.2f} ms {size:8}")


def main():
    if ARGS.compare:
        compare()
    elif ARGS.serve:
        run_served(ARGS.tag, serve)
    else:
        run_served("", measure)


if __name__ == "__main__":
    main()
