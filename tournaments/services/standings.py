"""Standings: load a tournament's results, rank them with ``tournaments.ranking``, save them whole.

Coalescing. ``match_result_changed`` (tournaments/services/results.py) runs for every hand entered,
corrected or deleted; on commit
it sets a per-tournament "recompute pending" flag with ``cache.add`` (atomic in Redis) and queues
``standings_recompute_task`` with a short countdown only when it set the flag. The task clears the
flag *before* it reads the results, so a result committed while it computes queues one more run
and none is lost; a burst of results inside the countdown computes once. The flag expires on its
own, so a lost task costs at most one delayed recompute.

Locking. The recompute takes a PostgreSQL transaction-level advisory lock per tournament: two
workers never write the same standings at once, the lock dies with the transaction (no stale
lock after a crashed worker, unlike a cache lock with a timeout), and it does not lock the
tournament row, so organizers' edits and the pairing (which locks that row) are not held up. On
SQLite (the zero-setup run) there are no advisory locks, and none are needed: SQLite serialises
writers. The rows are replaced whole inside that transaction, with the time they were computed.

Reading. A full load reads the entries, the round numbers and the matches, nothing else: each
match carries its games won and its game points (``Match.points_ns``/``points_ew``, kept by
``match_refresh_result`` with every hand), so no game or hand is read. After one more result, a
worker usually reads one match: database triggers (migration 0005) record every committed change
that may move the standings in ``StandingsChange``; the recompute takes the tournament's change
rows under its lock and, when the inputs this process kept from the last recompute are still the
current ones (the snapshot's random ``generation`` is the one it wrote), reads only the changed
matches and applies them. Anything else (a new round, an entry, another process's recompute, a
failed one, a restarted worker, standings rows written by anyone else) loads everything, as the
first recompute does. The ranking itself is always computed whole, so both paths give the same
rows (tested).

Sharding. The kept inputs are only reused when the same process recomputes the tournament again,
so every recompute of a tournament goes to one queue: ``standings_queue`` (``STANDINGS_SHARDS``
queues, ``standings.{tournament id % N}``; one queue, ``standings``, by default), each served by one
single-process worker. Correctness never depends on it: a recompute run by any other process finds
a generation it did not write and loads everything.

Publication. The saved standings are the public's: they count the published rounds alone, and a recompute whose
changes came from rounds not published yet and that finds them as saved writes nothing, its snapshot's time and
stamp included (``standings_public``). The pairing reads every round (``load_results``).

Writing. Only the rows whose values changed are written (after one result: the two teams, their
opponents' Buchholz, the positions that moved), compared with the rows as the last recompute left
them, or as read from the table after a full load.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
import zlib
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from operator import attrgetter

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone

from tournaments import queue
from tournaments.live import publish_standings_changed
from tournaments.models import Stage, Standing, StandingsSnapshot, Tournament
from tournaments.ranking import (
    METRICS,
    Context,
    MatchRecord,
    PointsSettings,
    TeamInfo,
    club_standings,
    rank_standings,
)
from tournaments.ranking.metrics import DEFAULT_METRICS
from tournaments.services.match_records import MATCH_COLUMNS as _MATCH_COLUMNS
from tournaments.services.standings_public import snapshot_unmoved, unmoved_result
from tournaments.services.match_records import Records as _Records
from tournaments.selectors import confirmation

logger = logging.getLogger(__name__)

COALESCE_SECONDS = float(getattr(settings, "STANDINGS_COALESCE_SECONDS", 2))
PENDING_TIMEOUT = 120


def advisory_lock(tournament_id: int, purpose: str) -> None:
    """Take a transaction-level lock on (purpose, tournament) on PostgreSQL; a no-op elsewhere."""
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(purpose.encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [key, tournament_id])


def pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def standings_queue(tournament_id: int) -> str:
    """The queue of a tournament's standings recomputes: the same one for every recompute (its shard).

    ``standings`` with one shard (``STANDINGS_SHARDS``, the default), else ``standings.{id % N}``:
    the shard of a tournament follows from its id alone, in every process that has the same N.
    """
    shards = int(getattr(settings, "STANDINGS_SHARDS", 1))
    return "standings" if shards <= 1 else f"standings.{int(tournament_id) % shards}"


def standings_queues_unused(queues: list[str]) -> list[str]:
    """The standings queues among ``queues`` that no recompute goes to with this process's STANDINGS_SHARDS."""
    shards = int(getattr(settings, "STANDINGS_SHARDS", 1))
    used = {"standings"} if shards <= 1 else {f"standings.{k}" for k in range(shards)}
    return [q for q in queues if (q == "standings" or q.startswith("standings.")) and q not in used]


def standings_recompute_schedule(tournament_id: int, added: bool | Exception | None = None) -> bool:
    """Queue one coalesced recompute of a tournament's standings; False when one is already queued.

    ``added``: the reply of the flag's ``add`` when the caller made it (``commit_cache``), or the
    exception that stopped it.
    """
    try:
        if added is None:
            added = cache.add(pending_key(tournament_id), 1, timeout=COALESCE_SECONDS + PENDING_TIMEOUT)
        elif isinstance(added, Exception):
            raise added
        first = added
    except Exception:  # the cache is down: recompute anyway rather than lose the result
        logger.exception("standings coalescing flag unavailable for tournament %s", tournament_id)
        first = True
    if first:
        queue.task_queue(queue.STANDINGS_RECOMPUTE, (tournament_id,), countdown=COALESCE_SECONDS)
    return first


def points_settings(tournament: Tournament) -> PointsSettings:
    return PointsSettings(tournament.points_win, tournament.points_draw, tournament.points_bye)


def tournament_metrics(tournament: Tournament) -> list[str]:
    """The tournament's metric names, unknown ones dropped (logged), the default order when empty."""
    names = list(tournament.tiebreaks or DEFAULT_METRICS)
    unknown = [n for n in names if n not in METRICS]
    if unknown:
        logger.warning("tournament %s: unknown standings metrics ignored: %s", tournament.pk, unknown)
    return [n for n in names if n in METRICS] or list(DEFAULT_METRICS)


_ENTRIES_SQL = """
SELECT e.team_id, t.club_id, e.seed, e.withdrawn
FROM tournaments_entry e JOIN tournaments_team t ON t.id = e.team_id
WHERE e.tournament_id = %s
ORDER BY e.seed, e.id
"""

_MATCHES_SQL = f"""
SELECT {_MATCH_COLUMNS}
FROM tournaments_match m JOIN tournaments_round r ON r.id = m.round_id
JOIN tournaments_tournament t ON t.id = r.tournament_id
WHERE r.tournament_id = %s
"""
# The saved standings are the public's: a round not published yet (issue 28) counts from its publication on.
_PUBLISHED = " AND r.published_at IS NOT NULL"
_PUBLISHED_MATCHES_SQL = _MATCHES_SQL + _PUBLISHED


# The director's active deductions from the teams' standings totals (tournaments/services/desk.py).
_DEDUCTIONS_SQL = """
SELECT e.team_id, a.params
FROM tournaments_directoraction a JOIN tournaments_entry e ON e.id = a.entry_id
WHERE a.tournament_id = %s AND a.kind = 'deduction' AND a.reverted_at IS NULL AND e.team_id IS NOT NULL
ORDER BY a.id
"""



def _load(tournament: Tournament, pts: PointsSettings, published_only: bool = False):
    """The tournament's teams, its match rows by id, each match's records, and each team's club; ``published_only``:
    of its published rounds alone (the saved standings, the public's), else of every round (the pairing's)."""
    with connection.cursor() as cursor:
        cursor.execute(_ENTRIES_SQL, [tournament.pk])
        entries = cursor.fetchall()
        cursor.execute("SELECT r.number FROM tournaments_round r WHERE r.tournament_id = %s"
                       + (_PUBLISHED if published_only else ""), [tournament.pk])
        numbers = {number for number, in cursor.fetchall()}
        cursor.execute(_PUBLISHED_MATCHES_SQL if published_only else _MATCHES_SQL, [tournament.pk])
        matches = {row[0]: row for row in cursor.fetchall()}
        cursor.execute(_DEDUCTIONS_SQL, [tournament.pk])
        deductions: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for team, params in cursor.fetchall():
            params = _json(params)
            deductions[team].append((params["metric"], int(params["amount"])))
    records_of = _Records(pts)
    present: dict[int, set[int]] = defaultdict(set)
    records: dict[int, tuple[MatchRecord, ...]] = {}
    for row in matches.values():
        _, rnd, ns, ew = row[:4]
        present[ns].add(rnd)
        if ew is not None:
            present[ew].add(rnd)
        records[row[0]] = records_of(row)
    teams = [TeamInfo(team, club, seed, frozenset(numbers - present[team]), withdrawn, tuple(deductions[team]))
             for team, club, seed, withdrawn in entries]
    clubs = {team: club for team, club, _, _ in entries}
    return teams, matches, records, clubs


def load_results(tournament: Tournament, *, published_only: bool = False
                 ) -> tuple[list[TeamInfo], list[MatchRecord], dict[int, int | None]]:
    """The tournament's teams and finished results as plain values, and each team's club; ``published_only``: of
    its published rounds alone (what the public sees), else of every round (the pairing's).

    Reads the entries, the round numbers and the matches only: a match carries its games won and
    its game points (the sums ``match_refresh_result`` keeps), so no game is read.
    """
    teams, _, records, clubs = _load(tournament, points_settings(tournament), published_only)
    return teams, [r for recs in records.values() for r in recs], clubs


@dataclass(eq=False)
class _Inputs:
    """What a recompute read and wrote, kept in the worker process for the next recompute.

    Valid only while the snapshot's ``generation`` is still the one written with them (no other
    process has recomputed since) and the tournament's points and metrics are the same.
    """

    generation: str
    settings: tuple  # (PointsSettings, metric names, whether unconfirmed results wait)
    matches: dict[int, tuple]  # match id -> its row (``_MATCH_COLUMNS``)
    records: dict[int, tuple[MatchRecord, ...]]  # match id -> its records
    ctx: Context
    clubs: dict[int, int | None]
    saved: dict[int, tuple] | None = None  # team -> (row id, values), as ``_saved_rows`` gives it; None: read it

    def apply(self, changed: set[int | None], tournament_id: int) -> bool:
        """Bring the inputs up to date with the changed matches; False when only a full load can.

        Only a changed result is applied here; a changed round, entry or club (``None``), a match
        inserted, deleted or re-paired (its round or teams differ) changes which rounds a team was
        absent from, so it needs the full load. A match of a round not published yet, read neither now
        nor before, is no change of the saved standings (its round's publication asks for a full load).
        """
        if None in changed:
            return False
        if not changed:
            return True
        with connection.cursor() as cursor:
            cursor.execute(f"{_PUBLISHED_MATCHES_SQL} AND m.id IN ({', '.join(['%s'] * len(changed))})",
                           [tournament_id, *changed])
            rows = {row[0]: row for row in cursor.fetchall()}
        changed = {m for m in changed if m in rows or m in self.matches}
        if rows.keys() != changed or any(rows[m][:4] != self.matches.get(m, ())[:4] for m in changed):
            return False
        records_of = _Records(self.settings[0])
        for match, row in rows.items():
            if row != self.matches[match]:
                new = records_of(row)
                self.ctx.replace(self.records[match], new)
                self.matches[match], self.records[match] = row, new
        return True


_KEPT: OrderedDict[int, _Inputs] = OrderedDict()  # tournament id -> inputs, the most recent last
_KEPT_LOCK = threading.Lock()  # a threads pool shares them
KEEP_TOURNAMENTS = int(getattr(settings, "STANDINGS_KEEP_TOURNAMENTS", 32))


def _take_kept(tournament_id: int) -> _Inputs | None:
    """Take (remove) the kept inputs of a tournament: a recompute that fails keeps nothing half-applied."""
    with _KEPT_LOCK:
        return _KEPT.pop(tournament_id, None)


def _keep(tournament_id: int, inputs: _Inputs) -> None:
    with _KEPT_LOCK:
        _KEPT[tournament_id] = inputs
        while len(_KEPT) > KEEP_TOURNAMENTS:
            _KEPT.popitem(last=False)


def kept_inputs_forget(tournament_id: int) -> None:
    """Forget one tournament's kept inputs (a recompute rolled back, as a desk action's preview's)."""
    _take_kept(tournament_id)


def kept_inputs_clear() -> None:
    """Forget every kept input, as a restarted worker has none (the next recomputes load everything)."""
    with _KEPT_LOCK:
        _KEPT.clear()


def _take_changes(tournament_id: int) -> set[int | None]:
    """Delete the tournament's committed standings changes and return the matches they name (None: all).

    One ``DELETE ... RETURNING``: a change committed meanwhile is either returned or left for the
    next recompute. Without RETURNING (SQLite before 3.35) the changes are deleted unread and the
    answer is "all" (the full load that follows reads whatever they named).
    """
    sql = "DELETE FROM tournaments_standingschange WHERE tournament_id = %s"
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite" and connection.Database.sqlite_version_info < (3, 35):
            cursor.execute(sql, [tournament_id])
            return {None}
        cursor.execute(f"{sql} RETURNING match_id", [tournament_id])
        return {match for match, in cursor.fetchall()}


_values = attrgetter(*Standing.COMPUTED)  # a row's values of Standing.COMPUTED, as a tuple


def standings_recompute(*, tournament: Tournament) -> StandingsSnapshot:
    """Recompute a tournament's standings and replace the saved rows whole, in one transaction.

    Under the tournament's lock, the committed standings changes are taken first. When this
    process kept the inputs of the last recompute (the snapshot's generation says so) and only
    results changed, the changed matches are read and applied to them; otherwise everything is
    loaded again. Either way the ranking is computed whole from the inputs.

    The snapshot returned also tells how it went (not saved): ``incremental`` (True when the kept
    inputs were brought up to date, False after a full load) and ``changes`` (the ids of the
    matches whose committed changes it took, sorted; a change that names no match is left out).
    """
    started = time.perf_counter()
    pts, metrics = points_settings(tournament), tournament_metrics(tournament)
    waiting = confirmation.waits(tournament)  # which results count: a change of it reads everything again
    inputs = _take_kept(tournament.pk)
    with transaction.atomic():
        advisory_lock(tournament.pk, "standings")
        computed_at = timezone.now()
        # Locked: a write to the rows by someone else (which empties the generation) waits for us.
        # The event's stages counted in the same statement (a one-stage event reads nothing more).
        count = Stage.objects.filter(tournament=OuterRef("tournament")).values("tournament").annotate(n=Count("pk"))
        first = Stage.objects.filter(tournament=OuterRef("tournament"), number=1).values("pk")[:1]
        snapshot = (StandingsSnapshot.objects.select_for_update(of=("self",)).filter(tournament=tournament)
                    .annotate(stage_count=Subquery(count.values("n")[:1]), first_stage=Subquery(first)).first())
        if snapshot is None:
            snapshot = StandingsSnapshot(tournament=tournament)
            snapshot.stage_count = Stage.objects.filter(tournament=tournament).count()
            snapshot.first_stage = Stage.objects.filter(tournament=tournament, number=1).values_list(
                "pk", flat=True).first()
        changed = _take_changes(tournament.pk)
        if snapshot.stage_count > 1 or tournament.format == Tournament.Format.POOLS:  # pools: ranked in each pool
            stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
            from tournaments.services.stage_standings import stages_standings_recompute

            return stages_standings_recompute(tournament, stages, snapshot, pts, metrics, started, computed_at,
                                              changed)
        stage = Stage(pk=snapshot.first_stage, tournament=tournament, number=1)
        if tournament.is_individual:
            from tournaments.services.standings_individual import individual_standings_recompute

            return individual_standings_recompute(tournament, snapshot, pts, list(tournament.tiebreaks or []),
                                                  started, stage=stage, changed=changed)
        incremental = True
        if (inputs is None or inputs.generation != snapshot.generation or inputs.settings != (pts, metrics, waiting)
                or not inputs.apply(changed, tournament.pk)):
            teams, matches, records, clubs = _load(tournament, pts, published_only=True)
            ctx = Context.build(teams, (r for recs in records.values() for r in recs), pts)
            inputs = _Inputs("", (pts, metrics, waiting), matches, records, ctx, clubs)
            incremental = False
        rows = rank_standings(inputs.ctx, metrics)
        saved = inputs.saved if inputs.saved is not None else _saved_rows(tournament)
        clubs = [{"club": c.club, "rank": c.rank, "teams": c.teams, "percentage": c.percentage}
                 for c in club_standings(rows, inputs.clubs, pts)]
        same = len(saved) == len(rows) and all(saved.get(r.team, (None, None))[1] == _values(r) for r in rows)
        if snapshot_unmoved(snapshot, changed, same, metrics, clubs):
            inputs.saved, inputs.generation = saved, snapshot.generation
            _keep(tournament.pk, inputs)
            return unmoved_result(snapshot, computed_at, started, changed)
        inputs.saved = _replace_rows(tournament, rows, computed_at, saved, stage.pk)
        snapshot.computed_at, snapshot.metrics, snapshot.clubs = computed_at, metrics, clubs
        snapshot.generation = inputs.generation = uuid.uuid4().hex
        snapshot.duration_ms = int((time.perf_counter() - started) * 1000)
        snapshot.save()
        publish_standings_changed(tournament.pk)
    _keep(tournament.pk, inputs)
    snapshot.ran_at, snapshot.written = computed_at, True
    snapshot.incremental, snapshot.changes = incremental, sorted(m for m in changed if m is not None)
    return snapshot


def _replace_rows(tournament: Tournament, rows, computed_at, saved: dict[int, tuple] | None,
                  stage_id: int) -> dict[int, tuple] | None:
    """Make the saved rows exactly ``rows``, writing only the rows whose values changed.

    ``saved`` is what the last recompute left (None: read it). Returns the rows as now saved, for
    the next recompute.

    The standings' time is the snapshot's ``computed_at`` (same transaction); a row's own
    ``computed_at`` is when its values were last (re)computed to something new.
    """
    if saved is None:
        saved = _saved_rows(tournament)
    wanted = {r.team for r in rows}
    stale = [team for team in saved if team not in wanted]
    if stale:
        Standing.objects.filter(pk__in=[saved[team][0] for team in stale]).delete()
    changed, new = [], []
    for r in rows:
        row = saved.get(r.team)
        if row is None:
            new.append(r)
        elif _values(r) != row[1]:
            changed.append((row[0], r))
    if connection.vendor == "postgresql":
        inserted = _write_rows_postgresql(tournament, changed, new, computed_at, stage_id)
    else:
        Standing.objects.bulk_update(
            [Standing(pk=pk, computed_at=computed_at, **{f: getattr(r, f) for f in Standing.COMPUTED})
             for pk, r in changed],
            [*Standing.COMPUTED, "computed_at"], batch_size=500)
        created = Standing.objects.bulk_create(
            [Standing(tournament=tournament, stage_id=stage_id, team_id=r.team, computed_at=computed_at,
                      **{f: getattr(r, f) for f in Standing.COMPUTED}) for r in new], batch_size=1000)
        inserted = {s.team_id: s.pk for s in created}
    if None in inserted.values():
        return None  # a database that does not give the new ids back: read the rows next time
    for team in stale:
        del saved[team]
    for pk, r in changed:
        saved[r.team] = (pk, _values(r))
    for r in new:
        saved[r.team] = (inserted[r.team], _values(r))
    return saved


def _saved_rows(tournament: Tournament) -> dict[int, tuple]:
    """The saved rows by team as (row id, values of ``Standing.COMPUTED``), read with one plain query."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Standing._meta.get_field(f).column) for f in Standing.COMPUTED)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT team_id, id, {columns} FROM {quote(Standing._meta.db_table)} WHERE tournament_id = %s",
                       [tournament.pk])
        # The cursor gives the JSON column as text (Django reads it so for every backend).
        return {row[0]: (row[1], (*row[2:-1], _json(row[-1]))) for row in cursor.fetchall()}


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _write_rows_postgresql(tournament: Tournament, changed, new, computed_at, stage_id: int) -> dict[int, int]:
    """Update the changed rows with one UPDATE and insert the new ones with one INSERT; the new rows' ids by team.

    The rows go as one JSON array of arrays each: one text parameter. (Django's ``bulk_update``
    builds a CASE per field and row, and its client-side binding quotes list parameters one value
    at a time: after one result, when a few hundred rows move, either cost more than the whole
    computation.)
    """
    fields = [Standing._meta.get_field(f) for f in Standing.COMPUTED]
    quote = connection.ops.quote_name
    table = quote(Standing._meta.db_table)
    columns = ", ".join(quote(f.column) for f in fields)
    # Element 0 of each array is the row's id (changed rows) or its team (new rows), then the fields.
    source = ("SELECT (r ->> 0)::bigint AS key, "
              + ", ".join(f"(r ->> {i})::{f.cast_db_type(connection)} AS {quote(f.column)}"
                          for i, f in enumerate(fields, start=1))
              + " FROM jsonb_array_elements(%(rows)s::jsonb) AS r")

    def data(keyed) -> str:
        return json.dumps([[key, *_values(r)] for key, r in keyed], separators=(",", ":"))

    with connection.cursor() as cursor:
        if changed:
            cursor.execute(
                f"UPDATE {table} AS s SET {', '.join(f'{quote(f.column)} = v.{quote(f.column)}' for f in fields)}, "
                f"computed_at = %(at)s FROM ({source}) AS v WHERE s.id = v.key",
                {"rows": data(changed), "at": computed_at})
        if not new:
            return {}
        cursor.execute(
            f"INSERT INTO {table} (tournament_id, stage_id, computed_at, team_id, {columns}) "
            f"SELECT %(tournament)s, %(stage)s, %(at)s, v.* FROM ({source}) AS v RETURNING team_id, id",
            {"rows": data((r.team, r) for r in new), "at": computed_at, "tournament": tournament.pk,
             "stage": stage_id})
        return dict(cursor.fetchall())

