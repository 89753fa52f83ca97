"""Standings: load a tournament's results, rank them with ``tournaments.ranking``, save them whole.

Coalescing. ``match_result_changed`` runs for every hand entered, corrected or deleted; on commit
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

Reading and writing. A recompute reads the entries, the round numbers and the matches, nothing
else: each match carries its games won and its game points (``Match.points_ns``/``points_ew``,
kept by ``match_refresh_result`` with every hand), so no game or hand is read and nothing is
cached between recomputes. It then reads the saved rows and writes only those whose values
changed (after one result: the two teams, their opponents' Buchholz, the positions that moved).
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections import defaultdict
from operator import attrgetter

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from tournaments.models import Match, Standing, StandingsSnapshot, Tournament
from tournaments.ranking import (
    METRICS,
    MatchRecord,
    PointsSettings,
    TeamInfo,
    club_standings,
    compute_standings,
)
from tournaments.ranking.metrics import DEFAULT_METRICS

logger = logging.getLogger(__name__)

COALESCE_SECONDS = getattr(settings, "STANDINGS_COALESCE_SECONDS", 2)
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


def standings_recompute_schedule(tournament_id: int) -> bool:
    """Queue one coalesced recompute of a tournament's standings; False when one is already queued."""
    from tournaments.tasks import standings_recompute_task

    try:
        first = cache.add(pending_key(tournament_id), 1, timeout=COALESCE_SECONDS + PENDING_TIMEOUT)
    except Exception:  # the cache is down: recompute anyway rather than lose the result
        logger.exception("standings coalescing flag unavailable for tournament %s", tournament_id)
        first = True
    if first:
        standings_recompute_task.apply_async((tournament_id,), countdown=COALESCE_SECONDS)
    return first


def match_result_changed(*, match: Match) -> None:
    """Queue the coalesced standings recompute on commit and advance a finished knockout match's winner."""
    tournament = match.round.tournament
    transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
    if (tournament.format == Tournament.Format.KNOCKOUT and match.status == Match.Status.FINISHED
            and match.winner in (Match.Winner.NS, Match.Winner.EW)):
        from tournaments.services.rounds import knockout_advance

        knockout_advance(match=match)


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

_MATCHES_SQL = """
SELECT r.number, m.ns_id, m.ew_id, m.status, m.winner, m.games_won_ns, m.games_won_ew, m.points_ns, m.points_ew
FROM tournaments_match m JOIN tournaments_round r ON r.id = m.round_id
WHERE r.tournament_id = %s
"""


def load_results(tournament: Tournament) -> tuple[list[TeamInfo], list[MatchRecord], dict[int, int | None]]:
    """The tournament's teams and finished results as plain values, and each team's club.

    Reads the entries, the round numbers and the matches only: a match carries its games won and
    its game points (the sums ``match_refresh_result`` keeps), so no game is read.
    """
    with connection.cursor() as cursor:
        cursor.execute(_ENTRIES_SQL, [tournament.pk])
        entries = cursor.fetchall()
        cursor.execute("SELECT number FROM tournaments_round WHERE tournament_id = %s", [tournament.pk])
        numbers = {number for number, in cursor.fetchall()}
        cursor.execute(_MATCHES_SQL, [tournament.pk])
        matches = cursor.fetchall()
    pts = points_settings(tournament)
    win, draw, bye, finished = pts.points_win, pts.points_draw, pts.points_bye, Match.Status.FINISHED.value
    outcomes = {"ns": ("W", win, "L", 0), "ew": ("L", 0, "W", win), "draw": ("D", draw, "D", draw)}
    present: dict[int, set[int]] = defaultdict(set)
    results: list[MatchRecord] = []
    for rnd, ns, ew, status, winner, gw_ns, gw_ew, p_ns, p_ew in matches:
        present[ns].add(rnd)
        if ew is None:
            results.append(MatchRecord(rnd, ns, None, "B", bye))
            continue
        present[ew].add(rnd)
        if status != finished or winner not in outcomes:
            continue
        o_ns, mp_ns, o_ew, mp_ew = outcomes[winner]
        results.append(MatchRecord(rnd, ns, ew, o_ns, mp_ns, gw_ns, gw_ew, p_ns, p_ew))
        results.append(MatchRecord(rnd, ew, ns, o_ew, mp_ew, gw_ew, gw_ns, p_ew, p_ns))
    teams = [TeamInfo(team, club, seed, frozenset(numbers - present[team]), withdrawn)
             for team, club, seed, withdrawn in entries]
    clubs = {team: club for team, club, _, _ in entries}
    return teams, results, clubs


def standings_compute(tournament: Tournament):
    """Compute the standings rows and club rows of a tournament without saving them."""
    teams, results, clubs = load_results(tournament)
    metrics = tournament_metrics(tournament)
    pts = points_settings(tournament)
    rows = compute_standings(teams, results, metrics=metrics, settings=pts)
    return rows, club_standings(rows, clubs, pts), metrics


_FIELDS = ["rank", "position", "played", "won", "drawn", "lost", "match_points", "games_won", "games_lost",
           "points_for", "points_against", "tiebreaks"]  # tiebreaks, the JSON field, last
_values = attrgetter(*_FIELDS)  # a row's values of _FIELDS, as a tuple
_numbers = attrgetter(*_FIELDS[:-1])  # the same without tiebreaks


def standings_recompute(*, tournament: Tournament) -> StandingsSnapshot:
    """Recompute a tournament's standings and replace the saved rows whole, in one transaction."""
    started = time.perf_counter()
    with transaction.atomic():
        advisory_lock(tournament.pk, "standings")
        computed_at = timezone.now()
        rows, clubs, metrics = standings_compute(tournament)
        _replace_rows(tournament, rows, computed_at)
        # Under the advisory lock: read, then one UPDATE (or the first recompute's INSERT).
        snapshot = (StandingsSnapshot.objects.filter(tournament=tournament).first()
                    or StandingsSnapshot(tournament=tournament))
        snapshot.computed_at, snapshot.metrics = computed_at, metrics
        snapshot.clubs = [{"club": c.club, "rank": c.rank, "teams": c.teams, "percentage": c.percentage}
                          for c in clubs]
        snapshot.duration_ms = int((time.perf_counter() - started) * 1000)
        snapshot.save()
    return snapshot


def _replace_rows(tournament: Tournament, rows, computed_at) -> None:
    """Make the saved rows exactly ``rows``, writing only the rows whose values changed.

    The standings' time is the snapshot's ``computed_at`` (same transaction); a row's own
    ``computed_at`` is when its values were last (re)computed to something new.
    """
    saved = _saved_rows(tournament)
    wanted = {r.team for r in rows}
    stale = [row[1] for team, row in saved.items() if team not in wanted]
    if stale:
        Standing.objects.filter(pk__in=stale).delete()
    changed, new = [], []
    for r in rows:
        row = saved.get(r.team)
        if row is None:
            new.append(r)
        elif _numbers(r) != row[2:-1] or r.tiebreaks != _json(row[-1]):  # the JSON read only when needed
            changed.append((row[1], r))
    if connection.vendor == "postgresql":
        _write_rows_postgresql(tournament, changed, new, computed_at)
        return
    Standing.objects.bulk_update([Standing(pk=pk, computed_at=computed_at, **{f: getattr(r, f) for f in _FIELDS})
                                  for pk, r in changed], [*_FIELDS, "computed_at"], batch_size=500)
    Standing.objects.bulk_create([Standing(tournament=tournament, team_id=r.team, computed_at=computed_at,
                                           **{f: getattr(r, f) for f in _FIELDS}) for r in new], batch_size=1000)


def _saved_rows(tournament: Tournament) -> dict[int, tuple]:
    """The saved rows by team as (team, id, *values of ``_FIELDS``), read with one plain query.

    The last value, ``tiebreaks``, is as the cursor gives it: JSON text (see ``_json``).
    """
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Standing._meta.get_field(f).column) for f in _FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT team_id, id, {columns} FROM {quote(Standing._meta.db_table)} WHERE tournament_id = %s",
                       [tournament.pk])
        return {row[0]: row for row in cursor.fetchall()}


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _write_rows_postgresql(tournament: Tournament, changed, new, computed_at) -> None:
    """Update the changed rows with one UPDATE and insert the new ones with one INSERT.

    The rows go as one JSON array of arrays each: one text parameter. (Django's ``bulk_update``
    builds a CASE per field and row, and its client-side binding quotes list parameters one value
    at a time: after one result, when a few hundred rows move, either cost more than the whole
    computation.)
    """
    fields = [Standing._meta.get_field(f) for f in _FIELDS]
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
        if new:
            cursor.execute(
                f"INSERT INTO {table} (tournament_id, computed_at, team_id, {columns}) "
                f"SELECT %(tournament)s, %(at)s, v.* FROM ({source}) AS v",
                {"rows": data((r.team, r) for r in new), "at": computed_at, "tournament": tournament.pk})

