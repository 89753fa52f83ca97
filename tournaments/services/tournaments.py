"""Tournaments: create one (its creator organizes it), change it while its shape may still change, delete it.

Every door (the API, the workspace, the admin) is held to the same sense by ``Tournament.clean``: the
services run it before they save (``_check``), so a draw worth more than a win, a bye worth more than a win,
points above ``POINTS_MAX``, options the variant refuses or a second tournament of one name, club and start
date are refused (``InvalidFields``, 400, each error with its code and field) whoever asks.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tournaments.models import STAGE_ONE_FIELDS, Entry, Round, Stage, Tournament
from tournaments.services.errors import Conflict, InvalidFields
from tournaments.services.publication import rounds_publish_pending

#: Fields that shape every match already played: frozen once a round exists.
FROZEN_ONCE_PAIRED = ("variant", "entry", "format", "best_of", "match_length", "match_games", "options", "rounds",
                      "double_round_robin")
#: Many-to-many fields, set once the tournament row exists.
_PEOPLE = ("organizers", "directors", "scorekeepers")


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


#: The fields ``Tournament.clean`` checks together: changing one checks the others of its group again.
_CHECKED_TOGETHER = ({"points_win", "points_draw", "points_bye"}, {"name", "club", "starts_on"},
                     {"variant", "options"}, {"entry", "format"}, {"match_length", "match_games", "minutes"})
#: The numbers whose bounds are their model fields' validators.
_BOUNDED = ("rounds", "best_of", "points_win", "points_draw", "points_bye", "separate_clubs_rounds")


def _check(tournament: Tournament, changed: set[str] | None = None) -> None:
    """Refuse (``InvalidFields``) settings that make no sense: the bounds of the numbers and ``Tournament.clean``.

    ``changed`` (an update's fields) limits the check to those fields and the ones checked with them, so a
    tournament stored before a rule existed can still be renamed, published or finished.
    """
    errors: dict[str, list] = {}
    for name in _BOUNDED:
        try:
            tournament._meta.get_field(name).clean(getattr(tournament, name), tournament)
        except ValidationError as exc:
            errors[name] = exc.error_list
    try:
        tournament.clean()
    except ValidationError as exc:
        for name, found in exc.error_dict.items():
            errors.setdefault(name, found)
    if changed is not None:
        relevant = set(changed).union(*(group for group in _CHECKED_TOGETHER if group & set(changed)))
        errors = {name: found for name, found in errors.items() if name in relevant}
    if errors:
        raise InvalidFields.from_validation_error(ValidationError(errors))


def _refuse_duplicate_race(tournament: Tournament, exc: IntegrityError):
    """A duplicate saved meanwhile by another request hit the database's constraint: say so as ``_check`` would."""
    if tournament.duplicate() is not None:
        try:
            tournament.clean()
        except ValidationError as error:
            raise InvalidFields.from_validation_error(error) from exc
    raise exc


def tournament_create(*, user, **fields) -> Tournament:
    """Create a tournament with a unique slug made from its name; ``user`` becomes one of its organizers.

    Refuses (``InvalidFields``) settings that make no sense and a second tournament of the same name (any case),
    club and start date (``tournament_exists``).
    """
    people = {f: fields.pop(f) for f in _PEOPLE if f in fields}
    tournament = Tournament(**fields)
    _check(tournament)
    try:
        with transaction.atomic():
            tournament.slug = _unique_slug(fields["name"])
            tournament.save()
            _set_people(tournament, people)
            tournament.organizers.add(user)
    except IntegrityError as exc:
        tournament.pk = None
        _refuse_duplicate_race(tournament, exc)
    return tournament


def tournament_update(*, tournament: Tournament, user, **fields) -> Tournament:
    """Change a tournament; refuses (``Conflict``) changing its format, rounds or match length (which describe stage
    1) once a second stage exists (``multi_stage``), a field in ``FROZEN_ONCE_PAIRED`` once a round exists,
    the kind of entry (teams or individual) once anyone is entered (their entries would be of the other kind),
    and (``InvalidFields``) changes that make no sense, as ``tournament_create`` does."""
    people = {f: fields.pop(f) for f in _PEOPLE if f in fields}
    pk = tournament.pk
    try:
        with transaction.atomic():
            # The lock orders this change after a pairing under way (which holds it), so "a round exists" holds.
            tournament = Tournament.objects.select_for_update().get(pk=pk)
            shaping = [f for f in STAGE_ONE_FIELDS if f in fields and fields[f] != getattr(tournament, f)]
            if shaping and Stage.objects.filter(tournament=tournament, number__gt=1).exists():
                raise Conflict("multi_stage", shaping[0], {"fields": shaping})
            changed = [f for f in FROZEN_ONCE_PAIRED if f in fields and fields[f] != getattr(tournament, f)]
            if changed and Round.objects.filter(tournament=tournament).exists():
                raise Conflict("tournament_started", changed[0], {"reason": "frozen", "fields": changed})
            if "entry" in changed and Entry.objects.filter(tournament=tournament).exists():
                raise Conflict("tournament_started", "entry", {"reason": "entries"})
            counting = [f for f in ("confirmation", "unconfirmed")
                        if f in fields and fields[f] != getattr(tournament, f)]
            publishing = fields.get("auto_publish") is True and not tournament.auto_publish
            moving = (tournament.status, fields.get("status", tournament.status))
            for field, value in fields.items():
                setattr(tournament, field, value)
            _check(tournament, {"club" if f == "club_id" else f for f in fields})
            tournament.save()
            _last_stage_follows(tournament, user, moving)
            _set_people(tournament, people)
            if publishing:  # automatic publication turned on: no round stays hidden
                rounds_publish_pending(tournament=tournament, user=user)
            if counting:  # which results count changed: the standings again
                from tournaments.services.standings import standings_recompute_schedule

                transaction.on_commit(lambda: standings_recompute_schedule(pk))
    except IntegrityError as exc:
        _refuse_duplicate_race(tournament, exc)
    return tournament


def tournament_delete(*, tournament: Tournament, user) -> None:
    """Delete a tournament; refuses (``Conflict``) one that has a paired round."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if Round.objects.filter(tournament=tournament).exists():
            raise Conflict("tournament_started", None, {"reason": "delete"})
        tournament.delete()


def _last_stage_follows(tournament: Tournament, user, moving: tuple[str, str]) -> None:
    """A multi-stage event finished by hand (the dashboard's move) closes its running last stage once it can be
    closed (``stage_close``: every match of it played), as closing that stage finishes the event; running again
    reopens it (``stage_reopen``). A stage that cannot close yet stays running (the dashboard says nothing of a
    refusal)."""
    from tournaments.services.stages import stage_close, stage_reopen

    was, now = moving
    if was == now or Tournament.Status.FINISHED not in (was, now):
        return
    last = Stage.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None or last.number == 1:
        return
    if now == Tournament.Status.FINISHED and last.status == Stage.Status.RUNNING:
        try:
            with transaction.atomic():
                stage_close(tournament=tournament, number=last.number, user=user)
        except Conflict:
            return
    elif was == Tournament.Status.FINISHED and last.status == Stage.Status.CLOSED:
        stage_reopen(tournament=tournament, number=last.number, user=user)
