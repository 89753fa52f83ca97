"""DRF permission classes over the visibility and role rules of ``tournaments.access``."""

from rest_framework import exceptions, permissions

from tournaments.access import (  # noqa: F401 (re-exported for the views)
    can_create_tournament, can_keep_score, is_club_manager, is_organizer, visible_hands, visible_matches,
    visible_rounds, visible_tournaments,
)


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
    """A tournament is written by staff and its organizers; created by whom ``TOURNAMENT_CREATORS`` names."""

    def has_permission(self, request, view):
        if not super().has_permission(request, view):
            return False
        if getattr(view, "action", None) == "create" and not can_create_tournament(request.user):
            raise exceptions.PermissionDenied("Only staff may create tournaments on this site.")
        return True

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
