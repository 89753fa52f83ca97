"""The organizer's view of a round: each table with its teams, the pairing's explanation, its state and result;
before the round starts, a form per table to swap or move teams (``match_pairing_change`` checks them)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import vocabulary
from tournaments.models import Entry, Match, Round, Stage, Team
from tournaments.selectors.entries import round_matches, tournament_rounds
from tournaments.services.errors import ServiceError
from tournaments.services.publication import round_publish
from tournaments.services.rounds import match_pairing_change
from web import pages_stages
from web.stage_progress import awaits_close
from web.templatetags.web_rounds import round_name

from . import organize_draw, round_words
from .organize_common import organizer_view, refusal, round_of, round_picker, round_url
from .organize_next import is_stage_last, pair_label


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _round_page(request, tournament, rnd: Round, *, error=None, error_match=None, status=200):
    matches = list(round_matches(round=rnd))
    # What the pairing service also checks (round_started): shown forms only while a change can succeed.
    started = any(m.game_count or (m.ew_id and m.status != Match.Status.SCHEDULED) for m in matches)
    in_round = {t for m in matches for t in (m.ns_id, m.ew_id) if t}
    teams = [t for m in matches for t in (m.ns, m.ew) if t]
    # The last round of the round's own stage: the Publish box's "pair the next round" and its pointer.
    last = tournament_rounds(tournament=tournament).filter(stage_id=rnd.stage_id).last()
    # Active entries at no table of the round (entered late, or replaced by hand): shown, and offered in the selects.
    # The field is the round's stage's: a later stage's entrants alone; a knockout's later rounds take the winners
    # of the one before, so the teams it knocked out are at no table without being missed.
    field = Entry.objects.filter(tournament=tournament, withdrawn=False).exclude(team_id__in=in_round)
    if rnd.stage.number > 1:
        field = field.filter(stage_entrants__stage=rnd.stage)
    if rnd.stage.format == Stage.Format.KNOCKOUT and rnd.number > 1:
        field = field.none()
    unplaced = [e.team for e in field.select_related("team__club").order_by("team__name")]
    if not started:
        teams += unplaced
    teams.sort(key=lambda t: t.name.lower())
    pools = pages_stages.pools_of(rnd, tournament)
    stage_played = last is not None and last.finished == last.tables and is_stage_last(tournament, rnd.stage, last)
    stage_count = Stage.objects.filter(tournament=tournament).count()
    return render(request, "web/workspace/organize/round.html", {
        "tournament": tournament, "tab": "rounds", "round": rnd,
        "round_status": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status),
        "rounds": round_picker(tournament, rnd), "round_name": round_name(rnd),
        "tables": [{"match": m, "status": vocabulary.MATCH_STATUS.get(m.status, m.status),
                    "pool": pools.get(m.ns_id),  # a pools stage's: each table's pool, as the public page says
                    "error": error if error_match == m.pk else None} for m in matches],
        "editable": not started, "teams": teams, "error": error, "unplaced": unplaced,
        "error_in_table": error_match is not None,
        "is_last": last is not None and last.pk == rnd.pk,
        "last_finished": last is not None and last.finished == last.tables,
        # The stage's last round played: no next round to pair in it, the Stages page closes it.
        "stage_played": stage_played,
        "pair_label": pair_label(tournament, rnd.stage, rnd.number + 1),
        "stage_count": stage_count,
        # The last stage played out, not closed yet: the header says "All played" (nothing more read).
        "awaiting": awaits_close(tournament, rnd.stage, stage_count, stage_played),
    }, status=status)


@require_GET
@organizer_view
def round_view(request, tournament, number):
    """A round's tables with each pairing's explanation, state and result; change forms before it starts (an
    individual event's: its tables and seats, the draw and the round clock, ``organize_draw``)."""
    if tournament.is_individual:
        return organize_draw.round_page(request, tournament, round_of(request, tournament, number))
    return _round_page(request, tournament, round_of(request, tournament, number))


@require_POST
@organizer_view
def round_change(request, tournament, number):
    """Put two teams at a table: a team taken from another table swaps places with the one it replaces."""
    rnd = round_of(request, tournament, number)
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
    return redirect(round_url("ws:round", tournament, rnd))


@require_POST
@organizer_view
def round_publish_view(request, tournament, number):
    """Publish the round: from now on everyone who sees the event sees it (its public pages, the wall, its sheets'
    codes); until then its organizers, directors and scorekeepers alone."""
    rnd = round_publish(round=round_of(request, tournament, number), user=request.user)
    messages.success(request, round_words.published(rnd))
    return redirect(round_url("ws:round", tournament, rnd))
