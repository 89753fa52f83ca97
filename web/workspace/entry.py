"""Table entry for scorekeepers and organizers: pick a match, enter its hands on a phone, online or not.

The pages work without JavaScript (plain forms); ``ws-entry.js`` turns the entry form into a queue
kept in the browser (IndexedDB) and sent to the JSON endpoints here, each hand with its own
Idempotency-Key and the game and hand number it is meant for. Every write goes through
``tournaments.services`` (the same rules, audit history and standings recompute as the API).
"""

import hashlib
import json
import uuid
from functools import wraps
from pathlib import Path

import scoring
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import refusals
from tournaments.models import CORRECTION_REASON_MAX, Game, Hand, Match, Round
from tournaments.services.errors import IdempotencyKeyMismatch, ServiceError
from tournaments.services.games import game_start
from tournaments import vocabulary
from tournaments.services.hand_data import hand_form_changes
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter, hand_key

from . import entry_logic as logic
from .common import scorekept_match_or_404, scorekept_tournament_or_404

#: The static files the Service Worker keeps for the entry pages to open offline.
OFFLINE_ASSETS = ("web/site.css", "web/site.js", "web/live.js", "web/favicon.svg", "web/ws-entry.css",
                  "web/ws-entry.js", "web/ws-queue.js")


def _signed_in_json(view):
    """A JSON endpoint's sign-in check: 401 in JSON (a script reads it), not a redirect to a sign-in page."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            said = refusals.words("signed_out")
            return JsonResponse({"refusals": [{"code": "signed_out", "field": "", "attr": None,
                                               "message": said, "detail": said}]}, status=401)
        return view(request, *args, **kwargs)
    return wrapper


def _refused(exc, match: Match, state: dict | None = None) -> JsonResponse:
    status = exc.status if isinstance(exc, ServiceError) else 400
    return JsonResponse({"refusals": logic.refusals(exc, match.round.tournament.variant_obj, state)}, status=status)


def _json_body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise scoring.RuleViolation(scoring.Violation("invalid_input", None, {"reason": "json"})) from None
    if not isinstance(body, dict):
        raise scoring.RuleViolation(scoring.Violation("invalid_input", None, {"reason": "json_object"}))
    return body


# --------------------------------------------------------------------------- the match list


def _matches_of(tournament) -> list[dict]:
    """Every match of the tournament, the current round's first, with its running score."""
    games = Prefetch("games", queryset=Game.objects.order_by("number"))
    rounds = list(Round.objects.filter(tournament=tournament).order_by("-number")
                  .prefetch_related(Prefetch("matches", queryset=Match.objects.select_related("ns", "ew")
                                             .prefetch_related(games).order_by("table"))))
    out = []
    for rnd in rounds:
        rows = []
        for match in rnd.matches.all():
            games_list = list(match.games.all())
            current = games_list[-1] if games_list else None
            rows.append({"match": match, "bye": match.is_bye,
                         "status_label": vocabulary.MATCH_STATUS.get(match.status, match.status),
                         "game": current.number if current else None,
                         "playing": current is not None and current.status == Game.Status.PLAYING,
                         "totals": current.totals if current else None})
        # Matches still to play first within a round, then the decided ones.
        rows.sort(key=lambda r: (r["bye"], r["match"].status == Match.Status.FINISHED, r["match"].table))
        out.append({"round": rnd, "rows": rows,
                    "status_label": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status)})
    return out


@login_required
@require_GET
def score(request, slug):
    """The matches a scorekeeper may enter, the current round first."""
    tournament = scorekept_tournament_or_404(request.user, slug)
    return render(request, "web/workspace/entry/matches.html",
                  {"tournament": tournament, "rounds": _matches_of(tournament)})


# --------------------------------------------------------------------------- the entry page


def _entry_context(request, match: Match, **extra) -> dict:
    tournament = match.round.tournament
    state = logic.match_state(match)
    form = logic.variant_form(match)
    slug, pk = tournament.slug, match.pk
    config = {
        "match": pk,
        "urls": {"enter": reverse("ws:score-hand", args=[slug, pk]),
                 "preview": reverse("ws:score-preview", args=[slug, pk]),
                 "state": reverse("ws:score-state", args=[slug, pk]),
                 "page": reverse("ws:score-match", args=[slug, pk]),
                 "list": reverse("ws:score", args=[slug]),
                 "sw": reverse("ws:entry-sw"),
                 "scope": reverse("ws:entry-sw").rsplit("/", 1)[0] + "/t/"},
        "variant": {k: form[k] for k in ("order", "trump_mode", "tricks_per_deal", "hand_total")},
        "state": state,
    }
    return {"tournament": tournament, "match": match, "state": state, "form": form, "config": config,
            "key": uuid.uuid4().hex, "values": {"dealer": state["next_dealer"]}, "errors": {}, "general_errors": [],
            "words": _words(match, form), **extra}


def _words(match: Match, form: dict) -> dict:
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
        "signed_out": _("You are signed out: sign in again in this browser; the hands stay here meanwhile."),
        "error": _("The server could not take the hand now; it stays queued and is sent again shortly."),
        "unchanged_since": _("Correct or delete hands once the queue is empty."),
    }


@login_required
@require_http_methods(["GET", "POST"])
def score_match(request, slug, match_id):
    """Enter the next hand of a match (GET: the form; POST: a hand typed without JavaScript)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    if request.method == "GET":
        response = render(request, "web/workspace/entry/match.html", _entry_context(request, match))
        response["Cache-Control"] = "no-cache, private"
        return response
    state = logic.match_state(match)
    key = request.POST.get("key", "")
    if key and not logic.KEY_RE.match(key):
        key = ""
    try:
        hand, created = hand_enter(
            match=match, user=request.user, idempotency_key=hand_key(user=request.user, key=key),
            read=lambda: (logic.hand_from_form(request.POST), _opt_int(request.POST.get("number")),
                          _opt_int(request.POST.get("game"))))
    except (scoring.RuleViolation, ServiceError) as exc:
        found = logic.refusals(exc, match.round.tournament.variant_obj, state)
        if isinstance(exc, IdempotencyKeyMismatch):  # this form's key is taken: a new one for what is typed now
            key = ""
        ctx = _entry_context(request, match, values=request.POST, key=key or uuid.uuid4().hex,
                             errors={r["field"]: r["message"] for r in found if r["field"]},
                             general_errors=[r["message"] for r in found if not r["field"]])
        return render(request, "web/workspace/entry/match.html", ctx, status=400)
    messages.success(request, _stored_words(hand))
    return redirect("ws:score-match", slug, match.pk)


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


@never_cache
@_signed_in_json
@require_GET
def score_state(request, slug, match_id):
    """Where the match stands (the queue numbers its hands from it)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    return JsonResponse({"state": logic.match_state(match)})


@_signed_in_json
@require_POST
def score_preview(request, slug, match_id):
    """Score the typed hand against the game's state without storing it (the live preview)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    try:
        body = _json_body(request)
        # The queue names the game and hand it sends a hand for: the preview is asked as the hand will be sent.
        result = logic.preview(match, body.get("hand", body), number=_body_int(body, "number"),
                               game_number=_body_int(body, "game"))
    except (scoring.RuleViolation, ServiceError) as exc:
        return _refused(exc, match, logic.match_state(match))
    return JsonResponse({"preview": result})


@_signed_in_json
@require_POST
def score_hand(request, slug, match_id):
    """Enter a hand sent by the queue: ``{"hand": {...}, "game": n, "number": n, "key": "..."}``.

    201 with the stored hand and the match's new state; 200 when the key was already stored (a
    resend after a lost answer); 400/409 with the refusals, each with its form field; 422 when the key was
    stored with another hand (``idempotency_key_mismatch``).
    """
    match = scorekept_match_or_404(request.user, slug, match_id)
    try:
        body = _json_body(request)
        key = body.get("key") or request.headers.get("Idempotency-Key") or ""
        if not isinstance(key, str) or (key and not logic.KEY_RE.match(key)):
            raise ServiceError("invalid_input", None, {"reason": "key"})
        hand, created = hand_enter(
            match=match, user=request.user, idempotency_key=hand_key(user=request.user, key=key),
            read=lambda: (body.get("hand") or {}, _body_int(body, "number"), _body_int(body, "game")))
    except (scoring.RuleViolation, ServiceError) as exc:
        return _refused(exc, match, logic.match_state(match))
    match.refresh_from_db()
    stored = {"id": hand.pk, "game": hand.game.number, "number": hand.number,
              "score": hand.score, "totals": hand.totals, "game_winner": hand.game_winner or None,
              "replayed": not created, "message": _stored_words(hand)}
    return JsonResponse({"stored": stored, "state": logic.match_state(match)}, status=201 if created else 200)


def _body_int(body: dict, name: str) -> int | None:
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


@login_required
@require_http_methods(["GET", "POST"])
def score_correct(request, slug, match_id):
    """Correct the last hand of the match (re-scored by the engine; audited)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    hand = _last_hand_or_404(match)
    values, errors, general = logic.form_values(hand), {}, []
    if request.method == "POST":
        values = request.POST
        reason = " ".join(request.POST.get("reason", "").split())  # kept in the hand's history: required
        if not reason or len(reason) > CORRECTION_REASON_MAX:
            errors["reason"] = _("Say why the hand is corrected, in at most %(max)s characters: it is kept in the "
                                 "hand's history.") % {"max": CORRECTION_REASON_MAX}
        else:
            try:
                changes = hand_form_changes(logic.hand_from_form(request.POST))
                hand = hand_correct(hand=hand, data=changes, user=request.user, reason=reason)
            except (scoring.RuleViolation, ServiceError) as exc:
                found = logic.refusals(exc, match.round.tournament.variant_obj, logic.match_state(match))
                errors = {r["field"]: r["message"] for r in found if r["field"]}
                general = [r["message"] for r in found if not r["field"]]
            else:
                messages.success(request, _("Hand %(number)s of game %(game)s corrected: game total %(ns)s–%(ew)s.")
                                 % {"number": hand.number, "game": hand.game.number, "ns": hand.total_ns,
                                    "ew": hand.total_ew})
                return redirect("ws:score-match", slug, match.pk)
    ctx = _entry_context(request, match, values=values, errors=errors, general_errors=general, correcting=hand)
    return render(request, "web/workspace/entry/correct.html", ctx, status=400 if errors or general else 200)


@login_required
@require_POST
def score_delete(request, slug, match_id):
    """Delete the last hand of the match (the form names it, so a second tap deletes nothing more)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    hand = _last_hand_or_404(match)
    if str(hand.pk) != request.POST.get("hand", ""):
        messages.error(request, _("The last hand has changed meanwhile: nothing was deleted."))
        return redirect("ws:score-match", slug, match.pk)
    try:
        hand_delete_last(hand=hand, user=request.user)
    except (scoring.RuleViolation, ServiceError) as exc:
        for r in logic.refusals(exc, match.round.tournament.variant_obj):
            messages.error(request, r["message"])
    else:
        messages.success(request, _("Hand %(number)s of game %(game)s deleted.") % {
            "number": hand.number, "game": hand.game.number})
    return redirect("ws:score-match", slug, match.pk)


@login_required
@require_POST
def score_game_start(request, slug, match_id):
    """Start the match's next game with its first dealer (favourite suit and albur where the variant has them)."""
    match = scorekept_match_or_404(request.user, slug, match_id)
    form = logic.variant_form(match)
    try:
        game = game_start(match=match, first_dealer=request.POST.get("first_dealer", ""),
                          favourite=request.POST.get("favourite", "") if form["favourite"] else "",
                          albur=request.POST.get("albur", "") if form["albur"] else "", user=request.user)
    except (scoring.RuleViolation, ServiceError) as exc:
        for r in logic.refusals(exc, match.round.tournament.variant_obj):
            messages.error(request, r["message"])
    else:
        messages.success(request, _("Game %(game)s started: %(seat)s deals first.") % {
            "game": game.number, "seat": vocabulary.seat(game.first_dealer)})
    return redirect("ws:score-match", slug, match.pk)


# --------------------------------------------------------------------------- the Service Worker

_sw_cache: dict = {}


def _static_source(name: str) -> bytes:
    path = finders.find(name)
    if path is None:
        from django.contrib.staticfiles.storage import staticfiles_storage

        with staticfiles_storage.open(name) as f:
            return f.read()
    return Path(path).read_bytes()


@require_GET
def service_worker(request):
    """``/my/sw.js``: the Service Worker of the entry pages, told the assets to keep and its version.

    Served from /my/ so that it may control /my/t/ (the entry pages); the version is a hash of the
    script and the assets, so a changed asset installs a new worker with a fresh cache.
    """
    if settings.DEBUG or "body" not in _sw_cache:
        source = _static_source("web/ws-sw.js")
        assets = [static(name) for name in OFFLINE_ASSETS]
        digest = hashlib.sha256(source)
        for name in OFFLINE_ASSETS:
            digest.update(_static_source(name))
        config = {"version": digest.hexdigest()[:16], "assets": assets}
        _sw_cache["body"] = f"self.WS_ENTRY = {json.dumps(config)};\n".encode() + source
    response = HttpResponse(_sw_cache["body"], content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("ws:entry-sw").rsplit("/", 1)[0] + "/"
    return response
