"""Rounds published on purpose (issue 28): ``round_publish`` and what turning automatic publication on does.

A round of an event that publishes automatically (``Tournament.auto_publish``, the default) is published as it
is made (``Round.save``). Otherwise it exists for the event's organizers, directors and scorekeepers alone
(``tournaments.access.visible_rounds`` and its neighbours decide it for every door) until an organizer publishes
it here: from then on everyone who sees the event sees the round, its tables, sheets and codes, and the open
pages hear of it. ``webhooks`` sends ``round.published`` (its receiver hears the round saved with
``published_at``).

The saved standings are the public's: they count the published rounds alone (``services.standings``), so a round
paired, drawn or even played before its publication moves neither the public standings nor their ETag (a bye, a
sit-out, a result of it counts from its publication on). Its publication asks the standings for a full recompute,
which counts it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.live import publish_tournament_changed
from tournaments.models import Round, StandingsChange, Tournament


def round_publish(*, round: Round, user=None) -> Round:  # noqa: A002 - the services' keyword
    """Publish ``round`` now; a round published already is left as it is (publishing twice changes nothing)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament", "stage").get(pk=round.pk)
        if rnd.published_at is None:
            rnd.published_at = timezone.now()
            rnd.save(update_fields=["published_at"])  # the stamps move (versions); webhooks hear it
            publish_tournament_changed(rnd.tournament_id)
            _standings_reload(rnd.tournament_id)
    return rnd


def _standings_reload(tournament_id: int) -> None:
    """The standings count the round from now on: a full recompute (a change that names no match), queued once
    committed (a round's publication changes no column the standings' triggers watch)."""
    from tournaments.services.standings import standings_recompute_schedule

    StandingsChange.objects.create(tournament_id=tournament_id, match_id=None)
    transaction.on_commit(lambda: standings_recompute_schedule(tournament_id))


def rounds_publish_pending(*, tournament: Tournament, user=None) -> list[Round]:
    """Publish every round of ``tournament`` not published yet, in their order (automatic publication turned on:
    ``tournament_update`` calls it in its transaction, so that no round stays hidden in an event that publishes
    its rounds)."""
    pending = list(Round.objects.filter(tournament=tournament, published_at__isnull=True)
                   .order_by("stage__number", "number"))
    return [round_publish(round=rnd, user=user) for rnd in pending]
