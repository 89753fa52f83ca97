"""The organizer's stages of one event (docs/stages.md): the plan built from a template or a stage at a time.

Templates: "pools, then a knockout" for teams (the Roeselare duo championship: 15 pools of 4, the pool winners
and the best runner-up to a knockout of 16), "qualification, semi-final, final" for individuals (the Belgian
championship: the best N to a semi-final, its table winners to the final). Each stage is added through
``stage_add``, which checks the whole plan; a refusal is shown in the refusal codes' words
(``tournaments.refusals``) and nothing of the template is kept.

A running stage's qualifiers are shown before it closes: ``stage_close`` itself runs in a transaction that is
rolled back (nothing is stored, nothing announced), so the list is exactly what closing would store. Then
closing, starting the next stage, reopening, editing a pending stage and placing an entrant by hand go
through the services of ``tournaments.services.stages`` (audited in the stage's log).
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.db.models import Count
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Entry, Match, Stage, StageEntrant
from tournaments.pairing.knockout import rounds_needed
from tournaments.services.errors import ServiceError
from tournaments.services.stages import (
    stage_add,
    stage_close,
    stage_has_results,
    stage_place_entrant,
    stage_reopen,
    stage_start,
    stage_update,
)
from tournaments.services.tournaments import tournament_update

from .. import pages_stages
from ..stage_lines import pool_rounds
from .organize_common import organizer_view, refusal

#: The formats an organizer may give a stage after the first, by kind of event.
TEAM_FORMATS = ("knockout", "round_robin", "swiss", "pools")
INDIVIDUAL_FORMATS = ("tables", "swiss")
RULES = ("top", "pools", "table_winners", "all")


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _active(tournament) -> int:
    return Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).count()


def rounds_shown(stage, tournament) -> int:
    """The rounds a stage plays as its card says them: a pools stage's round robin in its largest pool once its
    field is known (stage 1's entries, a later stage's entrants), else the stage's ``rounds``."""
    if stage.format != "pools" or not stage.pools:
        return stage.rounds
    field = _active(tournament) if stage.number == 1 else StageEntrant.objects.filter(stage=stage).count()
    return pool_rounds(field, stage.pools, double=tournament.double_round_robin) or stage.rounds


def _knockout_fields(data) -> dict:
    """A knockout's match for third place (a checkbox) and its tie-break deals (empty: a director decides)."""
    return {"third_place": bool(data.get("third_place")), "tiebreak_deals": _int(data.get("tiebreak_deals")) or None}


class _Preview(Exception):
    """Raised inside the preview's transaction to roll it back, carrying what closing stored."""

    def __init__(self, rows):
        super().__init__()
        self.rows = rows


def qualifiers_preview(tournament, number: int, user) -> list[dict]:
    """The qualifiers closing stage ``number`` would store (seed, how, place, pool), by running ``stage_close`` in a
    transaction rolled back; a refusal (``ServiceError``) is raised as closing would raise it."""
    try:
        with transaction.atomic():
            stage_close(tournament=tournament, number=number, user=user)
            rows = list(StageEntrant.objects.filter(stage__tournament=tournament, stage__number=number + 1)
                        .select_related("entry__team", "entry__player").order_by("seed"))
            raise _Preview(rows)
    except _Preview as preview:
        return [{"seed": e.seed, "how": e.how, "place": e.place, "pool": e.from_pool,
                 "how_words": pages_stages.how_words(e, number),
                 "name": (e.entry.team or e.entry.player).name, "hand": e.placed_by_hand} for e in preview.rows]


def _page(request, tournament, *, error: str | None = None, form: str = "", values=None, status: int = 200,
          preview: int | None = None):
    stages = pages_stages.stages_of(tournament)
    # The last stage played out, not closed yet: its badge and the header say "All played", as the public pages do.
    awaiting = pages_stages.awaiting_close(tournament, stages)
    pages_stages.mark_awaiting(stages, awaiting)
    qualifiers = None
    if preview is not None and error is None:
        try:
            qualifiers = qualifiers_preview(tournament, preview, request.user)
        except ServiceError as exc:
            error, form = refusal(exc.code, params=exc.params), f"close-{preview}"
    placed, numbers = {}, {s["stage"].pk: s["number"] for s in stages}
    for e in (StageEntrant.objects.filter(stage__tournament=tournament, stage__number__gt=1)
              .select_related("entry__team", "entry__player").order_by("stage__number", "seed")):
        placed.setdefault(e.stage_id, []).append({"seed": e.seed, "name": (e.entry.team or e.entry.player).name,
                                                  "hand": e.placed_by_hand, "pool": e.pool,
                                                  "how": pages_stages.how_words(e, numbers[e.stage_id] - 1)})
    unfinished = dict(Match.objects.filter(round__stage__tournament=tournament).exclude(
        status=Match.Status.FINISHED).order_by().values_list("round__stage").annotate(n=Count("id")))
    for s in stages:
        s["entrants"] = placed.get(s["stage"].pk, [])
        s["unfinished"] = unfinished.get(s["stage"].pk, 0)
        s["rounds"] = rounds_shown(s["stage"], tournament)
        s["next"] = next((x for x in stages if x["number"] == s["number"] + 1), None)
        # Reopening is refused once the next stage has a result (stage_reopen_refused): not offered then.
        s["reopenable"] = s["stage"].status == "closed" and (s["next"] is None
                                                            or not stage_has_results(s["next"]["stage"]))
        s["startable"] = s["number"] == 1 or any(x["number"] == s["number"] - 1 and x["stage"].status == "closed"
                                                 for x in stages)
    entries = [(e.pk, (e.team or e.player).name) for e in Entry.objects.filter(tournament=tournament, withdrawn=False)
               .select_related("team", "player").order_by("team__name", "player__name")]
    individual = tournament.is_individual
    formats = INDIVIDUAL_FORMATS if individual else TEAM_FORMATS
    return render(request, "web/workspace/organize/stages.html", {
        "tournament": tournament, "tab": "stages", "stages": stages, "active": _active(tournament),
        "awaiting": awaiting,
        "formats": [(f, pages_stages.format_name(f)) for f in formats],
        "rules": [(r, pages_stages.RULE_NAMES[r]) for r in RULES], "individual": individual,
        "can_template": len(stages) == 1, "error": error, "error_form": form, "values": values or {},
        "preview": preview, "qualifiers": qualifiers, "entries": entries,
    }, status=status)


@require_GET
@organizer_view
def stages(request, tournament):
    """The event's stages with their rules, the templates and the form for one more stage; ``?qualifiers=n``: the
    qualifiers closing stage n would store."""
    preview = _int(request.GET.get("qualifiers")) or None
    return _page(request, tournament, preview=preview)


@require_POST
@organizer_view
def stage_template(request, tournament):
    """Build the stages after stage 1 from a template, all of them or none (the plan is checked at each)."""
    data = request.POST
    try:
        with transaction.atomic():
            if tournament.is_individual:
                to_semi = _int(data.get("to_semi"))
                semi_rounds = _int(data.get("semi_rounds"), 3)
                final_rounds = _int(data.get("final_rounds"), 3)
                stage_add(tournament=tournament, user=request.user, format="tables", rounds=semi_rounds,
                          previous_qualification={"kind": "top", "count": to_semi})
                stage_add(tournament=tournament, user=request.user, format="tables", rounds=final_rounds,
                          previous_qualification={"kind": "table_winners"})
            else:
                per_pool = _int(data.get("per_pool"), 1)
                best_next = _int(data.get("best_next"))
                pools = _int(data.get("pools"))
                # A round robin in each pool: the largest pool's rounds (its size - 1, its size when odd).
                rounds = pool_rounds(_active(tournament), pools, double=tournament.double_round_robin)
                shape = {"format": "pools"} if tournament.format != "pools" else {}
                if rounds and rounds != tournament.rounds:
                    shape["rounds"] = rounds
                if shape:
                    tournament_update(tournament=tournament, user=request.user, **shape)
                stage_update(tournament=tournament, number=1, user=request.user, pools=pools)
                field = per_pool * pools + best_next
                best_of = _int(data.get("best_of"), 0) or None
                stage_add(tournament=tournament, user=request.user, format="knockout",
                          rounds=rounds_needed(field) or 1, best_of=best_of, **_knockout_fields(data),
                          previous_qualification={"kind": "pools", "per_pool": per_pool, "best_next": best_next})
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), form="template",
                     values=data, status=400)
    messages.success(request, _("The stages are planned: check them below."))
    return redirect("ws:stages", tournament.slug)


@require_POST
@organizer_view
def stage_new(request, tournament):
    """Add one stage after the last, with the rule that leads into it."""
    data = request.POST
    fields = {"format": data.get("format", ""), "rounds": _int(data.get("rounds"), 1)}
    if data.get("pools"):
        fields["pools"] = _int(data.get("pools"))
    if data.get("best_of"):
        fields["best_of"] = _int(data.get("best_of"))
    if fields["format"] == "knockout":
        fields.update(_knockout_fields(data))
    rule = {"kind": data.get("rule", ""), "count": _int(data.get("count")), "per_pool": _int(data.get("per_pool")),
            "best_next": _int(data.get("best_next")), "carry": data.getlist("carry")}
    try:
        stage = stage_add(tournament=tournament, user=request.user, previous_qualification=rule, **fields)
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), form="new", values=data,
                     status=400)
    messages.success(request, _("Stage %(n)s added.") % {"n": stage.number})
    return redirect("ws:stages", tournament.slug)


def _stage_action(request, tournament, number: int, action, done: str):
    try:
        action()
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), form=f"stage-{number}",
                     status=400 if exc.status == 400 else 409)
    messages.success(request, done)
    return redirect("ws:stages", tournament.slug)


@require_POST
@organizer_view
def stage_close_view(request, tournament, number):
    """Close a running stage: its qualifiers stored for the next one (seen first on the stages page); the last
    stage's closing finishes the event."""
    last = not Stage.objects.filter(tournament=tournament, number=number + 1).exists()
    done = _("Stage %(n)s is closed: the event is finished.") if last else _("Stage %(n)s is closed.")
    return _stage_action(request, tournament, number,
                         lambda: stage_close(tournament=tournament, number=number, user=request.user),
                         done % {"n": number})


@require_POST
@organizer_view
def stage_start_view(request, tournament, number):
    """Start a pending stage (its pools or bracket drawn); its first round is paired from the dashboard."""
    return _stage_action(request, tournament, number,
                         lambda: stage_start(tournament=tournament, number=number, user=request.user),
                         _("Stage %(n)s has started: pair its first round from the dashboard.") % {"n": number})


@require_POST
@organizer_view
def stage_reopen_view(request, tournament, number):
    return _stage_action(request, tournament, number,
                         lambda: stage_reopen(tournament=tournament, number=number, user=request.user),
                         _("Stage %(n)s is open again: close it to recompute its qualifiers.") % {"n": number})


@require_POST
@organizer_view
def stage_edit_view(request, tournament, number):
    """Change a stage before its first round (a pending stage's rounds, pools, match length; stage 1's pools)."""
    data = request.POST
    fields = {}
    for name in ("rounds", "pools", "best_of"):
        if data.get(name, "") != "":
            fields[name] = _int(data.get(name))
    if number == 1:
        fields = {k: v for k, v in fields.items() if k == "pools"}
    if data.get("knockout"):
        fields.update(_knockout_fields(data))
    return _stage_action(request, tournament, number,
                         lambda: stage_update(tournament=tournament, number=number, user=request.user, **fields),
                         _("Stage %(n)s changed.") % {"n": number})


@require_POST
@organizer_view
def stage_place_view(request, tournament, number):
    """Place an entrant by hand in a stage that has not started (audited)."""
    data = request.POST
    entry = Entry.objects.filter(tournament=tournament, pk=_int(data.get("entry"))).select_related(
        "team", "player").first()
    if entry is None:
        return _page(request, tournament, error=refusal("not_entered"), form=f"stage-{number}", status=400)
    seed = _int(data.get("seed")) or None
    pool = _int(data.get("pool")) or None
    return _stage_action(request, tournament, number,
                         lambda: stage_place_entrant(tournament=tournament, number=number, entry=entry,
                                                     user=request.user, seed=seed, pool=pool),
                         _("%(name)s placed in stage %(n)s.") % {"name": (entry.team or entry.player).name,
                                                                 "n": number})
