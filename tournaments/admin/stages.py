"""A stage's entrants in the admin, read only: the qualifiers ``stage_close`` stored and the entrants an organizer
placed by hand (``stage_place_entrant``), each with how it got there, its seed, pool and the rank it came from,
and, placed by hand, who placed it and when (the stage's log keeps the same). Changing them goes through the
services (the workspace's stages page, the API), which keep the stage's log."""

from django.contrib import admin
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import RELATED_ONLY, ScopedAdmin
from tournaments.models import StageEntrant

#: How an entrant came into its stage, in words (``StageEntrant.how``).
HOW_WORDS = {"top": _("in the first N"), "pool_place": _("place in the pool"),
             "next_place": _("best of the next place"), "table_winner": _("table winner"),
             "all": _("everyone"), "hand": _("placed by hand")}


@admin.register(StageEntrant)
class StageEntrantAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "stage__tournament"
    list_display = ("entrant", "tournament_name", "stage_number", "seed", "pool", "placement", "from_pool",
                    "qualified_from_rank", "created_at")
    list_filter = (("stage__tournament", RELATED_ONLY), "stage__number", "how", "placed_by_hand")
    search_fields = ("entry__team__name", "entry__player__name", "stage__tournament__name")
    ordering = ("stage__tournament", "stage__number", "seed")
    list_select_related = ("stage__tournament", "entry__team", "entry__player", "placed_by")
    fields = ("stage", "entry", "seed", "pool", "placement", "place", "from_pool", "qualified_from_rank",
              "carried", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("entrant"), ordering="seed")
    def entrant(self, obj):
        return str(obj.entry.team or obj.entry.player)

    @admin.display(description=_("tournament"), ordering="stage__tournament__name")
    def tournament_name(self, obj):
        return obj.stage.tournament.name

    @admin.display(description=_("stage"), ordering="stage__number")
    def stage_number(self, obj):
        return obj.stage.number

    @admin.display(description=_("placement"))
    def placement(self, obj):
        """How it came in (its place in its pool or table), and, placed by hand, by whom and when."""
        words = str(HOW_WORDS.get(obj.how, obj.how or "—"))
        if obj.place and obj.how != "hand":
            words = gettext("%(how)s, place %(place)s") % {"how": words, "place": obj.place}
        if obj.placed_by_hand:
            who = obj.placed_by.get_username() if obj.placed_by_id else "—"
            words = gettext("%(how)s by %(who)s, %(when)s") % {
                "how": words, "who": who, "when": obj.created_at.strftime("%Y-%m-%d %H:%M")}
        return words
