"""Stages: add one to an event, find the running one (docs/stages.md).

Every event has stage 1, which the tournament's own format, rounds and match length describe
(``Tournament.save`` keeps it in step). An organizer adds the next stages; each addition is checked with the
whole plan by the pure ``tournaments.stages.check_stages`` against the event's active entries: a format that
does not suit the event, a pool count outside 1 to half the field, a rule that sends more entrants on than the
next stage takes, a carry-over into a knockout... are refused with their codes (400). Once a second stage
exists, the tournament's format, rounds and match length are read-only (``multi_stage``, 409, in
``tournament_update``). Closing and starting a stage, and the pools' rounds, are not built yet.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.models import Entry, Stage, Tournament
from tournaments.services.errors import Conflict, InvalidFields, ServiceError
from tournaments.services.knockout import tournament_locked
from tournaments.stages import Rule, StageError, StagePlan, check_stages

#: A stage's own settings an organizer gives (the rule into the next stage is given with the next stage).
STAGE_FIELDS = ("format", "rounds", "pools", "best_of", "match_length", "match_games", "minutes", "at_time", "seed")


def stage_running(tournament: Tournament) -> Stage:
    """The stage whose rounds are paired now; refused (``stage_not_running``, 409) when none is running."""
    stage = Stage.objects.filter(tournament=tournament, status=Stage.Status.RUNNING).order_by("number").first()
    if stage is None:
        raise Conflict("stage_not_running")
    return stage


def rule_of(stage: Stage) -> Rule | None:
    """The stage's qualification rule as the pure logic takes it (None on the last stage)."""
    if not stage.rule:
        return None
    return Rule(stage.rule, count=stage.rule_count, per_pool=stage.rule_per_pool, best_next=stage.rule_best_next,
                carry=tuple(stage.rule_carry or ()))


def plan_of(stage: Stage, rule: Rule | None) -> StagePlan:
    """The stage as ``check_stages`` plans it (a knockout's rounds are fixed when the stage says so)."""
    return StagePlan(stage.format, rounds=stage.rounds if stage.format == Stage.Format.KNOCKOUT else None,
                     pools=stage.pools, rule=rule)


def _entrants(tournament: Tournament) -> int:
    """The field the plan is checked against: the event's active entries (reserves are not in the field)."""
    return Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).count()


def _check_match_length(stage: Stage) -> None:
    """A match length of a number of games needs that number, a timed one its minutes (as for the tournament)."""
    errors = []
    if stage.match_length == Tournament.MatchLength.GAMES and not stage.match_games:
        errors.append(("match_length_incomplete", "match_games", {"field": "match_games"}))
    if stage.match_length == Tournament.MatchLength.TIMED and not stage.minutes:
        errors.append(("match_length_incomplete", "minutes", {"field": "minutes"}))
    for name in ("rounds", "best_of", "match_games", "minutes"):
        try:
            stage._meta.get_field(name).clean(getattr(stage, name), stage)
        except ValidationError as exc:
            errors.extend((e.code, name, e.params or {}) for e in exc.error_list)
    if errors:
        raise InvalidFields(errors)


def stage_add(*, tournament: Tournament, user, previous_qualification: dict | None = None, **fields) -> Stage:
    """Add the next stage (pending) after the last; ``previous_qualification`` is the rule that leads into it
    (``kind``: top, pools, table_winners, all; ``count``, ``per_pool``, ``best_next``, ``carry``), stored on
    the previous stage and required unless that stage has one already.

    The whole plan is checked against the active entries (``check_stages``): refused with the pure logic's
    codes (``format_for_entry``, ``pool_count``, ``stage_capacity``, ``qualification_invalid``,
    ``carry_over_invalid``), and ``match_length_incomplete`` for the stage's own match length.
    """
    unknown = sorted(set(fields) - set(STAGE_FIELDS))
    if unknown:
        raise ServiceError("unknown_field", unknown[0], {"field": unknown[0]})
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
        last = stages[-1]
        stage = Stage(tournament=tournament, number=last.number + 1, status=Stage.Status.PENDING, **fields)
        _check_match_length(stage)
        rule = rule_of(last)
        if previous_qualification is not None:
            rule = Rule(previous_qualification.get("kind", ""), count=previous_qualification.get("count", 0),
                        per_pool=previous_qualification.get("per_pool", 0),
                        best_next=previous_qualification.get("best_next", 0),
                        carry=tuple(previous_qualification.get("carry", ())))
        plans = [plan_of(s, rule_of(s)) for s in stages[:-1]] + [plan_of(last, rule), plan_of(stage, None)]
        try:
            check_stages(plans, entry=tournament.entry, entrants=_entrants(tournament))
        except StageError as error:
            raise ServiceError(error.code, None, error.params) from error
        last.rule, last.rule_count, last.rule_per_pool = rule.kind, rule.count, rule.per_pool
        last.rule_best_next, last.rule_carry = rule.best_next, list(rule.carry)
        last.save(update_fields=["rule", "rule_count", "rule_per_pool", "rule_best_next", "rule_carry"])
        stage.save()
    return stage
