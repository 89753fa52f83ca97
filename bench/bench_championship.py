"""Benchmark (#26): a championship evening on the production set, 544 players at 136 tables and 1,000 viewers.

Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and nginx (Debian's). Creates a throw-away
database on that server (``<name>_bench_championship``, dropped at the end unless --keep), empties
a Redis database of its own (--redis-db, 8 by default; emptied again at the end) and loads, through
the services, an individual event as the Belgian championship runs it: a public ``tables`` event
of Belgian manille, timed rounds of 30 minutes (``finish`` at the clock's end), --players (544)
players entered alone in a random order (their start numbers), from clubs of very different sizes
(a few delegations of 20 to 40, many clubs of 2 to 8) and 8% of them without a club; round 1
drawn by ``round_pair`` (136 tables of four), the standings computed, the round's clock started
(long enough for the evening); one scorekeeper account a table, named in the event, with an API
token. The setup's phases are timed and printed (--setup-only stops there: no servers).

Then, on the production set as bench_night starts it (``_night.Bench``: nginx, web 2 workers x 4
threads, live, a Celery worker, the standings worker and beat, each with docker-compose.yml's
command; the write throttle raised), the evening, from --generators (2) asyncio processes on one
clock:

* --viewers (1,000) arrive over --ramp seconds (30): 60% on match pages (spread over the tables),
  25% on the round's page, 15% on the standings and wall pages; 70% Dutch, 20% French, 10%
  English. Each loads its page once, then keeps its live regions up to date: half on the region's
  WebSocket through nginx (one catch-up GET when the socket opens, as web/static/web/live.js
  does), half polling ``/live/<kind>/<pk>/`` every 1.5 s with ``If-None-Match``;
* then, for --minutes (3), each table enters a hand every 15 s (ten times a hall's pace; each
  interval drawn between 10 and 20 s, seeded by --seed; the tables start spread over the first
  10 s): POST /api/v1/matches/<id>/hands/ with its token and an Idempotency-Key, sent again with
  the same key after a network error or a 5xx, as the phones' queue does. Realistic hands; the
  matches are timed, so no table runs out of games.

It reports the errors by kind, whether every hand answered 201 is stored exactly once (rows
against answers, match by match), a hand's answer p50/p95/p99, its arrival on the viewers' match
pages (the lag from its 201 to the first push or poll answer that holds it; p50/p95, on WebSockets
and polling apart, and the hands that never arrived), the polls' and pages' latencies, the most
PostgreSQL connections on the bench database (sampled every 100 ms, by process) against the
documented bound (README "Sizing": web and live, the worker's concurrency, 1 standings, 1 beat),
the CPU share of the load generator, of the servers and of the whole machine, and what the
servers logged. The goals: no error, every hand stored once, the connections within the bound
(exit status 1 when one is missed); the latencies are the evening's figures, with no goal.

--smoke is a tiny run to check that it all works end to end: 16 players, 20 viewers over 5 s, 20 s
of hands. The full run takes about 6 minutes (setup about a minute, the servers, 30 s of ramp, 3
minutes of hands) and loads both cores: run it by hand on a quiet machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_championship.py [--minutes 3] [--smoke] [--setup-only]
"""
# ./dev bench: skip (about 6 minutes on both cores; run it by hand on a quiet machine, --smoke to check it works)

from __future__ import annotations

import argparse
import math
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
    missed_at_the_end,
    hands_by_match,
    make_plan,
    ms,
    night,
    now,
    pct,
    print_logged,
    scorekeeper_tokens,
    stored_once,
)
from _servers import compose_default

HAND_EVERY = (10.0, 20.0)   # seconds between a table's hands: 15 on average, ten times a hall's pace
ROUND_MINUTES = 30          # a hall that gives 90 minutes to a table's cycle of three rounds
NO_CLUB = 0.08              # the share of players of no club
TOWNS = ["Aalst", "Antwerpen", "Asse", "Beveren", "Brugge", "Brussel", "Charleroi", "Deinze", "Dendermonde", "Diest",
         "Eeklo", "Geel", "Genk", "Gent", "Geraardsbergen", "Halle", "Hasselt", "Herentals", "Ieper", "Kortrijk",
         "Leuven", "Liège", "Lier", "Lokeren", "Maldegem", "Mechelen", "Menen", "Mons", "Namur", "Ninove", "Oostende",
         "Oudenaarde", "Poperinge", "Roeselare", "Ronse", "Sint-Niklaas", "Temse", "Tielt", "Tienen", "Tongeren",
         "Tournai", "Turnhout", "Veurne", "Vilvoorde", "Waregem", "Wetteren", "Wevelgem", "Zele", "Zottegem", "Zwevegem"]
FIRST = ["Annick", "Bart", "Benoît", "Christiane", "Dirk", "Els", "Erik", "Filip", "Francine", "Geert", "Gilbert",
         "Hilde", "Ingrid", "Jan", "Jean", "Jozef", "Karel", "Kris", "Linda", "Luc", "Marc", "Maria", "Marleen",
         "Nadine", "Noël", "Patrick", "Paul", "Pierre", "Rita", "Roger", "Rudi", "Sofie", "Stefaan", "Tom", "Yvette"]
LAST = ["Claes", "De Backer", "De Clercq", "De Smet", "De Vos", "Dubois", "Dupont", "Goossens", "Hermans", "Jacobs",
        "Janssens", "Lambert", "Lemmens", "Maes", "Martens", "Mertens", "Michiels", "Peeters", "Pauwels", "Renard",
        "Segers", "Smets", "Van Damme", "Van de Velde", "Van den Broeck", "Vandenberghe", "Verbeke", "Vermeulen",
        "Wouters", "Willems"]


def club_sizes(rng: random.Random, players: int) -> list[int]:
    """How many players each club sends, largest first: a long tail (most clubs send 2 to 8, a few 20 to 40)."""
    sizes, left = [], players
    while left > 0:
        size = min(left, 40, max(1, round(2 * rng.paretovariate(1.1))))
        sizes.append(size)
        left -= size
    return sorted(sizes, reverse=True)


def names(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct player names (a number after the surname once the combinations run out)."""
    pairs = [f"{first} {last}" for first in FIRST for last in LAST]
    rng.shuffle(pairs)
    return [pairs[i % len(pairs)] + (f" {i // len(pairs) + 1}" if i >= len(pairs) else "") for i in range(count)]


def clock_minutes(ramp: float, minutes: float) -> int:
    """The round's clock: the event's 30 minutes, or longer when the evening would outlast it (servers, ramp,
    hands and a margin), so that no hand of the benchmark comes after the clock's end."""
    return max(ROUND_MINUTES, math.ceil(ramp / 60 + minutes + 5))


def load(players: int, seed: int, clock: int, timings: list[tuple[str, float]]) -> dict:
    """Migrate and load the evening through the services (Django set up); note each phase's seconds in ``timings``;
    return what the evening needs."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import RoundSeat
    from tournaments.services.clock import round_clock_start
    from tournaments.services.clubs import club_create, player_create
    from tournaments.services.draws import entry_add_player
    from tournaments.services.rounds import round_pair
    from tournaments.services.standings import standings_recompute
    from tournaments.services.tournaments import tournament_create

    rng = random.Random(seed)
    mark = now()

    def phase(name: str) -> None:
        nonlocal mark
        timings.append((name, now() - mark))
        mark = now()

    call_command("migrate", verbosity=0)
    phase("migrate")
    organizer = get_user_model().objects.create_user("organisator", "organisator@example.org", "bench-password-1")
    sizes = club_sizes(rng, players - round(players * NO_CLUB))
    clubs = [club_create(user=organizer, name=f"KMC {TOWNS[i % len(TOWNS)]}" + (f" {i // len(TOWNS) + 1}" if i >= len(TOWNS) else ""),
                         city=TOWNS[i % len(TOWNS)]) for i in range(len(sizes))]
    homes = [club for club, size in zip(clubs, sizes, strict=True) for _ in range(size)]
    homes += [None] * (players - len(homes))
    people = [player_create(club=club, name=name) for club, name in zip(homes, names(rng, players), strict=True)]
    phase(f"{len(clubs)} clubs (largest {sizes[0]}, smallest {sizes[-1]}), {players} players "
          f"({homes.count(None)} of no club)")
    tournament = tournament_create(user=organizer, name="Belgisch Kampioenschap Manillen", variant="belgian-manille",
                                   entry="individual", format="tables", rounds=9, match_length="timed",
                                   minutes=ROUND_MINUTES, at_time="finish", public=True)
    rng.shuffle(people)  # the order they registered in: their start numbers
    for person in people:
        entry_add_player(tournament=tournament, player=person, user=organizer)
    phase(f"{players} entries (entry_add_player)")
    rnd = round_pair(tournament=tournament, user=organizer)
    matches = list(rnd.matches.order_by("table").values_list("pk", flat=True))
    seated = RoundSeat.objects.filter(round=rnd, match__isnull=False).count()
    phase(f"round 1 drawn (round_pair): {len(matches)} tables, {seated} players seated, "
          f"{players - seated} sitting out")
    standings_recompute(tournament=tournament)
    phase("standings computed")
    round_clock_start(round=rnd, minutes=clock, user=organizer)
    tokens = scorekeeper_tokens(tournament, len(matches))
    phase(f"the clock started ({clock} min), {len(matches)} scorekeepers with a token")
    return {"tournament": tournament.pk, "slug": tournament.slug, "round": rnd.number, "matches": matches,
            "tokens": tokens}


def report(result: dict, stored: dict[int, int], bench: Bench) -> bool:
    """Print the evening's figures; return whether the goals (no error, each hand once, the bound) were met."""
    r, plan = result["record"], result["plan"]
    hands = during(result, "hand")
    polls = during(result, *(f"poll:{kind}" for kind in ("match", "round", "standings", "wall")))
    pages = [s for _, s in r.latency.get("page", [])]
    answered, written, exactly_once = stored_once(result, stored)
    arrived, missed = delivery_lags(result)
    pushed, missed_pushed = delivery_lags(result, ("socket",))
    polled, missed_polled = delivery_lags(result, ("poll",))
    errors = sum(r.errors.values())
    most = result["connections"][0]
    tables = len(plan["keepers"])
    minutes = (plan["hands_until"] - plan["hands_from"]) / 60
    generator_cpu, servers_cpu = cpu_text(result)
    rows = [
        ("errors", errors_text(result), "0", errors == 0),
        ("hands stored once", f"{answered} answered 201, {written} rows"
         + ("" if exactly_once else " (NOT equal match by match)"), "every hand once", exactly_once),
        ("PostgreSQL connections, most", connections_text(result),
         f"<= {bench.bound} ({', '.join(f'{k} {v}' for k, v in bench.bounds.items())})", most <= bench.bound),
    ]
    info = [
        ("hand's answer (POST) p50 / p95 / p99", f"{ms(pct(hands, 50))} / {ms(pct(hands, 95))} / "
         f"{ms(pct(hands, 99))} ({len(hands)} POSTs; {answered / max(tables, 1) / max(minutes, 1e-9):.1f} hands "
         f"a table a minute)"),
        ("hand on the viewers' pages p50 / p95", f"{ms(pct(arrived, 50))} / {ms(pct(arrived, 95))} "
         f"({len(arrived)} arrivals on match pages, {missed} never arrived, "
         f"{missed_at_the_end(result)} of them answered in the run's last 10 s)"),
        ("  on WebSockets (push) p50 / p95", f"{ms(pct(pushed, 50))} / {ms(pct(pushed, 95))} "
         f"({len(pushed)}, {missed_pushed} never)"),
        ("  polling (first 200) p50 / p95", f"{ms(pct(polled, 50))} / {ms(pct(polled, 95))} "
         f"({len(polled)}, {missed_polled} never)"),
        ("poll p50 / p95 / p99", f"{ms(pct(polls, 50))} / {ms(pct(polls, 95))} / {ms(pct(polls, 99))} "
         f"({len(polls)} polls; {', '.join(f'{n} {status}' for status, n in sorted(r.answers.items()))})"),
        ("poll p95 by region", ", ".join(f"{kind} {ms(pct(during(result, f'poll:{kind}'), 95))}"
                                         for kind in ("match", "round", "standings", "wall")
                                         if during(result, f"poll:{kind}"))),
        ("pages loaded (GET) p50 / p95", f"{ms(pct(pages, 50))} / {ms(pct(pages, 95))} ({len(pages)} pages)"),
        ("WebSockets opened; pushes received", f"{r.sockets}; {sum(r.pushes.values())} "
         f"({', '.join(f'{k} {v}' for k, v in sorted(r.pushes.items()))})"),
        ("tables decided / scorekeepers stopped", f"{r.decided} / {r.stopped}"),
        ("load generator CPU", generator_cpu),
        ("servers' CPU (nginx, web, live, workers, beat)", servers_cpu),
    ]
    width = 44
    print(f"\nthe evening: {tables} tables, a hand every {HAND_EVERY[0]:g}-{HAND_EVERY[1]:g} s each, "
          f"{len(plan['viewers'])} viewers")
    for label, measured, goal, ok in rows:
        print(f"  {label:{width}} {measured:60} {goal:28} {'ok' if ok else 'MISSED'}")
    for label, measured in info:
        print(f"  {label:{width}} {measured}")
    print_logged(result, width)
    return all(ok for *_, ok in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long the tables enter hands")
    parser.add_argument("--players", type=int, default=544)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds over which the viewers arrive")
    parser.add_argument("--polling", type=float, default=0.5, help="the viewers' share that polls (0-1; the rest "
                                                                   "are on WebSockets)")
    parser.add_argument("--generators", type=int, default=2, help="load-generator processes")
    parser.add_argument("--smoke", action="store_true", help="a tiny run: 16 players, 20 viewers over 5 s, 20 s of "
                                                             "hands")
    parser.add_argument("--setup-only", action="store_true", help="load the evening, print its timings, stop")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--web-workers", type=int, default=int(compose_default("web", "WEB_CONCURRENCY")),
                        help="web's WEB_CONCURRENCY (docker-compose's default)")
    parser.add_argument("--web-threads", type=int, default=int(compose_default("web", "WEB_THREADS")),
                        help="web's WEB_THREADS (docker-compose's default; above 1, threaded workers)")
    parser.add_argument("--redis-db", type=int, default=8)
    parser.add_argument("--keep", action="store_true", help="keep the bench database and the servers' logs")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.viewers, args.ramp, args.minutes = 16, 20, 5.0, 20 / 60
    if (not 8 <= args.players <= 4000 or not 0 <= args.viewers <= 5000 or not 0 <= args.polling <= 1
            or not 1 <= args.generators <= 16 or args.minutes <= 0):
        sys.exit("--players must be 8-4000, --viewers 0-5000, --polling 0-1, --generators 1-16, --minutes above 0")
    bench = Bench(program="bench_championship", suffix="bench_championship", redis_db=args.redis_db,
                  viewers=args.viewers, keep=args.keep)
    bench.prepare()
    from django.db import connections

    met = True
    try:
        timings: list[tuple[str, float]] = []
        data = load(args.players, args.seed, clock_minutes(args.ramp, args.minutes), timings)
        connections.close_all()
        print(f"set up in {sum(s for _, s in timings):.1f} s (PostgreSQL {bench.name}, Redis db {args.redis_db}; "
              f"{os.cpu_count()} CPUs):")
        for name, seconds in timings:
            print(f"  {seconds:7.1f} s  {name}")
        if args.setup_only:
            return
        bench.start(web_workers=args.web_workers, web_threads=args.web_threads)
        print(f"nginx on {bench.production.port}: web ({args.web_workers} workers x {args.web_threads} threads), "
              f"live (1 worker), worker (concurrency {bench.bounds['worker']}), standings (1), beat; "
              f"{args.viewers} viewers over {args.ramp:g} s, {len(data['matches'])} tables entering hands for {args.minutes * 60:.0f} s, "
              f"{args.generators} generator processes")
        plan = make_plan(rng=random.Random(args.seed), base=bench.base, data=data, viewers=args.viewers,
                         ramp=args.ramp, polling=args.polling, minutes=args.minutes, pace="every",
                         interval=HAND_EVERY, hands="played")
        # The scorekeepers in the first process; the viewers of each kind dealt round the processes.
        sockets = [n for n, v in enumerate(plan["viewers"]) if v["socket"]]
        pollers = [n for n, v in enumerate(plan["viewers"]) if not v["socket"]]
        parts = [{"keepers": g == 0, "viewers": sockets[g::args.generators] + pollers[g::args.generators]}
                 for g in range(args.generators)]
        result = night(plan, parts, bench, Logs(bench.directory))
        stored = hands_by_match(data["matches"])
        connections.close_all()
        met = report(result, stored, bench)
    finally:
        bench.close()
    if not args.setup_only:
        print("\nEvery goal met." if met else "\nA goal was missed.")
        sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
