"""Webhook endpoints of a tournament and the log of what was sent to them."""

import secrets
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

from .targets import validate_target

EVENTS = (
    ("hand.entered", _("A hand was entered")),
    ("hand.corrected", _("A hand was corrected (or re-scored after an earlier correction)")),
    ("hand.deleted", _("A hand was deleted")),
    ("match.finished", _("A match was decided")),
    ("round.paired", _("A round was paired")),
    ("round.published", _("A round was published")),
    ("standings.updated", _("The standings were recomputed")),
    ("stage.closed", _("A stage was closed")),
    ("stage.started", _("A stage was started")),
    ("director.action", _("A director's action was taken or reverted")),
    ("result.confirmed", _("A result was confirmed (by the other side, on paper or automatically)")),
    ("result.disputed", _("A result was disputed by the other side")),
    ("result.settled", _("A director settled a result (or changed a confirmed one)")),
)
EVENT_NAMES = tuple(name for name, _label in EVENTS)
TEST_EVENT = "webhook.test"


def new_secret() -> str:
    return secrets.token_hex(32)


def validate_http_url(value: str) -> None:
    """Only http(s) URLs with a host: no file:, ftp:, gopher: or other schemes."""
    from urllib.parse import urlsplit

    parts = urlsplit(value or "")
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValidationError(_("Enter an http:// or https:// URL."), code="invalid_url")


def validate_events(value) -> None:
    if not isinstance(value, list) or any(name not in EVENT_NAMES for name in value):
        raise ValidationError(_("Unknown event; choose among: %(names)s.") % {"names": ", ".join(EVENT_NAMES)},
                              code="invalid_event")


class Endpoint(models.Model):
    """A URL of an organizer's tool that receives the tournament's events, signed with its own secret."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=500, validators=[validate_http_url, validate_target],
                           help_text=_("Only public internet addresses (and the networks the site allows)."))
    description = models.CharField(_("description"), max_length=200, blank=True, default="")
    events = models.JSONField(_("events"), default=list, blank=True, validators=[validate_events],
                              help_text=_("The events to send; empty: all of them."))
    secret = models.CharField(_("secret"), max_length=100, default=new_secret,
                              help_text=_("The HMAC-SHA256 key of the X-Manille-Signature header."))
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        ordering = ["tournament", "id"]

    def __str__(self):
        return f"{self.tournament}: {self.url}"

    def wants(self, event: str) -> bool:
        return event == TEST_EVENT or not self.events or event in self.events


class Delivery(models.Model):
    """One event sent (or being sent) to one endpoint: its exact body and the last attempt's answer."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(default=uuid.uuid4, help_text=_("The event's id (the same for every endpoint)."))
    event = models.CharField(max_length=40)
    body = models.TextField(help_text=_("The JSON sent, byte for byte (what the signature covers)."))
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.TextField(blank=True, default="", help_text=_("The answer's first characters."))
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    attempted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-id"]
        indexes = [models.Index(fields=["endpoint", "-id"], name="webhook_delivery_recent")]

    def __str__(self):
        return f"{self.event} → {self.endpoint.url} ({self.status})"
