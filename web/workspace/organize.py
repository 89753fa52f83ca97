"""The organizer's dashboard of one tournament: status, publish, start and finish, pairing the next round (the CSV
exports are ``exports.py``'s).

Writes go through ``tournaments.services``; the pairing runs as a task (``round_pair_request``) whose record the
progress page reads through ``task_status``, polled by ``ws-organize.js`` (or refreshed by the page without JS).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Entry, Round, Stage, TaskRecord, Tournament
from tournaments.selectors.entries import tournament_rounds
from tournaments.selectors.standings import task_status
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import round_pair_request
from tournaments.services.tournaments import tournament_update
from tournaments import vocabulary

from .. import pages, round_names
from ..stage_lines import event_rounds, stage_lines
from ..stage_progress import awaits_close
from . import event_words, round_words
from .organize_common import organizer_view, refusal, round_url
from .organize_next import is_stage_last, pair_label, stage_step

#: The status changes the dashboard offers: (from, to).
STATUS_MOVES = {("draft", "running"), ("running", "finished"), ("finished", "running")}
#: The dashboard's query parameter after a pair request refused because the last round is unfinished.
FORCE_OFFER = "unfinished"


def _pairing_under_way(tournament: Tournament) -> TaskRecord | None:
    return (TaskRecord.objects.filter(tournament=tournament, kind=TaskRecord.Kind.ROUND_PAIR,
                                      status__in=[TaskRecord.Status.PENDING, TaskRecord.Status.RUNNING])
            .order_by("-created_at").first())


@require_GET
@organizer_view
def dashboard(request, tournament):
    """The tournament at a glance: status, public or not, entries, rounds with their state, the actions."""
    # An individual event counts its players who are drawn (reserves wait for a leaver's seat).
    entries = list(Entry.objects.filter(tournament=tournament).exclude(reserve=True).values_list("withdrawn",
                                                                                             flat=True))
    rounds = list(tournament_rounds(tournament=tournament))
    round_names.prime(rounds)  # a knockout's rounds are named by its bracket: one query, none without a knockout
    # The running stage's rounds lead: its last round, the next one's number, whether it is played out.
    step = stage_step(tournament, rounds)
    last = step.last
    stage = step.stage
    fmt = stage.format if stage else tournament.format
    unfinished = (last.tables - last.finished) if last else 0
    stage_over = step.played and step.next_stage is not None and step.next_stage.status == Stage.Status.PENDING
    # A multi-stage event's last stage, played out, is closed by its organizer, which finishes the event.
    last_stage_over = (step.played and step.next_stage is None and step.stages > 1
                       and stage.status == Stage.Status.RUNNING)
    # Until then the header and the stage's line say "All played" rather than "Running", as the public pages do.
    awaiting = awaits_close(tournament, stage, step.stages, step.played)
    lines = stage_lines(tournament, step.stage_list) if step.stages > 1 else None
    for line in lines if awaiting else ():
        if line["number"] == stage.number:
            line["status"], line["status_words"] = "played", _("All played")
    return render(request, "web/workspace/organize/dashboard.html", {
        "tournament": tournament, "facts": pages.tournament_facts(tournament), "tab": "dashboard",
        "active": entries.count(False), "withdrawn": entries.count(True),
        "rounds": [{"round": r, "status": vocabulary.ROUND_STATUS.get(r.status, r.status)} for r in rounds],
        "step": step, "stage_over": stage_over, "last_stage_over": last_stage_over,
        "last": last, "next_number": step.next_number,
        # The last round's stage is the running stage, its bracket's size read with the rounds (prime).
        "pair_label": pair_label(tournament, last.stage if last else stage, step.next_number),
        "last_unfinished": unfinished > 0, "unfinished": unfinished,
        "unfinished_words": round_words.unfinished(last) if unfinished else "",
        # A knockout's final being played: no round after it to pair (its next round is no "Pair stage 2, round 4").
        "final_running": bool(unfinished and fmt == Tournament.Format.KNOCKOUT
                              and is_stage_last(tournament, last.stage, last)),
        # A multi-stage event's facts a stage a line (its format, rounds and match length), the running one marked.
        "stage_lines": lines, "awaiting": awaiting,
        # A round robin plays one round per opponent: its rounds from the teams entered (none said before two).
        "event_rounds": event_rounds(tournament, entries.count(False)) if step.stages <= 1 else None,
        # After a round_unfinished refusal: "Pair anyway", while the last round is still unfinished.
        "offer_force": request.GET.get(FORCE_OFFER) == "1" and unfinished > 0 and _can_force(tournament),
        "all_paired": not stage_over and not last_stage_over and bool(
            (last and fmt in (Tournament.Format.SWISS, Tournament.Format.TABLES) and last.number >= stage.rounds)
            or (step.played and step.next_stage is None)),
        "under_way": _pairing_under_way(tournament),
        # As round_pair_request refuses (too_few_teams): a first round, or a Swiss round, needs two active teams;
        # (too_few_players) a draw needs four players.
        "needs_teams": (entries.count(False) < 4 if tournament.is_individual else
                        entries.count(False) < 2 and (last is None or fmt == Tournament.Format.SWISS)),
        "match_length": event_words.match_length(tournament) if tournament.is_individual else None,
        "moves": [to for (frm, to) in sorted(STATUS_MOVES) if frm == tournament.status],
    })


@require_POST
@organizer_view
def publish(request, tournament):
    """Show the tournament on the public site (``public=1``) or hide it (``public=0``)."""
    public = request.POST.get("public") == "1"
    tournament_update(tournament=tournament, user=request.user, public=public)
    messages.success(request, _("The tournament is public now.") if public
                     else _("The tournament is hidden from the public site now."))
    return redirect("ws:tournament", tournament.slug)


@require_POST
@organizer_view
def set_status(request, tournament):
    """Start, finish or reopen the tournament."""
    status = request.POST.get("status", "")
    if (tournament.status, status) not in STATUS_MOVES:
        messages.error(request, _("The tournament cannot go from %(from)s to %(to)s.") % {
            "from": vocabulary.TOURNAMENT_STATUS.get(tournament.status, tournament.status),
            "to": vocabulary.TOURNAMENT_STATUS.get(status, status)})
    else:
        tournament_update(tournament=tournament, user=request.user, status=status)
        messages.success(request, _("The tournament is %(status)s now.") % {
            "status": str(vocabulary.TOURNAMENT_STATUS[status]).lower()})
    return redirect("ws:tournament", tournament.slug)


def _can_force(tournament: Tournament) -> bool:
    """Tell whether pairing before the last round is finished means anything: not in a knockout (the running
    stage's format).

    A knockout's next round is filled in by the matches that finish (``knockout_advance``); forcing it pairs
    nothing more.
    """
    stage = Stage.objects.filter(tournament=tournament, status=Stage.Status.RUNNING).order_by("number").first()
    return (stage.format if stage else tournament.format) != Tournament.Format.KNOCKOUT


@require_POST
@organizer_view
def pair(request, tournament):
    """Ask for the next round: the task is recorded and queued; follow it on its progress page.

    ``force=1`` ("Pair anyway", offered after a ``round_unfinished`` refusal) pairs although the last round
    still has unfinished matches: they stay as they are and count in the standings once finished.
    """
    force = request.POST.get("force") == "1" and _can_force(tournament)
    try:
        record = round_pair_request(tournament=tournament, user=request.user, force=force)
    except ServiceError as exc:
        messages.error(request, refusal(exc.code, teams=getattr(exc, "teams", None), params=exc.params))
        url = reverse("ws:tournament", args=[tournament.slug])
        if exc.code == "round_unfinished" and not force and _can_force(tournament):
            url += f"?{FORCE_OFFER}=1#h-next"  # the dashboard offers "Pair anyway"
        return redirect(url)
    return redirect("ws:pair-task", tournament.slug, record.id)


def _task_or_404(tournament: Tournament, task_id) -> dict:
    info = task_status(task_id)
    if info is None or info["tournament"] != tournament.pk:
        raise Http404
    return info


def _round_url(tournament: Tournament, result: dict) -> str:
    """The workspace page of the round a pairing made (its stage's: round numbers count per stage)."""
    rnd = Round.objects.select_related("stage").filter(pk=result.get("round_id"), tournament=tournament).first()
    return (round_url("ws:round", tournament, rnd) if rnd is not None
            else reverse("ws:round", args=[tournament.slug, result["round"]]))


def _task_view(tournament: Tournament, info: dict) -> dict:
    """The task in the words and links the page and its JSON both show."""
    done = info["status"] == TaskRecord.Status.SUCCEEDED
    number = (info["result"] or {}).get("round") if done else None
    error = info["error"] if info["status"] == TaskRecord.Status.FAILED else None
    progress = info["progress"] or {}
    stage = {"loading": _("Reading the standings and the past rounds…"),
             "drawing": _("Drawing the tables…"),
             "saving": _("Saving the round's tables…")}.get(progress.get("stage"), "")
    return {
        "status": info["status"],
        "label": ({"pending": _("Waiting for a worker…"), "running": _("Drawing…"), "succeeded": _("Drawn."),
                   "failed": _("The draw was refused.")} if tournament.is_individual else
                  {"pending": _("Waiting for a worker…"), "running": _("Pairing…"), "succeeded": _("Paired."),
                   "failed": _("The pairing was refused.")}).get(info["status"], info["status"]),
        "stage": stage,
        "round": number,
        "round_url": _round_url(tournament, info["result"] or {}) if number else None,
        "error": (refusal(error.get("code", "error"), teams=error.get("teams"), params=error.get("params"))
                  if error else None),
    }


@require_GET
@organizer_view
def pair_task(request, tournament, task_id):
    """The pairing's progress: a page that refreshes itself (or is polled by a script) until the round is there."""
    task = _task_view(tournament, _task_or_404(tournament, task_id))
    if task["round_url"]:
        return redirect(task["round_url"])
    return render(request, "web/workspace/organize/pair_task.html", {
        "tournament": tournament, "task": task, "task_id": task_id, "tab": "dashboard",
        "status_url": reverse("ws:pair-task-status", args=[tournament.slug, task_id]),
    })


@require_GET
@organizer_view
def pair_task_status(request, tournament, task_id):
    """The pairing's progress as JSON for the progress page's script."""
    response = JsonResponse(_task_view(tournament, _task_or_404(tournament, task_id)))
    response["Cache-Control"] = "no-store"
    return response
