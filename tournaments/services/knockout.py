"""Knockout advancing: a finished match's winner goes on to the next round once its sibling match is decided.

Called by the result fan-out (tournaments/services/results.py) for every finished knockout match, and by
the pairing (tournaments/services/rounds.py) for byes and for a round filled in by hand.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Match, Round, Stage, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.types import reasons_kept
from tournaments.selectors import confirmation


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


def knockout_advance_locked(tournament: Tournament, match: Match) -> Match | None:
    """Advance a finished knockout match's winner; the caller holds the tournament's lock."""
    rnd = match.round
    if knockout_tables(tournament, rnd.number, stage_id=rnd.stage_id) <= 1:
        if _winner(match) is not None and not Stage.objects.filter(
                tournament=tournament, number__gt=Stage.objects.filter(pk=rnd.stage_id).values("number")[:1]).exists():
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
    existing = nxt.matches.filter(table=table).first()
    if existing is not None:
        if existing.games.exists() or (existing.ns_id, existing.ew_id) == (winners[up], winners[down]):
            return existing  # already there, or already being played: a correction needs the organizer
        existing.ns_id, existing.ew_id = winners[up], winners[down]
        existing.save()
        return existing
    pairing = knockout.next_round({up: winners[up], down: winners[down]}, rnd.number)[0]
    created = Match(round=nxt, table=table, ns_id=pairing.ns, ew_id=pairing.ew,
                    why=reasons_kept(pairing.why))
    created.save()
    return created
