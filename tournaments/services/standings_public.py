"""The saved standings are the public's (issue 28, rounds published on purpose): what a recompute counts, and when
it writes nothing.

A recompute (``services.standings``) counts the published rounds alone: a round paired, drawn or even played
before its publication is no part of them (its bye, its sit-outs, its results), and its publication asks for a
full recompute (``services.publication``). A recompute whose changes came from such rounds alone and that finds
the standings as saved writes nothing (``snapshot_unmoved``): no row, no snapshot, so neither the standings' time
nor their stamp (``versions.standings_key``, the public's ETags), the open pages nor the webhooks hear of it. Any
other recompute (a change of a published round's match, or none taken) writes as it always did, its time and stamp
moving even when no row changes (a result confirmed moves a row's mark).
"""

from __future__ import annotations

import time
import uuid

from tournaments.live import publish_standings_changed
from tournaments.models import Match, Standing, StandingsSnapshot, Tournament


def _unpublished_only(changed: set[int | None]) -> bool:
    """Whether the changes a recompute took come from rounds not published yet alone: each names a match of such a
    round, or no match (a round paired, an entry: what the rows say then is the standings' own). False when it
    took none (a recompute asked for without a change writes as it always did) or one names a published round's
    match or a match gone: its result, its confirmation, its mark may have moved."""
    matches = {m for m in changed if m is not None}
    if not changed:
        return False
    return not matches or Match.objects.filter(pk__in=matches, round__published_at__isnull=True).count() == len(
        matches)


def snapshot_unmoved(snapshot: StandingsSnapshot, changed: set[int | None], rows_same: bool, metrics,
                     clubs) -> bool:
    """Whether a recompute leaves the public standings as they are, and so writes nothing (no row, no snapshot: its
    time, its stamp, the open pages and the webhooks stay): what it took came from rounds not published yet
    alone (``_unpublished_only``) and its rows, metrics and club standings are the saved ones. A snapshot whose
    rows someone else wrote (its generation emptied) is written again."""
    return (rows_same and snapshot.pk is not None and bool(snapshot.generation)
            and list(snapshot.metrics or []) == list(metrics) and list(snapshot.clubs or []) == list(clubs)
            and _unpublished_only(changed))


def saved_rows_by_entrant(tournament: Tournament) -> dict[tuple, tuple]:
    """The saved rows, ``{(stage, team, player): (pool, pool rank, *Standing.COMPUTED values)}`` (one query)."""
    fields = ("stage_id", "team_id", "player_id", "pool", "pool_rank", *Standing.COMPUTED)
    return {(stage, team, player): tuple(rest) for stage, team, player, *rest in
            Standing.objects.filter(tournament=tournament).values_list(*fields)}


def unmoved_result(snapshot: StandingsSnapshot, ran_at, started: float, changed) -> StandingsSnapshot:
    """The snapshot as it stays (nothing written), saying how the recompute went: ``ran_at``, its time, and
    ``written`` False (``standings_recompute``)."""
    snapshot.ran_at, snapshot.written = ran_at, False
    snapshot.duration_ms = int((time.perf_counter() - started) * 1000)
    snapshot.incremental, snapshot.changes = False, sorted(m for m in changed if m is not None)
    return snapshot


def replace_standings(tournament: Tournament, snapshot: StandingsSnapshot, new: list[Standing], metrics, clubs,
                      computed_at, started: float, changed) -> StandingsSnapshot:
    """Make the saved rows ``new`` (every row replaced) and the snapshot's metrics and clubs these, unless the public
    standings stay as they are (``snapshot_unmoved``: then nothing is written); the recomputes that keep no inputs
    (an individual event's, a multi-stage event's) end here."""
    wanted = {(s.stage_id, s.team_id, s.player_id): (s.pool, s.pool_rank, *(getattr(s, f) for f in Standing.COMPUTED))
              for s in new}
    if snapshot_unmoved(snapshot, changed, wanted == saved_rows_by_entrant(tournament), metrics, clubs):
        return unmoved_result(snapshot, computed_at, started, changed)
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(new, batch_size=1000)
    snapshot.computed_at, snapshot.metrics = computed_at, list(metrics)
    snapshot.clubs = clubs
    snapshot.generation = uuid.uuid4().hex
    snapshot.duration_ms = int((time.perf_counter() - started) * 1000)
    snapshot.save()
    publish_standings_changed(tournament.pk)
    snapshot.ran_at, snapshot.written = computed_at, True
    snapshot.incremental, snapshot.changes = False, sorted(m for m in changed if m is not None)
    return snapshot
