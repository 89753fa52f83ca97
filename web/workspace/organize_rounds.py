"""The organizer's view of a round: each table with its teams, the pairing's explanation, its state and result;
before the round starts, a form per table to swap or move teams (``match_pairing_change`` checks them)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Entry, Match, Round, Team
from tournaments.selectors.entries import round_matches, tournament_rounds
from tournaments.services.errors import ServiceError
from tournaments.services.publication import round_publish
from tournaments.services.rounds import match_pairing_change
from tournaments import vocabulary

from . import organize_draw
from .organize_common import organizer_view, refusal


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _round_or_404(tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def round_picker(tournament) -> list[dict]:
    """The event's rounds for the round page's picker: each number, and whether it is published (marked if not)."""
    return [{"number": number, "published": at is not None} for number, at in
            Round.objects.filter(tournament=tournament).order_by("number").values_list("number", "published_at")]


def _round_page(request, tournament, rnd: Round, *, error=None, error_match=None, status=200):
    matches = list(round_matches(round=rnd))
    # What the pairing service also checks (round_started): shown forms only while a change can succeed.
    started = any(m.game_count or (m.ew_id and m.status != Match.Status.SCHEDULED) for m in matches)
    in_round = {t for m in matches for t in (m.ns_id, m.ew_id) if t}
    teams = [t for m in matches for t in (m.ns, m.ew) if t]
    last = tournament_rounds(tournament=tournament).last()
    # Active entries at no table of the round (entered late, or replaced by hand): shown, and offered in the selects.
    unplaced = [e.team for e in Entry.objects.filter(tournament=tournament, withdrawn=False)
                .exclude(team_id__in=in_round).select_related("team__club").order_by("team__name")]
    if not started:
        teams += unplaced
    teams.sort(key=lambda t: t.name.lower())
    return render(request, "web/workspace/organize/round.html", {
        "tournament": tournament, "tab": "rounds", "round": rnd,
        "round_status": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status),
        "rounds": round_picker(tournament),
        "tables": [{"match": m, "status": vocabulary.MATCH_STATUS.get(m.status, m.status),
                    "error": error if error_match == m.pk else None} for m in matches],
        "editable": not started, "teams": teams, "error": error, "unplaced": unplaced,
        "error_in_table": error_match is not None,
        "is_last": last is not None and last.pk == rnd.pk,
        "last_finished": last is not None and last.finished == last.tables,
    }, status=status)


@require_GET
@organizer_view
def round_view(request, tournament, number):
    """A round's tables with each pairing's explanation, state and result; change forms before it starts (an
    individual event's: its tables and seats, the draw and the round clock, ``organize_draw``)."""
    if tournament.is_individual:
        return organize_draw.round_page(request, tournament, _round_or_404(tournament, number))
    return _round_page(request, tournament, _round_or_404(tournament, number))


@require_POST
@organizer_view
def round_change(request, tournament, number):
    """Put two teams at a table: a team taken from another table swaps places with the one it replaces."""
    rnd = _round_or_404(tournament, number)
    match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=_int(request.POST.get("match")),
                              round=rnd)
    teams = Team.objects.filter(entries__tournament=tournament)
    ns = get_object_or_404(teams, pk=_int(request.POST.get("ns")))
    ew_id = _int(request.POST.get("ew"))
    ew = get_object_or_404(teams, pk=ew_id) if ew_id else None
    try:
        match_pairing_change(match=match, ns=ns, ew=ew, user=request.user)
    except ServiceError as exc:
        return _round_page(request, tournament, rnd, error=refusal(exc.code, params=exc.params),
                           error_match=match.pk, status=400)
    messages.success(request, _("Table %(table)s: %(ns)s against %(ew)s.") % {
        "table": match.table, "ns": ns.name, "ew": ew.name if ew else _("a bye")})
    return redirect("ws:round", tournament.slug, rnd.number)


@require_POST
@organizer_view
def round_publish_view(request, tournament, number):
    """Publish the round: from now on everyone who sees the event sees it (its public pages, the wall, its sheets'
    codes); until then its organizers, directors and scorekeepers alone."""
    rnd = round_publish(round=_round_or_404(tournament, number), user=request.user)
    messages.success(request, _("Round %(n)s is published: everyone who follows the event sees it now.")
                     % {"n": rnd.number})
    return redirect("ws:round", tournament.slug, rnd.number)
