"""Benchmark (#24): a tournament night on the production set, scorekeepers and 500 viewers at once.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and nginx (Debian's). Creates a throw-away
database on that server (``<name>_bench_night``, dropped at the end unless --keep), empties a Redis
database of its own (--redis-db, 7 by default; emptied again at the end), loads through the services
a public Belgian tournament of 60 teams from 6 clubs (--tables 30 tables), round 1 played in full
(realistic hands, every match decided), standings computed, round 2 paired; one scorekeeper account a
table, named in the tournament, with an API token. Then it starts what docker-compose runs, each
with the command docker-compose.yml gives it (``_night.Bench``, over ``_servers.Production`` and
``compose_command``; the load generator and the measures are ``_night``'s too, shared with
bench_championship):
nginx, web (--web-workers × --web-threads, 4 sync workers as docker-compose), live (1 worker), a Celery worker (``-Q celery``, concurrency 2),
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
holds it (negative: the push came before the 201), and for the polling match pages to the first poll
answer that holds it, the PostgreSQL connections on the bench database
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
import os
import random
import sys

from _night import (
    Bench,
    Logs,
    connections_text,
    cpu_text,
    delivery_lags,
    during,
    errors_text,
    hands_by_match,
    make_plan,
    ms,
    night,
    now,
    pct,
    played_hand,
    print_logged,
    scorekeeper_tokens,
    stored_once,
)
from _servers import compose_default

THINK_SECONDS = (5.0, 15.0)
GOAL_HAND_P95 = 0.300
GOAL_POLL_P95 = 0.200
CLUBS = ["Aalst", "Dendermonde", "Lokeren", "Ninove", "Wetteren", "Zottegem"]


# -- the tournament -------------------------------------------------------------------------------------------------

def load(tables: int, seed: int) -> dict:
    """Migrate and load the night's tournament through the services (Django set up); return what the night needs."""
    from django.core.management import call_command

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
    tokens = scorekeeper_tokens(tournament, len(matches))
    return {"tournament": tournament.pk, "slug": tournament.slug, "round": second.number, "matches": matches,
            "tokens": tokens}


def report(title: str, result: dict, stored: dict[int, int], bound: int, bounds: dict, goals: bool) -> bool:
    """Print one night's figures (with the goals when ``goals``); return whether every goal was met."""
    r, plan = result["record"], result["plan"]
    region_kinds = ("match", "round", "standings", "wall")
    hands, polls = during(result, "hand"), during(result, *(f"poll:{kind}" for kind in region_kinds))
    by_region = ", ".join(f"{kind} {ms(pct(during(result, f'poll:{kind}'), 95))}" for kind in region_kinds
                          if during(result, f"poll:{kind}"))
    answered, written, exactly_once = stored_once(result, stored)
    lags, missed = delivery_lags(result, ("socket",))
    polled, missed_polled = delivery_lags(result, ("poll",))
    most = result["connections"][0]
    errors = sum(r.errors.values())
    generator_cpu, servers_cpu = cpu_text(result)
    rows = [
        ("errors", errors_text(result), "0", errors == 0),
        ("hands stored once", f"{answered} answered 201, {written} rows"
         + ("" if exactly_once else " (NOT equal match by match)"), "every hand once", exactly_once),
        ("hand POST p50 / p95 / p99", f"{ms(pct(hands, 50))} / {ms(pct(hands, 95))} / {ms(pct(hands, 99))}"
         f" ({len(hands)} POSTs)", "p95 < 300 ms", bool(hands) and pct(hands, 95) < GOAL_HAND_P95),
        ("poll p50 / p95 / p99", f"{ms(pct(polls, 50))} / {ms(pct(polls, 95))} / {ms(pct(polls, 99))}"
         f" ({len(polls)} polls)", "p95 < 200 ms",
         pct(polls, 95) < GOAL_POLL_P95 if polls else all(v["socket"] for v in plan["viewers"])),  # none: none polls
        ("PostgreSQL connections, most", connections_text(result),
         f"<= {bound} ({', '.join(f'{k} {v}' for k, v in bounds.items())})", most <= bound),
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
        ("hand 201 -> poll answer on its match p50 / p95", f"{ms(pct(polled, 50))} / {ms(pct(polled, 95))} "
         f"({len(polled)} deliveries, {missed_polled} never polled)"),
        ("tables decided / scorekeepers stopped", f"{r.decided} / {r.stopped}"),
        ("load generator CPU", generator_cpu),
        ("servers' CPU (nginx, web, live, workers, beat)", servers_cpu),
    ]
    print(f"\n{title}")
    width = 46
    for label, measured, goal, ok in rows:
        verdict = ("ok" if ok else "MISSED") if goals else ""
        print(f"  {label:{width}} {measured:60} {goal if goals else '':28} {verdict}")
    for label, measured in info:
        print(f"  {label:{width}} {measured}")
    print_logged(result, width)
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
    parser.add_argument("--web-workers", type=int, default=int(compose_default("web", "WEB_CONCURRENCY")),
                        help="web's WEB_CONCURRENCY (docker-compose's default)")
    parser.add_argument("--web-threads", type=int, default=int(compose_default("web", "WEB_THREADS")),
                        help="web's WEB_THREADS (docker-compose's default; above 1, threaded workers)")
    parser.add_argument("--redis-db", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the bench database and the servers' logs")
    args = parser.parse_args()
    if not 1 <= args.tables <= 200 or not 0 <= args.viewers <= 5000 or not 0 <= args.polling <= 1:
        sys.exit("--tables must be 1-200, --viewers 0-5000 and --polling 0-1")
    bench = Bench(program="bench_night", suffix="bench_night", redis_db=args.redis_db, viewers=args.viewers,
                  keep=args.keep)
    bench.prepare()
    from django.db import connections

    met = True
    try:
        started = now()
        data = load(args.tables, args.seed)
        connections.close_all()
        print(f"loaded in {now() - started:.0f} s: {args.tables * 2} teams, round 1 played, round {data['round']} "
              f"paired ({len(data['matches'])} tables); PostgreSQL {bench.name}, Redis db {args.redis_db}; "
              f"{os.cpu_count()} CPUs")
        bench.start(web_workers=args.web_workers, web_threads=args.web_threads)
        print(f"nginx on {bench.production.port}: web ({args.web_workers} workers x {args.web_threads} threads), "
              f"live (1 worker), worker (concurrency {bench.bounds['worker']}), standings (1), beat; "
              f"{args.viewers} viewers over {args.ramp:g} s, {len(data['matches'])} scorekeepers for {args.minutes:g} min")
        logs = Logs(bench.directory)
        nights = [("a tournament night: think 5-15 s between hands", True)]
        if args.no_think:
            nights.append(("no think time: every scorekeeper posts back to back (30-30 ties; no goal)", False))
        for i, (title, think) in enumerate(nights):
            plan = make_plan(rng=random.Random(args.seed + i), base=bench.base, data=data, viewers=args.viewers,
                             ramp=args.ramp, polling=args.polling, minutes=args.minutes,
                             pace="think" if think else "none", interval=THINK_SECONDS,
                             hands="played" if think else "ties")
            # As before the generators were shared: the scorekeepers and the sockets in one process, the pollers
            # in the other.
            parts = [{"keepers": True, "viewers": [n for n, v in enumerate(plan["viewers"]) if v["socket"]]},
                     {"keepers": False, "viewers": [n for n, v in enumerate(plan["viewers"]) if not v["socket"]]}]
            result = night(plan, parts, bench, logs)
            stored = hands_by_match(data["matches"])
            connections.close_all()
            met &= report(title, result, stored, bench.bound, bench.bounds, goals=think) or not think
    finally:
        bench.close()
    print("\nEvery goal met." if met else "\nA goal was missed.")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
