"""Probe: faults and hostile input against the production server (issue #11, points 2, 4, 5; issue #24).

Needs PostgreSQL (DATABASE_URL). Creates a throw-away database on that server
(``<name>_probe_faults``, dropped at the end unless --keep), starts a private redis-server on a free
loopback port (no persistence) as the cache, Celery broker and channel layer, loads a public
Belgian tournament, starts the production set as docker-compose runs it (``_servers.Production``:
nginx from deploy/nginx's template when Debian's nginx is installed, web's sync workers and
live's uvicorn workers; DEBUG=0, SECURE_HTTPS=0, TRUSTED_PROXIES=1 behind nginx) and probes through
its one address:

and repeats three probes:

1. bad input: JSON nested 1,000 and 100,000 levels deep, bodies over 2.5 MB (JSON and form),
   invalid JSON and UTF-8, odd content types, paths with a newline, a NUL or 10,000 characters,
   every method on unknown API paths, huge numbers;
2. 20 concurrent identical POSTs (no Idempotency-Key) of the hand that decides a game, --trials times;
3. Redis killed during writes: hands entered one after the other on several matches while the
   redis-server is killed half-way, a token asked for and /healthz/ read after it;

then, with a Celery worker and Celery beat (the periodic sweep) started as they are deployed
(``celery -A config worker`` / ``beat``, the settings' SWEEP_SECONDS, STANDINGS_STALE_SECONDS and
TASK_LEASE_SECONDS unless the environment sets them), on a second tournament (issue #11, points 1, 3):

4. Redis killed while match results are entered, then started again: the time from its return to
   standings that hold every result;
5. the worker killed (SIGKILL) mid-recompute (FAULT_TASK_DELAY_SECONDS holds it inside its
   transaction), a new worker started: the time from its start to right standings;
6. the worker killed mid-pairing: the time until a new pair request is accepted (202, not 409
   pairing_in_progress), the first task's final status, and the new request paired;

and last (issue #24), the holes a black-box probe found:

7. a reused Idempotency-Key with another hand (422 ``idempotency_key_mismatch``, not the first
   hand replayed and the second lost); webhooks registered to internal addresses (loopback, the
   private redis-server's port, link-local, private, IPv4-mapped IPv6: each refused); password
   guesses at many accounts, each with another ``X-Forwarded-For``, which must all count against
   the one address and lock it out at ``LOGIN_FAILURE_LIMIT_ADDRESS`` (set to 10 here).

Probe 1 also sends a token with a non-UTF-8 byte and NUL bytes in every search box.

It prints, per probe and in total: requests tried, 500s (and any other 5xx or dropped connection),
hands stored twice (rows beyond what was answered 201, or beyond the one deciding hand), tasks left
stuck (pending or running at the end) and the times to right standings.
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
import signal
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _servers import Production, free_port, paired_tournament, recreate_database  # noqa: E402


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
    # The sweep probes' own tournament: its organizer pairs it, its matches are finished under faults.
    second, second_matches = paired_tournament(name="Sweep probe", slug="sweep-probe", club="Sweep club", teams=8)
    second.scorekeepers.add(user)
    second.organizers.add(user)
    return AuthToken.objects.create(user)[1], matches, (second.pk, second.slug, second_matches)


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
    """500s, the proxy's 502s and 504s, and dropped connections (a 503 is /healthz/ naming what is down, or
    the database away, on purpose)."""
    return sum(n for s, n in statuses.items() if not isinstance(s, int) or (s >= 500 and s != 503))


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
        ("GET", "/?q=%00", None, None), ("GET", "/api/v1/tournaments/?search=%00", None, None),
        ("GET", "/api/v1/clubs/?search=a%00b", None, None), ("GET", "/api/v1/teams/?search=%00", None, None),
        ("GET", "/api/v1/players/?search=%00", None, None), ("GET", "/admin/login/?next=/admin/%00", None, None),
    ]
    for raw in ("/api/v1/matches/%0A/", "/api/v1/%0A", "/api/v1/tournaments/a%0Ab/", "/api/v1/matches/%00/",
                "/api/v1/" + "a" * 10_000 + "/", "/t/%0A/", "/api/v1/matches/1/hands/%0A",
                "/api/v1/tournaments/%E2%80%AE/"):
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"):
            cases.append((method, raw, "{}" if method in ("POST", "PUT", "PATCH") else None, "application/json"))
    not_json = 0
    for path in ("/api/v1/tournaments/", "/api/v1/auth/me/", f"/api/v1/matches/{match_id}/"):
        status, data = client.request("GET", path, headers={"Authorization": "Token caf\xe9"}, auth=False)
        if status != 401:
            not_json += 1  # counted with the error shapes: a bad token is a 401 like any other
    for method, path, body, ctype in cases:
        status, data = client.request(method, path, body, ctype, timeout=60)
        if path.startswith("/api/") and method != "HEAD" and isinstance(status, int) and status >= 400:
            try:
                parsed = json.loads(data)
                assert {"type", "errors"} <= set(parsed)
            except Exception:  # noqa: BLE001 - counted
                not_json += 1
                if os.environ.get("PROBE_DEBUG"):
                    print("not JSON:", method, path[:80], status, data[:120], file=sys.stderr)
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


# -- probe 7: the holes of issue #24 -----------------------------------------------------------------------

def probe_holes(client: Client, match_id: int, slug: str, redis_port: int) -> dict:
    """Idempotency-Key reuse, webhooks to internal addresses, X-Forwarded-For from the host."""
    path = f"/api/v1/matches/{match_id}/hands/"
    key = {"Idempotency-Key": f"probe-{uuid.uuid4().hex}"}
    first = client.request("POST", path, json.dumps(hand("N")), headers=key)[0]
    reused = client.request("POST", path, json.dumps(hand("E", 23, (3, 5))), headers=key)
    replay = client.request("POST", path, json.dumps(hand("N")), headers=key)[0]
    code = None
    with contextlib.suppress(Exception):
        code = json.loads(reused[1])["errors"][0]["code"]
    lost = int(first == 201 and not (reused[0] == 422 and code == "idempotency_key_mismatch"))

    accepted = []
    for url in (f"http://127.0.0.1:{redis_port}/", "http://localhost:6379/", "http://[::1]/",
                "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://192.168.1.1/",
                "http://100.64.0.1/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "http://2130706433/"):
        status, _ = client.request("POST", f"/api/v1/tournaments/{slug}/webhooks/", json.dumps({"url": url}))
        if status != 400:
            accepted.append((url, status))

    locked_at = None
    for i in range(30):  # LOGIN_FAILURE_LIMIT_ADDRESS=10: the tenth failure locks the address
        forged = ".".join(str((i * 37 + k * 11) % 250 + 1) for k in range(4))
        status, _ = client.request("POST", "/api/v1/auth/token/",
                                   json.dumps({"username": f"nobody-{i}", "password": "guess"}),
                                   headers={"X-Forwarded-For": forged}, auth=False)
        if status == 429:
            locked_at = i + 1
            break
    return {"idempotency: first, reused key with another hand, replay": [first, reused[0], code, replay],
            "hands lost to a reused key": lost, "internal webhook targets accepted": accepted,
            "address locked out after failures (limit 10)": locked_at,
            "lockout bypassed by X-Forwarded-For": int(locked_at is None or locked_at > 10)}


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


# -- probes 4 to 6: the sweep, with real worker and beat processes -------------------------------------------

class Celery:
    """``celery -A config worker`` (solo pool, both queues) or ``beat`` as deployed, in a process group of its own."""

    def __init__(self, kind: str, env: dict, log: Path, **extra):
        self.kind, self.log = kind, log
        self.env = {**env, "LOG_LEVEL": "INFO", **{k: str(v) for k, v in extra.items()}}
        if kind == "worker":
            args = ["worker", "--pool=solo", "--queues=celery,standings", "--without-gossip", "--without-mingle",
                    "--without-heartbeat", f"--hostname=probe-{uuid.uuid4().hex[:8]}@localhost", "--loglevel=INFO"]
            self.ready = "ready."
        else:
            args = ["beat", "--loglevel=INFO", f"--schedule={log.with_suffix('.schedule')}"]
            self.ready = "beat: Starting..."
        with open(log, "w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                                         env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        if not wait(lambda: self.ready in self.output() or self.proc.poll() is not None, 60) or self.proc.poll():
            self.kill()
            sys.exit(f"celery {kind} did not start; see {log}")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


def wait(predicate, timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def timed(predicate, timeout: float) -> float | None:
    """Seconds until ``predicate()`` holds, or None after ``timeout``."""
    started = time.monotonic()
    return round(time.monotonic() - started, 1) if wait(predicate, timeout) else None


def finish_match(client: Client, match_id: int) -> Counter:
    """Two games of two all-tricks hands each: the match is won by NS."""
    statuses = Counter()
    for dealer in "NENE":
        status, _ = client.request("POST", f"/api/v1/matches/{match_id}/hands/", json.dumps(hand(dealer, 60, (8, 0))))
        statuses[status] += 1
    return statuses


def standings_right(tournament_id: int, match_ids: list[int]) -> bool:
    """Every finished match's winner has a win's points in the saved standings, and no change is waiting."""
    from django.db import connections

    from tournaments.models import Match, Standing, StandingsChange, Tournament

    try:
        points = Tournament.objects.get(pk=tournament_id).points_win
        winners = {m.ns_id if m.winner == "ns" else m.ew_id
                   for m in Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED)}
        rows = dict(Standing.objects.filter(tournament_id=tournament_id).values_list("team_id", "match_points"))
        return (bool(winners) and all(rows.get(t) == points for t in winners)
                and not StandingsChange.objects.filter(tournament_id=tournament_id).exists())
    finally:
        connections.close_all()


def stuck_tasks() -> int:
    from django.db import connections

    from tournaments.models import TaskRecord

    try:
        return TaskRecord.objects.filter(status__in=[TaskRecord.Status.PENDING, TaskRecord.Status.RUNNING]).count()
    finally:
        connections.close_all()


def probe_sweep(client: Client, env: dict, redis_port: int, second, log_dir: Path) -> dict[str, dict]:
    """Probes 4 to 6 on the second tournament; returns their results by label."""
    tournament_id, slug, match_ids = second
    bound = float(env.get("STANDINGS_STALE_SECONDS", 10)) + float(env.get("SWEEP_SECONDS", 5)) + 60
    lease = float(env.get("TASK_LEASE_SECONDS", 30))
    results = {}
    redis = start_redis(redis_port)  # probe 3 left it dead
    worker = Celery("worker", env, log_dir / "probe_worker.log")
    beat = Celery("beat", env, log_dir / "probe_beat.log")
    try:
        # 4. Redis down while results are stored.
        c = Client(client.port, client.token)
        kill(redis)
        answers = finish_match(c, match_ids[0]) + finish_match(c, match_ids[1])
        redis = start_redis(redis_port)
        restarted = []
        if not worker.alive():  # kombu may give up on an unacknowledged message: its supervisor restarts it
            worker = Celery("worker", env, log_dir / "probe_worker.log")
            restarted.append("worker")
        if not beat.alive():
            beat = Celery("beat", env, log_dir / "probe_beat.log")
            restarted.append("beat")
        took = timed(lambda: standings_right(tournament_id, match_ids[:2]), bound)
        results["4. Redis killed while results were stored, then restarted"] = {
            "requests tried": c.tried, "500s": server_errors(c.statuses), "answers": dict(answers),
            "seconds from Redis back to right standings": took if took is not None else f"not within {bound} s",
            "restarted after exiting": restarted or "none"}

        # 5. The worker killed mid-recompute.
        c = Client(client.port, client.token)
        worker.kill()
        slow = Celery("worker", env, log_dir / "probe_worker_slow.log", FAULT_TASK_DELAY_SECONDS=300)
        answers = finish_match(c, match_ids[2])
        caught = wait(lambda: "fault injection: standings recompute waits" in slow.output(), 60)
        slow.kill()
        worker = Celery("worker", env, log_dir / "probe_worker.log")
        took = timed(lambda: standings_right(tournament_id, match_ids[:3]), bound)
        results["5. worker killed mid-recompute, a new worker started"] = {
            "requests tried": c.tried, "500s": server_errors(c.statuses), "answers": dict(answers),
            "killed mid-recompute": caught,
            "seconds from the new worker to right standings": took if took is not None else f"not within {bound} s"}

        # 6. The worker killed mid-pairing.
        c = Client(client.port, client.token)
        worker.kill()
        slow = Celery("worker", env, log_dir / "probe_worker_slow.log", FAULT_TASK_DELAY_SECONDS=300)
        pair = f"/api/v1/tournaments/{slug}/rounds/"
        status, data = c.request("POST", pair, json.dumps({"force": True}))
        first = json.loads(data).get("task") if status == 202 else None
        if first is None:
            print(f"the pair request was answered {status}: {data[:300]!r}", file=sys.stderr)
        caught = wait(lambda: "fault injection: pairing waits" in slow.output(), 60)
        slow.kill()
        killed = time.monotonic()
        refused, accepted = Counter(), None
        while time.monotonic() - killed < lease * 3:
            status, data = c.request("POST", pair, json.dumps({"force": True}))
            if status == 202:
                accepted = json.loads(data).get("task")
                break
            code = None
            with contextlib.suppress(Exception):
                code = json.loads(data)["errors"][0]["code"]
            refused[(status, code)] += 1
            time.sleep(0.5)
        waited = round(time.monotonic() - killed, 1)
        worker = Celery("worker", env, log_dir / "probe_worker.log")
        final = {}

        def finished(task_id):
            status, data = c.request("GET", f"/api/v1/tasks/{task_id}/")
            final[task_id] = json.loads(data) if status == 200 else {"status": status}
            return final[task_id].get("status") in ("succeeded", "failed")

        paired = accepted is not None and wait(lambda: finished(accepted), 60, 0.5)
        if first:
            finished(first)
        results["6. worker killed mid-pairing"] = {
            "requests tried": c.tried, "500s": server_errors(c.statuses), "killed mid-pairing": caught,
            "refused while the lease ran": dict(refused),
            "seconds from the kill to a new request accepted": waited if accepted else f"none in {lease * 3} s",
            "first task": (final.get(first) or {}).get("status"),
            "its reason": ((final.get(first) or {}).get("error") or {}).get("code"),
            "new request": (final.get(accepted) or {}).get("status") if paired else "not finished",
            "tasks left stuck": stuck_tasks()}
    finally:
        worker.kill()
        beat.kill()
        kill(redis)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5, help="matches for the concurrent-duplicates probe")
    parser.add_argument("--concurrent", type=int, default=20, help="identical POSTs at once")
    parser.add_argument("--redis-matches", type=int, default=8, help="matches written while Redis is killed")
    parser.add_argument("--hands", type=int, default=12, help="hands per match in the Redis probe")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the probe database")
    parser.add_argument("--no-sweep", action="store_true", help="skip probes 4 to 6 (worker and beat processes)")
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
           "THROTTLE_TOKEN": "100000/min", "PROBE_LOG": str(log), "LOGIN_FAILURE_LIMIT_ADDRESS": "10"}
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECURE_HTTPS", "SECRET_KEY",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")})
    recreate_database(db_url, name)
    redis = start_redis(redis_port)
    server = None
    results = {}
    try:
        needed = 1 + args.trials + args.redis_matches
        token, matches, second = load_data(2 * needed + 2)
        server = Production(env, port, web_workers=args.workers, live_workers=1, directory=str(log.parent / "nginx"),
                            stdout=subprocess.DEVNULL, stderr=open(env["PROBE_LOG"], "w"))  # noqa: SIM115
        os.makedirs(server.directory, exist_ok=True)
        server.start()
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
        if not args.no_sweep:
            results.update(probe_sweep(client, env, redis_port, second, log.parent))
        run("7. issue #24: a reused Idempotency-Key, internal webhooks, X-Forwarded-For", probe_holes,
            matches[-1], second[1], redis_port)
    finally:
        if server is not None:
            server.stop()
        kill(redis)
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(db_url, name, drop_only=True)

    tried = sum(r["requests tried"] for r in results.values())
    errors = sum(r["500s"] for r in results.values())
    twice = sum(r.get("hands stored twice", 0) + r.get("hands lost to a reused key", 0) for r in results.values())
    holes = sum(len(r.get("internal webhook targets accepted", [])) + r.get("lockout bypassed by X-Forwarded-For", 0)
                for r in results.values())
    stuck = sum(r.get("tasks left stuck", 0) for r in results.values())
    late = [label for label, r in results.items()
            for k, v in r.items() if k.startswith("seconds") and not isinstance(v, (int, float))]
    for label, r in results.items():
        print(f"\n{label}")
        for k, v in r.items():
            print(f"  {k}: {v}")
    print(f"\nTOTAL: requests tried {tried}, 500s {errors}, hands stored twice or lost {twice}, "
          f"tasks left stuck {stuck}, holes {holes}")
    print(f"(server log: {log}; worker and beat logs beside it)")
    sys.exit(1 if errors or twice or stuck or late or holes else 0)


if __name__ == "__main__":
    main()
