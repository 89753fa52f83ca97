"""Reads for the standings and pairing-task endpoints: JSON-ready, a constant number of queries."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from tournaments.models import Club, Entry, Stage, StageEntrant, Standing, StandingsSnapshot, TaskRecord, Tournament


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
    stages = Stage.objects.filter(tournament=OuterRef("tournament")).values("tournament").annotate(n=Count("pk"))
    snapshot = (StandingsSnapshot.objects.filter(tournament=tournament)
                .annotate(stage_count=Coalesce(Subquery(stages.values("n")[:1]), 1)).first())
    metrics = snapshot.metrics if snapshot else []
    if snapshot is not None and snapshot.stage_count > 1:
        return event_standings_for(tournament, snapshot)
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
    return {"computed_at": snapshot.computed_at if snapshot else None, "rows": _with_unconfirmed(tournament, rows),
            "clubs": _clubs(snapshot)}


def _with_unconfirmed(tournament: Tournament, rows: list[dict]) -> list[dict]:
    """Each row with ``unconfirmed``, how many of its counted results wait for the opponents' confirmation, when
    the standings count such results (``unconfirmed: count``); the rows as they are otherwise. One query."""
    from tournaments.selectors.confirmation import unconfirmed_counts

    counts = unconfirmed_counts(tournament)
    if counts is None:
        return rows
    key = "player" if tournament.is_individual else "team"
    return [{**r, "unconfirmed": counts.get(r[key], 0)} for r in rows]


def _clubs(snapshot: StandingsSnapshot | None) -> list[dict]:
    """The snapshot's club standings, each club named (one query when there are any)."""
    clubs = list(snapshot.clubs) if snapshot else []
    if clubs:
        found = {pk: (name, city) for pk, name, city in
                 Club.objects.filter(pk__in=[c.get("club") for c in clubs]).values_list("pk", "name", "city")}
        clubs = [{**c, "club_name": found.get(c.get("club"), (None, ""))[0],
                  "club_city": found.get(c.get("club"), (None, ""))[1]} for c in clubs]
    return clubs


def _row(s: dict, metrics: list[str], individual: bool) -> dict:
    if individual:
        return {"rank": s["rank"], "player": s["player_id"], **_numbers(s, metrics),
                "start_number": s.get("start_number"),
                "player_detail": {"id": s["player_id"], "name": s["player__name"],
                                  "club": None if s["player__club_id"] is None
                                  else {"id": s["player__club_id"], "name": s["player__club__name"]}}}
    return {"rank": s["rank"], "team": s["team_id"], **_numbers(s, metrics),
            "team_detail": {"id": s["team_id"], "name": s["team__name"],
                            "club": {"id": s["team__club_id"], "name": s["team__club__name"]}}}


def _rows_of(qs, tournament: Tournament, extra: tuple[str, ...]) -> list[dict]:
    """Saved rows as values, with their names (and an individual event's start numbers: one more query)."""
    individual = tournament.is_individual
    if individual:
        fields = ("rank", "player_id", "tiebreaks", "player__name", "player__club_id", "player__club__name")
        rows = list(qs.filter(player__isnull=False).values(*fields, *NUMBERS, *extra))
        numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                       .values_list("player_id", "start_number"))
        for r in rows:
            r["start_number"] = numbers.get(r["player_id"])
        return rows
    fields = ("rank", "team_id", "tiebreaks", "team__name", "team__club_id", "team__club__name")
    return list(qs.filter(team__isnull=False).values(*fields, *NUMBERS, *extra))


def stage_standings_for(stage: Stage, tournament: Tournament, pool: int | None = None) -> dict:
    """A stage's saved standings: ``standings_for``'s shape, each row with its ``stage``, ``pool`` and rank in it
    (``pool_rank``, a pools stage) and whether it went on to the next stage (``qualified``: null while the stage
    has not closed), and the stage's ``ties`` at the cut; ``pool`` filters one pool. At most three queries (four for an
    individual event), whatever the number of pools."""
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    metrics = snapshot.metrics if snapshot else []
    qs = Standing.objects.filter(stage=stage).order_by("position")
    if pool is not None:
        qs = qs.filter(pool=pool)
    saved = _rows_of(qs, tournament, ("pool", "pool_rank"))
    went_on = None
    if stage.status == Stage.Status.CLOSED:
        field = "entry__player_id" if tournament.is_individual else "entry__team_id"
        went_on = set(StageEntrant.objects.filter(stage__tournament=tournament, stage__number=stage.number + 1)
                      .values_list(field, flat=True))
    who = "player_id" if tournament.is_individual else "team_id"
    rows = [{**_row(s, metrics, tournament.is_individual), "stage": stage.number, "pool": s["pool"],
             "pool_rank": s["pool_rank"], "qualified": None if went_on is None else s[who] in went_on}
            for s in saved]
    return {"computed_at": snapshot.computed_at if snapshot else None, "stage": stage.number, "rows": rows,
            "ties": list((stage.report or {}).get("ties", [])),
            "replacements": list((stage.report or {}).get("replacements", []))}


def event_standings_for(tournament: Tournament, snapshot: StandingsSnapshot | None = None) -> dict:
    """A multi-stage event's standings: its ranking (``event_ranking``: the stage reached, then that stage's rank),
    each row the entrant's numbers in that stage, with its ``stage`` and ``stage_rank`` (and in a pools stage its
    ``pool`` and ``pool_rank``); the club standings are stage 1's; ``stages``: each stage's number, format, status. Five queries (one more for an individual event's start numbers)."""
    from tournaments.stages import Replacement, StageResult, event_ranking

    if snapshot is None:
        snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    metrics = snapshot.metrics if snapshot else []
    who = "player_id" if tournament.is_individual else "team_id"
    saved = _rows_of(Standing.objects.filter(tournament=tournament).order_by("stage__number", "position"),
                     tournament, ("stage__number", "pool", "pool_rank", "position"))
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number")
                  .values("number", "report", "format", "status"))
    field = "entry__player_id" if tournament.is_individual else "entry__team_id"
    went = {}
    for number, competitor in StageEntrant.objects.filter(stage__tournament=tournament, stage__number__gt=1
                                                          ).values_list("stage__number", field):
        went.setdefault(number, set()).add(competitor)
    by_stage: dict[int, list[dict]] = {}
    for s in saved:
        by_stage.setdefault(s["stage__number"], []).append(s)
    results = []
    for st in stages:
        rows = by_stage.get(st["number"], [])
        if not rows:
            continue
        report = st["report"] or {}
        results.append(StageResult(
            st["number"], tuple(r[who] for r in rows), {r[who]: r["rank"] for r in rows},
            frozenset(went.get(st["number"] + 1, ())) if report else frozenset(),
            {r[who]: r["pool"] for r in rows if r["pool"] is not None} or None,
            tuple(Replacement(x["withdrawn"], x["by"]) for x in report.get("replacements", []))))
    own = {(s["stage__number"], s[who]): s for s in saved}
    out = []
    for e in event_ranking(results):
        s = own[(e.stage, e.entrant)]
        out.append({**_row(s, metrics, tournament.is_individual), "rank": e.rank, "stage": e.stage,
                    "stage_rank": e.stage_rank, "pool": s["pool"], "pool_rank": s["pool_rank"]})
    return {"computed_at": snapshot.computed_at if snapshot else None, "rows": _with_unconfirmed(tournament, out),
            "clubs": _clubs(snapshot),
            "stages": [{"number": st["number"], "format": st["format"], "status": st["status"]} for st in stages]}


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

    Ranked by the pure ranking over the results of rounds 1..n (only finished matches count, of the published
    rounds: the public's), with the tournament's own metrics and points.
    """
    from tournaments.ranking import TeamInfo, compute_standings
    from tournaments.services.standings import load_results, points_settings, tournament_metrics

    teams, records, _ = load_results(tournament, published_only=True)  # the public's: its published rounds
    numbers = sorted({r.round for r in records} | {n for t in teams for n in t.absent_rounds})
    metrics, pts = tournament_metrics(tournament), points_settings(tournament)
    out = {}
    for n in numbers:
        upto = [TeamInfo(t.team, t.club, t.seed, frozenset(a for a in t.absent_rounds if a <= n), t.withdrawn)
                for t in teams]
        out[n] = compute_standings(upto, [r for r in records if r.round <= n], metrics=metrics, settings=pts)
    return out
