"""Where events come from: the models every write path saves (the API, the site, the admin, the workers).

Each receiver only registers, on commit, the queueing of one task carrying the event's name and
ids: no SQL is added to the request (the task finds the endpoints and builds the payload), and a
rolled-back change sends nothing. Queueing failures are logged, never raised (a result is never
refused because a webhook could not be queued).
"""

import logging

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments.models import Hand, Round, StandingsSnapshot

logger = logging.getLogger(__name__)


def emit(event: str, **ids) -> None:
    """Queue ``webhooks.event_task(event, ids)`` once the current transaction commits."""

    def enqueue():
        from .tasks import event_task

        try:
            event_task.apply_async((event, ids))
        except Exception:  # a webhook must never turn a stored result into an error
            logger.exception("webhook event %s %s not queued", event, ids)

    transaction.on_commit(enqueue)


@receiver(post_save, sender=Hand, dispatch_uid="webhooks.hand_saved")
def hand_saved(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    emit("hand.entered" if created else "hand.corrected", hand=instance.pk)


@receiver(post_delete, sender=Hand, dispatch_uid="webhooks.hand_deleted")
def hand_deleted(sender, instance, origin=None, **kwargs):
    if origin is not instance:  # a hand deleted with its game, match or tournament: not an event of its own
        return
    game = instance._state.fields_cache.get("game")  # known already on the delete paths; never queried here
    emit("hand.deleted", hand=instance.pk, game=instance.game_id, number=instance.number,
         game_number=getattr(game, "number", None))


@receiver(post_save, sender=Round, dispatch_uid="webhooks.round_saved")
def round_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        emit("round.paired", round=instance.pk)


@receiver(post_save, sender=StandingsSnapshot, dispatch_uid="webhooks.standings_saved")
def standings_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        emit("standings.updated", tournament=instance.tournament_id)
