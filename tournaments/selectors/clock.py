"""A round's clock as pages and the API show it, from the server's state and time.

The clock lives on the round (``Round.clock_*``): not started, running until ``clock_ends_at``, paused with
``clock_paused_left`` seconds left, or over. Pages count down from ``remaining`` (seconds, from the
server's time when the answer was made), so a reload or a lost connection shows the right time at once.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from tournaments.models import Round, Tournament

NOT_STARTED, RUNNING, PAUSED, OVER = "not_started", "running", "paused", "over"


def clock_status(rnd: Round, now: datetime | None = None) -> str:
    now = now or timezone.now()
    if rnd.clock_paused_left is not None:
        return PAUSED
    if rnd.clock_ends_at is None:
        return NOT_STARTED
    return OVER if rnd.clock_ends_at <= now else RUNNING


def round_clock(rnd: Round, now: datetime | None = None) -> dict:
    """``{"status", "started_at", "ends_at", "remaining", "minutes", "server_time"}`` for a round."""
    now = now or timezone.now()
    status = clock_status(rnd, now)
    if status == PAUSED:
        remaining = rnd.clock_paused_left
    elif status == RUNNING:
        remaining = max(0, int((rnd.clock_ends_at - now).total_seconds() + 0.999))
    elif status == OVER:
        remaining = 0
    else:
        remaining = None
    tournament: Tournament = rnd.tournament
    return {
        "status": status,
        "started_at": rnd.clock_started_at,
        "ends_at": rnd.clock_ends_at if status in (RUNNING, OVER) else None,
        "remaining": remaining,
        "minutes": tournament.minutes if tournament.match_length == Tournament.MatchLength.TIMED else None,
        "server_time": now,
    }


def time_over(rnd: Round, at: datetime) -> bool:
    """Tell whether the round's time was over at ``at`` (a paused or unstarted clock is never over)."""
    return rnd.clock_paused_left is None and rnd.clock_ends_at is not None and at >= rnd.clock_ends_at
