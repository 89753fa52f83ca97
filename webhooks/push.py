"""The push channel's events: the webhooks' events, built when their change commits and kept for the streams.

``webhooks.signals.emit`` calls ``publish`` on commit while anyone listens (``watched``): the event's bodies are
built at once, in the process that made the change (``services.event_payloads``, one or two queries, as a
webhook's task builds them), and added to the store (``push_store``), which gives each its id. Building them
here rather than in a Celery task keeps them in the order their changes committed and off the queue that also
carries webhook deliveries (a slow receiver holds a worker for seconds). A failure is logged, never raised: a
result is never refused because an event could not be kept.

Each event's body is the webhook's, with the same ``id`` a webhook delivery of that change carries
(``services.event_uuid``), so a client that has both can tell one event from two.
"""

from __future__ import annotations

import logging

from . import push_store
from .services import _dump, _envelope, event_payloads, event_uuid, unpublished

logger = logging.getLogger(__name__)

WATCHED_KEY = push_store.WATCHED


def watched(found: dict | None = None) -> bool:
    """Whether anyone listens to the push channel. ``found``: the cache's answer for ``WATCHED_KEY`` (and
    others), read with the commit's other keys; without it (or in process) the store is asked."""
    store = push_store.get()
    try:
        if found is not None and not store.in_process:
            return bool(found.get(WATCHED_KEY))
        return store.watched()
    except push_store.Unavailable:
        logger.warning("push: whether anyone listens could not be read")
        return False


def publish(event: str, ids: dict) -> list[str]:
    """Build the change's events and keep them; return their ids (none when its objects are gone)."""
    built = event_payloads(event, ids)
    if built is None:
        return []
    tournament, payloads = built
    if unpublished(tournament):  # a round not yet published: no stream hears of it (its round.published will)
        return []
    store = push_store.get()
    kept = []
    for name, data in payloads:
        body = _dump(_envelope(name, event_uuid(ids.get("event_id"), name, event), tournament, data))
        kept.append(store.record(tournament.pk, tournament.public, body))
    return kept
