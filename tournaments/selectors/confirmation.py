"""What a result's confirmation says (docs/confirmation.md): its status as the API gives it, whether it counts.

The services that count results (the standings, a knockout's next round, the pairing) read these rules, and
``tournaments.services.confirmation`` writes the statuses.
"""

from __future__ import annotations

from tournaments.models import Match, Tournament

ENTERED, CONFIRMED, DISPUTED, FINAL = (Match.ResultStatus.ENTERED.value, Match.ResultStatus.CONFIRMED.value,
                                       Match.ResultStatus.DISPUTED.value, Match.ResultStatus.FINAL.value)
#: The statuses only a director changes.
LOCKED = (CONFIRMED, DISPUTED, FINAL)
#: The statuses a tournament that waits for confirmation does not count yet.
WAITING = (ENTERED, DISPUTED)


def confirming(tournament: Tournament) -> bool:
    """Tell whether the tournament's results wait for the opponents' confirmation."""
    return tournament.confirmation == Tournament.Confirmation.OPPONENTS


def waits(tournament: Tournament) -> bool:
    """Tell whether the tournament counts only confirmed and final results (standings, pairing, knockout)."""
    return confirming(tournament) and tournament.unconfirmed == Tournament.Unconfirmed.WAIT


def status_of(match: Match, tournament: Tournament | None = None) -> str | None:
    """The contract's ``result_status``: null until the match is finished, then its confirmation's status;
    ``final`` for a bye, when confirmation is off, and for a result finished before it was turned on."""
    if match.status != Match.Status.FINISHED:
        return None
    tournament = tournament or match.round.tournament
    if match.is_bye or not confirming(tournament):
        return FINAL
    return match.result_status or FINAL


def counts(match: Match, tournament: Tournament | None = None) -> bool:
    """Tell whether a finished match's result counts now (standings, a knockout's next round)."""
    tournament = tournament or match.round.tournament
    return match.status == Match.Status.FINISHED and not (waits(tournament) and match.result_status in WAITING)


def marks_unconfirmed(tournament: Tournament) -> bool:
    """Tell whether the standings count results the opponents have not confirmed yet (``unconfirmed: count``):
    then the pages mark what counts one, and the API's standings rows say how many (``unconfirmed``)."""
    return confirming(tournament) and tournament.unconfirmed == Tournament.Unconfirmed.COUNT


def _counted_waiting(tournament: Tournament):
    """The tournament's finished matches whose result is ``entered`` or ``disputed`` (a queryset)."""
    return Match.objects.filter(round__tournament=tournament, status=Match.Status.FINISHED, result_status__in=WAITING)


def unconfirmed_matches(tournament: Tournament, round_id: int | None = None) -> list[int]:
    """The ids of the finished matches (of one round, or all) the standings count while they are ``entered`` or
    ``disputed``; empty when the tournament waits for confirmation or asks for none. One query."""
    if not marks_unconfirmed(tournament):
        return []
    qs = _counted_waiting(tournament)
    if round_id is not None:
        qs = qs.filter(round_id=round_id)
    return list(qs.values_list("pk", flat=True))


def unconfirmed_counts(tournament: Tournament) -> dict[int, int] | None:
    """How many counted results of each team (an individual event: each player) are not confirmed yet,
    ``{team or player id: n}`` (those with none left out); None when the standings count no such result (the
    tournament waits for confirmation or asks for none). One query."""
    from collections import Counter

    from tournaments.models import RoundSeat

    if not marks_unconfirmed(tournament):
        return None
    # The public standings count the published rounds alone (``services.standings``): so do their marks.
    waiting = _counted_waiting(tournament).filter(round__published_at__isnull=False)
    if tournament.is_individual:
        return dict(Counter(RoundSeat.objects.filter(match__in=waiting).values_list("player_id", flat=True)))
    found = Counter()
    for ns, ew in waiting.values_list("ns_id", "ew_id"):
        found.update(t for t in (ns, ew) if t is not None)
    return dict(found)


def desk_matches(tournament: Tournament, now=None) -> list[dict]:
    """The director's desk: the tournament's results that wait (``entered``) or are ``disputed``, the disputes
    first, the longest waiting first, each with its sides named and how long it has waited; three queries."""
    from django.utils import timezone

    from tournaments.selectors.seats import players_of_matches

    now = now or timezone.now()
    matches = list(Match.objects.filter(round__tournament=tournament, status=Match.Status.FINISHED,
                                        result_status__in=WAITING)
                   .select_related("round__stage", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2")
                   .order_by("result_at", "round__number", "table"))
    players = players_of_matches(matches)
    rows = []
    for m in matches:
        sides = {side: (getattr(m, side).name if getattr(m, side) is not None
                        else " & ".join(p["name"] for p in players[m.pk][side])) for side in ("ns", "ew")}
        waited = int((now - m.result_at).total_seconds()) if m.result_at else 0
        rows.append({"match": m, "id": m.pk, "round": m.round.number, "table": m.table, "status": m.result_status,
                     "reason": m.result_reason, "ns": sides["ns"], "ew": sides["ew"], "waited": max(waited, 0),
                     "minutes": max(waited, 0) // 60, "games_won": (m.games_won_ns, m.games_won_ew),
                     "points": (m.points_ns, m.points_ew), "winner": m.winner})
    rows.sort(key=lambda r: (r["status"] != DISPUTED, -r["waited"]))
    return rows
