"""The entry page of one match and its JSON endpoints, whichever door the scorer came in by.

Two doors lead to a match's entry: signed in (a scorekeeper or an organizer, ``entry.py``) and the table's
code on a phone without an account (``table_code.py``). Each resolves the match and its rights its own way
and hands this module a ``Door``; the page, the queue's endpoints, the correction, the deletion and the
game start are the same for both, and every write goes through ``tournaments.services`` (``hand_enter``,
``hand_correct``, ``hand_delete_last``, ``game_start``): the same rules, audit history and standings
recompute as the API.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import scoring
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tournaments import access, vocabulary
from tournaments.models import CORRECTION_REASON_MAX, Hand, Match
from tournaments.query_text import refuse_null_characters
from tournaments.selectors import confirmation
from tournaments.services.errors import IdempotencyKeyMismatch, ServiceError
from tournaments.services.games import game_start
from tournaments.services.hand_data import hand_form_changes
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter

from . import entry_logic as logic


@dataclass(frozen=True)
class Door:
    """How the scorer reached the match, and what that gives the services.

    ``kind``: ``score`` (signed in) or ``table`` (the table's code); its URLs are ``ws:<kind>-<what>``.
    ``user``: who the services record (None through the code). ``key_scope``: the prefix of this door's
    idempotency keys (a user's id, or the phone's id), so two phones never share one. ``played_from``: the
    earliest time a hand may say it was played at the table (the offline queue's ``played_at``): the round's
    draw, and for a phone its code's acceptance, since a hand cannot be played before either.
    """

    kind: str
    match: Match
    user: Any
    key_scope: str
    played_from: datetime | None = None
    #: The table's code the phone holds (``table``): it binds a confirmation to this match and round.
    code: str = ""

    def url(self, what: str) -> str:
        slug = self.match.round.tournament.slug
        if what == "list":
            return reverse("ws:score" if self.kind == "score" else "ws:table-code", args=[slug])
        return reverse(f"ws:{self.kind}-{what}", args=[slug, self.match.pk])

    def key(self, key: str | None) -> str | None:
        """A client's Idempotency-Key as stored: scoped to this door's user or phone (None without a key)."""
        return f"{self.key_scope}:{key}" if key else None

    def played_at(self, value) -> datetime | None:
        """The table's time a queued hand carries (ISO 8601), no earlier than ``played_from``; None (now) when
        absent or unreadable: the hand is then judged at its arrival, as a hand typed online is."""
        at = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
        if at is None:
            return None
        if timezone.is_naive(at):
            at = timezone.make_aware(at, timezone.utc)
        return max(at, self.played_from) if self.played_from is not None else at


def refused(exc, match: Match, state: dict | None = None) -> JsonResponse:
    status = exc.status if isinstance(exc, ServiceError) else 400
    return JsonResponse({"refusals": logic.refusals(exc, match.round.tournament.variant_obj, state)}, status=status)


def json_body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise scoring.RuleViolation(scoring.Violation("invalid_input", None, {"reason": "json"})) from None
    if not isinstance(body, dict):
        raise scoring.RuleViolation(scoring.Violation("invalid_input", None, {"reason": "json_object"}))
    return body


# --------------------------------------------------------------------------- the entry page


def entry_context(request, door: Door, **extra) -> dict:
    match = door.match
    tournament = match.round.tournament
    state = logic.match_state(match)
    form = logic.variant_form(match)
    urls = {what: door.url(what) for what in ("match", "state", "preview", "hand", "correct", "delete", "game",
                                              "list")}
    config = {
        "match": match.pk,
        "urls": {"enter": urls["hand"], "preview": urls["preview"], "state": urls["state"], "page": urls["match"],
                 "list": urls["list"], "sw": reverse("ws:entry-sw"),
                 "scope": reverse("ws:entry-sw").rsplit("/", 1)[0] + "/t/"},
        "variant": {k: form[k] for k in ("order", "trump_mode", "tricks_per_deal", "hand_total")},
        "state": state,
    }
    names = logic.match_names(match)
    return {"tournament": tournament, "match": match, "state": state, "form": form, "config": config,
            "names": names, "urls": urls, "door": door.kind,
            "key": uuid.uuid4().hex, "values": {"dealer": state["next_dealer"]}, "errors": {}, "general_errors": [],
            # The phone that entered the result waits; another phone of the table may confirm it.
            "own_result": door.kind == "table" and bool(match.result_device)
            and door.key_scope[1:] == match.result_device,
            # A phone does not change a confirmed, disputed or final result (a director does, signed in).
            "locked": _locked(door, state),
            "decided_by": decided_by_words(match, names), "words": _words(match, form, door), **extra}


def decided_by_words(match: Match, names: dict) -> str:
    """Why a director's action decided the match, for the table's phones (its result shows only "Final");
    empty when the games decided it."""
    if match.decided_by == "forfeit":
        if match.forfeit in ("ns", "ew"):
            return _("Decided by the director: forfeit (%(team)s absent).") % {"team": names[match.forfeit]}
        return _("Decided by the director: forfeit (both teams absent).")
    if match.decided_by == "withdrawal":
        side = next((d.get("side") for d in match.directives or [] if d.get("kind") == "withdrawal"), "")
        if side in ("ns", "ew"):
            return _("Decided by the director: withdrawal (%(team)s withdrew).") % {"team": names[side]}
    return _("Decided by the director.") if match.decided_by else ""


def _locked(door: Door, state: dict) -> bool:
    """Whether this door may not correct or delete the match's last hand now (``confirmation.change_check``):
    a confirmed, disputed or final result is a director's to change; one waiting for its confirmation, the
    entering phone's or an account's (another phone of the table is refused)."""
    if not state["confirming"]:
        return False
    status, match = state["result_status"], door.match
    if status in confirmation.LOCKED:
        return door.kind == "table" or not access.is_director(door.user, match.round.tournament_id)
    return (status == confirmation.ENTERED and door.kind == "table" and bool(match.result_device)
            and door.key_scope[1:] != match.result_device)


def _words(match: Match, form: dict, door: Door) -> dict:
    """The sentences the entry script shows, in the user's language, with the seats, suits and cards in its words.

    The queue describes each hand from these (a Dutch page says O and Z for the east and south seats, as its
    form's seat buttons do), also where the form is not on the page.
    """
    variant = match.round.tournament.variant_obj
    suits = {s["code"]: (f'{s["symbol"]} {s["name"]}' if s["symbol"] else s["name"]) for s in form["suits"]}
    if form["no_trump"]:
        suits["none"] = str(vocabulary.suit_name(variant, "none"))
    cards = ({r["code"] + s["code"]: vocabulary.card_name(variant, r["code"] + s["code"])
              for r in form["ranks"] for s in form["suits"]} if form["trump_mode"] == "turned" else {})
    return {
        "seats": {s["code"]: s["label"] for s in form["seats"]},
        "suits": suits,
        "cards": cards,
        "blank": "?",
        "points_total": _("The points of the two teams must add up to %(total)s; these add up to %(got)s."),
        "tricks_total": _("The tricks of the two teams must add up to %(total)s; these add up to %(got)s."),
        "out_of_range": _("Enter a whole number from 0 to %(total)s."),
        "save_blocked": _("Not saved: fix the fields in red first."),
        "waiting_fix": _("Waits for the refused hand"),
        "blocked": _("%(hand)s was refused: the hands after it are not sent until you fix it or drop it."),
        "queued": _("Waiting to be sent"), "sending": _("Sending…"), "stored": _("Stored"), "refused": _("Refused"),
        "hand": _("Hand %(number)s of game %(game)s"),
        "online": _("online"),
        "offline": _("offline: hands are kept on this phone and sent when the connection returns"),
        "edit": _("Fix it"), "drop": _("Drop it"), "retry": _("Send again"),
        "drop_confirm": _("Drop this hand? It will not be sent."),
        "fixing": _("Fixing a refused hand: save to put it back in the queue."),
        "preview": _("Preview: %(ns_name)s %(ns)s, %(ew_name)s %(ew)s; game total %(tns)s–%(tew)s."),
        "preview_multiplier": _("×%(n)s"),
        "preview_bonus": _("turn-up bonus %(n)s"),
        "preview_wins": _("%(team)s wins the game."),
        "preview_offline": _("No preview offline: the hand is checked when it is sent."),
        "preview_waiting": _("No preview while hands wait to be sent: the hand is checked when it is sent."),
        "game_hand": _("game %(game)s · hand %(number)s"),
        "title": _("Hand %(number)s of game %(game)s"),
        "decided": _("decided"),
        "signed_out": (_("You are signed out: sign in again in this browser; the hands stay here meanwhile.")
                       if door.kind == "score" else
                       _("This phone may no longer enter this table's results: type the table's code again; the "
                         "hands stay here meanwhile.")),
        "error": _("The server could not take the hand now; it stays queued and is sent again shortly."),
        "unchanged_since": _("Correct or delete hands once the queue is empty."),
    }


def match_page(request, door: Door):
    """Enter the next hand of a match (GET: the form; POST: a hand typed without JavaScript)."""
    match = door.match
    if request.method == "GET":
        response = render(request, "web/workspace/entry/match.html", entry_context(request, door))
        response["Cache-Control"] = "no-cache, private"
        return response
    state = logic.match_state(match)
    key = request.POST.get("key", "")
    if key and not logic.KEY_RE.match(key):
        key = ""
    try:
        hand, created = hand_enter(
            match=match, user=door.user, idempotency_key=door.key(key),
            read=lambda: (logic.hand_from_form(request.POST), _opt_int(request.POST.get("number")),
                          _opt_int(request.POST.get("game"))))
    except (scoring.RuleViolation, ServiceError) as exc:
        found = logic.refusals(exc, match.round.tournament.variant_obj, state)
        if isinstance(exc, IdempotencyKeyMismatch):  # this form's key is taken: a new one for what is typed now
            key = ""
        ctx = entry_context(request, door, values=request.POST, key=key or uuid.uuid4().hex,
                            errors={r["field"]: r["message"] for r in found if r["field"]},
                            general_errors=[r["message"] for r in found if not r["field"]])
        return render(request, "web/workspace/entry/match.html", ctx, status=400)
    messages.success(request, _stored_words(hand))
    return redirect(door.url("match"))


def _opt_int(value) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _stored_words(hand: Hand) -> str:
    game = hand.game
    return _("Hand %(number)s of game %(game)s stored: %(ns)s–%(ew)s; game total %(tns)s–%(tew)s.") % {
        "number": hand.number, "game": game.number, "ns": hand.score_ns, "ew": hand.score_ew,
        "tns": hand.total_ns, "tew": hand.total_ew}


# --------------------------------------------------------------------------- JSON: state, preview, enter


def state_json(door: Door) -> JsonResponse:
    """Where the match stands (the queue numbers its hands from it)."""
    return JsonResponse({"state": logic.match_state(door.match)})


def preview_json(request, door: Door) -> JsonResponse:
    """Score the typed hand against the game's state without storing it (the live preview)."""
    match = door.match
    try:
        body = json_body(request)
        # The queue names the game and hand it sends a hand for: the preview is asked as the hand will be sent.
        result = logic.preview(match, body.get("hand", body), number=body_int(body, "number"),
                               game_number=body_int(body, "game"))
    except (scoring.RuleViolation, ServiceError) as exc:
        return refused(exc, match, logic.match_state(match))
    return JsonResponse({"preview": result})


def hand_json(request, door: Door) -> JsonResponse:
    """Enter a hand sent by the queue: ``{"hand": {...}, "game": n, "number": n, "key": "...", "played_at": t}``.

    ``played_at`` is when the phone's queue took the hand (ISO 8601): the round clock judges the hand at that
    time, not at its arrival (``hand_enter``). 201 with the stored hand and the match's new state; 200 when the
    key was already stored (a resend after a lost answer); 400/409 with the refusals, each with its form field;
    422 when the key was stored with another hand (``idempotency_key_mismatch``).
    """
    match = door.match
    try:
        body = json_body(request)
        key = body.get("key") or request.headers.get("Idempotency-Key") or ""
        if not isinstance(key, str) or (key and not logic.KEY_RE.match(key)):
            raise ServiceError("invalid_input", None, {"reason": "key"})
        hand, created = hand_enter(
            match=match, user=door.user, idempotency_key=door.key(key), played_at=door.played_at(body.get("played_at")),
            read=lambda: (body.get("hand") or {}, body_int(body, "number"), body_int(body, "game")))
    except (scoring.RuleViolation, ServiceError) as exc:
        return refused(exc, match, logic.match_state(match))
    match.refresh_from_db()
    stored = {"id": hand.pk, "game": hand.game.number, "number": hand.number,
              "score": hand.score, "totals": hand.totals, "game_winner": hand.game_winner or None,
              "replayed": not created, "message": _stored_words(hand)}
    return JsonResponse({"stored": stored, "state": logic.match_state(match)}, status=201 if created else 200)


def body_int(body: dict, name: str) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ServiceError("invalid_input", name,
                           {"reason": "minimum", "field": name, "minimum": 1, "value": repr(value)})
    return value


# --------------------------------------------------------------------------- correct, delete, start a game


def _last_hand_or_404(match: Match) -> Hand:
    hand = Hand.objects.filter(game__match=match).select_related("game").order_by("-game__number", "-number").first()
    if hand is None:
        raise Http404
    return hand


def correct_page(request, door: Door):
    """Correct the last hand of the match (re-scored by the engine; audited)."""
    match = door.match
    hand = _last_hand_or_404(match)
    values, errors, general = logic.form_values(hand), {}, []
    if request.method == "POST":
        values = request.POST
        # Kept in the hand's history: required, and refused (400) with a null character the database cannot keep.
        reason = " ".join(refuse_null_characters(request.POST.get("reason", ""), "reason").split())
        if not reason or len(reason) > CORRECTION_REASON_MAX:
            errors["reason"] = _("Say why the hand is corrected, in at most %(max)s characters: it is kept in the "
                                 "hand's history.") % {"max": CORRECTION_REASON_MAX}
        else:
            try:
                changes = hand_form_changes(logic.hand_from_form(request.POST))
                hand = hand_correct(hand=hand, data=changes, user=door.user, reason=reason)
            except (scoring.RuleViolation, ServiceError) as exc:
                found = logic.refusals(exc, match.round.tournament.variant_obj, logic.match_state(match))
                errors = {r["field"]: r["message"] for r in found if r["field"]}
                general = [r["message"] for r in found if not r["field"]]
            else:
                messages.success(request, _("Hand %(number)s of game %(game)s corrected: game total %(ns)s–%(ew)s.")
                                 % {"number": hand.number, "game": hand.game.number, "ns": hand.total_ns,
                                    "ew": hand.total_ew})
                return redirect(door.url("match"))
    ctx = entry_context(request, door, values=values, errors=errors, general_errors=general, correcting=hand)
    return render(request, "web/workspace/entry/correct.html", ctx, status=400 if errors or general else 200)


def delete_post(request, door: Door):
    """Delete the last hand of the match (the form names it, so a second tap deletes nothing more)."""
    match = door.match
    hand = _last_hand_or_404(match)
    if str(hand.pk) != request.POST.get("hand", ""):
        messages.error(request, _("The last hand has changed meanwhile: nothing was deleted."))
        return redirect(door.url("match"))
    try:
        hand_delete_last(hand=hand, user=door.user)
    except (scoring.RuleViolation, ServiceError) as exc:
        for r in logic.refusals(exc, match.round.tournament.variant_obj):
            messages.error(request, r["message"])
    else:
        messages.success(request, _("Hand %(number)s of game %(game)s deleted.") % {
            "number": hand.number, "game": hand.game.number})
    return redirect(door.url("match"))


def game_post(request, door: Door):
    """Start the match's next game with its first dealer (favourite suit and albur where the variant has them)."""
    match = door.match
    form = logic.variant_form(match)
    try:
        game = game_start(match=match, first_dealer=request.POST.get("first_dealer", ""),
                          favourite=request.POST.get("favourite", "") if form["favourite"] else "",
                          albur=request.POST.get("albur", "") if form["albur"] else "", user=door.user)
    except (scoring.RuleViolation, ServiceError) as exc:
        for r in logic.refusals(exc, match.round.tournament.variant_obj):
            messages.error(request, r["message"])
    else:
        messages.success(request, _("Game %(game)s started: %(seat)s deals first.") % {
            "game": game.number, "seat": vocabulary.seat(game.first_dealer)})
    return redirect(door.url("match"))
