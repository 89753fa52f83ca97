"""Benchmark (issue 29): the push channel's latency from a hand's 201 to its event, on the production set.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and nginx (Debian's). On a throw-away database
(``<name>_bench_push``, dropped at the end unless --keep) and an emptied Redis database of its own (--redis-db),
it loads bench_night's tournament (a public Belgian Swiss event of 60 teams, round 1 played, round 2's --tables
30 tables paired; a scorekeeper with an API token at each table) and --subscribers (200) API users with a token
each, then starts what docker-compose runs, each with the command docker-compose.yml gives it
(``_night.Bench``): nginx, web, live, the Celery worker, the standings worker and beat.

Then, on one clock (CLOCK_MONOTONIC, shared by the processes of the machine):

* the subscribers arrive over --ramp seconds: each asks ``POST /api/v1/push/tickets/`` for the tournament with
  its token and opens ``GET /api/v1/push/stream/`` through nginx (to live), and keeps it open; a stream that
  breaks or ends is opened again with a new ticket and ``Last-Event-ID``, as the guide's clients do
  (httpx, asyncio; --generators processes);
* for --minutes (3), the scorekeeper of each table enters a realistic hand every --interval seconds (10: the
  tables staggered over the first interval, a late answer not made up), through nginx to web, with its
  ``Idempotency-Key``, until the night ends or its match is decided.

It reports, for every (hand answered 201, subscriber) pair, the lag from the 201 to the arrival of that hand's
``hand.entered`` on the subscriber's stream: p50, p95, p99 and the most; the events that never arrived, came
twice or out of order; the streams opened (and re-opened), the refusals; the hand POSTs' p50/p95; the CPU of
live, of all the servers, of the load generator and of the machine; the servers' logged errors. No goal is
enforced: the issue asks for the figures (the exit status is 1 only when an event is missing, duplicated or out
of order, or an error occurred).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_push.py [--subscribers 200] [--tables 30] [--interval 10] [--minutes 3]
"""
# ./dev bench: skip (about 5 minutes: the production set and a tournament night; run it by hand)

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sys
import time
import uuid
from collections import Counter, defaultdict

from _night import Bench, Logs, cpu_seconds, machine_busy, now, pct, played_hand, sleep_until, spawn_generators
from _servers import group_pids

GRACE_SECONDS = 30.0  # after the last hand: the events still on their way (a busy machine delays a few seconds)


class Record:
    def __init__(self):
        self.errors: Counter = Counter()
        self.samples: list[str] = []
        self.hands: list[tuple[int, float]] = []  # (hand id, when its 201 came)
        self.posts: list[float] = []  # the hand POSTs' seconds
        self.arrivals: dict[int, dict[int, float]] = defaultdict(dict)  # subscriber: {hand id: first arrival}
        self.duplicates = 0
        self.disorder = 0
        self.streams = 0
        self.refused: Counter = Counter()
        self.decided = 0
        self.ready: dict[int, float] = {}  # subscriber: when its first stream said ready

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{kind}: {what}"[:300])


async def keeper(plan: dict, table: dict, record: Record) -> None:
    import httpx

    rng = random.Random(table["seed"])
    interval = plan["interval"]
    tick = plan["hands_from"] + rng.uniform(0, interval)
    await sleep_until(tick)
    async with httpx.AsyncClient(base_url=plan["base"], timeout=30,
                                 headers={"Authorization": f"Token {table['token']}"}) as client:
        board = (await client.get(f"/api/v1/matches/{table['match']}/")).json()
        number = sum(len(game["hands"]) for game in board["games"])
        dealer = board["next_dealer"] or "N"
        while now() < plan["hands_until"]:
            body, key = played_hand(rng, dealer, number), str(uuid.uuid4())
            answer = None
            for _attempt in range(4):
                started = now()
                try:
                    response = await client.post(f"/api/v1/matches/{table['match']}/hands/", json=body,
                                                 headers={"Idempotency-Key": key})
                except httpx.HTTPError as exc:
                    record.error("hand POST", repr(exc))
                    continue
                record.posts.append(now() - started)
                if response.status_code == 201:
                    answer = response.json()
                    break
                record.error("hand POST", f"{response.status_code} {response.text[:200]}")
                if response.status_code < 500:
                    break
            if answer is None:
                return
            record.hands.append((answer["id"], now()))
            number += 1
            if answer["match"]["status"] == "finished":
                record.decided += 1
                return
            dealer = answer["match"]["next_dealer"] or "N"
            tick += interval
            await sleep_until(tick)


async def subscriber(plan: dict, index: int, record: Record) -> None:
    """One API client on the push channel, as the guide's Python client: a ticket, the stream, again after a break."""
    import httpx

    sub = plan["subscribers"][index]
    await sleep_until(sub["arrive"])
    seen = record.arrivals[index]
    last_id, last_key = None, (0, 0)
    async with httpx.AsyncClient(base_url=plan["base"], headers={"Authorization": f"Token {sub['token']}"},
                                 timeout=httpx.Timeout(30, read=60)) as client:
        while now() < plan["end"]:
            try:
                ticket = await client.post("/api/v1/push/tickets/", json={"tournament": plan["slug"]})
                if ticket.status_code != 201:
                    record.refused[f"ticket {ticket.status_code}"] += 1
                    await asyncio.sleep(1)
                    continue
                headers = {"Last-Event-ID": last_id} if last_id else {}
                async with asyncio.timeout(max(0.1, plan["end"] - now())):
                    async with client.stream("GET", ticket.json()["url"], headers=headers) as stream:
                        if stream.status_code != 200:
                            record.refused[f"stream {stream.status_code}"] += 1
                            await asyncio.sleep(1)
                            continue
                        record.streams += 1
                        event_id, data = None, []
                        async for line in stream.aiter_lines():
                            if line.startswith("id:"):
                                event_id = line[3:].strip()
                            elif line.startswith("data:"):
                                data.append(line[5:].strip())
                            elif not line and data:
                                arrived = now()
                                text = "\n".join(data)
                                data = []
                                ms, _, seq = event_id.partition("-")
                                key = (int(ms), int(seq))
                                if key <= last_key and '"event":"ready"' not in text and '"event":"reset"' not in text:
                                    record.disorder += 1
                                last_id, last_key = event_id, max(key, last_key)
                                if '"event":"hand.entered"' in text:
                                    hand = json.loads(text)["data"]["hand"]["id"]
                                    if hand in seen:
                                        record.duplicates += 1
                                    else:
                                        seen[hand] = arrived
                                elif '"event":"reset"' in text:
                                    record.error("reset", text[:200])
                                elif '"event":"ready"' in text:
                                    record.ready.setdefault(index, arrived)
            except (TimeoutError, asyncio.TimeoutError):
                return  # the night is over
            except httpx.HTTPError as exc:
                record.error("stream", repr(exc))
                await asyncio.sleep(1)


def generator(plan: dict, part: dict, conn) -> None:
    async def run():
        record = Record()
        tasks = [keeper(plan, table, record) for table in part["tables"]]
        tasks += [subscriber(plan, i, record) for i in part["subscribers"]]
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(outcome, BaseException):
                record.error("load generator", repr(outcome))
        return record

    record = asyncio.run(run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    conn.send((record.__dict__, usage.ru_utime + usage.ru_stime))


def users_with_tokens(count: int, prefix: str) -> list[str]:
    """``count`` API users (no password: the token is theirs), a token each."""
    from django.contrib.auth import get_user_model

    from api.models import AuthToken

    return [AuthToken.objects.create(get_user_model().objects.create_user(f"{prefix}{i + 1}"))[1]
            for i in range(count)]


def cost_of_building(match_ids: list[int], hands: int = 20) -> tuple[float, float]:
    """``hand_enter``'s median seconds with nobody listening and with a stream's mark set (Django set up; the
    tasks queued, not run): what the push channel adds to the request that stores a hand. Ties, at two tables."""
    import statistics

    from tournaments.models import Match
    from tournaments.services.hands import hand_enter
    from webhooks import push_store

    store = push_store.get()

    def enter() -> list[float]:
        spent = []
        for _ in range(hands):
            for m in match_ids:
                match = Match.objects.get(pk=m)
                game = match.games.order_by("-number").first()
                dealer = (game.next_dealer if game is not None else "") or "N"
                started = time.perf_counter()
                hand_enter(match=match, data={"dealer": dealer, "trump": "H", "tricks": {"ns": 4, "ew": 4},
                                              "points": {"ns": 30, "ew": 30}})
                spent.append(time.perf_counter() - started)
        return spent

    enter()  # warm: statements prepared, caches filled
    quiet, listened = [], []
    for _ in range(3):  # alternated, so that a change in the machine's load weighs on both alike
        quiet += enter()
        store.watch()
        listened += enter()
        store._client().delete(store.key(push_store.WATCHED), store.key("push:since"))
    return statistics.median(quiet), statistics.median(listened)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subscribers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between two hands of a table")
    parser.add_argument("--minutes", type=float, default=3.0, help="how long the tables enter hands")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the subscribers arrive")
    parser.add_argument("--generators", type=int, default=2, help="load-generator processes")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--keep", action="store_true", help="keep the bench database and the servers' logs")
    parser.add_argument("--cost", action="store_true", help="first measure hand_enter with and without a listener "
                                                            "(in this process, two tables of another round)")
    args = parser.parse_args()
    bench = Bench(program="bench_push", suffix="bench_push", redis_db=args.redis_db, viewers=args.subscribers,
                  keep=args.keep)
    bench.prepare()
    from bench_night import load

    ok = False
    try:
        started = time.monotonic()
        data = load(args.tables, args.seed)
        tokens = users_with_tokens(args.subscribers, "abonnee")
        if args.cost:  # the tasks queued (REDIS_URL), as web queues them
            quiet, listened = cost_of_building(data["matches"][-2:])
            print(f"hand_enter, median: {quiet * 1000:.2f} ms with nobody listening, {listened * 1000:.2f} ms "
                  f"while a stream is open", flush=True)
        print(f"loaded in {time.monotonic() - started:.0f} s: {len(data['matches'])} tables, "
              f"{args.subscribers} subscribers", flush=True)
        from django.db import connections

        connections.close_all()
        bench.start()
        logs = Logs(bench.directory)
        ok = night(args, bench, logs, data, tokens)
    finally:
        bench.close()
    sys.exit(0 if ok else 1)


def night(args, bench: Bench, logs: Logs, data: dict, tokens: list[str]) -> bool:
    rng = random.Random(args.seed)
    start = now() + 5  # the generators' imports
    hands_from = start + args.ramp + 10  # every stream open before the first hand, on a busy machine too
    hands_until = hands_from + args.minutes * 60
    plan = {"base": bench.base, "slug": data["slug"], "interval": args.interval, "hands_from": hands_from,
            "hands_until": hands_until, "end": hands_until + GRACE_SECONDS,
            "subscribers": [{"token": t, "arrive": start + rng.uniform(0, args.ramp)} for t in tokens]}
    tables = [{"match": m, "token": t, "seed": rng.randrange(2 ** 32)} for m, t in zip(data["matches"],
                                                                                       data["tokens"], strict=True)]
    parts = [{"tables": tables if i == 0 else [], "subscribers": list(range(i, len(tokens), args.generators))}
             for i in range(args.generators)]
    pipes, procs = spawn_generators(generator, plan, parts)
    logs.mark()
    live = group_pids({bench.production.processes[1].pid})
    servers = bench.server_pids()
    time.sleep(max(0.0, hands_from - now()))
    busy0, total0 = machine_busy()
    load0 = f"{os.getloadavg()[0]:.1f}"
    live0, servers0 = cpu_seconds(live), cpu_seconds(servers)
    results = []
    for pipe, proc in zip(pipes, procs, strict=True):
        while not pipe.poll(1.0):
            if not proc.is_alive() or now() > plan["end"] + 120:
                raise RuntimeError("a load-generator process did not report (its error is above)")
        results.append(pipe.recv())
    busy1, total1 = machine_busy()
    elapsed = now() - hands_from
    live_cpu, servers_cpu = cpu_seconds(live) - live0, cpu_seconds(servers) - servers0
    for proc in procs:
        proc.join(10)
    record = Record()
    generator_cpu = 0.0
    for got, cpu in results:
        generator_cpu += cpu
        record.errors.update(got["errors"])
        record.samples += got["samples"]
        record.hands += got["hands"]
        record.posts += got["posts"]
        for index, seen in got["arrivals"].items():
            record.arrivals[int(index)].update({int(h): t for h, t in seen.items()})
        record.duplicates += got["duplicates"]
        record.disorder += got["disorder"]
        record.streams += got["streams"]
        record.refused.update(got["refused"])
        record.decided += got["decided"]
        record.ready.update(got["ready"])
    lags, missing, before, missed_by = [], 0, 0, Counter()
    for index, seen in record.arrivals.items():
        for hand, answered in record.hands:
            if hand in seen:
                lags.append(seen[hand] - answered)
            elif answered < record.ready.get(index, float("inf")):
                before += 1  # answered before this subscriber's stream was open: not its to receive
            else:
                missing += 1
                missed_by[index] += 1
    time.sleep(1)
    logged = logs.since_mark()
    ncpu = os.cpu_count()

    def share(seconds: float) -> str:
        return f"{seconds / elapsed / ncpu:.0%}"

    def millis(values, p) -> str:
        return f"{pct(values, p) * 1000:.0f} ms" if values else "-"

    print(f"\nThe push channel: {len(record.arrivals)} subscribers, {args.tables} tables, a hand every "
          f"{args.interval:g} s a table, {args.minutes:g} minutes")
    width = 44
    rows = [
        ("hands answered 201", f"{len(record.hands)} ({len(record.hands) / (args.minutes * 60):.1f}/s; "
                               f"{record.decided} matches decided)"),
        ("hand POST p50 / p95", f"{millis(record.posts, 50)} / {millis(record.posts, 95)}"),
        ("201 -> event over 1 s / 5 s", f"{sum(lag > 1 for lag in lags)} / {sum(lag > 5 for lag in lags)}"),
        ("201 -> event p50 / p95 / p99 / max", f"{millis(lags, 50)} / {millis(lags, 95)} / {millis(lags, 99)} / "
                                               f"{max(lags) * 1000:.0f} ms" if lags else "-"),
        ("deliveries measured", f"{len(lags)} (hands × subscribers)"),
        ("events missing / twice / out of order", f"{missing} / {record.duplicates} / {record.disorder}"
                                                  + (f" (missing at {len(missed_by)} subscribers, the most "
                                                     f"{max(missed_by.values())})" if missed_by else "")),
        ("hands before a subscriber's stream opened", f"{before}"),
        ("streams opened (subscribers)", f"{record.streams} ({len(record.arrivals)})"),
        ("refused", ", ".join(f"{k} {v}" for k, v in sorted(record.refused.items())) or "none"),
        ("errors", ", ".join(f"{k} {v}" for k, v in sorted(record.errors.items())) or "none"),
        ("CPU: live / all servers", f"{share(live_cpu)} / {share(servers_cpu)} of the {ncpu} CPUs"),
        ("CPU: load generator / the machine", f"{share(generator_cpu)} / {(busy1 - busy0) / max(total1 - total0, 1e-9):.0%} busy"
                                              f" (load average {load0} before, {os.getloadavg()[0]:.1f} after)"),
    ]
    for label, value in rows:
        print(f"  {label:{width}} {value}")
    print(f"  {'server logs: errors and exceptions':{width}} {sum(logged.values())}")
    for what, n in logged.most_common(8):
        print(f"    {n:5}x {what}")
    for sample in record.samples:
        print(f"  error: {' '.join(sample.split())[:200]}")
    return missing == 0 and record.duplicates == 0 and record.disorder == 0 and not record.errors


if __name__ == "__main__":
    main()
