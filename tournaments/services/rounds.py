"""Rounds: pair the next round (Swiss, round robin, knockout), entries coming and going, manual changes.

Pairing locks the tournament row (``select_for_update``) for its whole transaction: two pair
requests for the same tournament run one after the other, and the second finds the round the
first created (``number`` makes the request idempotent). Withdrawals and late entries take the
same lock, so they never race a pairing. The pairing itself is pure Python
(``tournaments.pairing``); this module only loads rows and saves what comes back.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.db import transaction
from django.db.models import Q

from tournaments.live import publish_tournament_changed
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Match,
    Round,
    RoundSlot,
    Stage,
    TaskRecord,
    Team,
    Tournament,
)
from tournaments.pairing import knockout, round_robin
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.types import Pairing, TeamState, reasons_kept
from tournaments.ranking import compute_standings
from tournaments import queue, versions
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.games import match_result_apply
from tournaments.selectors import confirmation
from tournaments.services.knockout import knockout_advance_locked, knockout_tables, tournament_locked
from tournaments.services.results import match_result_changed
from tournaments.services.stages import (
    stage_entries,
    stage_open,
    stage_pools,
    stage_pools_first_draw,
    stage_running,
)
from tournaments.services.standings import (
    load_results,
    points_settings,
    standings_recompute_schedule,
    tournament_metrics,
)
from tournaments.services.table_codes import new_table_codes


class PairingImpossible(ServiceError):
    """Some teams cannot be paired without a rematch (or a forbidden pair, or a second bye)."""

    def __init__(self, teams: list[int], names: list[str]):
        super().__init__("pairing_impossible", "teams", {"teams": list(names)})
        self.teams = teams


def _entries(tournament: Tournament, stage: Stage, *, active_only: bool) -> list[Entry]:
    """The running stage's entries, best seed first (stage 1: the event's; after: the stage's entrants)."""
    return stage_entries(stage, tournament, active_only=active_only)


def round_pair(*, tournament: Tournament, force: bool = False, user=None, number: int | None = None,
               progress: Callable[[dict], None] | None = None) -> Round:
    """Pair the running stage's next round (or return its round ``number`` if it exists already); refuses while
    the last is unfinished, and (``stage_not_running``) when no stage runs. Round numbers count per stage."""
    report = progress or (lambda info: None)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        stage = stage_running(tournament)
        last = Round.objects.filter(stage=stage).order_by("-number").first()
        next_number = last.number + 1 if last else 1
        if number is not None:
            existing = Round.objects.filter(stage=stage, number=number).first()
            if existing is not None:
                return existing
            if number != next_number:
                raise Conflict("round_number", "number", {"next": next_number, "asked": number})
        if not force:
            _refuse_unfinished(last, tournament)
        report({"stage": "loading", "round": next_number})
        if tournament.is_individual:
            from tournaments.services.draws import round_draw_locked

            rnd = round_draw_locked(tournament, next_number, user=user, report=report, stage=stage)
        elif stage.format == Tournament.Format.KNOCKOUT:
            rnd = _knockout_round(tournament, stage, last, next_number)
        else:
            if stage.format == Tournament.Format.SWISS:
                pairings = _swiss(tournament, stage, next_number, report)
            elif stage.format == Stage.Format.POOLS:
                if stage.number == 1 and last is None:
                    stage_pools_first_draw(stage, tournament, user)
                pairings = _pools(tournament, stage, next_number)
            else:
                pairings = _round_robin(tournament, stage, next_number)
            report({"stage": "saving", "round": next_number, "matches": len(pairings)})
            rnd = _save_round(tournament, stage, next_number, pairings)
        if Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.DRAFT).update(
                status=Tournament.Status.RUNNING):
            versions.tournament_changed(tournament.pk)  # its status: a round not yet published moves no other stamp
        # A new round's byes (and absences) count in the standings at once (its publication, when it waits for one).
        transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
        publish_tournament_changed(tournament.pk)
    return rnd


def _save_round(tournament: Tournament, stage, number: int, pairings: list[Pairing]) -> Round:
    """Create the stage's round, its matches and their round slots in bulk (byes are finished at once)."""
    rnd = Round.objects.create(tournament=tournament, stage=stage, number=number)
    matches = [Match(round=rnd, table=p.table, ns_id=p.ns, ew_id=p.ew, why=reasons_kept(p.why), table_code=code)
               for p, code in zip(pairings, new_table_codes(len(pairings)))]
    for match in matches:
        match_result_apply(match, [])  # a bye is finished at once
    matches = Match.objects.bulk_create(matches, batch_size=1000)
    RoundSlot.objects.bulk_create(
        [RoundSlot(round=rnd, match=m, side="ns", team_id=m.ns_id) for m in matches]
        + [RoundSlot(round=rnd, match=m, side="ew", team_id=m.ew_id) for m in matches if m.ew_id],
        batch_size=2000,
    )
    return rnd


def _swiss(tournament: Tournament, stage: Stage, number: int, report) -> list[Pairing]:
    active = _entries(tournament, stage, active_only=True)
    if len(active) < 2:
        raise ServiceError("too_few_teams")
    if number > stage.rounds:
        raise ServiceError("tournament_over", None, {"reason": "rounds", "rounds": stage.rounds})
    states = swiss_states(tournament, stage, active)
    forbidden = ForbiddenPair.objects.filter(tournament=tournament).values_list("team_a_id", "team_b_id")
    result = pair_swiss(states, forbidden=list(forbidden), separate_clubs=number <= tournament.separate_clubs_rounds,
                        progress=report)
    if result.unpaired:
        names = dict(Team.objects.filter(pk__in=result.unpaired).values_list("id", "name"))
        raise PairingImpossible(result.unpaired, [names[t] for t in result.unpaired])
    return result.pairings


def swiss_states(tournament: Tournament, stage: Stage, active: list[Entry] | None = None) -> list[TeamState]:
    """The Swiss draw's inputs for the stage's next round: each active team's score and position, ranked now from
    the results (the saved standings may be a moment behind), its bye, and the teams it has met.

    A forfeit (the director's desk: a side absent, the match not played) is no meeting: FIDE's Swiss rules (C.04)
    do not count a pairing lost by an absence as played, so the two teams may be paired again; and, as C.04.1 says
    of a player who scored a forfeit win, the winner of a forfeit (points without playing) gets no pairing bye
    after it (docs/api.md, "The director's decisions")."""
    active = _entries(tournament, stage, active_only=True) if active is None else active
    if stage.number == 1:
        teams, results, _ = load_results(tournament)
        rows = compute_standings(teams, results, metrics=tournament_metrics(tournament),
                                 settings=points_settings(tournament))
    else:  # a later stage: its own standings (what its entrants carry over included)
        from tournaments.services.stage_standings import stage_rows

        rows = stage_rows(stage, tournament, points_settings(tournament), tournament_metrics(tournament)).rows
    position = {r.team: r.position for r in rows}
    score = {r.team: r.match_points for r in rows}
    opponents: dict[int, set[int]] = {e.team_id: set() for e in active}
    byes: set[int] = set()
    for ns, ew, status, forfeit in Match.objects.filter(round__stage=stage).values_list(
            "ns_id", "ew_id", "status", "forfeit"):
        if ew is None:
            byes.add(ns)
        elif forfeit and status == Match.Status.FINISHED:  # not played: no meeting; its winner had a "bye"
            if forfeit in ("ns", "ew"):
                byes.add(ew if forfeit == "ns" else ns)
        else:
            opponents.setdefault(ns, set()).add(ew)
            opponents.setdefault(ew, set()).add(ns)
    return [TeamState(e.team_id, score.get(e.team_id, 0), position.get(e.team_id, 1 << 30), e.team.club_id,
                      e.team_id in byes, frozenset(opponents[e.team_id])) for e in active]



def _round_robin(tournament: Tournament, stage: Stage, number: int, entries: list[Entry] | None = None,
                 first_table: int = 1) -> list[Pairing]:
    entries = _entries(tournament, stage, active_only=False) if entries is None else entries
    total = round_robin.rounds_needed(len(entries), double=tournament.double_round_robin)
    if number > total:
        raise ServiceError("tournament_over", None, {"reason": "round_robin", "rounds": total})
    withdrawn = {e.team_id for e in entries if e.withdrawn}
    out: list[Pairing] = []
    for p in round_robin.round_robin_pairings([e.team_id for e in entries], number,
                                              double=tournament.double_round_robin):
        sides = [t for t in (p.ns, p.ew) if t is not None and t not in withdrawn]
        if not sides:
            continue
        if len(sides) == 1 and p.ew is not None:
            out.append(Pairing(0, sides[0], None, (("bye_opponent_withdrawn", {}),)))
        else:
            out.append(Pairing(0, p.ns, p.ew, p.why))
    return [Pairing(i, p.ns, p.ew, p.why) for i, p in enumerate(out, start=first_table)]


def _pools(tournament: Tournament, stage: Stage, number: int) -> list[Pairing]:
    """A pools stage's round: a round robin inside each pool (its round ``number``), the tables numbered across
    the pools (pool 1's first). The stage is over when every pool has played its round robin."""
    entries = _entries(tournament, stage, active_only=False)
    pool_of = stage_pools(stage)
    pools: dict[int, list[Entry]] = {}
    for e in entries:
        pools.setdefault(pool_of.get(e.pk, 0), []).append(e)
    total = max((round_robin.rounds_needed(len(m), double=tournament.double_round_robin) for m in pools.values()),
                default=0)
    if number > total:
        raise ServiceError("tournament_over", None, {"reason": "round_robin", "rounds": total})
    out: list[Pairing] = []
    for pool in sorted(pools):
        members = pools[pool]
        if number > round_robin.rounds_needed(len(members), double=tournament.double_round_robin):
            continue
        out += _round_robin(tournament, stage, number, members, first_table=len(out) + 1)
    return out


def _knockout_round(tournament: Tournament, stage, last: Round | None, number: int) -> Round:
    """Round 1 from the seeds; later rounds are filled in as matches finish (and here, if any is missing)."""
    if last is None:
        drawn = (stage.draw or {}).get("first_round")
        if drawn:  # the bracket drawn when the stage started (pool-mates apart)
            withdrawn = set(Entry.objects.filter(tournament=tournament, withdrawn=True).values_list("team_id",
                                                                                                    flat=True))
            pairings = []
            for table, ns, ew, why in drawn:
                if ew is not None and ew in withdrawn:
                    ns, ew, why = ns, None, [["bye_opponent_withdrawn", {}]]
                elif ns in withdrawn and ew is not None:
                    ns, ew, why = ew, None, [["bye_opponent_withdrawn", {}]]
                pairings.append(Pairing(table, ns, ew, tuple((code, params) for code, params in why)))
            rnd = _save_round(tournament, stage, 1, pairings)
            for bye in rnd.matches.filter(ew=None):
                knockout_advance_locked(tournament, bye)
            return rnd
        active = _entries(tournament, stage, active_only=True)
        if len(active) < 2:
            raise ServiceError("too_few_teams", None, {"reason": "knockout"})
        rnd = _save_round(tournament, stage, 1, knockout.first_round([e.team_id for e in active]))
        for bye in rnd.matches.filter(ew=None):  # byes are decided already: their winners advance now
            knockout_advance_locked(tournament, bye)
        return rnd
    if knockout_tables(tournament, last.number, stage_id=stage.pk) <= 1:
        raise ServiceError("tournament_over", None, {"reason": "final"})
    for match in last.matches.filter(status=Match.Status.FINISHED):
        knockout_advance_locked(tournament, match)
    rnd = Round.objects.filter(stage=stage, number=number).first()
    if rnd is None:
        raise Conflict("round_unfinished", None, {"reason": "knockout", "round": number})
    return rnd


def round_pair_request(*, tournament: Tournament, force: bool = False, user=None,
                       refuse_at_once: bool = True) -> TaskRecord:
    """Record a request to pair the next round and queue ``round_pair_task`` on commit; the API answers 202.

    Refuses now (``Conflict``) a request while another pairing of the tournament is under way
    (``pairing_in_progress``) and what the worker would refuse anyway (``round_unfinished``; and, a 400
    ``ServiceError``, ``too_few_teams``: fewer than two active teams for a first or a Swiss round). These
    checks take no lock, so two requests can still pass them at once: the worker stays the authority
    (one round, both tasks succeed). ``refuse_at_once=False`` records the request unchecked, which is
    how tests reproduce that race and the worker's own refusals.
    """
    with transaction.atomic():
        if refuse_at_once:
            _round_pair_refusals(tournament, force=force)
        running = Stage.objects.filter(tournament=tournament, status=Stage.Status.RUNNING).order_by("number").first()
        last = Round.objects.filter(stage=running).order_by("-number").values_list(
            "number", flat=True).first() if running else None
        number = (last or 0) + 1
        record = TaskRecord.objects.create(
            id=uuid.uuid4(), kind=TaskRecord.Kind.ROUND_PAIR, tournament=tournament,
            params={"number": number, "force": force},
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        transaction.on_commit(lambda: queue.task_queue(
            queue.ROUND_PAIR, (tournament.pk,), {"number": number, "force": force}, task_id=str(record.id)))
    return record


def _round_pair_refusals(tournament: Tournament, *, force: bool) -> None:
    """Refuse a pair request while a pairing is under way, or while the last round is unfinished (unless forced)."""
    from tournaments.services.sweep import task_records_expire

    task_records_expire(tournament=tournament)  # a pairing lost with its worker is over once its lease has passed
    if TaskRecord.objects.filter(tournament=tournament, kind=TaskRecord.Kind.ROUND_PAIR,
                                 status__in=[TaskRecord.Status.PENDING, TaskRecord.Status.RUNNING]).exists():
        raise Conflict("pairing_in_progress")
    last = Round.objects.filter(tournament=tournament, stage__status=Stage.Status.RUNNING).order_by(
        "-stage__number", "-number").first()
    if tournament.is_individual:
        players = Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).count()
        if players < 4:
            raise ServiceError("too_few_players", None, {"players": players, "needed": 4})
    elif (last is None or tournament.format == Tournament.Format.SWISS) and Entry.objects.filter(
            tournament=tournament, withdrawn=False).count() < 2:
        # What the worker refuses anyway (a first round, or a Swiss round, needs two active teams): said at once.
        raise ServiceError("too_few_teams")
    if not force:
        _refuse_unfinished(last, tournament)


def _refuse_unfinished(last: Round | None, tournament: Tournament) -> None:
    """Refuse (``Conflict``) to pair after a round that still has unfinished matches, or, when the tournament waits
    for its results' confirmation, results entered or disputed (``results_unconfirmed``)."""
    if last is None:
        return
    unfinished = last.matches.exclude(status=Match.Status.FINISHED).count()
    if unfinished:
        raise Conflict("round_unfinished", None, {"reason": "unfinished", "round": last.number, "count": unfinished})
    if confirmation.waits(tournament):
        count = last.matches.filter(result_status__in=confirmation.WAITING).count()
        if count:
            raise Conflict("results_unconfirmed", None, {"round": last.number, "count": count})


def entry_add_late(*, tournament: Tournament, team: Team, seed: int | None = None, user=None) -> Entry:
    """Enter a team, also after the first round of a Swiss (it starts on 0 points); closed for the other formats.

    Refuses (``Conflict``) a finished tournament, a team already entered, a team that has withdrawn and a
    team its club has retired.
    """
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.is_individual:
            raise ServiceError("entry_kind", "team", {"reason": "individual"})
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict("tournament_finished")
        if team.retired:
            raise Conflict("team_retired", "team", {"team": team.name})
        if Entry.objects.filter(tournament=tournament, team=team, withdrawn=False).exists():
            raise Conflict("already_entered", "team", {"team": team.name})
        started = Round.objects.filter(tournament=tournament).exists()
        if started and tournament.format != Tournament.Format.SWISS:
            raise ServiceError("late_entry_closed")
        entry, created = Entry.objects.get_or_create(tournament=tournament, team=team, defaults={"seed": seed})
        if not created and entry.withdrawn:
            raise Conflict("entry_withdrawn", "team", {"team": team.name})
    return entry


def entry_withdraw(*, entry: Entry, user=None) -> Entry:
    """Withdraw a team: it is not paired again, its played results stand, an unstarted match becomes a bye or walkover.

    Refuses (``Conflict``) an entry that has withdrawn already.
    """
    with transaction.atomic():
        tournament = tournament_locked(entry.tournament)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("team", "player").get(pk=entry.pk)
        if entry.withdrawn:
            raise Conflict("already_withdrawn", None, {"team": (entry.team or entry.player).name})
        last = Round.objects.filter(tournament=tournament).order_by("-stage__number", "-number").first()
        after = last.number if last else 0
        if tournament.is_individual:
            from tournaments.services.draws import individual_withdraw

            individual_withdraw(tournament, entry)
            entry.withdrawn, entry.withdrawn_after_round = True, after
            entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
            transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
            return entry
        pending = (Match.objects.filter(round=last).filter(Q(ns_id=entry.team_id) | Q(ew_id=entry.team_id))
                   .exclude(status=Match.Status.FINISHED).first() if last else None)
        if pending is not None and not pending.games.exists() and pending.ew_id is not None:
            opponent, team_side = (pending.ew_id, "ns") if pending.ns_id == entry.team_id else (pending.ns_id, "ew")
            # The round's stage's format: a multi-stage event's knockout follows pools or a Swiss.
            stage_format = Stage.objects.filter(pk=last.stage_id).values_list("format", flat=True).first()
            if stage_format == Stage.Format.KNOCKOUT:
                match_result_apply(pending, [], walkover="ew" if team_side == "ns" else "ns")
                pending.why = reasons_kept((("walkover_opponent_withdrew", {}),))
            else:
                RoundSlot.objects.filter(match=pending).delete()
                pending.ns_id, pending.ew_id = opponent, None
                match_result_apply(pending, [])  # a bye
                pending.why = reasons_kept((("bye_opponent_withdrew", {}),))
                after -= 1
            pending.save()
            match_result_changed(match=pending)
        entry.withdrawn = True
        entry.withdrawn_after_round = max(after, 0)
        entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
        transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))
    return entry


def match_pairing_change(*, match: Match, ns: Team, ew: Team | None, user=None, allow_rematch: bool = False) -> Match:
    """Change a pairing before its round starts; a team taken from another match of the round swaps places."""
    with transaction.atomic():
        tournament = tournament_locked(match.round.tournament)
        match = Match.objects.select_for_update().get(pk=match.pk)
        rnd = match.round
        stage_open(rnd)
        if rnd.matches.filter(Q(status__in=[Match.Status.PLAYING, Match.Status.FINISHED]) & ~Q(ew=None)).exists() \
                or rnd.matches.filter(games__isnull=False).exists():
            raise Conflict("round_started", None, {"round": rnd.number})
        new = {"ns": ns.pk, "ew": ew.pk if ew else None}
        if new["ns"] == new["ew"]:
            raise ServiceError("same_team", "ew")
        if new["ew"] is not None and not allow_rematch:
            met = Match.objects.filter(round__stage_id=rnd.stage_id).exclude(round=rnd).filter(
                Q(ns_id=new["ns"], ew_id=new["ew"]) | Q(ns_id=new["ew"], ew_id=new["ns"])).exclude(
                Q(status=Match.Status.FINISHED) & ~Q(forfeit="")).exists()  # a forfeit is no meeting
            a, b = sorted((new["ns"], new["ew"]))
            if met or ForbiddenPair.objects.filter(tournament=tournament, team_a_id=a, team_b_id=b).exists():
                raise ServiceError("rematch", "ew")
        old = {"ns": match.ns_id, "ew": match.ew_id}
        touched = {match.pk: match}
        for side in ("ns", "ew"):
            team = new[side]
            if team is None or team in old.values():
                continue
            other = rnd.matches.filter(Q(ns_id=team) | Q(ew_id=team)).exclude(pk=match.pk).first()
            if other is None:
                if not Entry.objects.filter(tournament=tournament, team_id=team, withdrawn=False).exists():
                    raise ServiceError("not_entered", side)
                continue
            other = touched.get(other.pk) or other
            other_side = "ns" if other.ns_id == team else "ew"
            replacement = old[side] if old[side] not in new.values() else old["ew" if side == "ns" else "ns"]
            setattr(other, f"{other_side}_id", replacement)
            if other.ns_id is None:
                other.ns_id, other.ew_id = other.ew_id, None
            touched[other.pk] = other
        match.ns_id, match.ew_id = new["ns"], new["ew"]
        who = getattr(user, "username", "")
        changed = ("changed_by_hand", {"who": who}) if who else ("changed_by_organizer", {})
        match.why, match.explanation = reasons_kept((changed,)), ""
        for m in touched.values():
            match_result_apply(m, [])  # the round has not started: no games; a bye is finished
        RoundSlot.objects.filter(match_id__in=list(touched)).delete()
        for m in touched.values():
            if m.ns_id is None:
                m.delete()
            else:
                m.save()
    return match
