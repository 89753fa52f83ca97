"""A result's fan-out: what follows when a match's result changes (a hand entered, corrected or deleted).

The standings get a coalesced recompute queued on commit (tournaments/services/standings.py), the live
pages are told (tournaments/live.py), and a finished knockout match sends its winner on to the next
round (tournaments/services/rounds.py). Every path that changes a result calls ``match_result_changed``.
"""

from __future__ import annotations

from tournaments import commit_cache
from tournaments.live import publish_match_changed
from tournaments.models import Match, Stage
from tournaments.selectors import confirmation
from tournaments.services.knockout import knockout_advance
from tournaments.services import standings


def match_result_changed(*, match: Match) -> None:
    """Queue the coalesced standings recompute on commit and advance a finished knockout match's winner."""
    tournament = match.round.tournament
    # The flag is set with the commit's other cache work, in one round trip (``commit_cache``).
    commit_cache.at_commit(
        [("add", standings.pending_key(tournament.pk), 1, standings.COALESCE_SECONDS + standings.PENDING_TIMEOUT)],
        lambda replies: standings.standings_recompute_schedule(
            tournament.pk, added=replies if isinstance(replies, Exception) else replies[0]))
    publish_match_changed(match.pk, tournament.pk)
    # With results waiting for confirmation, a knockout's winner goes on once confirmed or final.
    if (match.status == Match.Status.FINISHED and match.winner in (Match.Winner.NS, Match.Winner.EW)
            and _stage_format(match) == Stage.Format.KNOCKOUT and confirmation.counts(match, tournament)):
        knockout_advance(match=match)


def _stage_format(match: Match) -> str | None:
    """The format of the match's stage (a multi-stage event's knockout may follow pools or a Swiss)."""
    if "stage" in match.round._state.fields_cache:
        return match.round.stage.format
    return Stage.objects.filter(pk=match.round.stage_id).values_list("format", flat=True).first()
