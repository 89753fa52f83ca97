"""Clubs, players and teams in the admin, and the user admin that answers an organizer's search for people."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from tournaments import access
from tournaments.admin.base import RELATED_ONLY, ClubScopedAdmin, RetiredColumn, RetiredFilter, ScopedAdmin
from tournaments.models import Club, Player, Team
from tournaments.query_text import NullSafeAdminMixin


@admin.register(Club)
class ClubAdmin(ScopedAdmin):
    role = "club"
    list_display = ("name", "city", "player_count", "team_count")
    search_fields = ("name", "city")
    list_filter = ("city",)
    filter_horizontal = ("managers",)

    def get_queryset(self, request):
        from django.db.models import Count

        return super().get_queryset(request).annotate(
            _players=Count("players", distinct=True), _teams=Count("teams", distinct=True))

    def has_add_permission(self, request):
        return access.is_unscoped(request.user)

    def get_readonly_fields(self, request, obj=None):
        return () if access.is_unscoped(request.user) else ("managers",)

    @admin.display(description=_("players"), ordering="_players")
    def player_count(self, obj):
        return obj._players

    @admin.display(description=_("teams"), ordering="_teams")
    def team_count(self, obj):
        return obj._teams


def _player_picker(request) -> bool:
    """Tell whether this is an organizer's autocomplete of a player for an entry or a pair kept apart."""
    return (request.path.endswith("/autocomplete/") and request.GET.get("app_label") == "tournaments"
            and request.GET.get("model_name") in ("tournament", "entry", "keptapart")
            and request.GET.get("field_name") in ("player", "player_a", "player_b")
            and (access.is_unscoped(request.user) or access.organized_tournaments(request.user).exists()))


@admin.register(Player)
class PlayerAdmin(RetiredColumn, ClubScopedAdmin):
    list_display = ("name", "club", "licence", "user", "retired_flag")
    list_filter = (("retired", RetiredFilter), ("club", RELATED_ONLY))
    search_fields = ("name", "licence", "club__name")
    autocomplete_fields = ("club", "user")
    list_select_related = ("club", "user")

    def get_queryset(self, request):
        if _player_picker(request):  # an organizer enters the players of any club (or of none)
            return admin.ModelAdmin.get_queryset(self, request)
        return super().get_queryset(request)

    def has_view_permission(self, request, obj=None):
        return _player_picker(request) or super().has_view_permission(request, obj)


def _team_picker(request) -> bool:
    """Tell whether this is an organizer's autocomplete of a team for an entry, a match or a forbidden pair."""
    return (request.path.endswith("/autocomplete/") and request.GET.get("app_label") == "tournaments"
            and request.GET.get("model_name") in ("tournament", "entry", "match", "round", "forbiddenpair")
            and (access.is_unscoped(request.user) or access.organized_tournaments(request.user).exists()))


@admin.register(Team)
class TeamAdmin(RetiredColumn, ClubScopedAdmin):
    list_display = ("name", "club", "player_1", "player_2", "retired_flag")
    list_filter = (("retired", RetiredFilter), ("club", RELATED_ONLY))
    search_fields = ("name", "club__name", "player_1__name", "player_2__name")
    autocomplete_fields = ("club", "player_1", "player_2")
    list_select_related = ("club", "player_1", "player_2")

    def get_queryset(self, request):
        if _team_picker(request):  # an organizer enters the teams of any club
            return admin.ModelAdmin.get_queryset(self, request)
        return super().get_queryset(request)

    def has_view_permission(self, request, obj=None):
        return _team_picker(request) or super().has_view_permission(request, obj)


def _people_picker(request) -> bool:
    """Tell whether this is an organizer's autocomplete of a tournament's organizers or scorekeepers."""
    return (request.path.endswith("/autocomplete/") and request.GET.get("app_label") == "tournaments"
            and request.GET.get("model_name") == "tournament"
            and request.GET.get("field_name") in ("organizers", "directors", "scorekeepers")
            and access.signs_in_to_admin(request.user)
            and (access.is_unscoped(request.user) or access.organized_tournaments(request.user).exists()
                 or access.managed_clubs(request.user).exists()))


User = get_user_model()


class VolunteerUserAdmin(NullSafeAdminMixin, BaseUserAdmin):
    """Django's user admin, also answering an organizer's search for a tournament's people.

    The search offers active users only, by username, name or e-mail; a volunteer never sees a user's page.
    """

    search_fields = ("username", "first_name", "last_name", "email")

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs.filter(is_active=True) if _people_picker(request) else qs

    def has_view_permission(self, request, obj=None):
        return _people_picker(request) or super().has_view_permission(request, obj)

    def has_module_permission(self, request):
        return super().has_module_permission(request) and access.is_unscoped(request.user)


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, VolunteerUserAdmin)
