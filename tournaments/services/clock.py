"""The round clock: the organizer starts, pauses, resumes, extends and ends it; the server keeps it.

Each write locks the round, saves the clock's fields and tells the open pages (the round's live region
shows the time left). When the time is up, ``round_time_up`` finishes the timed matches that have no game
in play (``games.match_result_apply`` judges a timed match by the clock); it runs when the organizer ends
the clock and from the worker at the clock's end (queued with the clock's end as its time).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments import queue
from tournaments.live import publish_tournament_changed
from tournaments.models import Match, Round
from tournaments.selectors.clock import NOT_STARTED, OVER, PAUSED, RUNNING, clock_status
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.lengths import length_of

#: The longest a clock may run or be extended by, in minutes.
CLOCK_MINUTES_MAX = 600


def _locked(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _minutes(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= CLOCK_MINUTES_MAX:
        raise ServiceError("clock_minutes", field, {"value": value, "maximum": CLOCK_MINUTES_MAX})
    return value


def _saved(rnd: Round) -> Round:
    rnd.save(update_fields=["clock_started_at", "clock_ends_at", "clock_paused_left"])
    tournament_id = rnd.tournament_id
    transaction.on_commit(lambda: publish_tournament_changed(tournament_id))
    if rnd.clock_ends_at is not None and rnd.clock_paused_left is None:
        ends, pk = rnd.clock_ends_at, rnd.pk
        transaction.on_commit(lambda: queue.task_queue(queue.ROUND_TIME_UP, (pk,), eta=ends))
    return rnd


def round_clock_start(*, round: Round, minutes: int | None = None, user=None) -> Round:
    """Start the round's clock for ``minutes`` (the minutes a round of its stage by default)."""
    with transaction.atomic():
        rnd = _locked(round)
        if clock_status(rnd) != NOT_STARTED:
            raise Conflict("clock_started", None, {"round": rnd.number})
        minutes = _minutes(minutes if minutes is not None else length_of(rnd).minutes, "minutes")
        now = timezone.now()
        rnd.clock_started_at, rnd.clock_ends_at = now, now + timedelta(minutes=minutes)
        return _saved(rnd)


def round_clock_pause(*, round: Round, user=None) -> Round:
    with transaction.atomic():
        rnd = _locked(round)
        if clock_status(rnd) != RUNNING:
            raise Conflict("clock_not_running", None, {"round": rnd.number})
        rnd.clock_paused_left = max(1, int((rnd.clock_ends_at - timezone.now()).total_seconds()))
        rnd.clock_ends_at = None
        return _saved(rnd)


def round_clock_resume(*, round: Round, user=None) -> Round:
    with transaction.atomic():
        rnd = _locked(round)
        if clock_status(rnd) != PAUSED:
            raise Conflict("clock_not_paused", None, {"round": rnd.number})
        rnd.clock_ends_at = timezone.now() + timedelta(seconds=rnd.clock_paused_left)
        rnd.clock_paused_left = None
        return _saved(rnd)


def round_clock_extend(*, round: Round, minutes: int, user=None) -> Round:
    """Give the round ``minutes`` more (running, paused, or over: an ended clock runs again)."""
    minutes = _minutes(minutes, "minutes")
    with transaction.atomic():
        rnd = _locked(round)
        status = clock_status(rnd)
        if status == NOT_STARTED:
            raise Conflict("clock_not_started", None, {"round": rnd.number})
        if status == PAUSED:
            rnd.clock_paused_left += minutes * 60
        else:
            rnd.clock_ends_at = max(rnd.clock_ends_at, timezone.now()) + timedelta(minutes=minutes)
        return _saved(rnd)


def round_clock_end(*, round: Round, user=None) -> Round:
    """End the round's time now; timed matches without a game in play finish (``round_time_up``)."""
    with transaction.atomic():
        rnd = _locked(round)
        if clock_status(rnd) == NOT_STARTED:
            raise Conflict("clock_not_started", None, {"round": rnd.number})
        if clock_status(rnd) != OVER:
            rnd.clock_ends_at, rnd.clock_paused_left = timezone.now(), None
            rnd.save(update_fields=["clock_ends_at", "clock_paused_left"])
        round_time_up(round_id=rnd.pk)
        publish_tournament_changed(rnd.tournament_id)
    return rnd


def round_time_up(*, round_id: int) -> int:
    """Finish the timed matches of a round whose time is over and that have no game in play; return how many.

    Safe to run twice and early (a clock extended since: nothing to do).
    """
    from tournaments.services import confirmation
    from tournaments.services.games import match_lock, match_refresh_result
    from tournaments.services.results import match_result_changed

    rnd = Round.objects.select_related("tournament", "stage").filter(pk=round_id).first()
    if rnd is None or not length_of(rnd).timed or clock_status(rnd) != OVER:
        return 0
    finished = 0
    for pk in (Match.objects.filter(round_id=round_id).exclude(status=Match.Status.FINISHED)
               .order_by("table").values_list("pk", flat=True)):
        with transaction.atomic():
            match = match_lock(pk)
            before = match.status
            match_refresh_result(match)
            if match.status != before:
                finished += 1
                confirmation.result_moved(match)  # entered, for the opponents to confirm (when they confirm)
                match_result_changed(match=match)
    return finished
