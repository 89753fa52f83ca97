"""The director's desk in the workspace: the tournament's actions (forfeits, withdrawals, adjusted results,
penalties, decisions, deductions) listed with their reasons, a form for each kind, and a revert button on each
active one. The services decide (``tournaments.services.desk``); their refusals are shown in words."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import DirectorAction, Entry, Match, Player, Round, RoundSeat
from tournaments.selectors.clock import OVER, clock_status
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.desk_preview import desk_action_preview
from tournaments.services.errors import ServiceError

from .. import round_names
from ..pages_individual import seat_name
from ..templatetags.web_rounds import round_name
from .organize_common import director_view, refusal

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
#: In an individual event absence, a withdrawal mid-match and a penalty are a player's (the API's ``players`` and
#: ``player``): their forms name the players of the table chosen on the page (``?match=``).
PLAYER_FIELDS = {
    "forfeit": (("players", list),),
    "withdrawal": (("player", int),),
    "penalty": (("player", int), ("points", int)),
}


def kind_names() -> dict[str, str]:
    return {"forfeit": _("Forfeit"), "withdrawal": _("Withdrawal mid-match"), "adjusted": _("Adjusted result"),
            "penalty": _("Penalty of game points"), "decision": _("Drawn knockout decided"),
            "withdrawal_event": _("Withdrawal from the event"), "deduction": _("Deduction from the standings"),
            "clock_reopened": _("Round reopened after its clock was ended early"),
            "clock_kept": _("Round kept as the clock's early end left it")}


#: Sign-in, then the tournament if the user directs it (its organizers, its directors and staff; else 404).
_directs = director_view


#: The fields a refused form shows again as they were sent.
KEPT = ("match", "entry", "reason", "absent", "side", "games_won_ns", "games_won_ew", "points_ns", "points_ew",
        "winner", "points", "metric", "amount", "player")
SEAT_ORDER = {"N": 0, "E": 1, "S": 2, "W": 3}


def _table(request, tournament, matches, kind) -> tuple[Match | None, list[dict]]:
    """An individual event's table chosen on the page (``?match=``, or the refused form's), with its seated players
    in seat order (N, E, S, W): ``{"id", "name", "seat"}`` each."""
    if not tournament.is_individual:
        return None, []
    wanted = request.POST.get("match") if kind in PLAYER_FIELDS else request.GET.get("match")
    chosen = next((m for m in matches if str(m.pk) == (wanted or "").strip()), None)
    if chosen is None:
        return None, []
    seats = sorted(RoundSeat.objects.filter(match=chosen).select_related("player"), key=lambda s: SEAT_ORDER[s.seat])
    return chosen, [{"id": s.player_id, "name": s.player.name, "seat": seat_name(s.seat)} for s in seats]


def _page(request, tournament, *, error=None, kind=None, status=200, preview=None):
    matches = list(Match.objects.filter(round__tournament=tournament).exclude(ns__isnull=False, ew__isnull=True)
                   .select_related("round__stage", "ns", "ew").order_by("round__stage__number", "round__number", "table"))
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team", "player")
                   .order_by("withdrawn", "seed", "start_number", "id"))
    actions = list(DirectorAction.objects.filter(tournament=tournament)
                   .select_related("match__round__stage", "match__ns", "match__ew", "entry__team", "entry__player", "actor",
                                   "reverted_by").order_by("-created_at", "-id"))
    # A knockout's rounds are named as its bracket names them ("Final, table 1"): one query, none without one.
    round_names.prime([m.round for m in matches] + [a.match.round for a in actions if a.match_id])
    names = kind_names()
    named = {p for a in actions for p in [*a.params.get("players", []), a.params.get("player")] if isinstance(p, int)}
    people = dict(Player.objects.filter(pk__in=named).values_list("pk", "name")) if named else {}
    chosen, seated = _table(request, tournament, matches, kind)
    cuts = [r for r in Round.objects.filter(tournament=tournament, clock_cut_left__isnull=False)
            .select_related("stage").order_by("stage__number", "number") if clock_status(r) == OVER]
    return render(request, "web/workspace/organize/desk.html", {
        "tournament": tournament, "tab": "actions", "matches": matches, "entries": entries,
        "actions": [{"action": a, "kind": names.get(a.kind, a.kind), "params": _shown(a, people)} for a in actions],
        "kinds": names, "error": error, "error_kind": kind, "preview": preview,
        "preview_kind": names.get(kind, kind) if preview is not None else "",
        "chosen": chosen, "seated": seated,
        # The clocks ended early that wait for a decision (reopen or keep: ``organize_draw.round_clock_view``).
        "clock_cuts": [{"round": r, "name": round_name(r), "id": f"clock-cut-{r.pk}"} for r in cuts],
        "keep_players": request.POST.getlist("players") if kind else [],
        "keep": {f: (request.POST.get(f, "") if kind else "") for f in KEPT},
        "knockout": tournament.format == tournament.Format.KNOCKOUT,
        "award": {"remaining": _("the remaining games go to the opponents at the target"),
                  "as_stands": _("the match ends as it stands")}.get(tournament.withdrawal_award, ""),
    }, status=status)


def _shown(action: DirectorAction, people: dict[int, str]) -> str:
    """An action's parameters as a line (its own words are the reason's); an individual event's players by name
    (``people``)."""
    p = action.params
    sides = {"ns": _("NS"), "ew": _("EW"), "both": _("both"), "draw": _("a draw")}
    match = action.match if action.match_id else None
    if match is not None and match.ns_id and match.ew_id:  # a team event's sides by their teams' names
        sides = {**sides, "ns": match.ns.name, "ew": match.ew.name}
    if "players" in p or "player" in p:  # an individual event's: the players it names, not their side
        sides = {**sides, "players": ", ".join(people.get(n, "?") for n in p.get("players") or [p.get("player")])}
        p = {**p, "absent": "players", "side": "players"}
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


def _whole(value: str):
    try:
        return int(value)
    except ValueError:
        return value  # the service refuses it with its words (``action_params``)


def _params(kind: str, post, tournament) -> dict:
    params = {}
    fields = PLAYER_FIELDS if tournament.is_individual and kind in PLAYER_FIELDS else FIELDS
    for name, kind_of in fields[kind]:
        if kind_of is list:  # the players ticked
            params[name] = [_whole(v.strip()) for v in post.getlist(name)]
            continue
        value = (post.get(name) or "").strip()
        params[name] = _whole(value) if kind_of is int else value
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
                                        user=request.user, match=match, entry=entry, params=_params(kind, request.POST, tournament))
        except ServiceError as exc:
            return _page(request, tournament, error=refusal(exc.code, params=exc.params), kind=kind, status=400)
        return _page(request, tournament, kind=kind, preview=found)
    try:
        outcome = desk_action_take(tournament=tournament, kind=kind, reason=request.POST.get("reason", ""),
                                   user=request.user, match=match, entry=entry, params=_params(kind, request.POST, tournament))
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), kind=kind, status=400)
    messages.success(request, _("%(kind)s recorded.") % {"kind": kind_names()[kind]})
    _say_kept(request, outcome.rounds_kept)
    if tournament.is_individual and kind in PLAYER_FIELDS:  # back at the same table
        return redirect(f"{reverse('ws:actions', args=[tournament.slug])}?match={match.pk}#desk-table")
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
