"""Benchmark: standings of 1,024 teams after 11 rounds of best-of-3 boams (about 200,000 hands).

Needs PostgreSQL (DATABASE_URL). Creates a throw-away database (the test database name, dropped
at the end unless --keep), bulk-creates the tournament directly (Swiss pairings from the pure
pairing, games with totals and winners, about 14 hands a game, each match with its game points as
``match_refresh_result`` keeps them: checked against its games), then times:

1. the first recompute (no saved rows yet),
2. a recompute from scratch: nothing kept in the process, everything loaded, every row rewritten,
3. a recompute after one more match result (round 12 paired, one of its matches finished, its
   games and first hand saved as the services save them), on the inputs the previous recompute kept,

each as ``standings_recompute`` does it in a worker, in one transaction.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/manille .venv/bin/python bench/bench_standings.py
"""

import argparse
import gc
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.types import TeamState  # noqa: E402


def play_game(rng, winner: str):
    """A game won by ``winner``: its totals and its hands' fields (about 14 hands, 101 points to win)."""
    tot = {"ns": 0, "ew": 0}
    hands = []
    n = 0
    while max(tot.values()) < 101:
        n += 1
        side = winner if rng.random() < 0.6 else ("ew" if winner == "ns" else "ns")
        pts = rng.randint(31, 52)
        tot[side] += pts - 30
        if max(tot.values()) >= 101 and tot[winner] < 101:
            tot[side] -= pts - 30
            continue
        hands.append(dict(number=n, dealer="NESW"[n % 4], trump="H", tricks_ns=4, tricks_ew=4,
                          points_ns=pts if side == "ns" else 60 - pts, points_ew=pts if side == "ew" else 60 - pts,
                          score_ns=tot["ns"], score_ew=tot["ew"], total_ns=tot["ns"], total_ew=tot["ew"]))
    return tot, hands


def build(teams_n: int, rounds: int, seed: int):
    from tournaments.models import Club, Entry, Game, Hand, Match, Player, Round, RoundSlot, Team, Tournament

    rng = random.Random(seed)
    clubs = Club.objects.bulk_create([Club(name=f"Club {i}") for i in range(teams_n // 8)])
    players = Player.objects.bulk_create([Player(club=clubs[i // 16], name=f"P{i}") for i in range(2 * teams_n)])
    teams = Team.objects.bulk_create([Team(name=f"T{i}", club=clubs[i // 8], player_1=players[2 * i],
                                           player_2=players[2 * i + 1]) for i in range(teams_n)])
    tournament = Tournament.objects.create(name="Bench", slug=f"bench-{seed}", variant="belgian-manille",
                                           rounds=rounds + 2, best_of=3, status="running")
    Entry.objects.bulk_create([Entry(tournament=tournament, team=t, seed=i + 1) for i, t in enumerate(teams)])
    ids = [t.pk for t in teams]
    score = dict.fromkeys(ids, 0)
    opponents = {t: set() for t in ids}
    byes: set[int] = set()
    hands_total = 0
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda t: (-score[t], t))
        result = pair_swiss([TeamState(t, score[t], k, had_bye=t in byes, opponents=frozenset(opponents[t]))
                             for k, t in enumerate(order)])
        rnd = Round.objects.create(tournament=tournament, number=number, status="finished")
        matches, played = [], []
        for p in result.pairings:
            if p.ew is None:
                matches.append(Match(round=rnd, table=p.table, ns_id=p.ns, status="finished", winner="ns"))
                score[p.ns] += 2
                byes.add(p.ns)
                continue
            opponents[p.ns].add(p.ew)
            opponents[p.ew].add(p.ns)
            winner = "ns" if rng.random() < 0.5 else "ew"
            loser = "ew" if winner == "ns" else "ns"
            seq = [winner, winner] if rng.random() < 0.6 else rng.choice([[winner, loser, winner], [loser, winner, winner]])
            score[p.ns if winner == "ns" else p.ew] += 2
            games = [(w, play_game(rng, w)) for w in seq]
            match = Match(round=rnd, table=p.table, ns_id=p.ns, ew_id=p.ew, status="finished", winner=winner,
                          games_won_ns=seq.count("ns"), games_won_ew=seq.count("ew"),
                          points_ns=sum(tot["ns"] for _, (tot, _) in games),
                          points_ew=sum(tot["ew"] for _, (tot, _) in games))
            matches.append(match)
            played.append((match, games))
        Match.objects.bulk_create(matches, batch_size=2000)
        RoundSlot.objects.bulk_create(
            [RoundSlot(round=rnd, match=m, side="ns", team_id=m.ns_id) for m in matches]
            + [RoundSlot(round=rnd, match=m, side="ew", team_id=m.ew_id) for m in matches if m.ew_id], batch_size=4000)
        games, game_hands = [], []
        for match, match_games in played:
            for g, (w, (tot, hands)) in enumerate(match_games, start=1):
                games.append(Game(match=match, number=g, first_dealer="N", total_ns=tot["ns"], total_ew=tot["ew"]))
                game_hands.append((w, hands))
        Game.objects.bulk_create(games, batch_size=4000)  # playing: a trigger refuses hands in a finished game
        hands = [Hand(game=game, **h) for game, (_, spec) in zip(games, game_hands) for h in spec]
        Hand.objects.bulk_create(hands, batch_size=5000)
        hands_total += len(hands)
        for game, (w, _) in zip(games, game_hands):
            game.status, game.winner = "finished", w
        Game.objects.bulk_update(games, ["status", "winner"], batch_size=2000)
    return tournament, hands_total, score


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL server")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from tournaments.models import Game, Hand, Match, Standing
        from tournaments.services.rounds import round_pair
        from tournaments.services.standings import kept_inputs_clear, standings_recompute

        started = time.perf_counter()
        tournament, hands, _ = build(args.teams, args.rounds, args.seed)
        print(f"built {args.teams} teams, {args.rounds} rounds, {Match.objects.count()} matches, "
              f"{Game.objects.count()} games, {hands} hands in {time.perf_counter() - started:.0f} s")
        with connection.cursor() as cursor:
            cursor.execute("""SELECT count(*) FROM tournaments_match m LEFT JOIN (
                                  SELECT match_id, sum(total_ns) AS ns, sum(total_ew) AS ew
                                  FROM tournaments_game GROUP BY match_id) g ON g.match_id = m.id
                              WHERE m.points_ns <> coalesce(g.ns, 0) OR m.points_ew <> coalesce(g.ew, 0)""")
            assert cursor.fetchone()[0] == 0, "a match's game points differ from its games' totals"
            cursor.execute("VACUUM ANALYZE")  # what autovacuum would do next, competing for the 2 cores
        gc.freeze()  # as a worker process does once started (config/celery.py)
        started = time.perf_counter()
        standings_recompute(tournament=tournament)
        first = time.perf_counter() - started
        print(f"first recompute (no saved rows): {first * 1000:.0f} ms")
        fulls = []
        for _ in range(args.repeat):
            Standing.objects.filter(tournament=tournament).delete()
            kept_inputs_clear()
            started = time.perf_counter()
            standings_recompute(tournament=tournament)
            fulls.append(time.perf_counter() - started)
        print(f"recompute from scratch: median {statistics.median(fulls) * 1000:.0f} ms over {args.repeat}")
        rnd = round_pair(tournament=tournament)  # queues a recompute, run here in-process: a full load (new round)
        print(f"round {rnd.number} paired for the next result")
        times = []
        for k, match in enumerate(rnd.matches.exclude(ew=None).order_by("table")[: args.repeat]):
            g = Game.objects.create(match=match, number=1, first_dealer="N", status="playing")
            Hand.objects.create(game=g, number=1, dealer="N", trump="H", total_ns=101, total_ew=40)
            Game.objects.filter(pk=g.pk).update(status="finished", winner="ns", total_ns=101, total_ew=40)
            Game.objects.create(match=match, number=2, first_dealer="E", status="finished", winner="ns",
                                total_ns=101, total_ew=77)
            Match.objects.filter(pk=match.pk).update(status="finished", winner="ns", games_won_ns=2,
                                                     points_ns=101 + 101, points_ew=40 + 77)
            started = time.perf_counter()
            standings_recompute(tournament=tournament)
            times.append(time.perf_counter() - started)
        print(f"recompute after one more match result: median {statistics.median(times) * 1000:.1f} ms, "
              f"min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms over {len(times)} results")
        ok = first < 2.0 and statistics.median(times) < 0.05
        return 0 if ok else 1
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


if __name__ == "__main__":
    sys.exit(main())
