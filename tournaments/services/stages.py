"""Stages: add one to an event, find the running one (docs/stages.md).

Every event has stage 1, which the tournament's own format, rounds and match length describe
(``Tournament.save`` keeps it in step). An organizer adds the next stages; each addition is checked with the
whole plan by the pure ``tournaments.stages.check_stages`` against the event's active entries: a format that
does not suit the event, a pool count outside 1 to half the field, a rule that sends more entrants on than the
next stage takes, a carry-over into a knockout... are refused with their codes (400). Once a second stage
exists, the tournament's format, rounds and match length are read-only (``multi_stage``, 409, in
``tournament_update``).

Closing a stage (``stage_close``) cuts its standings with its rule and stores the qualifiers as the next
stage's entrants (``StageEntrant``); starting the next (``stage_start``, once the one before is closed) draws
its pools or its bracket from its published seed. A closed stage's results and pairings do not change
(``stage_closed``) unless it is reopened (``stage_reopen``, refused once the next stage has a result). Each of
these is written in the stage's ``log`` (who, when).
"""

from __future__ import annotations

import secrets
from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from tournaments.models import Entry, Match, Round, Stage, StageEntrant, Tournament
from tournaments.services.errors import Conflict, InvalidFields, ServiceError
from tournaments.services.knockout import tournament_locked
from tournaments.stages import (
    Row,
    Rule,
    StageError,
    StagePlan,
    bracket,
    carry_over,
    check_stages,
    cycle_tables,
    draw_pools,
    qualify,
    seeding_order,
)

#: Sent in the transaction when a stage closes or starts (``event``: ``stage.closed``, ``stage.started``); the webhooks and
#: the push channel listen (webhooks/signals.py), so that the core domain names neither.
stage_changed = Signal()

#: A stage's own settings an organizer gives (the rule into the next stage is given with the next stage).
STAGE_FIELDS = ("format", "rounds", "pools", "best_of", "match_length", "match_games", "minutes", "at_time", "seed",
                "third_place", "tiebreak_deals")
#: Those a stage 1 takes besides (its format, rounds and match length are the tournament's).
STAGE_ONE_OWN = {"pools", "seed", "third_place", "tiebreak_deals"}


def stage_running(tournament: Tournament) -> Stage:
    """The stage whose rounds are paired now; refused (``stage_not_running``, 409) when none is running. A stage 1
    still pending (a draft's: ``Stage.follow``) starts here: the event's first pairing starts it."""
    if tournament.status == Tournament.Status.DRAFT:
        Stage.objects.filter(tournament=tournament, number=1, status=Stage.Status.PENDING).update(
            status=Stage.Status.RUNNING)
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
    for name in ("rounds", "best_of", "match_games", "minutes", "tiebreak_deals"):
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


# -- closing, starting, reopening a stage ---------------------------------------------------------------------

def _stage_locked(tournament: Tournament, number: int) -> Stage:
    return Stage.objects.select_for_update().get(tournament=tournament, number=number)


def _new_seed() -> str:
    """A published seed for a stage's draws (what nothing else settles is drawn from it)."""
    return secrets.token_hex(8)


def _log(stage: Stage, action: str, user, **details) -> None:
    """The stage's audit trail: who did what, when (``Stage.log``)."""
    stage.log = [*(stage.log or []), {"action": action, "user": getattr(user, "pk", None) if getattr(
        user, "is_authenticated", False) else None, "username": getattr(user, "username", "") or "",
        "at": timezone.now().isoformat(), **details}]


def _metrics(tournament: Tournament) -> list[str]:
    from tournaments.services.standings import tournament_metrics

    return list(tournament.tiebreaks or []) if tournament.is_individual else tournament_metrics(tournament)


def _cut_rows(computed, withdrawn: set[int]) -> list[Row]:
    """The stage's rows as the qualification reads them: in a pools stage, each row's rank in its pool."""
    rows = []
    for r in computed.rows:
        e = r.player if hasattr(r, "player") else r.team
        rank = computed.pool_ranks.get(e, r.rank)
        rows.append(Row(e, rank, tuple(r.tiebreaks[m] for m in computed.metrics), computed.pools.get(e), r,
                        e in withdrawn))
    return rows


def stage_has_results(stage: Stage) -> bool:
    """Whether a stage has a result (``_results_in``): the stage before it can then no longer be reopened."""
    return _results_in(stage)


def _results_in(stage: Stage) -> bool:
    """Whether a stage has a result: a hand entered, or a match finished over the table (a bye is no result)."""
    return (Match.objects.filter(round__stage=stage, games__isnull=False).exists()
            or Match.objects.filter(round__stage=stage, status=Match.Status.FINISHED, ew__isnull=False).exists())


def stage_close(*, tournament: Tournament, number: int, user) -> Stage:
    """Close a running stage: its standings computed, the rule into the next stage applied over them, the
    qualifiers stored as the next stage's entrants (``StageEntrant``: seed, pool and rank they came from, what
    they carry), the cut's ties and the replacements of withdrawn qualifiers kept (``Stage.report``).

    Refused (409): a stage not running (``stage_status``), one without a finished round (``stage_unplayed``),
    an unfinished match (``round_unfinished``), a round not yet published (``stage_round_unpublished``). Closing a stage again after a reopening recomputes the
    qualifiers; a next stage that had started is drawn again from a new seed, its old draw kept
    (``draws_before``).
    """
    from tournaments.services.stage_standings import stage_rows
    from tournaments.services.standings import points_settings, standings_recompute_schedule

    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = _stage_locked(tournament, number)
        if stage.status != Stage.Status.RUNNING:
            raise Conflict("stage_status", None, {"stage": number, "status": stage.status})
        last = Round.objects.filter(stage=stage).order_by("-number").first()
        if last is None:
            raise Conflict("stage_unplayed", None, {"stage": number})
        unfinished = Match.objects.filter(round__stage=stage).exclude(status=Match.Status.FINISHED).count()
        if unfinished:
            raise Conflict("round_unfinished", None, {"reason": "unfinished", "round": last.number,
                                                      "count": unfinished})
        # The cut ranks the stage's rounds as everyone sees them: a round played before its publication is
        # published first (the public standings count the published rounds alone).
        hidden = Round.objects.filter(stage=stage, published_at__isnull=True).order_by("number").first()
        if hidden is not None:
            raise Conflict("stage_round_unpublished", None, {"stage": number, "round": hidden.number})
        if not stage.seed:
            stage.seed = _new_seed()
        computed = stage_rows(stage, tournament, points_settings(tournament), _metrics(tournament))
        nxt = Stage.objects.select_for_update().filter(tournament=tournament, number=number + 1).first()
        rule = rule_of(stage)
        report: dict = {"seed": stage.seed, "ties": [], "replacements": [], "qualifiers": []}
        if nxt is not None and rule is not None:
            entry_of = {e.competitor: e.entry for e in computed.field}
            withdrawn = set(Entry.objects.filter(pk__in=list(entry_of.values()), withdrawn=True).values_list(
                "team_id" if not tournament.is_individual else "player_id", flat=True))
            tables = None
            if rule.kind == "table_winners":
                rounds = set(Round.objects.filter(stage=stage).values_list("number", flat=True))
                tables = cycle_tables(computed.matches, rounds)
            numbers = {e.competitor: e.number for e in computed.field if e.number} or None
            try:
                q = qualify(rule, _cut_rows(computed, withdrawn), seed=stage.seed, metrics=computed.metrics,
                            previous={e.competitor: e.previous for e in computed.field if e.previous is not None},
                            tables=tables, numbers=numbers)
                carried = carry_over({r.entrant: r.totals for r in _cut_rows(computed, withdrawn)}, q.entrants,
                                     parts=rule.carry, next_format=nxt.format)
            except StageError as error:
                raise ServiceError(error.code, None, error.params) from error
            StageEntrant.objects.filter(stage=nxt).delete()
            StageEntrant.objects.bulk_create([
                StageEntrant(stage=nxt, entry_id=entry_of[x.entrant], seed=x.seed, how=x.how, place=x.place,
                             from_pool=x.pool, qualified_from_rank=q.ranks.get(x.entrant),
                             carried=asdict(carried[x.entrant]) if rule.carry else {})
                for x in q.qualifiers])
            report["qualifiers"] = [{"entrant": x.entrant, "seed": x.seed, "how": x.how, "place": x.place,
                                     "pool": x.pool, "table": x.table} for x in q.qualifiers]
            report["ties"] = [{"cut": t.cut, "at": t.at, "tied": list(t.tied), "qualified": list(t.qualified),
                               "by": t.by, "metric": t.metric} for t in q.ties]
            report["replacements"] = [{"withdrawn": r.withdrawn, "by": r.by} for r in q.replacements]
            if nxt.status == Stage.Status.RUNNING:  # closed again after a reopening: the next stage drawn anew
                Round.objects.filter(stage=nxt).delete()
                nxt.draws_before = [*(nxt.draws_before or []), nxt.draw]
                nxt.seed = _new_seed()
                _draw(nxt, tournament)
                _log(nxt, "redrawn", user)
                nxt.save()
        stage.report, stage.status = report, Stage.Status.CLOSED
        _log(stage, "closed", user)
        stage.save()
        if nxt is None:
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
        transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
        _announce("stage.closed", tournament, stage)
    return stage


def _announce(event: str, tournament: Tournament, stage: Stage) -> None:
    """Tell the live pages, the webhooks and the push channel (``stage.closed``, ``stage.started``), each on
    commit (the receivers defer their work to it)."""
    from tournaments.live import publish_tournament_changed

    publish_tournament_changed(tournament.pk)
    stage_changed.send(sender=Stage, event=event, tournament_id=tournament.pk, stage=stage.pk, number=stage.number)


def _clubs(tournament: Tournament, entrants: list[StageEntrant]) -> dict[int, int | None]:
    field = "entry__player__club_id" if tournament.is_individual else "entry__team__club_id"
    return dict(StageEntrant.objects.filter(pk__in=[e.pk for e in entrants]).values_list("pk", field))


def _draw(stage: Stage, tournament: Tournament) -> None:
    """Draw a stage from its published seed and its entrants' seeds: a pools stage's pools (serpentine by
    pots, clubs apart inside a pot), a knockout's bracket (pool-mates apart in round 1); saved on the rows
    and in ``Stage.draw``."""
    if not stage.seed:
        stage.seed = _new_seed()
    entrants = list(StageEntrant.objects.filter(stage=stage).select_related("entry").order_by("seed"))
    draw: dict = {"seed": stage.seed}
    try:
        if stage.format == Stage.Format.POOLS:
            clubs = _clubs(tournament, entrants)
            order = [e.pk for e in entrants]
            pools = draw_pools(order, stage.pools, clubs=clubs)
            pool_of = pools.pool_of
            for e in entrants:
                e.pool = pool_of[e.pk]
            StageEntrant.objects.bulk_update(entrants, ["pool"])
            entry_of = {e.pk: e.entry_id for e in entrants}
            draw.update(kind="pools", pools=[[entry_of[x] for x in p] for p in pools.pools],
                        moves=len(pools.moves), club_pairs=pools.club_pairs,
                        club_pairs_bound=pools.conflicts_lower_bound)
        elif stage.format == Stage.Format.KNOCKOUT:
            competitor = {e.pk: (e.entry.player_id if tournament.is_individual else e.entry.team_id)
                          for e in entrants}
            seeds = [competitor[e.pk] for e in entrants]
            b = bracket(seeds, pools={competitor[e.pk]: e.from_pool for e in entrants if e.from_pool is not None})
            draw.update(kind="bracket", size=b.size, slots=list(b.slots),
                        first_round=[[p.table, p.ns, p.ew, [list(w) for w in p.why]] for p in b.first_round],
                        moves=[{"entrant": m.entrant, "seed": m.seed, "table": m.table,
                                "standard_table": m.standard_table} for m in b.moves],
                        conflicts=[list(c) for c in b.conflicts])
    except StageError as error:
        raise ServiceError(error.code, None, error.params) from error
    stage.draw = draw


def stage_pools_first_draw(stage: Stage, tournament: Tournament, user=None) -> None:
    """A pools stage 1 draws its pools at its first pairing: the active entries seeded by their seed (a rating
    or the organizer's order), the rest by the lottery of the stage's published seed."""
    if StageEntrant.objects.filter(stage=stage).exists():
        return
    if not stage.seed:
        stage.seed = _new_seed()
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).values_list(
        "id", "seed"))
    try:
        order = seeding_order([e for e, _ in entries], seed=stage.seed,
                              rank={e: s for e, s in entries if s is not None} or None)
    except StageError as error:
        raise ServiceError(error.code, None, error.params) from error
    StageEntrant.objects.bulk_create([StageEntrant(stage=stage, entry_id=e, seed=i, how="all")
                                      for i, e in enumerate(order, start=1)])
    _draw(stage, tournament)
    _log(stage, "drawn", user)
    stage.save(update_fields=["seed", "draw", "log"])


def stage_start(*, tournament: Tournament, number: int, user) -> Stage:
    """Start a pending stage once the one before is closed: its pools or its bracket drawn from its published seed
    (a new one when none was published) and saved; status running.

    Refused (409): a stage not pending (``stage_status``), the stage before not closed (``stage_previous_open``).
    Stage 1 is pending while the tournament is a draft: starting it starts the event (its first pairing does too).
    """
    from tournaments.services.standings import standings_recompute_schedule

    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = _stage_locked(tournament, number)
        if stage.status != Stage.Status.PENDING:
            raise Conflict("stage_status", None, {"stage": number, "status": stage.status})
        previous = Stage.objects.filter(tournament=tournament, number=number - 1).first()
        if previous is not None and previous.status != Stage.Status.CLOSED:
            raise Conflict("stage_previous_open", None, {"previous": previous.number, "stage": number})
        if number > 1:  # stage 1's field is the event's entries: its pools are drawn at its first pairing
            _draw(stage, tournament)
        stage.status = Stage.Status.RUNNING
        _log(stage, "started", user)
        stage.save()
        Tournament.objects.filter(pk=tournament.pk).exclude(status=Tournament.Status.RUNNING).update(
            status=Tournament.Status.RUNNING)
        transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
        _announce("stage.started", tournament, stage)
    return stage


def stage_reopen(*, tournament: Tournament, number: int, user) -> Stage:
    """Reopen a closed stage so that a result or a pairing in it can change (a director or an organizer).

    Refused (409): a stage not closed (``stage_status``); the next stage has a result already
    (``stage_reopen_refused``). Closing it again recomputes the qualifiers (``stage_close``).
    """
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = _stage_locked(tournament, number)
        if stage.status != Stage.Status.CLOSED:
            raise Conflict("stage_status", None, {"stage": number, "status": stage.status})
        nxt = Stage.objects.filter(tournament=tournament, number=number + 1).first()
        if nxt is not None and _results_in(nxt):
            raise Conflict("stage_reopen_refused", None, {"stage": number, "next": nxt.number})
        stage.status = Stage.Status.RUNNING
        _log(stage, "reopened", user)
        stage.save(update_fields=["status", "log"])
    return stage


def stage_update(*, tournament: Tournament, number: int, user, **fields) -> Stage:
    """Change a stage before its first round: a pending stage's own settings; stage 1's ``pools``, ``seed``,
    ``third_place`` and ``tiebreak_deals`` (its format, rounds and match length are the tournament's). Refused once the stage has a round
    (``stage_status``) and, as ``stage_add``, a plan that does not fit."""
    unknown = sorted(set(fields) - set(STAGE_FIELDS))
    if unknown:
        raise ServiceError("unknown_field", unknown[0], {"field": unknown[0]})
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = _stage_locked(tournament, number)
        if stage.number == 1:
            shaping = sorted(set(fields) - STAGE_ONE_OWN)
            if shaping:
                raise Conflict("multi_stage" if Stage.objects.filter(tournament=tournament, number__gt=1).exists()
                               else "unknown_field", shaping[0], {"fields": shaping, "field": shaping[0]})
        if Round.objects.filter(stage=stage).exists() or stage.status == Stage.Status.CLOSED:
            raise Conflict("stage_status", None, {"stage": number, "status": stage.status})
        for name, value in fields.items():
            setattr(stage, name, value)
        _check_match_length(stage)
        stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
        stages = [stage if s.pk == stage.pk else s for s in stages]
        plans = [plan_of(s, rule_of(s)) for s in stages]
        try:
            check_stages(plans, entry=tournament.entry, entrants=_entrants(tournament))
        except StageError as error:
            raise ServiceError(error.code, None, error.params) from error
        _log(stage, "changed", user, fields=sorted(fields))
        stage.save()
    return stage


def stage_place_entrant(*, tournament: Tournament, number: int, entry: Entry, user, seed: int | None = None,
                        pool: int | None = None) -> StageEntrant:
    """Place an entrant by hand in a stage that has not started (an organizer's decision, audited): it joins the
    stage's field at ``seed`` (last when none is given; the seeds after it move down one) and, in a pools
    stage, in ``pool``. Refused once the stage has a round (``stage_status``), an entry of another event or
    withdrawn (``not_entered``), an entrant already in the stage (``already_entered``)."""
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = _stage_locked(tournament, number)
        if stage.status == Stage.Status.CLOSED or Round.objects.filter(stage=stage).exists():
            raise Conflict("stage_status", None, {"stage": number, "status": stage.status})
        if entry.tournament_id != tournament.pk or entry.withdrawn:
            raise ServiceError("not_entered", "entry")
        if StageEntrant.objects.filter(stage=stage, entry=entry).exists():
            raise Conflict("already_entered", "entry", {"team": str(entry.team or entry.player)})
        count = StageEntrant.objects.filter(stage=stage).count()
        seed = count + 1 if seed is None else max(1, min(seed, count + 1))
        later = list(StageEntrant.objects.filter(stage=stage, seed__gte=seed).order_by("-seed"))
        for e in later:
            e.seed += 1
        StageEntrant.objects.bulk_update(later, ["seed"])
        placed = StageEntrant.objects.create(stage=stage, entry=entry, seed=seed, pool=pool, how="hand",
                                             placed_by_hand=True,
                                             placed_by=user if getattr(user, "is_authenticated", False) else None)
        _log(stage, "placed", user, entry=entry.pk, seed=seed, pool=pool)
        stage.save(update_fields=["log"])
    return placed


def stage_entries(stage: Stage, tournament: Tournament, *, active_only: bool) -> list[Entry]:
    """The entries a stage pairs, best seed first: stage 1's are the event's entries (by their seed); a later
    stage's are its entrants, by their seed in it (withdrawn ones left out when ``active_only``)."""
    if stage.number == 1:
        qs = Entry.objects.filter(tournament=tournament).select_related("team")
        if active_only:
            qs = qs.filter(withdrawn=False)
        return sorted(qs, key=lambda e: (e.seed is None, e.seed or 0, e.id))
    rows = StageEntrant.objects.filter(stage=stage).select_related("entry__team").order_by("seed")
    return [r.entry for r in rows if not (active_only and r.entry.withdrawn)]


def stage_pools(stage: Stage) -> dict[int, int]:
    """Each entry's pool in a pools stage (entry id -> pool)."""
    return dict(StageEntrant.objects.filter(stage=stage, pool__isnull=False).values_list("entry_id", "pool"))


def stage_open(rnd: Round) -> None:
    """Refuse (``stage_closed``, 409) a change in a round of a closed stage: a hand, a correction, a pairing."""
    status, number = Stage.objects.filter(pk=rnd.stage_id).values_list("status", "number").first() or (None, None)
    if status == Stage.Status.CLOSED:
        raise Conflict("stage_closed", None, {"stage": number})
