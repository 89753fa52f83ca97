"""Issuing, listing and revoking API tokens (keyword-only services, as in tournaments/services)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .models import AuthToken


def tokens_purge_expired(*, user) -> int:
    """Delete the user's expired tokens; return how many."""
    deleted, _ = AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    return deleted


@transaction.atomic
def token_create(*, user, device: str = "") -> tuple[AuthToken, str]:
    """Issue a token for the user's device, replacing that device's previous token; return it and its key.

    The key is returned once and never stored (only its digest is).
    """
    device = (device or "").strip()[:100]
    tokens_purge_expired(user=user)
    if device:
        AuthToken.objects.filter(user=user, device=device).delete()
    return AuthToken.objects.create(user, device=device)


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def tokens_of(user):
    """The user's live tokens, newest first."""
    return AuthToken.objects.filter(user=user).exclude(expiry__lt=timezone.now()).order_by("-created")
