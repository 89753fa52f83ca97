"""The standings of an individual event: one row a player, computed whole by the pure ranking.

Called by ``standings.standings_recompute`` under the tournament's lock, as the team standings are. A
player's matches are read through their seats (``RoundSeat``); a round sat out scores the event's sit-out
rule (``Tournament.sit_out_score``: nothing, the round's mean, or a fixed score). The whole event is read
and ranked each time: an individual event is ranked in a few milliseconds (bench/bench_individual_standings.py),
so it keeps no inputs between recomputes.
"""

from __future__ import annotations

import time
import uuid

from django.utils import timezone

from tournaments.live import publish_standings_changed
from tournaments.models import Entry, Match, RoundSeat, Standing, StandingsSnapshot, Tournament
from tournaments.ranking import METRICS
from tournaments.ranking.individual import (
    IndividualMatch,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_club_standings,
    individual_metrics,
    sit_out_score,
)


def individual_inputs(tournament: Tournament, pts) -> tuple[list[PlayerInfo], list[IndividualMatch], list[SitOut]]:
    """The pure ranking's inputs from the rows: the entered players, the finished matches, the sit-outs scored."""
    players = [PlayerInfo(player=p, club=c, number=n or 0, withdrawn=w) for p, c, n, w in Entry.objects.filter(
        tournament=tournament, player__isnull=False, reserve=False).values_list(
        "player_id", "player__club_id", "start_number", "withdrawn")]
    seats: dict[int, dict[str, int]] = {}
    out: list[tuple[int, int]] = []
    for match_id, player, seat, number in RoundSeat.objects.filter(round__tournament=tournament).values_list(
            "match_id", "player_id", "seat", "round__number"):
        if match_id is None:
            out.append((player, number))
        else:
            seats.setdefault(match_id, {})[seat] = player
    matches = []
    for m in Match.objects.filter(round__tournament=tournament).values(
            "id", "round__number", "table", "winner", "status", "games_won_ns", "games_won_ew", "points_ns",
            "points_ew"):
        s = seats.get(m["id"], {})
        if len(s) != 4:
            continue
        matches.append(IndividualMatch(
            match=m["id"], round=m["round__number"], table=m["table"], ns=(s["N"], s["S"]), ew=(s["E"], s["W"]),
            winner=m["winner"] if m["status"] == Match.Status.FINISHED else "",
            games_ns=m["games_won_ns"], games_ew=m["games_won_ew"], points_ns=m["points_ns"],
            points_ew=m["points_ew"]))
    fixed = tournament.sit_out_fixed or {}
    fixed_score = (fixed.get("match_points", 0), fixed.get("games_won", 0), fixed.get("points_for", 0))
    by_round: dict[int, list[IndividualMatch]] = {}
    for m in matches:
        by_round.setdefault(m.round, []).append(m)
    sit_outs = []
    for player, number in out:
        mp, games, points = sit_out_score(tournament.sit_out_score, by_round.get(number, []), fixed=fixed_score,
                                          settings=pts)
        sit_outs.append(SitOut(player=player, round=number, match_points=mp, games_won=games, points_for=points))
    return players, matches, sit_outs


def individual_standings_recompute(tournament: Tournament, snapshot: StandingsSnapshot, pts, metrics,
                                   started: float) -> StandingsSnapshot:
    """Rank the players and replace the saved rows and the club ranking (in the caller's transaction and lock)."""
    # Names stored by a write that skipped the checks (a bulk update) are dropped, as the team standings do.
    metrics = [n for n in metrics if n in METRICS and "individual" in METRICS[n].entries]
    players, matches, sit_outs = individual_inputs(tournament, pts)
    rows = compute_individual_standings(players, matches, sit_outs, format=tournament.format, metrics=metrics or None,
                                        settings=pts)
    metrics = individual_metrics(tournament.format, metrics or None)
    computed_at = timezone.now()
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        [Standing(tournament=tournament, player_id=r.player, computed_at=computed_at,
                  **{f: getattr(r, f) for f in Standing.COMPUTED}) for r in rows], batch_size=1000)
    snapshot.computed_at, snapshot.metrics = computed_at, list(metrics)
    snapshot.clubs = [{"club": c.club, "rank": c.rank, "players": c.players, "percentage": c.percentage}
                      for c in individual_club_standings(rows, players, best_n=tournament.club_best_n)]
    snapshot.generation = uuid.uuid4().hex
    snapshot.duration_ms = int((time.perf_counter() - started) * 1000)
    snapshot.save()
    publish_standings_changed(tournament.pk)
    snapshot.incremental, snapshot.changes = False, []
    return snapshot
