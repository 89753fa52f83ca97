"""Helpers for the stages' tests: pools and tables of four played with random results, and what the stages'
rules say read straight off the rows (the lottery's formula, the per-match values), independently of
``tournaments.stages``' own code."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

from tests.tournaments.individual_events import inputs, past
from tournaments.pairing.individual import draw
from tournaments.pairing.round_robin import round_robin_pairings, rounds_needed
from tournaments.ranking import MatchRecord, PointsSettings, TeamInfo, compute_standings
from tournaments.ranking.individual import IndividualMatch, PlayerInfo, compute_individual_standings
from tournaments.stages import STAGES_VERSION, rows_of

S = PointsSettings(points_win=2, points_draw=1, points_bye=2)
ADDITIVE = ["match_points", "matches_won", "wins", "games_won", "games_lost", "games_diff", "points_for",
            "points_against", "points_diff"]


def lottery(seed: str, purpose: str, number: int) -> tuple[int, int]:
    """The stages' lottery as docs/stages.md states it."""
    text = f"{STAGES_VERSION}|{seed}|{purpose}|{number}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"), number


def per_match(row, metrics) -> tuple:
    """A row's per-match values across pools (larger is better), read off its totals; None: no match played."""
    t = row.totals
    if not t.played:
        return None
    over_table = {"match_points": t.played_points, "matches_won": t.won, "wins": t.won, "games_won": t.games_won,
                  "games_lost": -t.games_lost, "games_diff": t.games_won - t.games_lost,
                  "points_for": t.points_for, "points_against": -t.points_against,
                  "points_diff": t.points_for - t.points_against}
    return tuple(Fraction(over_table[m], t.played) for m in metrics if m in over_table)


def play_pool(rng: random.Random, teams: list[int], *, metrics, rounds: int | None = None, few: bool = True,
              strength: dict[int, int] | None = None) -> list[MatchRecord]:
    """A round robin of ``teams`` (Berger tables, a bye worth ``S.points_bye`` in an odd pool).

    ``few``: results from few values, so that ties are common; ``strength``: the stronger side always wins,
    by the difference in strengths (otherwise random outcomes).
    """
    records = []
    for rnd in range(1, (rounds or rounds_needed(len(teams))) + 1):
        for p in round_robin_pairings(teams, rnd):
            if p.ew is None:
                records.append(MatchRecord(rnd, p.ns, None, "B", S.points_bye))
                continue
            if strength is not None:
                a, b = strength[p.ns], strength[p.ew]
                outcome = "W" if a > b else "L" if a < b else "D"
                gw, gl = (1, 0) if a > b else (0, 1) if a < b else (0, 0)
                pf, pa = 100 + max(a - b, 0), 100 + max(b - a, 0)
            else:
                outcome = rng.choice("WWLLD" if few else "WLD")
                gw, gl = {"W": (rng.choice((1, 2)), rng.choice((0, 1))), "L": (rng.choice((0, 1)), rng.choice((1, 2))),
                          "D": (1, 1)}[outcome]
                pf, pa = (rng.choice((60, 80, 100)), rng.choice((60, 80, 100))) if few else (rng.randint(0, 300),
                                                                                            rng.randint(0, 300))
            mp = {"W": (S.points_win, 0), "L": (0, S.points_win), "D": (S.points_draw, S.points_draw)}[outcome]
            back = {"W": "L", "L": "W", "D": "D"}[outcome]
            records += [MatchRecord(rnd, p.ns, p.ew, outcome, mp[0], gw, gl, pf, pa),
                        MatchRecord(rnd, p.ew, p.ns, back, mp[1], gl, gw, pa, pf)]
    return records


def pools_rows(rng: random.Random, pools: dict[int, list[int]], metrics, *, withdrawn=(), **options):
    """Each pool played and ranked on its own (``compute_standings``), as ``Row``s with their pool."""
    rows = []
    for pool, teams in pools.items():
        standings = compute_standings([TeamInfo(t) for t in teams], play_pool(rng, teams, metrics=metrics, **options),
                                      metrics=metrics, settings=S)
        rows += rows_of(standings, metrics, pool=pool, withdrawn=withdrawn)
    return rows


def play_tables(numbers, *, seed: str, rng: random.Random, first_match: int = 1):
    """One ``tables`` cycle (three rounds) of the players with start numbers ``numbers``, drawn by the draw.

    Returns the matches (``IndividualMatch``) with random results and the players sitting out the cycle.
    """
    history, matches = [], []
    sitting = ()
    for rnd in (1, 2, 3):
        result = draw(inputs("tables", rnd, numbers, seed=seed, history=history))
        history.append(past(result, rnd))
        sitting = result.sitting_out
        for t in result.tables:
            winner = rng.choice(("ns", "ew", "ns", "ew", "draw"))
            games = {"ns": (1, 0), "ew": (0, 1), "draw": (0, 0)}[winner]
            matches.append(IndividualMatch(first_match + len(matches), rnd, t.table, t.ns, t.ew, winner, *games,
                                           rng.choice((60, 80, 100, 120)), rng.choice((60, 80, 100, 120))))
    return matches, sitting


def tables_standings(numbers, matches, metrics=None):
    players = [PlayerInfo(n, number=n) for n in numbers]
    return compute_individual_standings(players, matches, format="tables", metrics=metrics, settings=S)
