"""The admin's scoping: a volunteer sees the rows of their roles, a superuser everything; the bases the
other modules' admins build on."""

from django.contrib import admin
from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import access
from tournaments.models import Club, Player, Round, Tournament
from tournaments.query_text import NullSafeAdminMixin


COMPUTED_HAND_FIELDS = ("multiplier_line", "score_line", "bonus_line", "totals_line", "labels_line")
RELATED_ONLY = admin.RelatedOnlyFieldListFilter


# -- scoping: a volunteer sees the rows of their roles, a superuser everything ------------------------


def _scope(user, role: str):
    """Return the tournaments (or clubs, for ``club``) that ``role`` gives ``user`` in the admin."""
    if role == "organizer":
        return access.organized_tournaments(user)
    if role == "scorekeeper":
        return access.scorekept_tournaments(user)
    return access.managed_clubs(user)


class ScopedAdmin(NullSafeAdminMixin, admin.ModelAdmin):
    """Rows reached through the user's roles only; another tournament's object is a 404, as if it did not exist."""

    role = "scorekeeper"  # "organizer", "scorekeeper" or "club"
    scope_path = "pk"  # the lookup from this model to its tournament (or club)

    def scope(self, request):
        return _scope(request.user, self.role)

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if access.is_unscoped(request.user):
            return qs
        return qs.filter(**{f"{self.scope_path}__in": self.scope(request).values("pk")})

    def has_role(self, request) -> bool:
        user = request.user
        if not access.signs_in_to_admin(user):
            return False
        if access.is_unscoped(user):
            return True
        cache = request.__dict__.setdefault("_admin_roles", {})
        if self.role not in cache:
            cache[self.role] = self.scope(request).exists()
        return cache[self.role]

    def has_module_permission(self, request):
        return super().has_module_permission(request) and self.has_role(request)

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self.has_role(request)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.has_role(request)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.has_role(request)

    def has_add_permission(self, request, *args):
        return super().has_add_permission(request, *args) and self.has_role(request)

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None:
            raise Http404(gettext("No such object."))
        return obj

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """Offer only the tournaments and rounds of the user's roles (autocomplete and plain selects alike)."""
        if not access.is_unscoped(request.user) and db_field.related_model in (Tournament, Round):
            tournaments = access.organized_tournaments(request.user)
            kwargs["queryset"] = (tournaments if db_field.related_model is Tournament
                                  else Round.objects.filter(tournament__in=tournaments))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ClubScopedAdmin(ScopedAdmin):
    role = "club"
    scope_path = "club"

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not access.is_unscoped(request.user) and db_field.related_model is Club:
            kwargs["queryset"] = access.managed_clubs(request.user)
        elif not access.is_unscoped(request.user) and db_field.related_model is Player:
            kwargs["queryset"] = Player.objects.filter(club__in=access.managed_clubs(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class RetiredFilter(admin.BooleanFieldListFilter):
    """The ``retired`` flag of players and teams, its title in the user's language."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.title = _("retired")


class RetiredColumn:
    """The ``retired`` column of players and teams: a yes/no icon, sortable, its header translated."""

    @admin.display(description=_("retired"), boolean=True, ordering="retired")
    def retired_flag(self, obj):
        return obj.retired


class _ComputedAdmin(ScopedAdmin):
    """Rows the service writes itself (standings, snapshots, task records): shown, never added or edited here."""

    role = "organizer"
    scope_path = "tournament"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
