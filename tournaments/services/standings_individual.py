"""The standings of an individual event: one row a player, computed whole by the pure ranking.

Called by ``standings.standings_recompute`` under the tournament's lock, as the team standings are. A
player's matches are read through their seats (``RoundSeat``); a round sat out scores the event's sit-out
rule (``Tournament.sit_out_score``: nothing, the round's mean, or a fixed score). The whole event is read
and ranked each time: an individual event is ranked in a few milliseconds (bench/bench_individual_standings.py),
so it keeps no inputs between recomputes.
"""

from __future__ import annotations

from django.utils import timezone

from tournaments.models import DirectorAction, Entry, Match, RoundSeat, Standing, StandingsSnapshot, Tournament
from tournaments.selectors import confirmation
from tournaments.services.standings_public import replace_standings
from tournaments.ranking import METRICS
from tournaments.ranking.individual import (
    IndividualMatch,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    forfeit_sitting,
    individual_club_standings,
    individual_metrics,
    sit_out_score,
)


def _absent(match: dict) -> tuple[int, ...]:
    """The players absent from a forfeited match (its active forfeit's ``players``), when a forfeit decided it."""
    if not match["forfeit"] or match["status"] != Match.Status.FINISHED:
        return ()
    forfeit = next((d for d in match["directives"] if d["kind"] == "forfeit"), {})
    return tuple(forfeit.get("players", ()))


def _withdrawn(match: dict) -> tuple[int, ...]:
    """The player who withdrew mid-match (its active withdrawal's ``player``), when the withdrawal decided it."""
    if match["decided_by"] != "withdrawal" or match["status"] != Match.Status.FINISHED:
        return ()
    withdrawal = next((d for d in match["directives"] if d["kind"] == "withdrawal"), {})
    return (withdrawal["player"],) if "player" in withdrawal else ()


def _director_deductions(tournament: Tournament, stage, published_only: bool = False
                         ) -> dict[int, list[tuple[str, int]]]:
    """The director's active deductions from each player's totals, and the penalties of one player's game points;
    a stage's: the penalties of its matches and the deductions decided while it ran (``params["stage"]``);
    ``published_only``: no penalty of a match of a round not published yet."""
    actions = DirectorAction.objects.filter(tournament=tournament, reverted_at__isnull=True,
                                            kind__in=("deduction", "penalty"))
    if published_only:
        actions = actions.exclude(match__round__published_at__isnull=True, match__isnull=False)
    deductions: dict[int, list[tuple[str, int]]] = {}
    for kind, player, params, round_stage in actions.values_list(
            "kind", "entry__player_id", "params", "match__round__stage__number").order_by("id"):
        if kind == "deduction" and player is not None:
            if stage is None or params.get("stage", 1) == stage.number:
                deductions.setdefault(player, []).append((params["metric"], int(params["amount"])))
        elif kind == "penalty" and "player" in params:
            if stage is None or round_stage == stage.number:
                deductions.setdefault(params["player"], []).append(("points_for", int(params["points"])))
    return deductions


def individual_inputs(tournament: Tournament, pts, *, stage=None, field=None, published_only: bool = False
                      ) -> tuple[list[PlayerInfo], list[IndividualMatch], list[SitOut]]:
    """The pure ranking's inputs from the rows: the entered players, the finished matches, the sit-outs scored.

    The whole event's by default; with ``stage`` (and its ``field``, ``stage_standings.stage_field``'s entrants)
    one stage's: its players, its own rounds, its matches' penalties and the deductions decided while it ran.
    ``published_only``: of the published rounds alone (the saved standings, the public's; the draws read every
    round)."""
    deductions = _director_deductions(tournament, stage, published_only)
    if field is None:
        field = Entry.objects.filter(tournament=tournament, player__isnull=False, reserve=False).values_list(
            "player_id", "player__club_id", "start_number", "withdrawn")
    else:
        field = [(e.competitor, e.club, e.number, e.withdrawn) for e in field]
    players = [PlayerInfo(player=p, club=c, number=n or 0, withdrawn=w, deductions=tuple(deductions.get(p, ())))
               for p, c, n, w in field]
    scope = {"round__tournament": tournament} if stage is None else {"round__stage": stage}
    if published_only:
        scope["round__published_at__isnull"] = False
    seats: dict[int, dict[str, int]] = {}
    out: list[tuple[int, int]] = []
    for match_id, player, seat, number in RoundSeat.objects.filter(**scope).values_list(
            "match_id", "player_id", "seat", "round__number"):
        if match_id is None:
            out.append((player, number))
        else:
            seats.setdefault(match_id, {})[seat] = player
    matches = []
    waiting = confirmation.waits(tournament)
    for m in Match.objects.filter(**scope).values(
            "id", "round__number", "table", "winner", "status", "games_won_ns", "games_won_ew", "points_ns",
            "points_ew", "result_status", "forfeit", "decided_by", "directives"):
        s = seats.get(m["id"], {})
        if len(s) != 4:
            continue
        matches.append(IndividualMatch(
            match=m["id"], round=m["round__number"], table=m["table"], ns=(s["N"], s["S"]), ew=(s["E"], s["W"]),
            winner=m["winner"] if m["status"] == Match.Status.FINISHED and not (
                waiting and m["result_status"] in confirmation.WAITING) else "",
            games_ns=m["games_won_ns"], games_ew=m["games_won_ew"], points_ns=m["points_ns"],
            points_ew=m["points_ew"], absent=_absent(m), withdrawn=_withdrawn(m)))
    fixed = tournament.sit_out_fixed or {}
    fixed_score = (fixed.get("match_points", 0), fixed.get("games_won", 0), fixed.get("points_for", 0))
    by_round: dict[int, list[IndividualMatch]] = {}
    for m in matches:
        if not m.absent and not m.withdrawn:  # not played (out): the round's sit-out mean leaves it out
            by_round.setdefault(m.round, []).append(m)
    # an absent (withdrawn) player's partner sits out
    out += [(p, m.round) for m in matches for p in forfeit_sitting(m)]
    sit_outs = []
    for player, number in out:
        mp, games, points = sit_out_score(tournament.sit_out_score, by_round.get(number, []), fixed=fixed_score,
                                          settings=pts)
        sit_outs.append(SitOut(player=player, round=number, match_points=mp, games_won=games, points_for=points))
    return players, matches, sit_outs


def individual_standings_recompute(tournament: Tournament, snapshot: StandingsSnapshot, pts, metrics,
                                   started: float, *, stage=None, changed=frozenset()) -> StandingsSnapshot:
    """Rank the players over the published rounds and replace the saved rows and the club ranking (in the caller's
    transaction and lock); nothing written when the public standings stay as they are (``snapshot_unmoved``:
    ``changed``, what the recompute took, came from rounds not published yet alone)."""
    # Names stored by a write that skipped the checks (a bulk update) are dropped, as the team standings do.
    metrics = [n for n in metrics if n in METRICS and "individual" in METRICS[n].entries]
    players, matches, sit_outs = individual_inputs(tournament, pts, published_only=True)
    rows = compute_individual_standings(players, matches, sit_outs, format=tournament.format, metrics=metrics or None,
                                        settings=pts)
    metrics = individual_metrics(tournament.format, metrics or None)
    computed_at = timezone.now()
    new = [Standing(tournament=tournament, stage=stage, player_id=r.player, computed_at=computed_at,
                    **{f: getattr(r, f) for f in Standing.COMPUTED}) for r in rows]
    clubs = [{"club": c.club, "rank": c.rank, "players": c.players, "percentage": c.percentage}
             for c in individual_club_standings(rows, players, best_n=tournament.club_best_n)]
    return replace_standings(tournament, snapshot, new, metrics, clubs, computed_at, started, changed)
