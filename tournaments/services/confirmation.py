"""Results confirmed by the opponents (``Tournament.confirmation == "opponents"``, docs/confirmation.md).

A match is ``entered`` once finished; someone of the other side confirms it (``result_confirm``: naming
themselves, proving it with their personal code or their account; a table's code only binds the request to
the match and its round) or disputes it with a reason (``result_dispute``); a director settles it (``final``,
``result_settle``) or confirms it on paper (``result_confirm_on_paper``), and ``results_auto_confirm``
confirms what waited the event's minutes without a dispute. While ``entered`` the side that entered it may
correct it (the confirmation starts again); once ``confirmed``, ``disputed`` or ``final`` only a director
changes a hand, with a reason (``change_check``, else 409 ``result_locked``), and the match becomes ``final``.

Every step is a ``ResultEvent`` row with its actor (an account, or a player by their code), the phone and
address it came from (``acting``: the door that took the request says them) and its time. The hand services
call ``change_check`` under the match's lock before they write and ``result_moved`` after.
"""

from __future__ import annotations

import contextvars
import secrets
import time
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import access, versions
from tournaments.models import Match, PersonalCode, Player, ResultEvent, RoundSeat, Tournament
from tournaments.selectors.confirmation import (  # noqa: F401 - the reads, here too for the services' callers
    CONFIRMED, DISPUTED, ENTERED, FINAL, LOCKED, WAITING, confirming, counts, status_of, waits,
)
from tournaments.services.errors import Conflict, Forbidden, ServiceError, TooMany
from tournaments.services.rows import update

#: What a personal code is made of: no 0/O, 1/I/L (read aloud at a table, typed on a phone).
CODE_ALPHABET, CODE_LENGTH = "ABCDEFGHJKMNPQRSTUVWXYZ23456789", 6
#: Wrong personal codes allowed: (count, window in seconds), per match and per phone.
WRONG_CODES_MATCH = (8, 600)
WRONG_CODES_DEVICE = (8, 600)
REASON_MAX = 300

#: The fields a status change writes.
STATUS_FIELDS = ("result_status", "result_mark", "result_side", "result_user", "result_device", "result_at",
                 "result_reason")


# --------------------------------------------------------------------------- who acts, from where

_ACTOR: contextvars.ContextVar[dict | None] = contextvars.ContextVar("result_actor", default=None)


@contextmanager
def acting(*, device: str = "", address: str | None = None):
    """Say, for the result services run inside, which phone (its id) and address the request came from."""
    token = _ACTOR.set({"device": (device or "")[:40], "address": address or None})
    try:
        yield
    finally:
        _ACTOR.reset(token)


def _actor() -> dict:
    return _ACTOR.get() or {"device": "", "address": None}


def _account(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


# --------------------------------------------------------------------------- who is who at a table


def match_sides(match: Match) -> dict[int, str]:
    """The match's players and their sides: ``{player id: "ns" | "ew"}``."""
    if match.ns_id is None:
        return {player: ("ns" if seat in ("N", "S") else "ew")
                for player, seat in RoundSeat.objects.filter(match=match).values_list("player_id", "seat")}
    found = {}
    for side, team in (("ns", match.ns), ("ew", match.ew)):
        if team is not None:
            found[team.player_1_id] = found[team.player_2_id] = side
    return found


def _side_of_user(match: Match, user) -> str:
    user = _account(user)
    if user is None:
        return ""
    player = Player.objects.filter(user=user).values_list("pk", flat=True).first()
    return match_sides(match).get(player, "") if player else ""


def _side_of_device(match: Match, device: str) -> str:
    """The side of the players who named themselves on this phone before (with their personal code or their
    account, at any step of the tournament's results), when those of them at this match are all of one side: the
    phone is theirs, or their side's. "" (unknown) for a phone nobody of the match named themselves on, one
    players of both sides did, and no phone."""
    if not device:
        return ""
    sides = match_sides(match)
    named = (ResultEvent.objects.filter(match__round__tournament_id=match.round.tournament_id, device=device,
                                        player_id__in=list(sides)).values_list("player_id", flat=True).distinct())
    found = {sides[p] for p in named}
    return found.pop() if len(found) == 1 else ""


# --------------------------------------------------------------------------- personal codes


def personal_code_clean(code) -> str:
    """A code as typed on a phone, in the form it is printed and stored: capitals, letters and digits only."""
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())[:12]


def personal_codes(tournament: Tournament, players: Iterable[int]) -> dict[int, str]:
    """The personal codes of these players in the tournament, ``{player id: code}``, made for those without one."""
    wanted = set(players)
    found = dict(PersonalCode.objects.filter(tournament=tournament, player_id__in=wanted)
                 .values_list("player_id", "code"))
    for player in sorted(wanted - found.keys()):
        for _attempt in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with transaction.atomic():
                    PersonalCode.objects.create(tournament=tournament, player_id=player, code=code)
            except IntegrityError:  # the code is taken (or the player got one meanwhile): read, or try another
                existing = PersonalCode.objects.filter(tournament=tournament, player_id=player).first()
                if existing is not None:
                    found[player] = existing.code
                    break
                continue
            found[player] = code
            break
    return found


def _window(name: str, window: int) -> tuple[str, int]:
    now = int(time.time())
    return f"result-code:{name}:{now // window}", window - now % window


def _over(name: str, limit_window: tuple[int, int]) -> int | None:
    limit, window = limit_window
    key, left = _window(name, window)
    return left if (cache.get(key) or 0) >= limit else None


def _count(name: str, limit_window: tuple[int, int]) -> None:
    _, window = limit_window
    key, _left = _window(name, window)
    if not cache.add(key, 1, window + 5):
        try:
            cache.incr(key)
        except ValueError:
            cache.add(key, 1, window + 5)


# --------------------------------------------------------------------------- the events


def _result(match: Match) -> dict:
    return {"winner": match.winner or None, "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
            "points": {"ns": match.points_ns, "ew": match.points_ew}}


def _event(match: Match, kind: str, *, user=None, player_id: int | None = None, side: str = "",
           reason: str = "") -> ResultEvent:
    actor = _actor()
    return ResultEvent.objects.create(
        match=match, kind=kind, status=match.result_status, user=_account(user), player_id=player_id, side=side,
        device=actor["device"], address=actor["address"], reason=reason[:REASON_MAX], result=_result(match))


def _save_status(match: Match) -> None:
    """Write the match's status fields, and tell what follows: versions, the live pages, the standings, a
    knockout's next round (``results.match_result_changed``)."""
    from tournaments.services.results import match_result_changed

    update(match, STATUS_FIELDS)
    versions.match_saved(match, at_commit=True)
    versions.round_saved(match.round)
    match_result_changed(match=match)


# --------------------------------------------------------------------------- the hand services' hooks


def change_check(match: Match, user=None, *, reason: str | None = None, finishing: bool = True) -> None:
    """Refuse (409 ``result_locked``) a change of the locked ``match``'s hands that its confirmation forbids.

    Once ``confirmed``, ``disputed`` or ``final``, only a director changes a hand, and says why (``reason``,
    the correction's; not asked when the match is no longer finished: a director reopened it). While
    ``entered``, a phone other than the one that entered it may not change it (an account may: a
    scorekeeper, a director, the entering player).
    """
    tournament = match.round.tournament
    if not confirming(tournament) or match.is_bye:
        return
    status = match.result_status
    if status in LOCKED:
        if not access.is_director(user, tournament.pk):
            raise Conflict("result_locked", None, {"reason": "director", "status": status})
        if finishing and match.status == Match.Status.FINISHED and not (reason or "").strip():
            raise Conflict("result_locked", "reason", {"reason": "why", "status": status})
    elif status == ENTERED and _account(user) is None:
        device = _actor()["device"]
        if match.result_device and device != match.result_device:
            raise Conflict("result_locked", None, {"reason": "other_phone", "status": status})


def result_moved(match: Match, user=None, *, reason: str = "") -> None:
    """Follow a change of the locked ``match``'s result (a hand entered, corrected or deleted, the clock's end)
    with its confirmation: a match just finished is ``entered`` (a correction while entered starts the
    confirmation again), one reopened while entered waits to finish again, and a director's change of a
    locked result makes it ``final``. Nothing when the tournament's results need no confirmation."""
    tournament = match.round.tournament
    if not confirming(tournament) or match.is_bye:
        return
    was, finished, now = match.result_status, match.status == Match.Status.FINISHED, timezone.now()
    if was in LOCKED:
        match.result_status, match.result_mark, match.result_at = FINAL, "", now
        match.result_reason = (reason or "")[:REASON_MAX]
        kind = ResultEvent.Kind.DECIDED
    elif finished:
        match.result_status, match.result_mark, match.result_at, match.result_reason = ENTERED, "", now, ""
        match.result_user, match.result_device = _account(user), _actor()["device"]
        # An account's side is its player's (none: a neutral scorekeeper); a phone without one, the side of the
        # players who named themselves on it before (none known: a table's phone, tied to no side).
        match.result_side = (_side_of_user(match, user) if match.result_user is not None
                             else _side_of_device(match, match.result_device))
        kind = ResultEvent.Kind.CORRECTED if was == ENTERED else ResultEvent.Kind.ENTERED
    elif was == ENTERED:
        match.result_status, match.result_mark, match.result_at, match.result_reason = "", "", now, ""
        kind = ResultEvent.Kind.REOPENED
    else:
        return
    update(match, STATUS_FIELDS)
    _event(match, kind, user=user, side=match.result_side if kind != ResultEvent.Kind.DECIDED else "",
           reason=reason if kind == ResultEvent.Kind.DECIDED else "")


def result_reopened(match: Match, user=None, *, reason: str = "") -> None:
    """A director reopened the finished ``match`` (its round's clock ended early by mistake): whatever its
    confirmation, it waits to finish again (``reopened``, with the director's reason)."""
    tournament = match.round.tournament
    if not confirming(tournament) or match.is_bye or not match.result_status:
        return
    match.result_status, match.result_mark, match.result_at = "", "", timezone.now()
    match.result_reason = (reason or "")[:REASON_MAX]
    update(match, STATUS_FIELDS)
    _event(match, ResultEvent.Kind.REOPENED, user=user, reason=reason)


# --------------------------------------------------------------------------- the other side


def _locked(match_id: int, tournament_id: int | None = None) -> Match:
    match = (Match.objects.select_for_update(of=("self",)).select_related("round__tournament", "ns", "ew")
             .filter(pk=match_id).first())
    if match is None or (tournament_id is not None and match.round.tournament_id != tournament_id):
        raise Match.DoesNotExist(f"no match {match_id}")
    return match


def _other_side(match: Match, *, player_id: int | None, code: str, user, table_code: str | None) -> tuple[int, str]:
    """Who of the other side confirms or disputes ``match``: ``(player id, side)``, proven by their personal code
    (named, with the table's code when the match has one) or by their account; refused otherwise."""
    tournament = match.round.tournament
    if not confirming(tournament):
        raise Conflict("confirmation_off")
    device = _actor()["device"]
    account = _account(user)
    sides = match_sides(match)
    if code or player_id is not None or account is None:
        if match.table_code and access.table_code_state(match, table_code or "") != access.CODE_VALID:
            raise Forbidden("table_code_required", "table_code", {"table": match.table})
        limits = [(f"m{match.pk}", WRONG_CODES_MATCH)] + ([(f"d{device}", WRONG_CODES_DEVICE)] if device else [])
        for name, limit in limits:
            if wait := _over(name, limit):
                raise TooMany("too_many_codes", "code", {"seconds": wait})
        stored = PersonalCode.objects.filter(tournament=tournament, player_id=player_id).values_list(
            "code", flat=True).first() if player_id is not None else None
        if stored is None or not code or personal_code_clean(code) != stored:
            _count(f"m{match.pk}", WRONG_CODES_MATCH)
            if device:
                _count(f"d{device}", WRONG_CODES_DEVICE)
            raise Forbidden("personal_code_wrong", "code")
    else:
        player_id = Player.objects.filter(user=account).values_list("pk", flat=True).first()
    side = sides.get(player_id, "") if player_id is not None else ""
    if not side:
        raise Forbidden("not_at_this_table", "player", {"table": match.table, "round": match.round.number})
    if match.status != Match.Status.FINISHED or match.result_status != ENTERED:
        raise Conflict("result_not_entered", None, {"status": status_of(match, tournament) or "playing"})
    if (account is not None and match.result_user_id == account.pk) or (
            device and match.result_device and device == match.result_device):
        raise Forbidden("result_own_entry")
    if match.result_side and side == match.result_side:
        raise Forbidden("result_own_side", None, {"side": side})
    return player_id, side


@transaction.atomic
def result_confirm(*, match_id: int, player_id: int | None = None, code: str = "", user=None,
                   table_code: str | None = None, tournament_id: int | None = None) -> Match:
    """Confirm an entered result as someone of the other side: ``confirmed``."""
    match = _locked(match_id, tournament_id)
    player_id, side = _other_side(match, player_id=player_id, code=code, user=user, table_code=table_code)
    match.result_status, match.result_mark, match.result_at, match.result_reason = (
        CONFIRMED, "", timezone.now(), "")
    _save_status(match)
    _event(match, ResultEvent.Kind.CONFIRMED, user=user, player_id=player_id, side=side)
    return match


def _reason(reason) -> str:
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ServiceError("reason_required", "reason")
    return reason[:REASON_MAX]


@transaction.atomic
def result_dispute(*, match_id: int, reason: str, player_id: int | None = None, code: str = "", user=None,
                   table_code: str | None = None, tournament_id: int | None = None) -> Match:
    """Dispute an entered result as someone of the other side, saying why: ``disputed``, for a director."""
    reason = _reason(reason)
    match = _locked(match_id, tournament_id)
    player_id, side = _other_side(match, player_id=player_id, code=code, user=user, table_code=table_code)
    match.result_status, match.result_mark, match.result_at, match.result_reason = (
        DISPUTED, "", timezone.now(), reason)
    _save_status(match)
    _event(match, ResultEvent.Kind.DISPUTED, user=user, player_id=player_id, side=side, reason=reason)
    return match


def _director(match: Match, user) -> None:
    tournament = match.round.tournament
    if not access.is_director(user, tournament.pk):
        raise Forbidden("not_director")
    if not confirming(tournament):
        raise Conflict("confirmation_off")
    if match.status != Match.Status.FINISHED:
        raise Conflict("result_not_entered", None, {"status": "playing"})


@transaction.atomic
def result_settle(*, match_id: int, user, reason: str, tournament_id: int | None = None) -> Match:
    """A director's decision on a finished result (disputed, entered or confirmed), as it stands: ``final``."""
    reason = _reason(reason)
    match = _locked(match_id, tournament_id)
    _director(match, user)
    match.result_status, match.result_mark, match.result_at, match.result_reason = (
        FINAL, "", timezone.now(), reason)
    _save_status(match)
    _event(match, ResultEvent.Kind.SETTLED, user=user, reason=reason)
    return match


@transaction.atomic
def result_confirm_on_paper(*, match_id: int, user, reason: str = "", tournament_id: int | None = None) -> Match:
    """A director confirms an entered or disputed result for the other side, on paper (the phones failed):
    ``confirmed``, marked ``paper``."""
    match = _locked(match_id, tournament_id)
    _director(match, user)
    if match.result_status not in (ENTERED, DISPUTED):
        raise Conflict("result_not_entered", None, {"status": status_of(match) or "playing"})
    match.result_status, match.result_mark, match.result_at = CONFIRMED, "paper", timezone.now()
    match.result_reason = " ".join(str(reason or "").split())[:REASON_MAX]
    _save_status(match)
    _event(match, ResultEvent.Kind.PAPER, user=user, reason=match.result_reason)
    return match


def results_auto_confirm(now: datetime | None = None) -> int:
    """Confirm every result entered longer ago than its tournament's ``auto_confirm_minutes`` without a dispute
    (marked ``auto``); return how many. The periodic task runs it every minute."""
    now = now or timezone.now()
    done = 0
    waiting = (Match.objects.filter(result_status=ENTERED, status=Match.Status.FINISHED,
                                    round__tournament__confirmation=Tournament.Confirmation.OPPONENTS,
                                    round__tournament__auto_confirm_minutes__isnull=False)
               .values_list("pk", "result_at", "round__tournament__auto_confirm_minutes"))
    for pk, at, minutes in waiting:
        if at is None or at + timedelta(minutes=minutes) > now:
            continue
        with transaction.atomic():
            match = _locked(pk)
            if match.result_status != ENTERED or match.result_at != at:  # moved meanwhile
                continue
            match.result_status, match.result_mark, match.result_at = CONFIRMED, "auto", now
            _save_status(match)
            _event(match, ResultEvent.Kind.AUTO, reason=f"{minutes} min")
            done += 1
    return done
