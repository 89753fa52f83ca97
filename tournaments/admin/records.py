"""Rows the services compute or keep (standings, snapshots, task records, the director's actions): shown, never
edited."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import RELATED_ONLY, _ComputedAdmin
from tournaments.models import DirectorAction, Standing, StandingsSnapshot, TaskRecord


@admin.register(Standing)
class StandingAdmin(_ComputedAdmin):
    # Games and points as "won–lost" columns, the time of the computation on the row's page: fits 1,024 px.
    list_display = ("tournament", "rank", "competitor", "played", "won", "drawn", "lost", "match_points",
                    "games_line", "points_line")
    list_filter = (("tournament", RELATED_ONLY),)
    search_fields = ("team__name", "player__name", "tournament__name")
    list_select_related = ("tournament", "team", "player")

    @admin.display(description=_("team or player"), ordering="position")
    def competitor(self, obj):
        return obj.team or obj.player

    @admin.display(description=_("games won–lost"), ordering="games_won")
    def games_line(self, obj):
        return f"{obj.games_won}–{obj.games_lost}"

    @admin.display(description=_("points for–against"), ordering="points_for")
    def points_line(self, obj):
        return f"{obj.points_for}–{obj.points_against}"


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(_ComputedAdmin):
    list_display = ("tournament", "computed_at", "duration_ms")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)


@admin.register(TaskRecord)
class TaskRecordAdmin(_ComputedAdmin):
    list_display = ("id", "kind", "tournament", "status", "created_by", "created_at", "updated_at")
    list_filter = ("kind", "status", ("tournament", RELATED_ONLY))
    search_fields = ("id", "tournament__name")
    list_select_related = ("tournament", "created_by")


@admin.register(DirectorAction)
class DirectorActionAdmin(_ComputedAdmin):
    """The director's desk's record: taken and reverted through the desk (API, workspace), never edited here."""

    list_display = ("tournament", "kind", "match", "entry", "reason", "actor", "created_at", "reverted_at")
    list_filter = ("kind", ("tournament", RELATED_ONLY))
    search_fields = ("tournament__name", "reason")
    list_select_related = ("tournament", "match__round", "match__ns", "match__ew", "entry__team", "entry__player",
                           "actor")

    def has_delete_permission(self, request, obj=None):
        return False
