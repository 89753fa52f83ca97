"""The director's desk in the workspace: the tournament's actions (forfeits, withdrawals, adjusted results,
penalties, decisions, deductions) listed with their reasons, a form for each kind, and a revert button on each
active one. The services decide (``tournaments.services.desk``); their refusals are shown in words."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import access
from tournaments.models import DirectorAction, Entry, Match, Tournament
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.desk_preview import desk_action_preview
from tournaments.services.errors import ServiceError

from .organize_common import login_url, refusal

#: What each kind's form sends besides the match or entry and the reason: (field, whole number or a choice).
FIELDS = {
    "forfeit": (("absent", str),),
    "withdrawal": (("side", str),),
    "adjusted": (("games_won_ns", int), ("games_won_ew", int), ("points_ns", int), ("points_ew", int),
                 ("winner", str)),
    "penalty": (("side", str), ("points", int)),
    "decision": (("winner", str),),
    "withdrawal_event": (),
    "deduction": (("metric", str), ("amount", int)),
}


def kind_names() -> dict[str, str]:
    return {"forfeit": _("Forfeit"), "withdrawal": _("Withdrawal mid-match"), "adjusted": _("Adjusted result"),
            "penalty": _("Penalty of game points"), "decision": _("Drawn knockout decided"),
            "withdrawal_event": _("Withdrawal from the event"), "deduction": _("Deduction from the standings"),
            "clock_reopened": _("Round reopened after its clock was ended early"),
            "clock_kept": _("Round kept as the clock's early end left it")}


def _directs(view):
    """Sign-in first, then the tournament ``slug`` if the user directs it (``access.can_direct``, the one check of
    every door: its organizers, its directors and staff; else 404), passed as ``tournament``."""

    @functools.wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not access.can_direct(request.user, tournament.pk):
            raise Http404
        return view(request, tournament, *args, **kwargs)

    return wrapper


#: The fields a refused form shows again as they were sent.
KEPT = ("match", "entry", "reason", "absent", "side", "games_won_ns", "games_won_ew", "points_ns", "points_ew",
        "winner", "points", "metric", "amount")


def _page(request, tournament, *, error=None, kind=None, status=200, preview=None):
    matches = list(Match.objects.filter(round__tournament=tournament).exclude(ns__isnull=False, ew__isnull=True)
                   .select_related("round", "ns", "ew").order_by("round__stage__number", "round__number", "table"))
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team", "player")
                   .order_by("withdrawn", "seed", "start_number", "id"))
    actions = list(DirectorAction.objects.filter(tournament=tournament)
                   .select_related("match__round", "match__ns", "match__ew", "entry__team", "entry__player", "actor",
                                   "reverted_by").order_by("-created_at", "-id"))
    names = kind_names()
    return render(request, "web/workspace/organize/desk.html", {
        "tournament": tournament, "tab": "actions", "matches": matches, "entries": entries,
        "actions": [{"action": a, "kind": names.get(a.kind, a.kind), "params": _shown(a)} for a in actions],
        "kinds": names, "error": error, "error_kind": kind, "preview": preview,
        "preview_kind": names.get(kind, kind) if preview is not None else "",
        "keep": {f: (request.POST.get(f, "") if kind else "") for f in KEPT},
        "knockout": tournament.format == tournament.Format.KNOCKOUT,
        "award": {"remaining": _("the remaining games go to the opponents at the target"),
                  "as_stands": _("the match ends as it stands")}.get(tournament.withdrawal_award, ""),
    }, status=status)


def _shown(action: DirectorAction) -> str:
    """An action's parameters as a line (its own words are the reason's)."""
    p = action.params
    sides = {"ns": _("NS"), "ew": _("EW"), "both": _("both"), "draw": _("a draw")}
    if action.kind == "forfeit":
        return _("absent: %(side)s") % {"side": sides.get(p.get("absent"), "?")}
    if action.kind == "withdrawal":
        return _("withdrew: %(side)s") % {"side": sides.get(p.get("side"), "?")}
    if action.kind == "adjusted":
        return _("games %(gns)s–%(gew)s, points %(pns)s–%(pew)s, won by %(winner)s") % {
            "gns": p.get("games_won_ns"), "gew": p.get("games_won_ew"), "pns": p.get("points_ns"),
            "pew": p.get("points_ew"), "winner": sides.get(p.get("winner"), "?")}
    if action.kind == "penalty":
        return _("%(points)s game points off %(side)s") % {"points": p.get("points"),
                                                          "side": sides.get(p.get("side"), "?")}
    if action.kind == "decision":
        return _("won by %(side)s") % {"side": sides.get(p.get("winner"), "?")}
    if action.kind in ("clock_reopened", "clock_kept"):
        return _("round %(round)s, %(seconds)s s left") % {"round": p.get("round"), "seconds": p.get("seconds")}
    if action.kind == "deduction":
        metric = _("match points") if p.get("metric") == "match_points" else _("game points")
        return _("%(amount)s %(metric)s off") % {"amount": p.get("amount"), "metric": metric}
    return ""


@require_GET
@_directs
def desk(request, tournament):
    """The desk: the actions taken, newest first, and a form for each kind."""
    return _page(request, tournament)


def _params(kind: str, post) -> dict:
    params = {}
    for name, kind_of in FIELDS[kind]:
        value = (post.get(name) or "").strip()
        if kind_of is int:
            try:
                value = int(value)
            except ValueError:
                pass  # the service refuses it with its words (``action_params``)
        params[name] = value
    return params


@require_POST
@_directs
def desk_take(request, tournament):
    """Take one action, or with ``preview`` show what it would do to the standings (nothing saved, the form kept
    as sent); a refusal is shown above the forms, the page answering 400."""
    kind = request.POST.get("kind", "")
    if kind not in FIELDS:
        raise Http404
    match = entry = None
    if kind in DirectorAction.MATCH_KINDS:
        match = get_object_or_404(Match, pk=request.POST.get("match") or 0, round__tournament=tournament)
    else:
        entry = get_object_or_404(Entry, pk=request.POST.get("entry") or 0, tournament=tournament)
    if request.POST.get("preview"):
        try:
            found = desk_action_preview(tournament=tournament, kind=kind, reason=request.POST.get("reason", ""),
                                        user=request.user, match=match, entry=entry, params=_params(kind, request.POST))
        except ServiceError as exc:
            return _page(request, tournament, error=refusal(exc.code, params=exc.params), kind=kind, status=400)
        return _page(request, tournament, kind=kind, preview=found)
    try:
        outcome = desk_action_take(tournament=tournament, kind=kind, reason=request.POST.get("reason", ""),
                                   user=request.user, match=match, entry=entry, params=_params(kind, request.POST))
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), kind=kind, status=400)
    messages.success(request, _("%(kind)s recorded.") % {"kind": kind_names()[kind]})
    _say_kept(request, outcome.rounds_kept)
    return redirect("ws:actions", tournament.slug)


@require_POST
@_directs
def desk_revert(request, tournament, action_id):
    """Revert one action: the result (or the entry, or the standings total) is worked out again without it."""
    action = get_object_or_404(DirectorAction, pk=action_id, tournament=tournament)
    try:
        outcome = desk_action_revert(action=action, user=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), status=409)
    messages.success(request, _("%(kind)s reverted.") % {"kind": kind_names().get(action.kind, action.kind)})
    _say_kept(request, outcome.rounds_kept)
    return redirect("ws:actions", tournament.slug)


def _say_kept(request, rounds: list[int]) -> None:
    if rounds:
        messages.info(request, _("Rounds paired since stay as they are: %(rounds)s. The standings are recomputed.")
                      % {"rounds": ", ".join(map(str, rounds))})
