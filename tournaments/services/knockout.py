"""Knockout advancing: a finished match's winner goes on to the next round once its sibling match is decided
(and a semi-final's loser to the match for third place, when the stage plays one).

Called by the result fan-out (tournaments/services/results.py) for every finished knockout match, and by
the pairing (tournaments/services/rounds.py) for byes and for a round filled in by hand.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Entry, Match, Round, Stage, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.types import reasons_kept
from tournaments.stages import third_place_pairing
from tournaments.selectors import confirmation
from tournaments.services.table_codes import new_table_codes


def tournament_locked(tournament: Tournament) -> Tournament:
    """Return the tournament's row, locked until the transaction ends (one writer of its rounds at a time)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def knockout_tables(tournament: Tournament, number: int, *, stage_id: int | None = None) -> int:
    """Return the tables knockout round ``number`` has once complete (a round fills in as the one before finishes);
    ``stage_id``: the knockout stage's (round numbers count per stage)."""
    scope = {"round__stage_id": stage_id} if stage_id is not None else {"round__tournament": tournament}
    return Match.objects.filter(**scope, round__number=1).count() >> (number - 1)


def _winner(match: Match) -> int | None:
    if match.ew_id is None:
        return match.ns_id
    return {"ns": match.ns_id, "ew": match.ew_id}.get(match.winner)


def knockout_advance(*, match: Match) -> Match | None:
    """Put the winner of a finished knockout match into the next round once its sibling match is decided too."""
    with transaction.atomic():
        tournament = tournament_locked(match.round.tournament)
        return knockout_advance_locked(tournament, match)


def _loser(match: Match) -> int | None:
    if match.ew_id is None:
        return None
    return {"ns": match.ew_id, "ew": match.ns_id}.get(match.winner)


def knockout_advance_locked(tournament: Tournament, match: Match) -> Match | None:
    """Advance a finished knockout match's winner; the caller holds the tournament's lock.

    A semi-final's losers meet for third place once both semi-finals are decided (a stage with ``third_place``):
    table 2 of the final's round. A one-stage event finishes when every match of the final's round has its
    winner; a multi-stage event's last stage is closed by its organizer, as every stage before it, and that
    closing finishes the event (``stage_close``), so that the stage and the event never disagree.
    """
    rnd = match.round
    tables = knockout_tables(tournament, rnd.number, stage_id=rnd.stage_id)
    if tables <= 1:
        decided = all(_winner(m) is not None and confirmation.counts(m, tournament) for m in rnd.matches.all())
        if decided and not Stage.objects.filter(tournament=tournament, number__gt=1).exists():
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
        return None
    table, _ = knockout.next_slot(match.table)
    up, down = knockout.feeders(table)
    feeders = {m.table: m for m in rnd.matches.filter(table__in=(up, down))}
    # A result waiting for the opponents' confirmation (when the event waits for it) sends nobody on yet.
    winners = {t: _winner(m) for t, m in feeders.items() if confirmation.counts(m, tournament)}
    if winners.get(up) is None or winners.get(down) is None:
        return None
    nxt, _ = Round.objects.get_or_create(tournament=tournament, stage_id=rnd.stage_id, number=rnd.number + 1)
    if tables == 2 and Stage.objects.filter(pk=rnd.stage_id, third_place=True).exists():
        _third_place(nxt, _loser(feeders[up]), _loser(feeders[down]), rnd.number)
    return _put(nxt, table, knockout.next_round({up: winners[up], down: winners[down]}, rnd.number)[0])


def _third_place(final_round: Round, loser_up: int | None, loser_down: int | None, semi_final_round: int) -> None:
    """The match for third place, at table 2 of the final's round (none when a semi-final was a bye)."""
    if loser_up is None or loser_down is None:
        return
    _put(final_round, 2, third_place_pairing(loser_up, loser_down, semi_final_round=semi_final_round))


def _put(nxt: Round, table: int, pairing) -> Match:
    """The match at ``table`` of ``nxt`` made or brought in step with ``pairing`` (once played, it stays as it is:
    a correction needs the organizer)."""
    existing = nxt.matches.filter(table=table).first()
    if existing is not None:
        if existing.games.exists() or (existing.ns_id, existing.ew_id) == (pairing.ns, pairing.ew):
            return existing
        existing.ns_id, existing.ew_id = pairing.ns, pairing.ew
        existing.save()
        _walkover_if_withdrawn(existing)
        return existing
    created = Match(round=nxt, table=table, ns_id=pairing.ns, ew_id=pairing.ew, why=reasons_kept(pairing.why),
                    table_code=new_table_codes(1)[0])
    created.save()
    _walkover_if_withdrawn(created)
    return created


def _walkover_if_withdrawn(match: Match) -> None:
    """A match made with a team that has withdrawn from the event (after winning its match before): its opponent
    goes on by a walkover (``walkover_opponent_withdrew``), as when the team withdraws once the match is paired
    (``entry_withdraw``); never a bye. Both teams withdrawn: the director decides."""
    from tournaments.live import publish_match_changed
    from tournaments.services.games import match_result_apply

    if match.ew_id is None or match.status == Match.Status.FINISHED:
        return
    gone = set(Entry.objects.filter(tournament_id=match.round.tournament_id, withdrawn=True,
                                    team_id__in=(match.ns_id, match.ew_id)).values_list("team_id", flat=True))
    if len(gone) != 1:
        return
    match_result_apply(match, [], walkover="ew" if match.ns_id in gone else "ns")
    match.why = [*(match.why or []), ["walkover_opponent_withdrew", {}]]
    match.save()
    # The standings count it with the result that made the match (its recompute is queued on commit already).
    publish_match_changed(match.pk, match.round.tournament_id)
    knockout_advance_locked(match.round.tournament, match)  # the winner sent on (the caller holds the lock)
