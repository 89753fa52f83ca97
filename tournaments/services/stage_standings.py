"""Standings per stage (docs/stages.md): each stage ranks its own field over its own rounds.

A stage's field (``stage_field``): stage 1's is the event's entries (reserves of an individual event left
out); a later stage's is its ``StageEntrant`` rows, written when the stage before closed. A stage's matches
are its own rounds' only, numbered per stage. What a qualifier carries over (``StageEntrant.carried``) is
added to its totals (``apply_carry``); the tiebreaks read the stage's own matches.

* a pools stage ranks each pool on its own (the row's ``pool`` and ``pool_rank``), and the stage's order is
  place by place across the pools, compared per match played (``qualify``'s order, ``Qualification.order``);
* a knockout ranks by the round reached (``knockout_standings``), the previous stage's rank after that;
* any other stage is one standings, as a one-stage event's.

``stage_rows`` computes a stage's rows in memory (the standings recompute saves them, over the published rounds
alone: ``stages_standings_recompute``; ``stage_close`` cuts them); it reads the field, the round numbers and the
matches (and the seats, for players).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import connection

from tournaments.models import DirectorAction, Entry, Match, Stage, StageEntrant, Standing, Tournament
from tournaments.ranking import Context, TeamInfo, club_standings, rank_standings
from tournaments.services.match_records import MATCH_COLUMNS, Records
from tournaments.ranking.individual import individual_context, individual_metrics, rank_individual_standings
from tournaments.services.standings_individual import individual_inputs
from tournaments.services.standings_public import replace_standings
from tournaments.stages import Carry, KnockoutMatch, Rule, apply_carry, knockout_standings, qualify, rows_of


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant of a stage: its entry, the team or player it is (``competitor``) and where it stands."""

    entry: int
    competitor: int
    club: int | None
    seed: int | None
    withdrawn: bool
    pool: int | None = None
    previous: int | None = None  # its rank in the stage before (stage 1: its seed)
    number: int = 0  # an individual event's start number
    carried: Carry | None = None


@dataclass(slots=True)
class StageRows:
    """A stage's computed standings: the ranking's rows in the stage's order (``rank``/``position`` set to the
    stage's), each row's pool and rank in it, the field, the metric names and the individual matches."""

    stage: Stage
    rows: list
    pools: dict[int, int]
    pool_ranks: dict[int, int]
    field: list[Entrant]
    metrics: list[str]
    matches: list


def _carry(data) -> Carry | None:
    if not data:
        return None
    return Carry(**{k: int(data.get(k, 0)) for k in ("match_points", "games_won", "games_lost", "points_for",
                                                     "points_against")})


def stage_field(stage: Stage, tournament: Tournament) -> list[Entrant]:
    """The stage's entrants, best seed first (two queries)."""
    individual = tournament.is_individual
    if stage.number == 1:
        pools = dict(StageEntrant.objects.filter(stage=stage).values_list("entry_id", "pool"))
        qs = Entry.objects.filter(tournament=tournament)
        qs = qs.filter(player__isnull=False, reserve=False) if individual else qs.filter(team__isnull=False)
        out = []
        for e in qs.values("id", "team_id", "player_id", "team__club_id", "player__club_id", "seed", "withdrawn",
                           "start_number").order_by("seed", "start_number", "id"):
            out.append(Entrant(e["id"], e["player_id"] if individual else e["team_id"],
                               e["player__club_id"] if individual else e["team__club_id"], e["seed"],
                               e["withdrawn"], pools.get(e["id"]), e["seed"], e["start_number"] or 0))
        return out
    out = []
    for s in StageEntrant.objects.filter(stage=stage).values(
            "entry_id", "entry__team_id", "entry__player_id", "entry__team__club_id", "entry__player__club_id",
            "seed", "entry__withdrawn", "pool", "qualified_from_rank", "entry__start_number", "carried"
    ).order_by("seed"):
        out.append(Entrant(s["entry_id"], s["entry__player_id"] if individual else s["entry__team_id"],
                           s["entry__player__club_id"] if individual else s["entry__team__club_id"], s["seed"],
                           s["entry__withdrawn"], s["pool"], s["qualified_from_rank"], s["entry__start_number"] or 0,
                           _carry(s["carried"])))
    return out


def _team_matches(stage: Stage, pts, published_only: bool = False):
    published = " AND r.published_at IS NOT NULL" if published_only else ""  # the public's: published rounds
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT r.number FROM tournaments_round r WHERE r.stage_id = %s{published}", [stage.pk])
        numbers = {n for n, in cursor.fetchall()}
        table = connection.ops.quote_name("table")
        cursor.execute(f"SELECT {MATCH_COLUMNS}, m.{table} FROM tournaments_match m JOIN tournaments_round r "
                       f"ON r.id = m.round_id JOIN tournaments_tournament t ON t.id = r.tournament_id "
                       f"WHERE r.stage_id = %s{published} ORDER BY r.number, m.{table}", [stage.pk])
        matches = cursor.fetchall()
    return numbers, matches, Records(pts)


def stage_deductions(stage: Stage, tournament: Tournament) -> dict[int, list[tuple[str, int]]]:
    """The director's active deductions decided while the stage ran (``params["stage"]``, stage 1 when the action
    predates stages), by entry: (metric, amount) each."""
    out: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for entry, params in DirectorAction.objects.filter(
            tournament=tournament, kind="deduction", reverted_at__isnull=True).values_list(
            "entry_id", "params").order_by("id"):
        if params.get("stage", 1) == stage.number:
            out[entry].append((params["metric"], int(params["amount"])))
    return out


def stage_rows(stage: Stage, tournament: Tournament, pts, metrics: list[str], *,
               published_only: bool = False) -> StageRows:
    """The stage's standings in memory (see the module's rules); ``published_only``: over its published rounds
    alone (the saved standings, the public's), else over every round (the pairing's, a stage's close)."""
    field = stage_field(stage, tournament)
    if tournament.is_individual:
        return _individual_rows(stage, tournament, pts, metrics, field, published_only)
    numbers, matches, records_of = _team_matches(stage, pts, published_only)
    return _team_rows(stage, field, numbers, matches, records_of, stage_deductions(stage, tournament), pts, metrics)


def stage_rows_by_round(stage: Stage, tournament: Tournament, pts, metrics: list[str]) -> dict[int, StageRows]:
    """A team stage's standings as they stood after each of its rounds: ``{round number: StageRows}``, ranked as
    ``stage_rows`` ranks over the stage's rounds 1..n (what its entrants carried counted from its round 1), in
    four queries whatever the number of rounds. As the event's ``standings_by_round``, a director's deduction
    (decided at no round) is left out."""
    field = stage_field(stage, tournament)
    numbers, matches, records_of = _team_matches(stage, pts, published_only=True)  # the public's rounds
    return {n: _team_rows(stage, field, {r for r in numbers if r <= n}, [m for m in matches if m[1] <= n],
                          records_of, {}, pts, metrics)
            for n in sorted(numbers)}


def _team_rows(stage: Stage, field: list[Entrant], numbers: set[int], matches: list, records_of, deductions: dict,
               pts, metrics: list[str]) -> StageRows:
    """A team stage's rows from what ``stage_rows`` read: its field, round numbers, match rows and deductions."""
    present: dict[int, set[int]] = defaultdict(set)
    records = []
    for row in matches:
        _, rnd, ns, ew = row[:4]
        present[ns].add(rnd)
        if ew is not None:
            present[ew].add(rnd)
        records.extend(records_of(row[:-1]))  # the match's columns, without its table
    teams = [TeamInfo(e.competitor, e.club, e.seed, frozenset(numbers - present[e.competitor]), e.withdrawn,
                      tuple(deductions.get(e.entry, ()))) for e in field]
    carried = {e.competitor: e.carried for e in field if e.carried is not None}
    previous = {e.competitor: e.previous for e in field if e.previous is not None}
    pools = {e.competitor: e.pool for e in field if e.pool is not None}
    pool_ranks: dict[int, int] = {}
    if stage.format == Stage.Format.POOLS and pools:
        rows, cut_rows = [], []
        by_pool: dict[int, list[TeamInfo]] = defaultdict(list)
        for t in teams:
            by_pool[pools.get(t.team, 0)].append(t)
        for pool, members in sorted(by_pool.items()):
            ctx = Context.build(members, records, pts)
            apply_carry(ctx, carried)
            ranked = rank_standings(ctx, metrics)
            for r in ranked:
                pool_ranks[r.team] = r.rank
            rows += ranked
            cut_rows += rows_of(ranked, metrics, pool=pool)
        if cut_rows:
            order = qualify(Rule("pools", per_pool=1), cut_rows, seed=stage.seed or "order", metrics=metrics,
                            previous=previous)
            by_team = {r.team: r for r in rows}
            rows = [by_team[e] for e in order.order]
            for position, r in enumerate(rows, start=1):
                r.rank, r.position = order.ranks[r.team], position
    else:
        ctx = Context.build(teams, records, pts)
        if carried and stage.format != Stage.Format.KNOCKOUT:
            apply_carry(ctx, carried)
        rows = rank_standings(ctx, metrics)
        if stage.format == Stage.Format.KNOCKOUT and matches:
            final = sum(1 for m in matches if m[1] == 1).bit_length()  # the final's round: its table 2 is third place
            ko = [KnockoutMatch(m[1], m[-1], m[2], m[3],  # (the table: the row's last column)
                                m[5] if m[4] == Match.Status.FINISHED and m[5] in ("ns", "ew") else "",
                                third_place=m[1] == final and m[-1] == 2)
                  for m in matches]
            order = knockout_standings([e.competitor for e in field], ko, seed=stage.seed or "order",
                                       previous=previous or None)
            by_team = {r.team: r for r in rows}
            rows = [by_team[k.entrant] for k in order]
            for k, r in zip(order, rows):
                r.rank = r.position = k.position
    return StageRows(stage, rows, pools, pool_ranks, field, list(metrics), [])


def _individual_rows(stage, tournament, pts, metrics, field, published_only: bool = False) -> StageRows:
    from tournaments.ranking import METRICS

    usable = [n for n in metrics if n in METRICS and "individual" in METRICS[n].entries] or None
    players, matches, sit_outs = individual_inputs(tournament, pts, stage=stage, field=field,
                                                   published_only=published_only)
    ctx = individual_context(players, matches, sit_outs, settings=pts)
    carried = {e.competitor: e.carried for e in field if e.carried is not None}
    if carried:
        apply_carry(ctx, carried)
    rows = rank_individual_standings(ctx, format=stage.format, metrics=usable)
    return StageRows(stage, rows, {}, {}, field, individual_metrics(stage.format, usable), matches)


def stages_standings_recompute(tournament: Tournament, stages, snapshot, pts, team_metrics: list[str],
                               started: float, computed_at, changed: set[int | None]):
    """A multi-stage event's recompute (``standings.standings_recompute`` calls it under the tournament's lock):
    every stage that has started ranked on its own (``stage_rows``) over its published rounds, all its rows
    replaced (no kept inputs: a stage's field and rounds are few, and the event is loaded whole); nothing written
    when the public standings stay as they are (``standings_public.snapshot_unmoved``). The club standings are
    stage 1's. ``team_metrics``: a team event's metric names (``standings.tournament_metrics``)."""
    metrics = list(tournament.tiebreaks or []) if tournament.is_individual else team_metrics
    new, first, used = [], None, metrics
    for stage in stages:
        if stage.status == Stage.Status.PENDING:
            continue
        computed = stage_rows(stage, tournament, pts, metrics, published_only=True)
        used = computed.metrics if tournament.is_individual else metrics
        if first is None:
            first = computed
        for r in computed.rows:
            who = {"player_id": r.player} if tournament.is_individual else {"team_id": r.team}
            entrant = r.player if tournament.is_individual else r.team
            new.append(Standing(tournament=tournament, stage=stage, computed_at=computed_at,
                                pool=computed.pools.get(entrant), pool_rank=computed.pool_ranks.get(entrant),
                                **who, **{f: getattr(r, f) for f in Standing.COMPUTED}))
    clubs = []
    if first is not None and not tournament.is_individual:
        clubs = [{"club": c.club, "rank": c.rank, "teams": c.teams, "percentage": c.percentage}
                 for c in club_standings(first.rows, {e.competitor: e.club for e in first.field}, pts)]
    return replace_standings(tournament, snapshot, new, used, clubs, computed_at, started, changed)
