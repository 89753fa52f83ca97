"""The organizer's round of an individual event: the drawn tables with their seats and table codes, who sits out,
every draw of the round with its seed (a redraw before the round is played keeps the earlier ones), what the
draw reports, the link to its inputs as JSON, and the round clock (start, pause, resume, more time, end; a clock
ended early reopened or kept, by a director too: the director's decisions page offers it, ``organize_desk``).

Writes are ``services.draws.round_redraw`` and ``services.clock``; the clock's time shown is the server's
(``selectors.clock.round_clock``), counted down by ``ws-clock.js`` between refreshes of ``round_clock_state``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments import access, vocabulary
from tournaments.models import Entry, Match, Round, RoundSeat, Stage
from tournaments.selectors.clock import NOT_STARTED, OVER, PAUSED, RUNNING, round_clock
from tournaments.services import clock as clock_services
from tournaments.services.draws import round_redraw
from tournaments.services.errors import ServiceError

from . import event_words
from .entry_logic import pair_name
from web.stage_progress import awaits_close
from web.templatetags.web_rounds import round_name

from .organize_common import director_view, organizer_view, refusal, round_of, round_picker, round_url
from .organize_next import is_stage_last, pair_label

#: The "+N minutes" the clock offers by default.
EXTEND_DEFAULT = 5
#: The API's JSON of a round's draw (its inputs, seed and result), which the public side builds.
DRAW_JSON = "/api/v1/tournaments/{id}/rounds/{number}/draw/"


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _tables(rnd: Round) -> tuple[list[dict], list[dict]]:
    """The round's tables, each with its players by seat (and start numbers), and the players sitting out."""
    numbers = dict(Entry.objects.filter(tournament_id=rnd.tournament_id, player__isnull=False)
                   .values_list("player_id", "start_number"))
    matches = {m.pk: m for m in Match.objects.filter(round=rnd).annotate(game_count=Count("games"))}
    seats: dict[int, dict[str, dict]] = {}
    out = []
    for s in RoundSeat.objects.filter(round=rnd).select_related("player__club").order_by("player__name"):
        person = {"name": s.player.name, "number": numbers.get(s.player_id),
                  "club": s.player.club.name if s.player.club_id else ""}
        if s.match_id is None:
            out.append(person)
        else:
            seats.setdefault(s.match_id, {})[s.seat] = person
    tables = []
    for m in sorted(matches.values(), key=lambda m: m.table):
        at = seats.get(m.pk, {})
        tables.append({
            "match": m, "seats": [(seat, vocabulary.seat(seat), at.get(seat)) for seat in "NESW"],
            "ns": pair_name([at[s]["name"] for s in "NS" if s in at]),
            "ew": pair_name([at[s]["name"] for s in "EW" if s in at]),
            "status": vocabulary.MATCH_STATUS.get(m.status, m.status), "started": bool(m.game_count),
        })
    return tables, sorted(out, key=lambda p: p["number"] or 0)


def _report(result: dict) -> list[str]:
    """What a draw reports (``DrawResult.report``: counts, never sentences), in the organizer's words."""
    report = (result or {}).get("report") or {}
    lines = []
    if "repeated_partners" in report:
        lines.append(_("Pairs of partners who partnered before: %(n)s.") % {"n": report["repeated_partners"]})
    if "repeated_opponents" in report:
        lines.append(_("Pairs of opponents who were opponents before: %(n)s (no draw of these players could "
                       "have fewer than %(bound)s).") % {"n": report["repeated_opponents"],
                                                         "bound": report.get("opponents_lower_bound", 0)})
    if "repeated_meetings" in report:
        lines.append(_("Pairs at one table who met before: %(n)s (no draw could have fewer than %(bound)s).") % {
            "n": report["repeated_meetings"], "bound": report.get("meetings_lower_bound", 0)})
    if "club_conflicts" in report:
        lines.append(_("Pairs of one club at one table: %(n)s (no draw could have fewer than %(bound)s).") % {
            "n": report["club_conflicts"], "bound": report.get("club_conflicts_lower_bound", 0)})
    if report.get("sitting_out"):
        lines.append(_("Sitting out: %(n)s (nobody sits out twice before everyone has once).") % {
            "n": report["sitting_out"]})
    return lines


def clock_view(rnd: Round) -> dict:
    """The round clock as the page and its script show it: the server's state and seconds left, in words."""
    clock = round_clock(rnd)
    label = {NOT_STARTED: _("Not started"), RUNNING: _("Running"), PAUSED: _("Paused"),
             OVER: _("Time is up")}[clock["status"]]
    minutes = clock["minutes"] or rnd.tournament.minutes
    shown = clock["remaining"] if clock["remaining"] is not None else (minutes or 0) * 60
    return {"status": clock["status"], "label": label, "remaining": clock["remaining"], "shown": clock_text(shown),
            "minutes": minutes, "ends_at": clock["ends_at"], "server_time": clock["server_time"]}


def clock_text(seconds: int) -> str:
    """Seconds as a clock shows them: 29:05, or 1:05:00 past an hour (``ws-clock.js`` writes the same)."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def round_page(request, tournament, rnd: Round, *, error: str | None = None, status: int = 200):
    tables, out = _tables(rnd)
    draws = list(rnd.draws.select_related("drawn_by").order_by("created_at", "id"))
    in_use = next((d for d in reversed(draws) if d.seed == rnd.seed), None)
    # The last round of the round's own stage (round numbers count per stage).
    last = Round.objects.filter(tournament=tournament, stage_id=rnd.stage_id).order_by("-number").first()
    started = any(t["started"] for t in tables)
    last_finished = last is not None and not Match.objects.filter(round=last).exclude(
        status=Match.Status.FINISHED).exists()
    stage_played = last_finished and is_stage_last(tournament, rnd.stage, last)
    stage_count = Stage.objects.filter(tournament=tournament).count()
    return render(request, "web/workspace/organize/round_individual.html", {
        "tournament": tournament, "tab": "rounds", "round": rnd, "tables": tables, "sitting_out": out,
        "round_status": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status),
        "rounds": round_picker(tournament, rnd), "round_name": round_name(rnd),
        "draws": draws, "in_use": in_use, "report": _report(in_use.result if in_use else {}),
        "can_redraw": last is not None and last.pk == rnd.pk and not started,
        # The API's default stage is the running one: the round's own named.
        "draw_json": DRAW_JSON.format(id=tournament.pk, number=rnd.number) + f"?stage={rnd.stage.number}",
        "clock": clock_view(rnd), "extend_default": EXTEND_DEFAULT,
        "clock_url": round_url("ws:round-clock-state", tournament, rnd),
        "code_url": request.build_absolute_uri(reverse("ws:table-code", args=[tournament.slug])),
        "match_length": event_words.match_length(tournament),
        "is_last": last is not None and last.pk == rnd.pk,
        "last_finished": last_finished,
        "stage_played": stage_played,
        "pair_label": pair_label(tournament, rnd.stage, rnd.number + 1),
        "stage_count": stage_count,
        # The last stage played out, not closed yet: the header says "All played" (nothing more read).
        "awaiting": awaits_close(tournament, rnd.stage, stage_count, stage_played),
        "error": error,
    }, status=status)


@require_POST
@organizer_view
def round_redraw_view(request, tournament, number):
    """Draw the round again with a new seed (before it is played); the earlier draws stay, each with its seed."""
    rnd = round_of(request, tournament, number, Round.objects.select_related("tournament"))
    try:
        rnd = round_redraw(round=rnd, user=request.user)
    except ServiceError as exc:
        return round_page(request, tournament, rnd, error=refusal(exc.code, params=exc.params), status=400)
    messages.success(request, _("Round %(n)s is drawn again, with the seed %(seed)s. Print its score sheets "
                                "again: the table codes are new.") % {"n": rnd.number, "seed": rnd.seed})
    return redirect(round_url("ws:round", tournament, rnd))


#: The clock's actions a director takes (the API's ``clock/reopen/`` and ``clock/keep/``); the others are an
#: organizer's.
DIRECTORS_ACTIONS = ("reopen", "keep")


@require_POST
@director_view
def round_clock_view(request, tournament, number):
    """Start, pause, resume, extend or end the round's clock (``action``; ``minutes`` to start or extend): an
    organizer's; reopen the tables a clock ended early finished, or keep them (``reason``): a director's too, who
    comes back to the director's decisions (``back=actions``, the page they take it on)."""
    action = request.POST.get("action", "")
    organizes = access.is_organizer(request.user, tournament.pk)
    if action not in DIRECTORS_ACTIONS and not organizes:
        raise Http404
    rnd = round_of(request, tournament, number, Round.objects.select_related("tournament"))
    minutes = _int(request.POST.get("minutes"))
    try:
        if action == "start":
            clock_services.round_clock_start(round=rnd, minutes=minutes, user=request.user)
            done = _("The clock runs: %(n)s minutes.") % {"n": minutes or tournament.minutes}
        elif action == "pause":
            clock_services.round_clock_pause(round=rnd, user=request.user)
            done = _("The clock is paused.")
        elif action == "resume":
            clock_services.round_clock_resume(round=rnd, user=request.user)
            done = _("The clock runs again.")
        elif action == "extend":
            clock_services.round_clock_extend(round=rnd, minutes=minutes if minutes is not None else 0,
                                              user=request.user)
            done = _("%(n)s minutes more.") % {"n": minutes}
        elif action == "end":
            clock_services.round_clock_end(round=rnd, user=request.user)
            done = _("The round's time is up.")
        elif action == "reopen":
            kept = clock_services.round_clock_reopen(round=rnd, user=request.user,
                                                     reason=request.POST.get("reason", ""))
            done = _("The clock runs again; tables reopened: %(tables)s.") % {
                "tables": ", ".join(map(str, kept.params["tables"])) or "—"}
        elif action == "keep":
            clock_services.round_clock_keep(round=rnd, user=request.user, reason=request.POST.get("reason", ""))
            done = _("The results stand as the clock's end left them.")
        else:
            raise BadRequest(f"action: {action[:20]!r} is none of the clock's")
    except ServiceError as exc:
        messages.error(request, refusal(exc.code, params=exc.params))
    else:
        messages.success(request, done)
    if request.POST.get("back") == "actions" or not organizes:
        return redirect(reverse("ws:actions", args=[tournament.slug]) + "#clock-cuts")
    return redirect(round_url("ws:round", tournament, rnd, "#clock"))


@never_cache
@require_GET
@organizer_view
def round_clock_state(request, tournament, number):
    """The round clock as JSON for the page's script: ``{status, label, remaining}`` from the server's time."""
    clock = clock_view(round_of(request, tournament, number, Round.objects.select_related("tournament")))
    return JsonResponse({"status": clock["status"], "label": clock["label"], "remaining": clock["remaining"]})
