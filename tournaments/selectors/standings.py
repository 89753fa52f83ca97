"""Reads for the standings and pairing-task endpoints: JSON-ready, a constant number of queries."""

from __future__ import annotations

from tournaments.models import Club, Entry, Standing, StandingsSnapshot, TaskRecord, Tournament


def standings_for(tournament: Tournament) -> dict:
    """The saved standings in the api.md shape: {"computed_at", "rows": [...], "clubs": [...]}, in three queries.

    Each row also names its team (``team_detail``: id, name, club); each club row its club (``club_name``,
    ``club_city``). An individual event's rows are players' (``player_standings_for``).
    """
    if tournament.is_individual:
        return player_standings_for(tournament)
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    metrics = snapshot.metrics if snapshot else []
    rows = [
        {"rank": s.rank, "team": s.team_id, "played": s.played, "won": s.won, "drawn": s.drawn, "lost": s.lost,
         "match_points": s.match_points, "games_won": s.games_won, "games_lost": s.games_lost,
         "points_for": s.points_for, "points_against": s.points_against, "tiebreaks": _ordered(s.tiebreaks, metrics),
         "team_detail": {"id": s.team_id, "name": s.team.name,
                         "club": {"id": s.team.club_id, "name": s.team.club.name}}}
        for s in Standing.objects.filter(tournament=tournament).select_related("team__club").order_by("position")
    ]
    return {"computed_at": snapshot.computed_at if snapshot else None, "rows": rows, "clubs": _named_clubs(snapshot)}


def _named_clubs(snapshot: StandingsSnapshot | None) -> list[dict]:
    """The snapshot's club standings, each with its club's name and city (one query)."""
    clubs = list(snapshot.clubs) if snapshot else []
    if clubs:
        found = {pk: (name, city) for pk, name, city in
                 Club.objects.filter(pk__in=[c.get("club") for c in clubs]).values_list("pk", "name", "city")}
        clubs = [{**c, "club_name": found.get(c.get("club"), (None, ""))[0],
                  "club_city": found.get(c.get("club"), (None, ""))[1]} for c in clubs]
    return clubs


def _player_row(s: Standing, numbers: dict[int, int | None]) -> dict:
    club = s.player.club
    return {"rank": s.rank, "player": s.player_id, "played": s.played, "won": s.won, "drawn": s.drawn,
            "lost": s.lost, "match_points": s.match_points, "games_won": s.games_won, "games_lost": s.games_lost,
            "points_for": s.points_for, "points_against": s.points_against, "tiebreaks": s.tiebreaks,
            "player_detail": {"id": s.player_id, "name": s.player.name, "number": numbers.get(s.player_id),
                              "club": {"id": club.pk, "name": club.name} if club else None}}


def player_standings_for(tournament: Tournament) -> dict:
    """An individual event's saved standings: rows with ``player`` for ``team`` (api.md), in four queries.

    Each row names its player (``player_detail``: id, name, start number, club or None); the tiebreaks are in
    the order that ranks the event (its format's keys, then its list: ``ranking.individual.individual_metrics``).
    Each club row (``players``, ``percentage``: the club ranking from individuals) names its club.
    """
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    order = list(snapshot.metrics) if snapshot and snapshot.metrics else individual_ranking(tournament)
    numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                   .values_list("player_id", "start_number"))
    rows = []
    for s in Standing.objects.filter(tournament=tournament, player__isnull=False).select_related(
            "player__club").order_by("position"):
        row = _player_row(s, numbers)
        row["tiebreaks"] = _ordered(s.tiebreaks, order)
        rows.append(row)
    return {"computed_at": snapshot.computed_at if snapshot else None, "rows": rows, "clubs": _named_clubs(snapshot),
            "metrics": order}


def individual_ranking(tournament: Tournament) -> list[str]:
    """The metric names that rank an individual event, in order: its format's keys, then the names of its tiebreak
    list an individual event can use (the recompute's rule, ``services.standings_individual``)."""
    from tournaments.ranking import METRICS
    from tournaments.ranking.individual import individual_metrics

    usable = [n for n in tournament.tiebreaks or [] if n in METRICS and "individual" in METRICS[n].entries]
    return individual_metrics(tournament.format, usable or None)


def player_standing(tournament: Tournament, player_id: int) -> dict | None:
    """One player's saved row in an individual event's standings (``player_standings_for``'s shape), or None."""
    s = (Standing.objects.filter(tournament=tournament, player_id=player_id).select_related("player__club").first())
    if s is None:
        return None
    number = Entry.objects.filter(tournament=tournament, player_id=player_id).values_list("start_number",
                                                                                        flat=True).first()
    return _player_row(s, {player_id: number})


def _ordered(tiebreaks: dict, metrics: list[str]) -> dict:
    """The tiebreaks in the tournament's metric order (jsonb keeps keys sorted, not in order)."""
    return {name: tiebreaks[name] for name in metrics if name in tiebreaks} | tiebreaks


def task_status(task_id) -> dict | None:
    """A pairing task's state for GET /api/v1/tasks/{id}/: status, progress, result, error (if failed); or None."""
    record = TaskRecord.objects.filter(pk=task_id).first()
    if record is None:
        return None
    progress = None
    from config.celery import app

    # Progress lives in the Celery result backend (written outside the pairing's transaction);
    # in-process (eager) tasks keep no results there.
    if record.status == TaskRecord.Status.RUNNING and not app.conf.task_always_eager:
        try:
            result = app.AsyncResult(str(record.id))
            if result.state == "PROGRESS" and isinstance(result.info, dict):
                progress = result.info
        except Exception:  # no result backend reachable: the status alone is still right
            progress = None
    error = None
    if record.status == TaskRecord.Status.FAILED:  # a failure recorded without its reason still says it failed
        error = record.error or {"code": "error", "detail": "The task failed.", "attr": None}
    return {"id": str(record.id), "kind": record.kind, "tournament": record.tournament_id,
            "status": record.status, "progress": progress, "result": record.result, "error": error,
            "created_at": record.created_at, "updated_at": record.updated_at}


def standings_by_round(tournament: Tournament) -> dict[int, list]:
    """The standings as they stood after each round: {round number: [StandingRow, ...]}, in four queries.

    Ranked by the pure ranking over the results of rounds 1..n (only finished matches count), with the
    tournament's own metrics and points.
    """
    from tournaments.ranking import TeamInfo, compute_standings
    from tournaments.services.standings import load_results, points_settings, tournament_metrics

    teams, records, _ = load_results(tournament)
    numbers = sorted({r.round for r in records} | {n for t in teams for n in t.absent_rounds})
    metrics, pts = tournament_metrics(tournament), points_settings(tournament)
    out = {}
    for n in numbers:
        upto = [TeamInfo(t.team, t.club, t.seed, frozenset(a for a in t.absent_rounds if a <= n), t.withdrawn)
                for t in teams]
        out[n] = compute_standings(upto, [r for r in records if r.round <= n], metrics=metrics, settings=pts)
    return out
