"""Entry at the table by its code, without an account: a phone types the code printed on the table's sheet and
gets the entry page of that one match (``entry_core``, the same page and services as a scorekeeper's).

Who may: ``tournaments.access.table_code_state`` (the code binds to one match of one round, from the round's
draw until 30 minutes after the match's result). The phone keeps the codes it was given in a signed cookie
(``ws_tables``: the match, the code and when it was accepted), checked again on every request, so a redraw
or an expired result closes the page at once. A hall shares one address, so nothing here counts by address:
each phone has an id of its own (a signed cookie, ``ws_device``), and the tries and requests are counted per
phone and per match, and the wrong codes per tournament (a guard against guessing from many fresh phones).
Every refusal says in words what happened and what to do.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import datetime, timezone as dt_timezone

from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import access
from tournaments.models import Match, Tournament
from tournaments.services import confirmation

from .. import round_names
from . import entry_core as core
from .confirm import confirm_page
from .entry_logic import match_names

DEVICE_COOKIE, TABLES_COOKIE = "ws_device", "ws_tables"
DEVICE_SALT, TABLES_SALT = "ws.table.device", "ws.table.codes"
#: A phone's id lives a year; the codes it holds a day (a code is for one evening).
DEVICE_AGE, TABLES_AGE = 365 * 86400, 86400
#: The codes one phone holds at once (a referee may help at a few tables).
TABLES_KEPT = 6
#: The limits: (count, window in seconds). Codes typed by one phone; wrong codes typed in one tournament by all
#: phones; requests of one phone; requests to one match through its code (a queue sending thirty hands kept
#: offline stays well under it).
CODE_TRIES = (10, 300)
WRONG_CODES = (300, 300)
PHONE_REQUESTS = (240, 60)
MATCH_REQUESTS = (180, 60)


class CodeRefused(Exception):
    """A request the table's code does not allow (or not now): its words, its HTTP status and a code for scripts."""

    def __init__(self, code: str, words: str, status: int, retry: int | None = None):
        super().__init__(code)
        self.code, self.words, self.status, self.retry = code, words, status, retry


# --------------------------------------------------------------------------- the phone's id and its codes


def _device(request) -> tuple[str, bool]:
    """This phone's id (a signed cookie) and whether it is new (to be set on the answer)."""
    value = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=DEVICE_AGE)
    if value and len(value) == 32 and value.isalnum():
        return value, False
    return uuid.uuid4().hex, True


def _set_device(response, device: str) -> None:
    response.set_signed_cookie(DEVICE_COOKIE, device, salt=DEVICE_SALT, max_age=DEVICE_AGE, httponly=True,
                               samesite="Lax")


def _grants(request) -> list[dict]:
    """The codes this phone was given: ``[{"m": match id, "c": code, "at": epoch seconds}]``, newest first."""
    raw = request.get_signed_cookie(TABLES_COOKIE, default=None, salt=TABLES_SALT, max_age=TABLES_AGE)
    try:
        grants = json.loads(raw) if raw else []
    except ValueError:
        return []
    if not isinstance(grants, list):
        return []
    return [g for g in grants if isinstance(g, dict) and isinstance(g.get("m"), int)
            and isinstance(g.get("c"), str) and isinstance(g.get("at"), int)][:TABLES_KEPT]


def _set_grants(response, grants: list[dict]) -> None:
    body = json.dumps(grants[:TABLES_KEPT], separators=(",", ":"))
    response.set_signed_cookie(TABLES_COOKIE, body, salt=TABLES_SALT, max_age=TABLES_AGE, httponly=True,
                               samesite="Lax")


# --------------------------------------------------------------------------- counting


def _window_key(name: str, window: int) -> tuple[str, int]:
    now = int(time.time())
    return f"ws-table:{name}:{now // window}", window - now % window


def _count(name: str, limit_window: tuple[int, int]) -> int | None:
    """Count one more in ``name``'s current window; return the seconds to wait when it is over the limit."""
    limit, window = limit_window
    key, left = _window_key(name, window)
    if cache.add(key, 1, window + 5):
        return None
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, window + 5)
        return None
    return left if count > limit else None


def _over(name: str, limit_window: tuple[int, int]) -> int | None:
    """The seconds to wait if ``name``'s current window is at its limit already (counting nothing)."""
    limit, window = limit_window
    key, left = _window_key(name, window)
    return left if (cache.get(key) or 0) >= limit else None


def _busy(message: str, seconds: int) -> CodeRefused:
    return CodeRefused("too_many_requests", message % {"seconds": seconds}, 429, seconds)


# --------------------------------------------------------------------------- typing the code


def _tournament_or_404(slug: str) -> Tournament:
    """Both kinds of event: an individual event's tables and a team event's matches have codes alike."""
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _held(request, tournament: Tournament) -> list[dict]:
    """The tables of this tournament this phone holds a valid code of, for the page's list."""
    grants = _grants(request)
    matches = {m.pk: m for m in Match.objects.filter(pk__in=[g["m"] for g in grants], round__tournament=tournament)
               .select_related("round__tournament", "round__stage")}
    round_names.prime([m.round for m in matches.values()])  # a knockout's rounds named by its bracket: one query
    held = []
    for g in grants:
        match = matches.get(g["m"])
        if match is not None and access.table_code_state(match, g["c"]) == access.CODE_VALID:
            held.append({"match": match, "names": match_names(match),
                         "url": reverse("ws:table-match", args=[tournament.slug, match.pk])})
    return held


@never_cache
@require_http_methods(["GET", "POST"])
def table_code(request, slug):
    """The page a phone types a table's code in; a valid code opens that table's entry page."""
    tournament = _tournament_or_404(slug)
    device, new = _device(request)
    error, status, code, retry = None, 200, "", None
    if request.method == "POST":
        code = access.table_code_clean(request.POST.get("code", ""))
        try:
            match = _accept(tournament, device, code)
        except CodeRefused as exc:
            error, status, retry = exc.words, exc.status, exc.retry
        else:
            response = redirect("ws:table-match", tournament.slug, match.pk)
            grants = [g for g in _grants(request) if g["m"] != match.pk]
            _set_grants(response, [{"m": match.pk, "c": code, "at": int(time.time())}, *grants])
            if new:
                _set_device(response, device)
            return response
    response = render(request, "web/workspace/entry/table_code.html", {
        "tournament": tournament, "error": error, "code": code, "held": _held(request, tournament),
    }, status=status)
    if retry:
        response["Retry-After"] = str(retry)
    if new:
        _set_device(response, device)
    return response


def _accept(tournament: Tournament, device: str, code: str) -> Match:
    """The match ``code`` opens now, counted against this phone's tries and the tournament's wrong codes."""
    wait = _over(f"wrong:{tournament.pk}", WRONG_CODES)
    if wait:
        raise _busy(_("Too many wrong codes were typed at this tournament in the last minutes: wait %(seconds)s "
                      "seconds, then try again."), wait)
    wait = _count(f"tries:{device}", CODE_TRIES)
    if wait:
        raise _busy(_("Too many codes were typed on this phone in the last minutes: wait %(seconds)s seconds, then "
                      "try again."), wait)
    if not code:
        raise CodeRefused("table_code_missing", _("Type the code printed on your table's score sheet."), 400)
    match, state = access.table_code_match(tournament.pk, code)
    if state == access.CODE_EXPIRED:
        raise CodeRefused("table_code_expired", _(
            "Table %(table)s of round %(round)s finished more than 30 minutes ago: its code no longer opens it. "
            "A result to correct now goes through the desk.") % {"table": match.table, "round": match.round.number},
            403)
    if match is None:
        _count(f"wrong:{tournament.pk}", WRONG_CODES)
        raise CodeRefused("table_code_unknown", _(
            "No table of this tournament has the code %(code)s. Check it on your table's score sheet: six letters "
            "and digits; a sheet from before a redraw no longer counts.") % {"code": code}, 400)
    return match


# --------------------------------------------------------------------------- the table's door


def _door(request, slug, match_id) -> core.Door:
    """The entry door of ``match_id`` for this phone, or ``CodeRefused`` in words: counted per phone, and per match
    once the phone's code for it is checked."""
    device, _new = _device(request)
    wait = _count(f"phone:{device}", PHONE_REQUESTS)
    if wait:
        raise _busy(_("This phone has sent too much in too short a time: wait %(seconds)s seconds; the hands stay "
                      "on the phone."), wait)
    grant = next((g for g in _grants(request) if g["m"] == match_id), None)
    match = (Match.objects.select_related("round__tournament", "round__stage").filter(pk=match_id,
                                                                                       round__tournament__slug=slug)
             .first())
    state = access.table_code_state(match, grant["c"]) if grant and match else access.CODE_UNKNOWN
    if state == access.CODE_EXPIRED:
        raise CodeRefused("table_code_expired", _(
            "This table's match finished more than 30 minutes ago: its code no longer opens it. A result to "
            "correct now goes through the desk."), 403)
    if state != access.CODE_VALID:
        raise CodeRefused("table_code_unknown", _(
            "This phone holds no valid code for this table (the round may have been drawn again). Type the code "
            "printed on the table's score sheet."), 403)
    # Counted only once the code is checked: a phone without it cannot use up the table's own allowance.
    wait = _count(f"match:{match_id}", MATCH_REQUESTS)
    if wait:
        raise _busy(_("This table has sent too much in too short a time: wait %(seconds)s seconds; the hands stay "
                      "on the phone."), wait)
    accepted = datetime.fromtimestamp(grant["at"], tz=dt_timezone.utc)
    return core.Door(kind="table", match=match, user=None, key_scope=f"t{device}",
                     played_from=max(accepted, match.round.created_at), code=grant["c"])


def _page_refused(request, slug, exc: CodeRefused):
    response = render(request, "web/workspace/entry/table_refused.html", {
        "tournament": _tournament_or_404(slug), "error": exc.words}, status=exc.status)
    if exc.retry:
        response["Retry-After"] = str(exc.retry)
    return response


def _json_refused(exc: CodeRefused) -> JsonResponse:
    response = JsonResponse({"refusals": [{"code": exc.code, "field": "", "attr": None, "message": exc.words,
                                           "detail": exc.words}]}, status=exc.status)
    if exc.retry:
        response["Retry-After"] = str(exc.retry)
    return response


def _acting(request, door: core.Door):
    """The result services hear which phone and address the request came from (their steps record them)."""
    return confirmation.acting(device=door.key_scope[1:], address=request.META.get("REMOTE_ADDR"))


def _page(view):
    def wrapper(request, slug, match_id):
        try:
            door = _door(request, slug, match_id)
        except CodeRefused as exc:
            return _page_refused(request, slug, exc)
        with _acting(request, door):
            return view(request, door)
    wrapper.__doc__ = view.__doc__
    return wrapper


def _json(view):
    def wrapper(request, slug, match_id):
        try:
            door = _door(request, slug, match_id)
        except CodeRefused as exc:
            return _json_refused(exc)
        with _acting(request, door):
            return view(request, door)
    wrapper.__doc__ = view.__doc__
    return wrapper


table_match = require_http_methods(["GET", "POST"])(_page(core.match_page))
table_state = never_cache(require_GET(_json(lambda request, door: core.state_json(door))))
table_preview = require_POST(_json(core.preview_json))
table_hand = require_POST(_json(core.hand_json))
table_correct = require_http_methods(["GET", "POST"])(_page(core.correct_page))
table_delete = require_POST(_page(core.delete_post))
table_game = require_POST(_page(core.game_post))
table_confirm = require_http_methods(["GET", "POST"])(_page(confirm_page))
