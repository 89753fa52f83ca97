"""Clubs: found one (its founder manages it)."""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Club


def club_create(*, user, **fields) -> Club:
    """Create a club with its managers; ``user`` becomes one of them."""
    managers = fields.pop("managers", None)
    with transaction.atomic():
        club = Club.objects.create(**fields)
        if managers is not None:
            club.managers.set(managers)
        club.managers.add(user)
    return club
