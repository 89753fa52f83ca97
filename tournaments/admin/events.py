"""Tournaments, their entries, forbidden pairs and players kept apart in the admin: settings, pairing the next round,
the pairings' progress."""

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.http import Http404, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import scoring
from tournaments import access, links, refusals
from tournaments.admin.base import RELATED_ONLY, ScopedAdmin
from tournaments.admin.forms import TournamentAdminForm, default_variant, refusal_text
from tournaments.models import Entry, ForbiddenPair, KeptApart, Round, Stage, TaskRecord, Tournament
from tournaments.services.errors import ServiceError


class EntryInline(admin.TabularInline):
    """A team event's teams, or an individual event's players with their start numbers."""

    model = Entry
    extra = 0
    fields = ("team", "seed", "withdrawn", "withdrawn_after_round")
    individual_fields = ("player", "start_number", "fixed_table", "reserve", "replaces", "withdrawn",
                         "withdrawn_after_round")
    autocomplete_fields = ("team", "player")
    readonly_fields = ("replaces",)

    def get_fields(self, request, obj=None):
        return self.individual_fields if obj is not None and obj.is_individual else self.fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("team", "player").order_by("start_number", "seed", "id")


class KeptApartInline(admin.TabularInline):
    """An individual event's players who never share a table (the draws' hard rule)."""

    model = KeptApart
    extra = 0
    fields = ("player_a", "player_b", "reason")
    autocomplete_fields = ("player_a", "player_b")


class StageInline(admin.TabularInline):
    """The event's stages, read here: they are added through the services (``stage_add``), which check the
    whole plan against the entries; stage 1 follows the tournament's own format, rounds and match length."""

    model = Stage
    extra = 0
    fields = ("number", "format", "status", "rounds", "match_length", "best_of", "pools", "third_place",
              "tiebreak_deals", "qualification_shown", "entrants_link")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("entrants"))
    def entrants_link(self, obj):
        """Its entrants' read-only list (``StageEntrantAdmin``): the qualifiers, those placed by hand and why."""
        if not obj.pk:
            return "—"
        url = reverse("admin:tournaments_stageentrant_changelist") + f"?stage__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, gettext("entrants"))

    @admin.display(description=_("qualification"))
    def qualification_shown(self, obj):
        """The rule in its codes and numbers: ``top 8``, ``pools 2 + 1``, ``table_winners``, ``all``; then its carry."""
        if not obj.rule:
            return "—"
        shown = {"top": f"top {obj.rule_count}", "pools": f"pools {obj.rule_per_pool} + {obj.rule_best_next}"}
        return " ".join([shown.get(obj.rule, obj.rule), *(f"+{part}" for part in obj.rule_carry or ())])


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("stage_number", "number", "status", "published_at", "matches_link")
    readonly_fields = ("stage_number", "number", "status", "published_at", "matches_link")
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("stage")

    @admin.display(description=_("stage"))
    def stage_number(self, obj):
        return obj.stage.number if obj.stage_id else "—"

    def has_add_permission(self, request, obj=None):
        return False  # rounds are paired by the "pair the next round" button, through the service

    @admin.display(description=_("matches"))
    def matches_link(self, obj):
        if not obj.pk:
            return "—"
        url = reverse("admin:tournaments_match_changelist") + f"?round__id__exact={obj.pk}"
        count = obj.matches.count()
        return format_html('<a href="{}">{}</a>', url,
                           ngettext("%(count)s match", "%(count)s matches", count) % {"count": count})


@admin.register(Tournament)
class TournamentAdmin(ScopedAdmin):
    role = "organizer"
    list_display = ("name", "variant", "entry", "format", "rounds", "best_of", "status", "public", "club",
                    "starts_on")
    list_filter = ("variant", "entry", "format", "status", "public", ("club", RELATED_ONLY))
    search_fields = ("name", "slug", "club__name")
    prepopulated_fields = {"slug": ("name",)}
    # Searched among the active users, not a list of all.
    autocomplete_fields = ("organizers", "directors", "scorekeepers")
    inlines = [EntryInline, StageInline, RoundInline]
    date_hierarchy = "starts_on"
    fieldsets = (
        (None, {"fields": ("name", "slug", "club", "variant", "entry", "format", "rounds", "best_of", "options",
                           "public", "auto_publish", "status", "starts_on")}),
        (_("Match length"), {"classes": ("collapse",),
                             "fields": ("match_length", "match_games", "minutes", "at_time")}),
        (_("Individual events"), {"classes": ("collapse",),
                                  "fields": ("sit_out_score", "sit_out_fixed", "withdrawal", "club_best_n")}),
        (_("People"), {"fields": ("organizers", "directors", "scorekeepers")}),
        (_("Confirmation of results"), {"classes": ("collapse",),
                                        "fields": ("confirmation", "unconfirmed", "auto_confirm_minutes")}),
        (_("Standings and pairing"), {"classes": ("collapse",),
                                      "fields": ("tiebreaks", "points_win", "points_draw", "points_bye",
                                                 "separate_clubs_rounds", "double_round_robin")}),
    )
    form = TournamentAdminForm
    change_form_template = "admin/tournaments/tournament/change_form.html"
    # Shown, changed in the workspace or the API (``tournament_update``: turning it on publishes the rounds waiting).
    readonly_fields = ("auto_publish",)

    def get_inlines(self, request, obj):
        """An individual event's page also keeps its players apart. The stages show on an event's page, not on the
        add page: saving the event makes its stage 1 (a read-only formset there would only ask for its form)."""
        if obj is None:
            return [inline for inline in self.inlines if inline is not StageInline]
        if obj.is_individual:
            return [EntryInline, KeptApartInline, StageInline, RoundInline]
        return self.inlines

    def has_add_permission(self, request):
        # Any volunteer allowed to add tournaments may create one, and organizes it from then on (unless
        # TOURNAMENT_CREATORS keeps creating to staff: access.can_create_tournament).
        return admin.ModelAdmin.has_add_permission(self, request) and access.can_create_tournament(request.user) and (
            self.has_role(request) or access.managed_clubs(request.user).exists())

    class Media:
        js = ("tournaments/admin_variant.js",)  # the add page: a new variant reloads its house options

    def get_changeform_initial_data(self, request):
        # A new tournament starts hidden from the public site (its tests too); the organizer publishes it.
        return {"public": False, **super().get_changeform_initial_data(request)}

    def _form_variant(self, request, obj=None) -> str | None:
        """Return the variant whose house options the page shows: the tournament's, or the one chosen."""
        if obj is not None:
            return obj.variant
        slug = request.POST.get("variant") or request.GET.get("variant")
        return slug if slug in scoring.VARIANTS else default_variant()

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        variant = self._form_variant(request, obj)
        if variant not in scoring.VARIANTS:
            return fieldsets
        options = ("options_variant", *(f"option_{name}" for name in scoring.get_variant(variant).options))
        (name, first), *rest = fieldsets
        fields = tuple(f for f in first["fields"] if f != "options")
        return ((name, {**first, "fields": fields}), (_("House options"), {"fields": options}), *rest)

    def get_form(self, request, obj=None, change=False, **kwargs):
        fields = kwargs.get("fields") or flatten_fieldsets(self.get_fieldsets(request, obj))
        # The house options are shown as fields of their own, made by the form from the "options" JSON.
        fields = [f for f in fields if not f.startswith("option_") and f != "options_variant"]
        kwargs["fields"] = fields if "options" in fields else [*fields, "options"]
        return super().get_form(request, obj, change, **kwargs)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            form.instance.organizers.add(request.user)  # as the API does: its creator organizes it

    def get_urls(self):
        return [path("<int:object_id>/pair-next-round/", self.admin_site.admin_view(self.pair_next_round_view),
                     name="tournaments_tournament_pair_next_round"), *super().get_urls()]

    def pair_next_round_view(self, request, object_id):
        """Queue the pairing of the next round (the API's service and task); show its progress on the page."""
        from tournaments.services.rounds import round_pair_request

        tournament = self.get_object(request, str(object_id))
        if not self.has_change_permission(request, tournament):
            raise Http404
        if request.method == "POST":
            try:
                round_pair_request(tournament=tournament, user=request.user)
                self.message_user(request, gettext("The next round is being paired; its progress shows below."),
                                  messages.SUCCESS)
            except (ServiceError, scoring.RuleViolation) as exc:  # the words the workspace uses (translated)
                self.message_user(request, refusal_text(exc), messages.ERROR)
        return HttpResponseRedirect(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = dict(extra_context or {})
        tournament = self.get_object(request, object_id)
        pairings = list(TaskRecord.objects.filter(
            tournament=tournament, kind=TaskRecord.Kind.ROUND_PAIR).order_by("-created_at")[:3])
        for task in pairings:  # a refusal recorded in English, shown in the page's language (not saved)
            task.error = refusals.stored(task.error)
        extra_context["pairings"] = pairings
        extra_context["standings_url"] = links.url("standings", tournament)
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(Entry)
class EntryAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("competitor", "start_number", "tournament", "seed", "reserve", "withdrawn")
    list_filter = ("withdrawn", "reserve", ("tournament", RELATED_ONLY))
    search_fields = ("team__name", "player__name", "tournament__name")
    autocomplete_fields = ("team", "player", "tournament")
    readonly_fields = ("replaces",)
    list_select_related = ("team", "player", "tournament")

    @admin.display(description=_("team or player"))
    def competitor(self, obj):
        return obj.team or obj.player


@admin.register(KeptApart)
class KeptApartAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("tournament", "player_a", "player_b", "reason", "created_at")
    list_filter = (("tournament", RELATED_ONLY),)
    search_fields = ("player_a__name", "player_b__name", "tournament__name", "reason")
    autocomplete_fields = ("tournament", "player_a", "player_b")
    list_select_related = ("tournament", "player_a", "player_b")


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("tournament", "team_a", "team_b", "reason", "created_at")
    list_filter = (("tournament", RELATED_ONLY),)
    search_fields = ("team_a__name", "team_b__name", "tournament__name", "reason")
    autocomplete_fields = ("tournament", "team_a", "team_b")
    list_select_related = ("tournament", "team_a", "team_b")
