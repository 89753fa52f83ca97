"""Probe: faults and hostile input against the production server (issue #11, points 2, 4, 5).

Needs PostgreSQL (DATABASE_URL). Creates a throw-away database on that server
(``<name>_probe_faults``, dropped at the end unless --keep), starts a private redis-server on a free
loopback port (no persistence) as the cache, Celery broker and channel layer, loads a public
Belgian tournament, starts the production server as a subprocess:

    gunicorn config.asgi:application -k config.uvicorn_worker.Worker -w 2   (DEBUG=0, SECURE_HTTPS=0)

and repeats three probes:

1. bad input: JSON nested 1,000 and 100,000 levels deep, bodies over 2.5 MB (JSON and form),
   invalid JSON and UTF-8, odd content types, paths with a newline, a NUL or 10,000 characters,
   every method on unknown API paths, huge numbers;
2. 20 concurrent identical POSTs (no Idempotency-Key) of the hand that decides a game, --trials times;
3. Redis killed during writes: hands entered one after the other on several matches while the
   redis-server is killed half-way, a token asked for and /healthz/ read after it.

It prints, per probe and in total: requests tried, 500s (and any other 5xx or dropped connection),
and hands stored twice (rows beyond what was answered 201, or beyond the one deciding hand).
Every loop is bounded and every wait has a timeout. Exit status 1 when a 500 or a duplicate was seen.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille .venv/bin/python bench/probe_faults.py
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _servers import free_port, paired_tournament, recreate_database, start_server, stop_server  # noqa: E402


def wait_port(port: int, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.3):
            return True
        time.sleep(0.05)
    return False


def start_redis(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not wait_port(port):
        proc.kill()
        sys.exit("redis-server did not start")
    return proc


def kill(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait(10)


def load_data(teams: int):
    """A public Belgian tournament, round 1 paired; a scorekeeper's API token; the match ids."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from api.models import AuthToken

    tournament, matches = paired_tournament(name="Fault probe", slug="fault-probe", club="Probe club", teams=teams)
    user = get_user_model().objects.create_user("probe", "probe@example.org", "probe-password-1")
    tournament.scorekeepers.add(user)
    return AuthToken.objects.create(user)[1], matches


def hand_rows(match_id: int) -> list[tuple[int, int]]:
    from django.db import connections

    from tournaments.models import Hand

    rows = list(Hand.objects.filter(game__match_id=match_id).values_list("game__number", "number"))
    connections.close_all()
    return rows


class Client:
    """Raw HTTP/1.1 requests (paths sent byte for byte), a status per request, counted."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.statuses: Counter = Counter()
        self.lock = threading.Lock()
        self.tried = 0

    def request(self, method: str, path: str, body: bytes | str | None = None,
                content_type: str | None = "application/json", headers: dict | None = None,
                auth: bool = True, timeout: float = 30) -> tuple[int | str, bytes]:
        if isinstance(body, str):
            body = body.encode()
        hdrs = {"Host": "127.0.0.1", "Accept": "application/json"}
        if content_type and body is not None:
            hdrs["Content-Type"] = content_type
        if auth and self.token:
            hdrs["Authorization"] = f"Token {self.token}"
        hdrs.update(headers or {})
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for k, v in hdrs.items():
                conn.putheader(k, v)
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            response = conn.getresponse()
            status, data = response.status, response.read()
        except (OSError, http.client.HTTPException) as exc:
            status, data = f"dropped ({type(exc).__name__})", b""
        finally:
            conn.close()
        with self.lock:
            self.tried += 1
            self.statuses[status] += 1
        return status, data


def server_errors(statuses: Counter) -> int:
    """500s and dropped connections (a 503 is /healthz/ naming what is down, on purpose)."""
    return sum(n for s, n in statuses.items() if not isinstance(s, int) or s == 500 or s > 503)


def hand(dealer: str, ns: int = 37, tricks=(5, 3)) -> dict:
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns, "ew": 60 - ns}}


# -- probe 1: bad input ------------------------------------------------------------------------------------

def probe_bad_input(client: Client, match_id: int) -> dict:
    hands = f"/api/v1/matches/{match_id}/hands/"
    deep_list = "[" * 1000 + "]" * 1000
    deep_obj = '{"a":' * 1000 + "1" + "}" * 1000
    very_deep = "[" * 100_000 + "]" * 100_000
    big_json = '{"dealer": "N", "junk": "' + "x" * 3_000_000 + '"}'
    big_form = "username=a&password=" + "x" * 3_000_000
    cases = [
        ("POST", hands, deep_list, "application/json"), ("POST", hands, deep_obj, "application/json"),
        ("POST", hands, very_deep, "application/json"),
        ("POST", "/api/v1/variants/belgian-manille/score/", deep_obj, "application/json"),
        ("POST", "/api/v1/variants/belgian-manille/check-play/", deep_list, "application/json"),
        ("POST", "/api/v1/auth/token/", deep_obj, "application/json"),
        ("POST", hands, big_json, "application/json"), ("POST", "/api/v1/auth/token/", big_form,
                                                        "application/x-www-form-urlencoded"),
        ("POST", hands, "{not json", "application/json"), ("POST", hands, b"\xff\xfe\x00garbage", "application/json"),
        ("POST", hands, '{"dealer": "N"}', "text/plain"), ("POST", hands, "dealer=N", "multipart/form-data"),
        ("POST", hands, '{"dealer": "N", "points": {"ns": 1e400, "ew": 10}}', "application/json"),
        ("POST", hands, '{"dealer": "N", "number": 99999999999999999999999}', "application/json"),
        ("POST", hands, '{"dealer": "N\\u0000", "trump": "H"}', "application/json"),
        ("POST", hands, '"just a string"', "application/json"), ("POST", hands, "[1, 2, 3]", "application/json"),
        ("POST", "/api/v1/variants/belgian-manille/score/", '{"dealer": "N", "state": {"totals": "x"}}',
         "application/json"),
        ("PATCH", "/api/v1/hands/999999999999999999999/", '{"dealer": "N"}', "application/json"),
        ("GET", "/api/v1/matches/99999999999999999999/", None, None),
        ("GET", "/api/v1/matches/?page=99999999999999999999", None, None),
        ("GET", "/api/v1/matches/?round=abc&status=%00", None, None),
        ("GET", "/api/v1/tournaments/?search=" + "%F0%9F" * 50, None, None),
    ]
    for raw in ("/api/v1/matches/%0A/", "/api/v1/%0A", "/api/v1/tournaments/a%0Ab/", "/api/v1/matches/%00/",
                "/api/v1/" + "a" * 10_000 + "/", "/t/%0A/", "/api/v1/matches/1/hands/%0A",
                "/api/v1/tournaments/%E2%80%AE/"):
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"):
            cases.append((method, raw, "{}" if method in ("POST", "PUT", "PATCH") else None, "application/json"))
    not_json = 0
    for method, path, body, ctype in cases:
        status, data = client.request(method, path, body, ctype, timeout=60)
        if path.startswith("/api/") and method != "HEAD" and isinstance(status, int) and status >= 400:
            try:
                parsed = json.loads(data)
                assert {"type", "errors"} <= set(parsed)
            except Exception:  # noqa: BLE001 - counted
                not_json += 1
    return {"not in the API's error shape": not_json}


# -- probe 2: concurrent identical deciding hands --------------------------------------------------------

def probe_concurrent_duplicates(client: Client, match_ids: list[int], n: int) -> dict:
    twice = 0
    answered = Counter()
    for match_id in match_ids:
        path = f"/api/v1/matches/{match_id}/hands/"
        client.request("POST", path, json.dumps(hand("N", 60, (8, 0))))
        barrier = threading.Barrier(n)
        results: list = []

        def post():
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=30)
            status, data = client.request("POST", path, json.dumps(hand("E", 60, (8, 0))))  # noqa: B023
            code = None
            with contextlib.suppress(Exception):
                code = json.loads(data)["errors"][0]["code"]
            results.append((status, code))  # noqa: B023

        threads = [threading.Thread(target=post) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        answered.update(results)
        rows = hand_rows(match_id)
        twice += max(0, len(rows) - 2)  # hand 1, and the deciding hand once
    return {"answers": dict(answered), "hands stored twice": twice}


# -- probe 3: Redis killed during writes -------------------------------------------------------------------

def probe_redis_killed(client: Client, match_ids: list[int], redis: subprocess.Popen, per_match: int) -> dict:
    dealers = "NESW"
    created = Counter()
    before, after = Counter(), Counter()
    slow = 0
    total = per_match * len(match_ids)
    step = 0
    for i in range(per_match):
        for match_id in match_ids:
            if step == total // 2:
                kill(redis)
            phase = before if step < total // 2 else after
            started = time.monotonic()
            status, _ = client.request("POST", f"/api/v1/matches/{match_id}/hands/", json.dumps(hand(dealers[i % 4])))
            slow += time.monotonic() - started > 3
            phase[status] += 1
            if status == 201:
                created[match_id] += 1
            step += 1
    token_status, _ = client.request("POST", "/api/v1/auth/token/",
                                     json.dumps({"username": "probe", "password": "probe-password-1"}), auth=False)
    health_status, health = client.request("GET", "/healthz/", headers={"Accept": "text/html"})
    stored = {m: len(hand_rows(m)) for m in match_ids}
    mismatched = sum(abs(stored[m] - created[m]) for m in match_ids)
    twice = sum(max(0, stored[m] - created[m]) for m in match_ids)
    return {"writes before the kill": dict(before), "writes after the kill": dict(after),
            "writes over 3 s": slow, "token after the kill": token_status,
            "healthz after the kill": f"{health_status} {health.decode(errors='replace')[:160]}",
            "rows not matching 201s": mismatched, "hands stored twice": twice}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5, help="matches for the concurrent-duplicates probe")
    parser.add_argument("--concurrent", type=int, default=20, help="identical POSTs at once")
    parser.add_argument("--redis-matches", type=int, default=8, help="matches written while Redis is killed")
    parser.add_argument("--hands", type=int, default=12, help="hands per match in the Redis probe")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the probe database")
    args = parser.parse_args()

    db_url = os.environ.get("DATABASE_URL", "")
    if not db_url.startswith(("postgres://", "postgresql://")):
        sys.exit("probe_faults needs DATABASE_URL on PostgreSQL")
    parts = urlsplit(db_url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_probe_faults"
    probe_db = urlunsplit(parts._replace(path=f"/{name}"))
    redis_port, port = free_port(), free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    log = ROOT / "var" / "probe_faults.log"
    log.parent.mkdir(exist_ok=True)
    env = {**os.environ, "DATABASE_URL": probe_db, "REDIS_URL": redis_url, "DEBUG": "0", "SECURE_HTTPS": "0",
           "SECRET_KEY": "probe-faults-" + "x" * 40, "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING", "THROTTLE_WRITES": "100000/min",
           "THROTTLE_TOKEN": "100000/min", "PROBE_LOG": str(log)}
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECURE_HTTPS", "SECRET_KEY",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")})
    recreate_database(db_url, name)
    redis = start_redis(redis_port)
    server = None
    results = {}
    try:
        needed = 1 + args.trials + args.redis_matches
        token, matches = load_data(2 * needed + 2)
        server = start_server(env, port, args.workers, "--timeout", "60", stdout=subprocess.DEVNULL,
                              stderr=open(env["PROBE_LOG"], "w"))  # noqa: SIM115
        if not wait_port(port, 60):
            sys.exit("the server did not start")
        client = Client(port, token)
        deadline = time.monotonic() + 60
        while client.request("GET", "/healthz/")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.3)
        client.tried, client.statuses = 0, Counter()

        def run(label, fn, *a):
            c = Client(port, token)
            started = time.monotonic()
            extra = fn(c, *a)
            results[label] = {"requests tried": c.tried, "500s": server_errors(c.statuses),
                              "statuses": dict(c.statuses), **extra,
                              "seconds": round(time.monotonic() - started, 1)}

        run("1. bad input", probe_bad_input, matches[0])
        run(f"2. {args.concurrent} concurrent identical deciding hands x {args.trials}", probe_concurrent_duplicates,
            matches[1:1 + args.trials], args.concurrent)
        run("3. Redis killed during writes", probe_redis_killed,
            matches[1 + args.trials:1 + args.trials + args.redis_matches], redis, args.hands)
    finally:
        if server is not None:
            stop_server(server)
        kill(redis)
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(db_url, name, drop_only=True)

    tried = sum(r["requests tried"] for r in results.values())
    errors = sum(r["500s"] for r in results.values())
    twice = sum(r.get("hands stored twice", 0) for r in results.values())
    for label, r in results.items():
        print(f"\n{label}")
        for k, v in r.items():
            print(f"  {k}: {v}")
    print(f"\nTOTAL: requests tried {tried}, 500s {errors}, hands stored twice {twice}")
    print(f"(server log: {log})")
    sys.exit(1 if errors or twice else 0)


if __name__ == "__main__":
    main()
