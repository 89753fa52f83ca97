"""Reads for the standings and pairing-task endpoints: JSON-ready, a constant number of queries."""

from __future__ import annotations

from tournaments.models import Club, Entry, Standing, StandingsSnapshot, TaskRecord, Tournament


NUMBERS = ("played", "won", "drawn", "lost", "match_points", "games_won", "games_lost", "points_for", "points_against",
           "forfeits_won", "forfeits_lost", "withdrawn")


def _numbers(row: dict, metrics: list[str]) -> dict:
    """A saved row's numbers and tiebreaks, from its values (or a ``Standing``'s, ``vars(standing)``)."""
    return {**{name: row[name] for name in NUMBERS}, "tiebreaks": _ordered(row["tiebreaks"], metrics)}


def standings_for(tournament: Tournament) -> dict:
    """The saved standings in the api.md shape: {"computed_at", "rows": [...], "clubs": [...]}, in three queries
    (four for an individual event).

    A team event's rows have ``team`` and name it (``team_detail``: id, name, club); an individual event's have
    ``player`` instead, with the same numbers, named with their club (``player_detail``; the club null for a
    player without one) and their ``start_number``. Each club row names its club (``club_name``, ``club_city``);
    an individual event's club rows count ``players`` where a team event's count ``teams``.
    """
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    metrics = snapshot.metrics if snapshot else []
    # Read as values: a championship's 544 rows as model instances (with their names and clubs) cost 30 ms.
    saved = Standing.objects.filter(tournament=tournament).order_by("position")
    if tournament.is_individual:
        numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                       .values_list("player_id", "start_number"))
        rows = [
            {"rank": s["rank"], "player": s["player_id"], **_numbers(s, metrics),
             "start_number": numbers.get(s["player_id"]),
             "player_detail": {"id": s["player_id"], "name": s["player__name"],
                               "club": None if s["player__club_id"] is None
                               else {"id": s["player__club_id"], "name": s["player__club__name"]}}}
            for s in saved.filter(player__isnull=False).values(
                "rank", "player_id", "tiebreaks", "player__name", "player__club_id", "player__club__name", *NUMBERS)
        ]
    else:
        rows = [
            {"rank": s["rank"], "team": s["team_id"], **_numbers(s, metrics),
             "team_detail": {"id": s["team_id"], "name": s["team__name"],
                             "club": {"id": s["team__club_id"], "name": s["team__club__name"]}}}
            for s in saved.filter(team__isnull=False).values(
                "rank", "team_id", "tiebreaks", "team__name", "team__club_id", "team__club__name", *NUMBERS)
        ]
    clubs = list(snapshot.clubs) if snapshot else []
    if clubs:
        found = {pk: (name, city) for pk, name, city in
                 Club.objects.filter(pk__in=[c.get("club") for c in clubs]).values_list("pk", "name", "city")}
        clubs = [{**c, "club_name": found.get(c.get("club"), (None, ""))[0],
                  "club_city": found.get(c.get("club"), (None, ""))[1]} for c in clubs]
    return {"computed_at": snapshot.computed_at if snapshot else None, "rows": rows, "clubs": clubs}


def _ordered(tiebreaks: dict, metrics: list[str]) -> dict:
    """The tiebreaks in the tournament's metric order (jsonb keeps keys sorted, not in order)."""
    return {name: tiebreaks[name] for name in metrics if name in tiebreaks} | tiebreaks


def individual_ranking(tournament: Tournament) -> list[str]:
    """The metric names that rank an individual event, in order: its format's keys, then the names of its tiebreak
    list an individual event can use (the recompute's rule, ``services.standings_individual``)."""
    from tournaments.ranking import METRICS
    from tournaments.ranking.individual import individual_metrics

    usable = [n for n in tournament.tiebreaks or [] if n in METRICS and "individual" in METRICS[n].entries]
    return individual_metrics(tournament.format, usable or None)


def player_standings_for(tournament: Tournament) -> dict:
    """An individual event's standings (``standings_for``'s players' rows) with ``metrics``: the names that rank
    it, in order, so that a page heads its tiebreak columns in that order."""
    return {**standings_for(tournament), "metrics": individual_ranking(tournament)}


def player_standing(tournament: Tournament, player_id: int) -> dict | None:
    """One player's saved row in an individual event's standings (``standings_for``'s shape), or None."""
    s = Standing.objects.filter(tournament=tournament, player_id=player_id).select_related("player__club").first()
    if s is None:
        return None
    number = Entry.objects.filter(tournament=tournament, player_id=player_id).values_list("start_number",
                                                                                        flat=True).first()
    return {"rank": s.rank, "player": s.player_id, **_numbers(vars(s), individual_ranking(tournament)),
            "start_number": number,
            "player_detail": {"id": s.player_id, "name": s.player.name, "club": None if s.player.club_id is None
                              else {"id": s.player.club_id, "name": s.player.club.name}}}


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
