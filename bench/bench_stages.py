"""Benchmark: the pure part of closing a stage and seeding the next (issue 27's goal: a 544-player stage under 2 s).

Two events, every step timed (median of --repeat runs; the logic is deterministic, so every run computes the
same thing):

* **individual** (the 2023 world championship's size): 544 players (clubs of 1 to 17) play a ``tables``
  qualification of three rounds drawn by the draw, random results. Closing it: the stage's standings
  (``compute_individual_standings``), the cut to the best 128 (``qualify``, ties broken and reported),
  the event's ranking so far, and seeding the next: the semi-final's first draw of 128 players at 32 tables
  (``pairing.individual.draw``). Then the semi-final played and closed the same way: 32 table winners, and
  the final's draw.
* **teams**: 544 teams (40 clubs) seeded by rating into 64 pools by pots, clubs kept apart (``draw_pools``),
  each pool a round robin; closing it: the 64 pools' standings, the first two of each pool (``qualify``,
  per match across unequal pools of 8 and 9), and the 128-team bracket with pool-mates apart in round 1
  (``bracket``). The pool draw of the same field into 136 pools of 4 is timed too.

With ``--database`` (PostgreSQL at DATABASE_URL; a throw-away database ``<name>_bench_stages`` is made on that
server and dropped at the end), the same closing through the services, rows and all: an individual event of 544
players (clubs of 1 to 17) whose ``tables`` qualification of three rounds is drawn by ``round_pair`` and given
random results, then ``stage_close`` (the stage's standings from its rows, the cut to the best 128 stored as the
semi-final's entrants), ``stage_start`` and the semi-final's first draw (``round_pair``: 32 tables), each timed
with its number of queries.

    .venv/bin/python bench/bench_stages.py [--players 544] [--seed 1] [--repeat 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/bench_stages.py --database
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.pairing.individual import DrawInputs, DrawPlayer, PastRound, PastTable, draw  # noqa: E402
from tournaments.pairing.round_robin import round_robin_pairings, rounds_needed  # noqa: E402
from tournaments.ranking import DEFAULT_METRICS, MatchRecord, PointsSettings, TeamInfo, compute_standings  # noqa: E402
from tournaments.ranking.individual import (  # noqa: E402
    IndividualMatch,
    PlayerInfo,
    compute_individual_standings,
    individual_metrics,
)
from tournaments.stages import (  # noqa: E402
    Rule,
    bracket,
    cycle_tables,
    draw_pools,
    event_ranking,
    qualify,
    rows_of,
    seeding_order,
)

S = PointsSettings()
GOAL_SECONDS = 2.0


def timed(repeat, fn):
    """(median seconds, the last result)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def clubs_of(numbers, rng):
    clubs, club, left = {}, 0, 0
    for n in numbers:
        if rng.random() < 0.1:
            clubs[n] = None
            continue
        if left == 0:
            club, left = club + 1, rng.randint(1, 17)
        left -= 1
        clubs[n] = f"club-{club}"
    return clubs


def play_cycle(numbers, clubs, seed, rng, first_match):
    """A ``tables`` cycle drawn by the draw, random results: the matches."""
    history, matches = [], []
    players = tuple(DrawPlayer(n, clubs.get(n)) for n in sorted(numbers))
    for rnd in (1, 2, 3):
        result = draw(DrawInputs(format="tables", round_number=rnd, players=players, seed=seed,
                                 history=tuple(history)))
        history.append(PastRound(rnd, tuple(PastTable(t.table, t.ns, t.ew) for t in result.tables),
                                 result.sitting_out))
        for t in result.tables:
            winner = rng.choice(("ns", "ew", "ns", "ew", "draw"))
            games = {"ns": (1, 0), "ew": (0, 1), "draw": (0, 0)}[winner]
            matches.append(IndividualMatch(first_match + len(matches), rnd, t.table, t.ns, t.ew, winner, *games,
                                           rng.randrange(0, 200, 10), rng.randrange(0, 200, 10)))
    return matches


def close_individual(numbers, matches, rule, seed, *, previous=None, tables=None):
    metrics = individual_metrics("tables")
    players = [PlayerInfo(n, number=n) for n in numbers]
    standings = compute_individual_standings(players, matches, format="tables", settings=S)
    return qualify(rule, rows_of(standings, metrics), seed=seed, metrics=metrics, previous=previous, tables=tables)


def individual(args):
    rng = random.Random(args.seed)
    numbers = list(range(1, args.players + 1))
    clubs = clubs_of(numbers, rng)
    matches = play_cycle(numbers, clubs, "qualification", rng, 1)
    print(f"\nindividual: {args.players} players, a tables qualification of 3 rounds "
          f"({len(matches)} matches), the best 128 to a semi-final, its table winners to the final")
    steps = {}
    steps["standings + cut to 128"], stage1 = timed(args.repeat, lambda: close_individual(
        numbers, matches, Rule("top", count=128), "qualification"))
    steps["event ranking"], _ = timed(args.repeat, lambda: event_ranking([stage1.stage_result(1)]))
    semi = sorted(stage1.entrants)
    semi_players = tuple(DrawPlayer(n, clubs.get(n)) for n in semi)
    steps["semi-final's first draw (128)"], _ = timed(args.repeat, lambda: draw(DrawInputs(
        format="tables", round_number=1, players=semi_players, seed="semi")))
    total = sum(steps.values())
    for name, seconds in steps.items():
        print(f"  {name:34s} {seconds * 1000:8.1f} ms")
    print(f"  {'closing the qualification':34s} {total * 1000:8.1f} ms  (goal {GOAL_SECONDS:.0f} s: "
          f"{'met' if total < GOAL_SECONDS else 'MISSED'})")
    print(f"  ties at the cut: {[(t.by, t.metric, len(t.tied), len(t.qualified)) for t in stage1.ties]}")
    semi_matches = play_cycle(semi, clubs, "semi", rng, 10_000)
    tables = cycle_tables(semi_matches, (1, 2, 3))
    steps2 = {}
    steps2["standings + table winners"], stage2 = timed(args.repeat, lambda: close_individual(
        semi, semi_matches, Rule("table_winners"), "semi", previous=stage1.ranks, tables=tables))
    final_players = tuple(DrawPlayer(n, clubs.get(n)) for n in sorted(stage2.entrants))
    steps2["final's first draw (32)"], _ = timed(args.repeat, lambda: draw(DrawInputs(
        format="tables", round_number=1, players=final_players, seed="final")))
    steps2["event ranking (2 stages)"], _ = timed(args.repeat, lambda: event_ranking(
        [stage1.stage_result(1), stage2.stage_result(2)]))
    for name, seconds in steps2.items():
        print(f"  {name:34s} {seconds * 1000:8.1f} ms")
    print(f"  {'closing the semi-final':34s} {sum(steps2.values()) * 1000:8.1f} ms, "
          f"{len(stage2.entrants)} table winners")
    return total


def pool_records(members, rng):
    records = []
    for rnd in range(1, rounds_needed(len(members)) + 1):
        for p in round_robin_pairings(members, rnd):
            if p.ew is None:
                records.append(MatchRecord(rnd, p.ns, None, "B", S.points_bye))
                continue
            outcome = rng.choice("WWLLD")
            gw, gl = {"W": (2, rng.randint(0, 1)), "L": (rng.randint(0, 1), 2), "D": (1, 1)}[outcome]
            pf, pa = rng.randrange(100, 300, 10), rng.randrange(100, 300, 10)
            mp = {"W": (2, 0), "L": (0, 2), "D": (1, 1)}[outcome]
            back = {"W": "L", "L": "W", "D": "D"}[outcome]
            records += [MatchRecord(rnd, p.ns, p.ew, outcome, mp[0], gw, gl, pf, pa),
                        MatchRecord(rnd, p.ew, p.ns, back, mp[1], gl, gw, pa, pf)]
    return records


def close_pools(pools, records, order):
    rows = []
    for number, members in enumerate(pools.pools, start=1):
        standings = compute_standings([TeamInfo(t) for t in members], records[number], metrics=DEFAULT_METRICS,
                                      settings=S)
        rows += rows_of(standings, DEFAULT_METRICS, pool=number)
    done = qualify(Rule("pools", per_pool=2), rows, seed="pools", metrics=DEFAULT_METRICS,
                   previous={e: i for i, e in enumerate(order, start=1)})
    return done, bracket(done.entrants, pools=done.pools)


def teams(args):
    rng = random.Random(args.seed)
    field = list(range(1, args.players + 1))
    clubs = {e: rng.randrange(40) for e in field}
    rating = {e: rng.randint(1000, 2000) for e in field}
    print(f"\nteams: {args.players} teams of 40 clubs, seeded by rating into pools by pots, clubs apart")
    for count in (136, 64):
        seconds, pools = timed(args.repeat, lambda: draw_pools(seeding_order(field, seed="draw", rating=rating),
                                                               count, clubs=clubs))
        print(f"  seeding + {count:3d} pools              {seconds * 1000:8.1f} ms  ({len(pools.moves)} moved, "
              f"{pools.club_pairs} same-club pairs left, bound {pools.conflicts_lower_bound})")
    order = seeding_order(field, seed="draw", rating=rating)
    records = {number: pool_records(list(members), rng) for number, members in enumerate(pools.pools, start=1)}
    seconds, (done, knockout) = timed(args.repeat, lambda: close_pools(pools, records, order))
    print(f"  {'closing 64 pools + the bracket':34s} {seconds * 1000:8.1f} ms  ({len(done.entrants)} qualifiers, "
          f"bracket of {knockout.size}, {len(knockout.moves)} moved, {len(knockout.conflicts)} pool-mates meeting, "
          f"{len(done.ties)} ties reported)")
    return seconds


def database(args) -> float:
    """Close a qualification of ``args.players`` players and seed the semi-final through the services, on a
    throw-away PostgreSQL database; return the seconds of closing and seeding."""
    from urllib.parse import urlsplit, urlunsplit

    from _servers import recreate_database

    url = os.environ["DATABASE_URL"]
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'manille'}_bench_stages"
    recreate_database(url, name)
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    try:
        return _database_run(args)
    finally:
        from django.db import connections

        connections.close_all()
        recreate_database(url, name, drop_only=True)


def _database_run(args) -> float:
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Club, Entry, Match, Player, Round, Tournament
    from tournaments.services.rounds import round_pair
    from tournaments.services.stages import stage_add, stage_close, stage_start

    rng = random.Random(args.seed)
    call_command("migrate", verbosity=0)
    numbers = list(range(1, args.players + 1))
    clubs = clubs_of(numbers, rng)
    rows = {c: Club.objects.create(name=c, city="Gent") for c in sorted({c for c in clubs.values() if c})}
    players = Player.objects.bulk_create([Player(club=rows.get(clubs[n]), name=f"Speler {n}") for n in numbers])
    tournament = Tournament.objects.create(name="Kampioenschap", slug="kampioenschap", variant="belgian-manille",
                                           entry="individual", format="tables", rounds=3, match_length="timed",
                                           minutes=30, public=True)
    Entry.objects.bulk_create([Entry(tournament=tournament, player=p, start_number=i)
                               for i, p in enumerate(players, start=1)])
    stage_add(tournament=tournament, user=None, format="tables", rounds=3,
              previous_qualification={"kind": "top", "count": 128})
    start = time.perf_counter()
    for _ in range(3):
        rnd = round_pair(tournament=tournament)
        matches = list(Match.objects.filter(round=rnd))
        for m in matches:
            winner = rng.choice(("ns", "ew", "ns", "ew", "draw"))
            m.status, m.winner = Match.Status.FINISHED, winner
            m.games_won_ns, m.games_won_ew = {"ns": (1, 0), "ew": (0, 1), "draw": (0, 0)}[winner]
            m.points_ns, m.points_ew = rng.randrange(0, 200, 10), rng.randrange(0, 200, 10)
        Match.objects.bulk_update(matches, ["status", "winner", "games_won_ns", "games_won_ew", "points_ns",
                                            "points_ew"])
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)
    print(f"\ndatabase (PostgreSQL): {args.players} players, a tables qualification of 3 rounds drawn and played "
          f"in {time.perf_counter() - start:.1f} s, the best 128 to a semi-final")
    steps = {}
    for label, step in (("stage_close (standings, cut, stored)", lambda: stage_close(
            tournament=tournament, number=1, user=None)),
            ("stage_start (the semi-final)", lambda: stage_start(tournament=tournament, number=2, user=None)),
            ("round_pair (its first draw, 32 tables)", lambda: round_pair(tournament=tournament))):
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            step()
            steps[label] = time.perf_counter() - began
        print(f"  {label:40s} {steps[label] * 1000:8.1f} ms  {len(queries):4d} queries")
    total = sum(steps.values())
    print(f"  {'closing and seeding the next':40s} {total * 1000:8.1f} ms  (goal {GOAL_SECONDS:.0f} s: "
          f"{'met' if total < GOAL_SECONDS else 'MISSED'})")
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=544)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--database", action="store_true",
                        help="also through the services on PostgreSQL (DATABASE_URL; a throw-away database)")
    args = parser.parse_args()
    worst = max(individual(args), teams(args))
    if args.database:
        worst = max(worst, database(args))
    return 0 if worst < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
