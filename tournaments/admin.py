"""The admin: where club volunteers type results from paper score sheets.

Hands are entered inline on their game, in order, checked by the rules engine as a whole game
before anything is saved; saving goes through the same services as the API, so the admin can
never store a score the engine did not compute.
"""

import scoring
from django.contrib import admin, messages
from django.db import transaction
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from tournaments.admin_forms import (
    HandInlineForm,
    HandInlineFormSet,
    NextGameForm,
    TournamentAdminForm,
    form_hand_data,
)
from tournaments.models import (
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Hand,
    Match,
    Player,
    Round,
    Standing,
    StandingsSnapshot,
    TaskRecord,
    Team,
    Tournament,
)
from tournaments.services.errors import ServiceError
from tournaments.services.games import game_start
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter

COMPUTED_HAND_FIELDS = ("multiplier", "score_line", "bonus_line", "totals_line", "labels_line")


def _refusal_message(exc: Exception) -> str:
    if isinstance(exc, scoring.RuleViolation):
        return "; ".join(f"{v.message} [{v.code}]" for v in exc.violations)
    return f"{exc} [{getattr(exc, 'code', 'error')}]"


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "player_count", "team_count")
    search_fields = ("name", "city")
    list_filter = ("city",)
    filter_horizontal = ("managers",)

    def get_queryset(self, request):
        from django.db.models import Count

        return super().get_queryset(request).annotate(
            _players=Count("players", distinct=True), _teams=Count("teams", distinct=True))

    @admin.display(description="players", ordering="_players")
    def player_count(self, obj):
        return obj._players

    @admin.display(description="teams", ordering="_teams")
    def team_count(self, obj):
        return obj._teams


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "licence", "user")
    list_filter = ("club",)
    search_fields = ("name", "licence", "club__name")
    autocomplete_fields = ("club", "user")
    list_select_related = ("club", "user")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "player_1", "player_2")
    list_filter = ("club",)
    search_fields = ("name", "club__name", "player_1__name", "player_2__name")
    autocomplete_fields = ("club", "player_1", "player_2")
    list_select_related = ("club", "player_1", "player_2")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("team", "seed", "withdrawn", "withdrawn_after_round")
    autocomplete_fields = ("team",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "matches_link")
    readonly_fields = ("matches_link",)
    show_change_link = True

    @admin.display(description="matches")
    def matches_link(self, obj):
        if not obj.pk:
            return "—"
        url = reverse("admin:tournaments_match_changelist") + f"?round__id__exact={obj.pk}"
        return format_html('<a href="{}">{} matches</a>', url, obj.matches.count())


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "format", "rounds", "best_of", "status", "public", "club", "starts_on")
    list_filter = ("variant", "format", "status", "public", "club")
    search_fields = ("name", "slug", "club__name")
    prepopulated_fields = {"slug": ("name",)}
    autocomplete_fields = ("club",)
    filter_horizontal = ("organizers", "scorekeepers")
    inlines = [EntryInline, RoundInline]
    date_hierarchy = "starts_on"
    fieldsets = (
        (None, {"fields": ("name", "slug", "club", "variant", "format", "rounds", "best_of", "options",
                           "public", "status", "starts_on")}),
        ("People", {"fields": ("organizers", "scorekeepers")}),
        ("Standings and pairing", {"classes": ("collapse",),
                                   "fields": ("tiebreaks", "points_win", "points_draw", "points_bye",
                                              "separate_clubs_rounds", "double_round_robin")}),
    )

    form = TournamentAdminForm


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("team", "tournament", "seed", "withdrawn")
    list_filter = ("withdrawn", "tournament")
    search_fields = ("team__name", "tournament__name")
    autocomplete_fields = ("team", "tournament")
    list_select_related = ("team", "tournament")


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ("table", "ns", "ew", "status", "winner", "games_won_ns", "games_won_ew")
    readonly_fields = ("status", "winner", "games_won_ns", "games_won_ew")
    autocomplete_fields = ("ns", "ew")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "status")
    list_filter = ("status", "tournament")
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)
    inlines = [MatchInline]
    list_select_related = ("tournament",)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("number", "first_dealer", "status", "total_ns", "total_ew", "winner", "next_dealer")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # games are started by the "start the next game" action, through the service


@admin.action(description="Start the next game of the selected matches")
def start_next_game(modeladmin, request, queryset):
    """Ask for the first dealer, then start each selected match's next game through the service."""
    form = NextGameForm(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        started = 0
        for match in queryset:
            try:
                game_start(match=match, user=request.user, **form.cleaned_data)
                started += 1
            except (scoring.RuleViolation, ServiceError) as exc:
                modeladmin.message_user(request, f"{match}: {_refusal_message(exc)}", messages.ERROR)
        if started:
            modeladmin.message_user(request, f"Started the next game of {started} match(es).", messages.SUCCESS)
        return None
    return TemplateResponse(request, "admin/tournaments/start_next_game.html", {
        **modeladmin.admin_site.each_context(request),
        "title": "Start the next game",
        "matches": queryset,
        "form": form,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    })


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "table", "ns", "ew", "status", "score_line", "winner")
    list_filter = ("status", "round__tournament", "round__number")
    search_fields = ("ns__name", "ew__name", "round__tournament__name")
    autocomplete_fields = ("ns", "ew", "round")
    readonly_fields = ("status", "winner", "games_won_ns", "games_won_ew", "scoreboard_link")
    list_select_related = ("round__tournament", "ns", "ew")
    inlines = [GameInline]
    actions = [start_next_game]

    @admin.display(description="games")
    def score_line(self, obj):
        return f"{obj.games_won_ns}–{obj.games_won_ew}"

    @admin.display(description="scoreboard (API)")
    def scoreboard_link(self, obj):
        if not obj.pk:
            return "—"
        url = f"/api/v1/matches/{obj.pk}/"
        return format_html('<a href="{}">{}</a>', url, url)


class HandInline(admin.TabularInline):
    model = Hand
    form = HandInlineForm
    formset = HandInlineFormSet
    extra = 1
    ordering = ("number",)
    fields = ("number", *HandInlineForm.Meta.fields, *COMPUTED_HAND_FIELDS, "history_link")
    readonly_fields = ("number", *COMPUTED_HAND_FIELDS, "history_link")

    @admin.display(description="history")
    def history_link(self, obj):
        if not obj.pk:
            return "—"
        url = reverse("admin:tournaments_hand_history", args=[obj.pk])
        return format_html('<a href="{}">history</a>', url)

    @admin.display(description="score ns–ew")
    def score_line(self, obj):
        return f"{obj.score_ns}–{obj.score_ew}" if obj.pk else "—"

    @admin.display(description="turn-up bonus")
    def bonus_line(self, obj):
        bonus = obj.bonus
        if not bonus:
            return "—"
        state = "held back, " if bonus.get("held_back") else ""
        state += "added" if bonus.get("applied") else "lost"
        return f"{bonus['side']} +{bonus['points']} ({state})"

    @admin.display(description="totals ns–ew")
    def totals_line(self, obj):
        if not obj.pk:
            return "—"
        won = f" (game to {obj.game_winner})" if obj.game_winner else ""
        return f"{obj.total_ns}–{obj.total_ew}{won}"

    @admin.display(description="notes")
    def labels_line(self, obj):
        labels = list(obj.labels or [])
        if obj.all_tricks and "all_tricks" not in labels:
            labels.insert(0, "all tricks")
        return ", ".join(labels) or "—"

    def get_fields(self, request, obj=None):
        """Show only the calls the game's variant knows (no turned card in Belgium, no doublings in Spain)."""
        fields = list(super().get_fields(request, obj))
        if obj is None:
            return fields
        variant = scoring.get_variant(obj.match.round.tournament.variant)
        hidden = set()
        if variant.trump_mode != "turned":
            hidden.add("turned_card")
        if not variant.doublings:
            hidden.add("doublings")
        if variant.blind_multiplier <= 1:
            hidden.add("blind")
        if not variant.penalties:
            hidden |= {"penalty_type", "penalty_side"}
        return [f for f in fields if f not in hidden]

    def has_add_permission(self, request, obj=None):
        return obj is not None and obj.status == Game.Status.PLAYING and super().has_add_permission(request, obj)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "match", "number", "status", "total_ns", "total_ew", "winner", "next_dealer")
    list_filter = ("status", "match__round__tournament")
    search_fields = ("match__ns__name", "match__ew__name", "match__round__tournament__name")
    list_select_related = ("match__round__tournament", "match__ns", "match__ew")
    readonly_fields = ("match", "number", "first_dealer", "favourite", "albur", "status", "total_ns", "total_ew",
                       "winner", "next_dealer", "next_multiplier", "tie_pending")
    fieldsets = (
        (None, {"fields": (("match", "number", "status"), ("total_ns", "total_ew", "winner"),
                           ("first_dealer", "next_dealer", "next_multiplier", "tie_pending"),
                           ("favourite", "albur"))}),
    )
    inlines = [HandInline]

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        variant = scoring.get_variant(obj.match.round.tournament.variant)
        if variant.favourite or variant.albur_points:
            return fieldsets
        (name, options), = fieldsets
        rows = tuple(row for row in options["fields"] if row != ("favourite", "albur"))
        return ((name, {**options, "fields": rows}),)

    def has_add_permission(self, request):
        return False  # started by the match's "start the next game" action, through the service

    def has_delete_permission(self, request, obj=None):
        return False  # its hands are deleted one by one from the last, which keeps the match's result right

    def save_formset(self, request, form, formset, change):
        """Save the inline hands through the services, in order: deletions, corrections, then new hands."""
        if formset.model is not Hand:
            return super().save_formset(request, form, formset, change)
        game = form.instance
        try:
            with transaction.atomic():
                for hand_form in formset.deleted_forms:
                    if hand_form.instance.pk:
                        hand_delete_last(hand=hand_form.instance, user=request.user)
                changed = [f for f in formset.forms if f.instance.pk and f not in formset.deleted_forms
                           and f.has_changed()]
                for hand_form in sorted(changed, key=lambda f: f.instance.number):
                    hand_correct(hand=hand_form.instance, data=form_hand_data(hand_form.cleaned_data),
                                 user=request.user)
                new = [f for f in formset.forms if not f.instance.pk and f.has_changed()
                       and f not in formset.deleted_forms]
                for hand_form in new:
                    hand_enter(match=game.match, data=form_hand_data(hand_form.cleaned_data), user=request.user)
        except (scoring.RuleViolation, ServiceError) as exc:
            # The formset's clean() folded the same game, so this is a race with another writer.
            self.message_user(request, f"Nothing saved: {_refusal_message(exc)}", messages.ERROR)
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = ("__str__", "game", "dealer", "trump", "points_ns", "points_ew", "score_ns", "score_ew",
                    "total_ns", "total_ew", "updated_at")
    list_filter = ("game__match__round__tournament", "trump", "thrown_in")
    search_fields = ("game__match__ns__name", "game__match__ew__name")
    list_select_related = ("game__match__round", "game__match__ns", "game__match__ew")
    readonly_fields = [f.name for f in Hand._meta.fields]
    history_list_display = ("score_ns", "score_ew", "total_ns", "total_ew")

    def has_add_permission(self, request):
        return False  # hands are entered on their game, where the whole game is checked

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through the game's inline, which re-scores the rest

    def has_delete_permission(self, request, obj=None):
        return False


class _ComputedAdmin(admin.ModelAdmin):
    """Rows the service writes itself (standings, snapshots, task records): shown, never added or edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Standing)
class StandingAdmin(_ComputedAdmin):
    list_display = ("tournament", "rank", "team", "played", "won", "drawn", "lost", "match_points", "games_won",
                    "games_lost", "points_for", "points_against", "computed_at")
    list_filter = ("tournament",)
    search_fields = ("team__name", "tournament__name")
    list_select_related = ("tournament", "team")


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ("tournament", "team_a", "team_b", "reason", "created_at")
    list_filter = ("tournament",)
    search_fields = ("team_a__name", "team_b__name", "tournament__name", "reason")
    autocomplete_fields = ("tournament", "team_a", "team_b")
    list_select_related = ("tournament", "team_a", "team_b")


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(_ComputedAdmin):
    list_display = ("tournament", "computed_at", "duration_ms")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)


@admin.register(TaskRecord)
class TaskRecordAdmin(_ComputedAdmin):
    list_display = ("id", "kind", "tournament", "status", "created_by", "created_at", "updated_at")
    list_filter = ("kind", "status", "tournament")
    search_fields = ("id", "tournament__name")
    list_select_related = ("tournament", "created_by")
