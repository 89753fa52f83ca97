"""Tournaments: create one (its creator organizes it), change it while its shape may still change, delete it."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from tournaments.models import Round, Tournament
from tournaments.services.errors import Conflict

#: Fields that shape every match already played: frozen once a round exists.
FROZEN_ONCE_PAIRED = ("variant", "format", "best_of", "options", "rounds", "double_round_robin")
#: Many-to-many fields, set once the tournament row exists.
_PEOPLE = ("organizers", "scorekeepers")


def _unique_slug(name: str) -> str:
    base = (slugify(name) or "tournament")[:170]
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _set_people(tournament: Tournament, people: dict) -> None:
    for field, users in people.items():
        getattr(tournament, field).set(users)


def tournament_create(*, user, **fields) -> Tournament:
    """Create a tournament with a unique slug made from its name; ``user`` becomes one of its organizers."""
    people = {f: fields.pop(f) for f in _PEOPLE if f in fields}
    with transaction.atomic():
        tournament = Tournament.objects.create(slug=_unique_slug(fields["name"]), **fields)
        _set_people(tournament, people)
        tournament.organizers.add(user)
    return tournament


def tournament_update(*, tournament: Tournament, user, **fields) -> Tournament:
    """Change a tournament; refuses (``Conflict``) changing a field in ``FROZEN_ONCE_PAIRED`` once a round exists."""
    people = {f: fields.pop(f) for f in _PEOPLE if f in fields}
    with transaction.atomic():
        # The lock orders this change after a pairing under way (which holds it), so "a round exists" holds.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        changed = [f for f in FROZEN_ONCE_PAIRED if f in fields and fields[f] != getattr(tournament, f)]
        if changed and Round.objects.filter(tournament=tournament).exists():
            raise Conflict("tournament_started", f"{', '.join(changed)} cannot change once a round is paired")
        for field, value in fields.items():
            setattr(tournament, field, value)
        tournament.save()
        _set_people(tournament, people)
    return tournament


def tournament_delete(*, tournament: Tournament, user) -> None:
    """Delete a tournament; refuses (``Conflict``) one that has a paired round."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if Round.objects.filter(tournament=tournament).exists():
            raise Conflict("tournament_started", "a tournament with paired rounds cannot be deleted")
        tournament.delete()
