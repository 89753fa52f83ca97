"""Who may see and write what (docs/api.md "Auth").

Reads of public tournaments need no login; a private tournament (and its rounds, matches and
hands) is visible only to staff and to its organizers and scorekeepers. Writes: staff anything;
a club's managers the club, its players and teams; a tournament's organizers the tournament, its
entries and rounds; its organizers and scorekeepers its match results.
"""

from django.db.models import Q, QuerySet
from rest_framework import exceptions, permissions

from tournaments.models import Club, Hand, Match, Round, Tournament


def _user(user):
    return user if user is not None and user.is_authenticated else None


def visible_tournaments(user) -> QuerySet:
    """Return the tournaments ``user`` may see."""
    qs = Tournament.objects.all()
    user = _user(user)
    if user is not None and user.is_staff:
        return qs
    if user is None:
        return qs.filter(public=True)
    return qs.filter(
        Q(public=True)
        | Q(pk__in=Tournament.organizers.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.scorekeepers.through.objects.filter(user_id=user.pk).values("tournament_id"))
    )


def visible_rounds(user) -> QuerySet:
    """Return the rounds of the tournaments ``user`` may see."""
    return Round.objects.filter(tournament__in=visible_tournaments(user))


def visible_matches(user) -> QuerySet:
    """Return the matches of the tournaments ``user`` may see."""
    return Match.objects.filter(round__tournament__in=visible_tournaments(user))


def visible_hands(user) -> QuerySet:
    """Return the hands of the tournaments ``user`` may see."""
    return Hand.objects.filter(game__match__round__tournament__in=visible_tournaments(user))


def _staff_or_listed(user, through, **keys) -> bool:
    """Tell whether ``user`` is staff or listed in the many-to-many table ``through`` under ``keys``."""
    user = _user(user)
    if user is None:
        return False
    return user.is_staff or through.objects.filter(user_id=user.pk, **keys).exists()


def is_club_manager(user, club_id) -> bool:
    """Tell whether ``user`` is staff or a manager of the club."""
    return _staff_or_listed(user, Club.managers.through, club_id=club_id)


def is_organizer(user, tournament_id) -> bool:
    """Tell whether ``user`` is staff or an organizer of the tournament."""
    return _staff_or_listed(user, Tournament.organizers.through, tournament_id=tournament_id)


def can_keep_score(user, tournament_id) -> bool:
    """Tell whether ``user`` is staff, an organizer or a scorekeeper of the tournament."""
    return (is_organizer(user, tournament_id)
            or _staff_or_listed(user, Tournament.scorekeepers.through, tournament_id=tournament_id))


def require_club_manager(user, serializer, action: str = "do this") -> None:
    """Refuse (403) the club ``serializer`` sets or moves its object to, unless ``user`` is staff or manages it."""
    club = serializer.validated_data.get("club")
    if club is None or club.pk == getattr(serializer.instance, "club_id", None):
        return
    if not is_club_manager(user, club.pk):
        raise exceptions.PermissionDenied(f"Only the managers of {club} (or staff) may {action}.")


class ClubWrite(permissions.IsAuthenticatedOrReadOnly):
    """A club is written by staff and its managers (any signed-in user may found one)."""

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or is_club_manager(request.user, obj.pk)


class ClubMemberWrite(permissions.IsAuthenticatedOrReadOnly):
    """A player or team is written by staff and the managers of its club."""

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or is_club_manager(request.user, obj.club_id)


class TournamentWrite(permissions.IsAuthenticatedOrReadOnly):
    """A tournament is written by staff and its organizers (any signed-in user may create one)."""

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or is_organizer(request.user, obj.pk)


class TournamentOrganizerWrite(permissions.IsAuthenticatedOrReadOnly):
    """Nested under a tournament (entries, rounds): writes by staff and its organizers."""

    def has_permission(self, request, view):
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return is_organizer(request.user, view.get_tournament().pk)


class ResultWrite(permissions.IsAuthenticatedOrReadOnly):
    """Match results are written by staff and the tournament's organizers and scorekeepers."""

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return can_keep_score(request.user, view.tournament_id_of(obj))
