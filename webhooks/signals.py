"""Where events come from: the models every write path saves (the API, the site, the admin, the workers).

Each receiver only registers, on commit, the queueing of one task carrying the event's name and
ids: no SQL is added to the request (the task finds the endpoints and builds the payload), and a
rolled-back change sends nothing. Queueing failures are logged, never raised (a result is never
refused because a webhook could not be queued).

A tournament without an active endpoint queues nothing: whether it has one is a fact kept with the
tournament's version stamp (``tournaments.versions.tournament_fact``; an endpoint saved or deleted
bumps the stamp), read at commit in the cache round trip, so a hand of a tournament nobody listens
to costs no task and no worker time. When the tournament is not known from the saved objects
already in memory, the task is queued and finds out.

The push channel's streams get the same events (``webhooks.push``): while anyone listens (a key read in
the same round trip), the event is built and kept on commit, in this process, whatever the webhooks do.
Each change's event gets its id here, so its push event and its webhook deliveries carry the same one.
"""

import logging
import uuid

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments import commit_cache, queue, versions
from tournaments.models import DirectorAction, Hand, Match, ResultEvent, Round, StandingsSnapshot

from . import push
from tournaments.services.stages import stage_changed

from .models import Endpoint

logger = logging.getLogger(__name__)


def listened(tournament_id: int, found: dict | None = None) -> bool:
    """Tell whether the tournament has an active endpoint (kept with its version stamp; one query a stamp).

    ``found``: what the cache held under the fact's keys (``versions.fact_keys``), read by the caller.
    """
    return versions.tournament_fact(
        tournament_id, "webhooks",
        lambda: Endpoint.objects.filter(tournament_id=tournament_id, active=True).exists(), found)


def emit(event: str, tournament_id: int | None = None, **ids) -> None:
    """Once the current transaction commits: keep the push channel's event while anyone listens, and queue
    ``webhooks.event_task(event, ids)`` (not for a tournament known to have no active endpoint). Both facts
    are read with the commit's other cache work."""
    ids["event_id"] = str(uuid.uuid4())

    def enqueue(found: dict | None = None):
        try:
            if push.watched(found):
                push.publish(event, ids)
        except Exception:  # the push channel must never turn a stored result into an error
            logger.exception("push event %s %s not kept", event, ids)
        event_task = queue.task(queue.WEBHOOK_EVENT)

        try:
            if tournament_id is not None and not listened(tournament_id, found):
                return
            event_task.apply_async((event, ids))
        except Exception:  # a webhook must never turn a stored result into an error
            logger.exception("webhook event %s %s not queued", event, ids)

    if tournament_id is None:
        transaction.on_commit(enqueue)
        return
    keys = [*versions.fact_keys(tournament_id, "webhooks"), push.WATCHED_KEY]
    commit_cache.at_commit([("get_many", keys)],
                           lambda replies: enqueue(None if isinstance(replies, Exception) else replies[0]))


def _hand_tournament_id(hand) -> int | None:
    """The hand's tournament from the objects the services loaded with it (its game, match and round), or None."""
    try:
        game = hand._state.fields_cache["game"]
        match = game._state.fields_cache["match"]
        return match._state.fields_cache["round"].tournament_id
    except (KeyError, AttributeError):
        return None


@receiver(post_save, sender=Hand, dispatch_uid="webhooks.hand_saved")
def hand_saved(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    emit("hand.entered" if created else "hand.corrected", _hand_tournament_id(instance), hand=instance.pk)


@receiver(post_delete, sender=Hand, dispatch_uid="webhooks.hand_deleted")
def hand_deleted(sender, instance, origin=None, **kwargs):
    if origin is not instance:  # a hand deleted with its game, match or tournament: not an event of its own
        return
    game = instance._state.fields_cache.get("game")  # known already on the delete paths; never queried here
    emit("hand.deleted", _hand_tournament_id(instance), hand=instance.pk, game=instance.game_id,
         number=instance.number, game_number=getattr(game, "number", None))


@receiver(post_save, sender=Round, dispatch_uid="webhooks.round_saved")
def round_saved(sender, instance, created, raw=False, update_fields=None, **kwargs):
    """``round.paired`` as a round is made (its organizers' endpoints alone: ``services.event_fanout``), and
    ``round.published`` as it is published: at once when the event publishes automatically, else when
    ``round_publish`` saves its ``published_at``."""
    if raw:
        return
    if created:
        emit("round.paired", instance.tournament_id, round=instance.pk)
    if instance.published_at is not None and (created or "published_at" in (update_fields or ())):
        emit("round.published", instance.tournament_id, round=instance.pk)


@receiver(post_save, sender=StandingsSnapshot, dispatch_uid="webhooks.standings_saved")
def standings_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        emit("standings.updated", instance.tournament_id, tournament=instance.tournament_id)


@receiver(post_save, sender=DirectorAction, dispatch_uid="webhooks.director_action_saved")
def director_action_saved(sender, instance, created, raw=False, **kwargs):
    """An action of the director's desk taken (created) or reverted (its one later save)."""
    if not raw:
        emit("director.action", instance.tournament_id, action=instance.pk)


#: The result's steps that are an event of their own (``tournaments.models.ResultEvent.Kind``): the other side
#: confirmed it (or a director on paper, or the wait did), disputed it, or a director made it final.
RESULT_EVENTS = {"confirmed": "result.confirmed", "paper": "result.confirmed", "auto": "result.confirmed",
                 "disputed": "result.disputed", "settled": "result.settled", "decided": "result.settled"}


def _result_tournament_id(step) -> int | None:
    """The step's tournament from the match and round the confirmation services loaded, or None (no query)."""
    if ResultEvent.match.is_cached(step) and Match.round.is_cached(step.match):
        return step.match.round.tournament_id
    return None


@receiver(post_save, sender=ResultEvent, dispatch_uid="webhooks.result_step_saved")
def result_step_saved(sender, instance, created, raw=False, **kwargs):
    """A result confirmed, disputed or settled (tournaments/services/confirmation.py writes one row a step)."""
    event = RESULT_EVENTS.get(instance.kind)
    if created and not raw and event:
        emit(event, _result_tournament_id(instance), step=instance.pk)


@receiver(post_save, sender=Endpoint, dispatch_uid="webhooks.endpoint_saved")
@receiver(post_delete, sender=Endpoint, dispatch_uid="webhooks.endpoint_deleted")
def endpoint_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        versions.tournament_changed(instance.tournament_id)  # ``listened`` reads its fact again


@receiver(stage_changed, dispatch_uid="webhooks.stage_changed")
def stage_event(sender, event, tournament_id, stage, number, **kwargs):
    """``stage.closed`` and ``stage.started`` (tournaments/services/stages.py sends them in its transaction)."""
    emit(event, tournament_id, tournament=tournament_id, stage=stage)
