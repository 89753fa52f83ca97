"""The organizer's stages of one event (docs/stages.md): the plan built from a template or a stage at a time.

Templates: "pools, then a knockout" for teams (the Roeselare duo championship: 15 pools of 4, the pool winners
and the best runner-up to a knockout of 16), "qualification, semi-final, final" for individuals (the Belgian
championship: the best N to a semi-final, its table winners to the final). Each stage is added through
``stage_add``, which checks the whole plan; a refusal is shown in the refusal codes' words
(``tournaments.refusals``) and nothing of the template is kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Entry, Stage
from tournaments.pairing.knockout import rounds_needed
from tournaments.services.errors import ServiceError
from tournaments.services.stages import stage_add

from .. import pages_stages
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


def _page(request, tournament, *, error: str | None = None, form: str = "", values=None, status: int = 200):
    stages = pages_stages.stages_of(tournament)
    individual = tournament.is_individual
    formats = INDIVIDUAL_FORMATS if individual else TEAM_FORMATS
    return render(request, "web/workspace/organize/stages.html", {
        "tournament": tournament, "tab": "stages", "stages": stages, "active": _active(tournament),
        "formats": [(f, pages_stages.format_name(f)) for f in formats],
        "rules": [(r, pages_stages.RULE_NAMES[r]) for r in RULES], "individual": individual,
        "can_template": len(stages) == 1, "error": error, "error_form": form, "values": values or {},
    }, status=status)


@require_GET
@organizer_view
def stages(request, tournament):
    """The event's stages with their rules, the templates and the form for one more stage."""
    return _page(request, tournament)


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
                pools = Stage.objects.get(tournament=tournament, number=1).pools
                field = per_pool * pools + best_next
                best_of = _int(data.get("best_of"), 0) or None
                stage_add(tournament=tournament, user=request.user, format="knockout",
                          rounds=rounds_needed(field) or 1, best_of=best_of,
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
    rule = {"kind": data.get("rule", ""), "count": _int(data.get("count")), "per_pool": _int(data.get("per_pool")),
            "best_next": _int(data.get("best_next")), "carry": data.getlist("carry")}
    try:
        stage = stage_add(tournament=tournament, user=request.user, previous_qualification=rule, **fields)
    except ServiceError as exc:
        return _page(request, tournament, error=refusal(exc.code, params=exc.params), form="new", values=data,
                     status=400)
    messages.success(request, _("Stage %(n)s added.") % {"n": stage.number})
    return redirect("ws:stages", tournament.slug)
