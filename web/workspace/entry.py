"""Table entry for scorekeepers and organizers: pick a match, enter its hands on a phone, online or not.

The pages work without JavaScript (plain forms); ``ws-entry.js`` turns the entry form into a queue
kept in the browser (IndexedDB) and sent to the JSON endpoints here, each hand with its own
Idempotency-Key, the game and hand number it is meant for and the time it was taken at the table. The
views here are the signed-in door: they find the match a scorekeeper may enter and hand it to
``entry_core`` (the page and endpoints both doors share; the other door is a table's code, ``table_code.py``).
"""

import hashlib
import json
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import refusals, vocabulary
from tournaments.models import Game, Match, Round
from tournaments.selectors.seats import players_of_matches

from .. import round_names
from . import entry_core as core
from .common import scorekept_match_or_404, scorekept_tournament_or_404
from .entry_logic import pair_name

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


# --------------------------------------------------------------------------- the match list


def _matches_of(tournament) -> list[dict]:
    """Every match of the tournament, the current round's first (the running stage's rounds before the earlier
    stages': round numbers count per stage), with its running score; each round named as its stage names it."""
    games = Prefetch("games", queryset=Game.objects.order_by("number"))
    rounds = list(Round.objects.filter(tournament=tournament).select_related("stage")
                  .order_by("-stage__number", "-number")
                  .prefetch_related(Prefetch("matches", queryset=Match.objects.select_related("ns", "ew")
                                             .prefetch_related(games).order_by("table"))))
    # An individual event's sides are the partnerships seated there: every match's players in one query.
    round_names.prime(rounds)  # a knockout's rounds named as its bracket names them ("Semi-finals"): one query
    seated = players_of_matches([m for rnd in rounds for m in rnd.matches.all() if m.ns_id is None])
    out = []
    for rnd in rounds:
        rows = []
        for match in rnd.matches.all():
            games_list = list(match.games.all())
            current = games_list[-1] if games_list else None
            players = seated.get(match.pk)
            rows.append({"match": match, "bye": match.is_bye,
                         "ns": _pair(players["ns"]) if players else match.ns.name if match.ns_id else "",
                         "ew": _pair(players["ew"]) if players else match.ew.name if match.ew_id else "",
                         "status_label": vocabulary.MATCH_STATUS.get(match.status, match.status),
                         "game": current.number if current else None,
                         "playing": current is not None and current.status == Game.Status.PLAYING,
                         "totals": current.totals if current else None})
        # Matches still to play first within a round, then the decided ones.
        rows.sort(key=lambda r: (r["bye"], r["match"].status == Match.Status.FINISHED, r["match"].table))
        out.append({"round": rnd, "rows": rows,
                    "status_label": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status)})
    return out


def _pair(players: list[dict]) -> str:
    return pair_name([p["name"] for p in players])


@login_required
@require_GET
def score(request, slug):
    """The matches a scorekeeper may enter, the current round first."""
    tournament = scorekept_tournament_or_404(request.user, slug)
    return render(request, "web/workspace/entry/matches.html",
                  {"tournament": tournament, "rounds": _matches_of(tournament)})


# --------------------------------------------------------------------------- the entry page (signed in)


def _door(request, slug, match_id) -> core.Door:
    match = scorekept_match_or_404(request.user, slug, match_id)
    return core.Door(kind="score", match=match, user=request.user, key_scope=str(request.user.pk),
                     played_from=match.round.created_at)


@login_required
@require_http_methods(["GET", "POST"])
def score_match(request, slug, match_id):
    """Enter the next hand of a match (GET: the form; POST: a hand typed without JavaScript)."""
    return core.match_page(request, _door(request, slug, match_id))


@never_cache
@_signed_in_json
@require_GET
def score_state(request, slug, match_id):
    """Where the match stands (the queue numbers its hands from it)."""
    return core.state_json(_door(request, slug, match_id))


@_signed_in_json
@require_POST
def score_preview(request, slug, match_id):
    """Score the typed hand against the game's state without storing it (the live preview)."""
    return core.preview_json(request, _door(request, slug, match_id))


@_signed_in_json
@require_POST
def score_hand(request, slug, match_id):
    """Enter a hand sent by the queue (``entry_core.hand_json``)."""
    return core.hand_json(request, _door(request, slug, match_id))


@login_required
@require_http_methods(["GET", "POST"])
def score_correct(request, slug, match_id):
    """Correct the last hand of the match (re-scored by the engine; audited)."""
    return core.correct_page(request, _door(request, slug, match_id))


@login_required
@require_POST
def score_delete(request, slug, match_id):
    """Delete the last hand of the match (the form names it, so a second tap deletes nothing more)."""
    return core.delete_post(request, _door(request, slug, match_id))


@login_required
@require_POST
def score_game_start(request, slug, match_id):
    """Start the match's next game with its first dealer (favourite suit and albur where the variant has them)."""
    return core.game_post(request, _door(request, slug, match_id))


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
