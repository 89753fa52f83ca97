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
    rnd.save(update_fields=["clock_started_at", "clock_ends_at", "clock_paused_left", "clock_cut_left"])
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
        rnd.clock_cut_left = None  # the time given anew replaces what an early end cut off
        return _saved(rnd)


def round_clock_end(*, round: Round, user=None) -> Round:
    """End the round's time now; timed matches without a game in play finish (``round_time_up``)."""
    with transaction.atomic():
        rnd = _locked(round)
        if clock_status(rnd) == NOT_STARTED:
            raise Conflict("clock_not_started", None, {"round": rnd.number})
        status = clock_status(rnd)
        if status != OVER:
            now = timezone.now()
            # What the clock still had, for a director who finds it was ended by mistake (``round_clock_reopen``).
            rnd.clock_cut_left = (rnd.clock_paused_left if status == PAUSED
                                  else max(1, int((rnd.clock_ends_at - now).total_seconds())))
            rnd.clock_ends_at, rnd.clock_paused_left = now, None
            rnd.save(update_fields=["clock_ends_at", "clock_paused_left", "clock_cut_left"])
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


def _cut_round(round: Round, reason: str) -> tuple[Round, str]:
    from tournaments.models import DESK_REASON_MAX

    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ServiceError("reason_missing", "reason", {})
    if len(reason) > DESK_REASON_MAX:
        raise ServiceError("reason_too_long", "reason", {"limit": DESK_REASON_MAX})
    rnd = _locked(round)
    if rnd.clock_cut_left is None or clock_status(rnd) != OVER:
        raise Conflict("clock_not_cut", None, {"round": rnd.number})
    return rnd, reason


def round_clock_reopen(*, round: Round, reason: str, user=None):
    """A clock ended early by mistake: the clock runs again with the time it still had, and the timed matches it
    finished (no director's action decided them) are playing again, their results no longer counted until they
    finish. A director's action (``clock_reopened``, its reason, the matches and seconds in its parameters)
    records it. Refused (409 ``clock_not_cut``) unless the clock was ended early and not given time since."""
    from tournaments.models import DirectorAction, StandingsChange
    from tournaments.services import confirmation
    from tournaments.services.games import match_lock, match_refresh_result
    from tournaments.services.results import match_result_changed

    with transaction.atomic():
        rnd, reason = _cut_round(round, reason)
        seconds = rnd.clock_cut_left
        rnd.clock_ends_at, rnd.clock_paused_left, rnd.clock_cut_left = (
            timezone.now() + timedelta(seconds=seconds), None, None)
        _saved(rnd)
        reopened = []
        for pk in (Match.objects.filter(round=rnd, status=Match.Status.FINISHED, decided_by="")
                   .order_by("table").values_list("pk", flat=True)):
            match = match_lock(pk)
            match_refresh_result(match)
            if match.status != Match.Status.FINISHED:
                reopened.append(match.table)
                confirmation.result_reopened(match, user=user, reason=reason)
                match_result_changed(match=match)
        action = DirectorAction.objects.create(
            tournament_id=rnd.tournament_id, round=rnd, kind=DirectorAction.Kind.CLOCK_REOPENED, reason=reason,
            actor=_actor(user), params={"round": rnd.number, "seconds": seconds, "tables": reopened})
        # A full standings load next (as the desk's actions ask): the reopened results no longer count.
        StandingsChange.objects.create(tournament_id=rnd.tournament_id, match_id=None)
        tournament_id = rnd.tournament_id
        transaction.on_commit(lambda: _standings_schedule(tournament_id))
    return action


def _standings_schedule(tournament_id: int) -> None:
    from tournaments.services.standings import standings_recompute_schedule

    standings_recompute_schedule(tournament_id)


def _actor(user):
    return user if getattr(user, "pk", None) else None


def round_clock_keep(*, round: Round, reason: str, user=None):
    """A clock ended early, kept as it is: the results it gave stand and the offer to reopen is gone; a director's
    action (``clock_kept``) records it with the seconds the clock had. Refused as ``round_clock_reopen``."""
    from tournaments.models import DirectorAction

    with transaction.atomic():
        rnd, reason = _cut_round(round, reason)
        seconds, rnd.clock_cut_left = rnd.clock_cut_left, None
        rnd.save(update_fields=["clock_cut_left"])
        return DirectorAction.objects.create(
            tournament_id=rnd.tournament_id, round=rnd, kind=DirectorAction.Kind.CLOCK_KEPT, reason=reason,
            actor=_actor(user), params={"round": rnd.number, "seconds": seconds})
