"""Webhook tasks: fan an event out to its endpoints, then deliver each with retries and backoff."""

from celery import shared_task
from django.conf import settings

from .models import Delivery
from .services import delivery_attempt, delivery_give_up, event_fanout

MAX_RETRIES = int(getattr(settings, "WEBHOOK_MAX_RETRIES", 6))
BACKOFF_MAX = int(getattr(settings, "WEBHOOK_BACKOFF_MAX", 600))


class DeliveryFailed(Exception):
    """The receiver did not answer 2xx (or could not be reached); the delivery is tried again later."""


@shared_task(name="webhooks.event_task", ignore_result=True)
def event_task(event: str, ids: dict) -> list[int]:
    """Find the endpoints that want ``event`` and queue one delivery each (ids only crossed the queue)."""
    return event_fanout(event=event, ids=ids)


@shared_task(bind=True, name="webhooks.deliver_task", ignore_result=True, acks_late=True,
             autoretry_for=(DeliveryFailed,), max_retries=MAX_RETRIES,
             retry_backoff=2, retry_backoff_max=BACKOFF_MAX, retry_jitter=True)
def deliver_task(self, delivery_id: int) -> str:
    """Post one delivery. A 5xx, 408, 429, timeout or refused connection is retried after 2, 4, 8... seconds
    (with jitter, at most ``WEBHOOK_BACKOFF_MAX``) up to ``WEBHOOK_MAX_RETRIES`` times; other 4xx are final."""
    delivery = Delivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == Delivery.Status.SUCCEEDED:
        return "gone" if delivery is None else "succeeded"
    ok, retry = delivery_attempt(delivery=delivery)
    if ok:
        return "succeeded"
    if not retry:
        return "failed"
    if self.request.retries >= self.max_retries:
        delivery_give_up(delivery=delivery)
        return "failed"
    raise DeliveryFailed(f"delivery {delivery_id}: attempt {delivery.attempts} failed")
