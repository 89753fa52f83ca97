"""The admin: where club volunteers type results from paper score sheets.

Hands are entered inline on their game, in order, checked by the rules engine as a whole game
before anything is saved; saving goes through the same services as the API, so the admin can
never store a score the engine did not compute.
"""

import dataclasses

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

import scoring
from tournaments import access, links, refusals
from tournaments.admin_forms import (
    HandInlineForm,
    HandInlineFormSet,
    NextGameForm,
    TournamentAdminForm,
    default_variant,
    hand_form_for,
    refusal_text,
    side_names,
    team_header,
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
from tournaments.query_text import NullSafeAdminMixin
from tournaments.services.errors import ServiceError
from tournaments.services.games import game_start, hand_next
from tournaments.services.hand_data import hand_form_changes, hand_from_fields
from tournaments.services.sheets import game_sheet_apply
from tournaments.vocabulary import LABEL_WORDS, PENALTY_LABELS

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


@admin.register(Player)
class PlayerAdmin(RetiredColumn, ClubScopedAdmin):
    list_display = ("name", "club", "licence", "user", "retired_flag")
    list_filter = (("retired", RetiredFilter), ("club", RELATED_ONLY))
    search_fields = ("name", "licence", "club__name")
    autocomplete_fields = ("club", "user")
    list_select_related = ("club", "user")


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
            and request.GET.get("field_name") in ("organizers", "scorekeepers")
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


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("team", "seed", "withdrawn", "withdrawn_after_round")
    autocomplete_fields = ("team",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "matches_link")
    readonly_fields = ("number", "status", "matches_link")
    show_change_link = True

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
    list_display = ("name", "variant", "format", "rounds", "best_of", "status", "public", "club", "starts_on")
    list_filter = ("variant", "format", "status", "public", ("club", RELATED_ONLY))
    search_fields = ("name", "slug", "club__name")
    prepopulated_fields = {"slug": ("name",)}
    autocomplete_fields = ("organizers", "scorekeepers")  # searched among the active users, not a list of all
    inlines = [EntryInline, RoundInline]
    date_hierarchy = "starts_on"
    fieldsets = (
        (None, {"fields": ("name", "slug", "club", "variant", "format", "rounds", "best_of", "options",
                           "public", "status", "starts_on")}),
        (_("People"), {"fields": ("organizers", "scorekeepers")}),
        (_("Standings and pairing"), {"classes": ("collapse",),
                                      "fields": ("tiebreaks", "points_win", "points_draw", "points_bye",
                                                 "separate_clubs_rounds", "double_round_robin")}),
    )
    form = TournamentAdminForm
    change_form_template = "admin/tournaments/tournament/change_form.html"

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
    list_display = ("team", "tournament", "seed", "withdrawn")
    list_filter = ("withdrawn", ("tournament", RELATED_ONLY))
    search_fields = ("team__name", "tournament__name")
    autocomplete_fields = ("team", "tournament")
    list_select_related = ("team", "tournament")


def _has_hands(match: Match) -> bool:
    return Hand.objects.filter(game__match=match).exists()


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ("table", "ns", "ew", "status", "winner", "games_won_ns", "games_won_ew")
    readonly_fields = ("status", "winner", "games_won_ns", "games_won_ew")
    autocomplete_fields = ("ns", "ew")
    show_change_link = True

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and Hand.objects.filter(game__match__round=obj).exists():
            return ("table", "ns", "ew", *self.readonly_fields)  # results exist: the teams stay as they played
        return self.readonly_fields


@admin.register(Round)
class RoundAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("__str__", "tournament", "number", "status")
    list_filter = ("status", ("tournament", RELATED_ONLY))
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)
    readonly_fields = ("status",)
    inlines = [MatchInline]
    list_select_related = ("tournament",)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:
            return ("tournament", "number", "status")
        return self.readonly_fields


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("number", "first_dealer", "status", "total_ns", "total_ew", "winner", "next_dealer")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # games are started by "start the next game", through the service


def _start_next_game(request, match, form) -> Game | None:
    """Start the match's next game with the form's draws; say why not in plain words."""
    try:
        return game_start(match=match, user=request.user, **form.cleaned_data)
    except (scoring.RuleViolation, ServiceError) as exc:
        messages.error(request, f"{match}: {refusal_text(exc, side_names(match))}")
        return None


@admin.action(description=_("Start the next game of the selected matches"))
def start_next_game(modeladmin, request, queryset):
    """Ask for the first dealer, then start each selected match's next game through the service."""
    matches = list(queryset.select_related("round__tournament", "ns", "ew"))
    single = matches[0] if len(matches) == 1 else None
    form = NextGameForm(request.POST if "apply" in request.POST else None, match=single)
    if "apply" in request.POST and form.is_valid():
        started = [game for match in matches if (game := _start_next_game(request, match, form))]
        if started:
            modeladmin.message_user(request, ngettext("Started the next game of %(count)s match.",
                                                      "Started the next game of %(count)s matches.",
                                                      len(started)) % {"count": len(started)}, messages.SUCCESS)
        if single and started:
            return HttpResponseRedirect(reverse("admin:tournaments_game_change", args=[started[0].pk]))
        return None
    return TemplateResponse(request, "admin/tournaments/start_next_game.html", {
        **modeladmin.admin_site.each_context(request),
        "title": gettext("Start the next game"),
        "matches": matches,
        "form": form,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
        "cancel_url": reverse("admin:tournaments_match_changelist"),
    })


@admin.register(Match)
class MatchAdmin(ScopedAdmin):
    scope_path = "round__tournament"
    # The match's name says its round, table and teams: the list fits a 1,024 px screen.
    list_display = ("__str__", "round", "status", "score_line", "winner")
    list_filter = ("status", ("round__tournament", RELATED_ONLY), "round__number")
    search_fields = ("ns__name", "ew__name", "round__tournament__name")
    autocomplete_fields = ("ns", "ew", "round")
    readonly_fields = ("status", "winner", "games_won_ns", "games_won_ew", "points_ns", "points_ew",
                       "explanation", "scoreboard_link")
    list_select_related = ("round__tournament", "ns", "ew")
    inlines = [GameInline]
    actions = [start_next_game]
    change_form_template = "admin/tournaments/match/change_form.html"

    def has_add_permission(self, request):
        return super().has_add_permission(request) and (
            access.is_unscoped(request.user) or access.organized_tournaments(request.user).exists())

    def get_readonly_fields(self, request, obj=None):
        fields = self.readonly_fields
        if obj is not None and (_has_hands(obj) or not access.is_organizer(request.user, obj.round.tournament_id)
                                and not access.is_unscoped(request.user)):
            # Results exist (or the user only keeps score): the pairing stays as it was played.
            fields = ("round", "table", "ns", "ew", *fields)
        return fields

    @admin.display(description=_("games"))
    def score_line(self, obj):
        return f"{obj.games_won_ns}–{obj.games_won_ew}"

    @admin.display(description=_("scoreboard"))
    def scoreboard_link(self, obj):
        if not obj.pk:
            return "—"
        url = links.url("match", obj)
        if url is None:  # no site installed
            return "—"
        return format_html('<a href="{}">{}</a>', url, gettext("the public scoreboard"))

    def get_urls(self):
        return [path("<int:object_id>/start-next-game/", self.admin_site.admin_view(self.start_next_game_view),
                     name="tournaments_match_start_next_game"), *super().get_urls()]

    def start_next_game_view(self, request, object_id):
        """Ask for the next game's draws (the teams named), start it and open it; Cancel goes back."""
        match = self.get_object(request, str(object_id))
        if not self.has_change_permission(request, match):
            raise Http404
        form = NextGameForm(request.POST or None, match=match)
        if request.method == "POST" and form.is_valid():
            game = _start_next_game(request, match, form)
            if game is not None:
                self.message_user(request, gettext("Game %(number)s started.") % {"number": game.number},
                                  messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:tournaments_game_change", args=[game.pk]))
        return TemplateResponse(request, "admin/tournaments/start_next_game.html", {
            **self.admin_site.each_context(request),
            "title": gettext("Start the next game"),
            "matches": [match],
            "form": form,
            "opts": self.model._meta,
            "cancel_url": reverse("admin:tournaments_match_change", args=[match.pk]),
        })

    def change_view(self, request, object_id, form_url="", extra_context=None):
        match = self.get_object(request, object_id)
        extra_context = {**(extra_context or {}), "can_start_next_game": _can_start_next_game(match)}
        return super().change_view(request, object_id, form_url, extra_context)


def _can_start_next_game(match: Match) -> bool:
    last = match.games.order_by("-number").first()
    return hand_next(match=match, games=[last] if last else [], played=0).starts_game


class HandInline(admin.TabularInline):
    model = Hand
    form = HandInlineForm
    formset = HandInlineFormSet
    extra = 1
    ordering = ("number",)
    fields = ("number", *HandInlineForm.Meta.fields, *COMPUTED_HAND_FIELDS, "history_link")
    readonly_fields = ("number", *COMPUTED_HAND_FIELDS, "history_link")

    @admin.display(description=_("history"))
    def history_link(self, obj):
        if not obj.pk:
            return "—"
        url = reverse("admin:tournaments_hand_history", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("history"))

    @admin.display(description="×")
    def multiplier_line(self, obj):
        if obj.pk:
            return f"×{obj.multiplier}"
        game = getattr(obj, "game", None)
        return f"×{game.next_multiplier}" if game is not None else "—"  # the blank row: what the next hand counts

    @admin.display(description=_("score"))
    def score_line(self, obj):
        return f"{obj.score_ns}–{obj.score_ew}" if obj.pk else "—"

    @admin.display(description=_("turn-up bonus"))
    def bonus_line(self, obj):
        bonus = obj.bonus
        if not bonus:
            return "—"
        names = side_names(obj.game.match)
        state = gettext("held back") + ", " if bonus.get("held_back") else ""
        state += gettext("added") if bonus.get("applied") else gettext("lost")
        return f"{names.get(bonus['side'], bonus['side'])} +{bonus['points']} ({state})"

    @admin.display(description=_("totals"))
    def totals_line(self, obj):
        if not obj.pk:
            return "—"
        return f"{obj.total_ns}–{obj.total_ew}"

    @admin.display(description=_("notes"))
    def labels_line(self, obj):
        labels = [str(LABEL_WORDS.get(label, label.replace("_", " "))) for label in (obj.labels or [])]
        if obj.all_tricks and "all_tricks" not in (obj.labels or []):
            labels.insert(0, str(LABEL_WORDS["all_tricks"]))
        if obj.game_winner:
            labels.append(gettext("game to %(team)s") % {
                "team": side_names(obj.game.match).get(obj.game_winner, obj.game_winner)})
        return ", ".join(labels) or "—"

    def get_formset(self, request, obj=None, **kwargs):
        if obj is not None:
            kwargs["form"] = hand_form_for(obj)
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        """Show only the calls and columns the game's variant knows (no turned card in Belgium, no doublings in Spain)."""
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
        if not variant.turn_up_bonus:
            hidden.add("bonus_line")
        return [f for f in fields if f not in hidden]

    def has_add_permission(self, request, obj=None):
        return obj is not None and obj.status == Game.Status.PLAYING and super().has_add_permission(request, obj)


def _team_headers(inline: HandInline, match: Match) -> None:
    """Name the teams in the score and totals columns' headers of this page's hand table."""
    names = side_names(match)
    for name, title in (("score_line", _("score")), ("totals_line", _("totals"))):
        method = getattr(type(inline), name)

        def column(obj, method=method):
            return method(inline, obj)

        column.short_description = format_html("{} {}–{}", title, team_header("%(team)s", names["ns"]),
                                               team_header("%(team)s", names["ew"]))
        setattr(inline, name, column)


@admin.register(Game)
class GameAdmin(ScopedAdmin):
    scope_path = "match__round__tournament"
    # The game's name says its number and match; its totals as one column: the list fits a 1,024 px screen.
    list_display = ("__str__", "status", "totals_named", "winner_named", "next_dealer")
    list_filter = ("status", ("match__round__tournament", RELATED_ONLY))
    search_fields = ("match__ns__name", "match__ew__name", "match__round__tournament__name")
    list_select_related = ("match__round__tournament", "match__ns", "match__ew")
    readonly_fields = ("match", "number", "first_dealer", "favourite", "albur", "status", "totals_named",
                       "winner_named", "next_dealer", "next_multiplier", "tie_pending")
    fieldsets = (
        (None, {"fields": (("match", "number", "status"), ("totals_named", "winner_named"),
                           ("first_dealer", "next_dealer", "next_multiplier", "tie_pending"),
                           ("favourite", "albur"))}),
    )
    inlines = [HandInline]
    change_form_template = "admin/tournaments/game/change_form.html"

    class Media:
        js = ("tournaments/admin_hands.js",)  # "Add another" hand rows: the next dealer in the variant's direction

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

    @admin.display(description=_("totals"))
    def totals_named(self, obj):
        names = side_names(obj.match)
        return f"{names['ns']} {obj.total_ns} – {obj.total_ew} {names['ew']}"

    @admin.display(description=_("winner"))
    def winner_named(self, obj):
        return side_names(obj.match).get(obj.winner, "—") if obj.winner else "—"

    def get_inline_instances(self, request, obj=None):
        inlines = super().get_inline_instances(request, obj)
        for inline in inlines:
            if isinstance(inline, HandInline) and obj is not None:
                _team_headers(inline, obj.match)
        return inlines

    def has_add_permission(self, request):
        return False  # started by the match's "start the next game", through the service

    def has_delete_permission(self, request, obj=None):
        return False  # its hands are deleted one by one from the last, which keeps the match's result right

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        tournament = game.match.round.tournament
        next_seat = tournament.variant_obj.rules(tournament.options or {}).next_seat
        extra_context = {**(extra_context or {}), "can_start_next_game": _can_start_next_game(game.match),
                         "next_seat": " ".join(f"{seat}:{next_seat[seat]}" for seat in ("N", "E", "S", "W")),
                         "match_url": reverse("admin:tournaments_match_change", args=[game.match_id]),
                         "start_next_game_url": reverse("admin:tournaments_match_start_next_game",
                                                        args=[game.match_id])}
        return super().change_view(request, object_id, form_url, extra_context)

    def save_formset(self, request, form, formset, change):
        """Save the inline hands as one sheet through the services (``game_sheet_apply``): all of them or none."""
        if formset.model is not Hand:
            return super().save_formset(request, form, formset, change)
        game = form.instance
        reason = getattr(formset, "correction_reason", "")  # required by the formset when a stored hand changes
        kept = [f for f in formset.forms if f not in formset.deleted_forms and f.has_changed()]
        try:
            # A corrected row replaces every field it shows: the hand stored is the one the formset checked.
            game_sheet_apply(
                game=game, deleted=[f.instance for f in formset.deleted_forms if f.instance.pk],
                corrected=[(f.instance, hand_form_changes(hand_from_fields(f.cleaned_data)))
                           for f in kept if f.instance.pk],
                entered=[hand_from_fields(f.cleaned_data) for f in kept if not f.instance.pk],
                user=request.user, reason=reason)
        except (scoring.RuleViolation, ServiceError) as exc:
            # The formset's clean() folded the same game, so this is a race with another writer.
            request._hands_refused = True
            self.message_user(request, gettext("Nothing saved: %(reason)s")
                              % {"reason": refusal_text(exc, side_names(game.match))}, messages.ERROR)
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []

    def response_change(self, request, obj):
        """Stay on the game; once it is finished, offer its match's next game right there."""
        url = reverse("admin:tournaments_game_change", args=[obj.pk])
        if getattr(request, "_hands_refused", False):
            return HttpResponseRedirect(url)
        obj.refresh_from_db()
        if obj.status == Game.Status.FINISHED and _can_start_next_game(obj.match):
            start = reverse("admin:tournaments_match_start_next_game", args=[obj.match_id])
            self.message_user(request, format_html(
                '{} <a class="button" href="{}">{}</a>', gettext("Saved: the game is finished."), start,
                gettext("Start the next game")), messages.SUCCESS)
        else:
            self.message_user(request, gettext("Saved."), messages.SUCCESS)
        return HttpResponseRedirect(url)


#: A hand's columns in the volunteer's words; %(team)s is the team of that side.
HAND_FIELD_WORDS = {
    "number": _("hand number"), "dealer": _("dealer"), "trump": _("trump"), "turned_card": _("turned card"),
    "blind": _("blind"), "doublings": _("doublings"),
    "tricks_ns": _("tricks %(team)s"), "tricks_ew": _("tricks %(team)s"),
    "points_ns": _("points %(team)s"), "points_ew": _("points %(team)s"),
    "penalty_type": _("penalty"), "penalty_side": _("penalty by"), "thrown_in": _("thrown in"),
    "sheet_score": _("score on the sheet"), "play": _("card play"), "multiplier": _("multiplier"),
    "all_tricks": _("all the tricks"), "score_ns": _("score %(team)s"), "score_ew": _("score %(team)s"),
    "bonus": _("turn-up bonus"), "total_ns": _("total %(team)s"), "total_ew": _("total %(team)s"),
    "game_winner": _("game won by"), "labels": _("notes"), "idempotency_key": _("retry key"),
    "entered_by": _("entered by"), "created_at": _("entered at"), "updated_at": _("changed at"),
}
#: The columns whose value is a side ("ns", "ew"): shown as its team's name.
SIDE_VALUED = ("penalty_side", "game_winner")


def hand_field_label(field: str, names: dict) -> str:
    """Return a hand column in words, with its team's name for a side's column ("points Ajuinen")."""
    words = HAND_FIELD_WORDS.get(field)
    if words is None:
        return field.replace("_", " ")
    side = field[-2:] if field.endswith(("_ns", "_ew")) else None
    return (str(words) % {"team": names.get(side, side.upper())}).strip() if side else str(words)


class _HandHistoryHelper(HistoricalRecordContextHelper):
    """A hand's history in words: its columns named, the sides by their teams' names."""

    def __init__(self, model, historical_record, *, names: dict):
        super().__init__(model, historical_record)
        self.names = names

    def format_delta_change(self, change):
        formatted = super().format_delta_change(change)
        old, new = formatted.old, formatted.new
        if change.field in SIDE_VALUED:
            old, new = (self.names.get(value, value) for value in (change.old, change.new))
        elif change.field == "labels":
            old, new = (", ".join(str(LABEL_WORDS.get(label, label.replace("_", " "))) for label in value or [])
                        or "—" for value in (change.old, change.new))
        elif change.field == "penalty_type":
            old, new = (str(PENALTY_LABELS.get(value, value)) for value in (change.old, change.new))
        return dataclasses.replace(formatted, field=capfirst(hand_field_label(change.field, self.names)),
                                   old=old, new=new)


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin, ScopedAdmin):
    scope_path = "game__match__round__tournament"
    # Each side's points, score and total as one "ns–ew" column: the list fits a 1,024 px screen.
    list_display = ("__str__", "game", "dealer", "trump", "points_line", "score_line", "totals_line", "updated_at")
    list_filter = (("game__match__round__tournament", RELATED_ONLY), "trump", "thrown_in")
    search_fields = ("game__match__ns__name", "game__match__ew__name")
    list_select_related = ("game__match__round", "game__match__ns", "game__match__ew")
    readonly_fields = [f.name for f in Hand._meta.fields]
    history_list_display = ("score_line", "totals_line")
    object_history_list_template = "admin/tournaments/hand/object_history_list.html"
    object_history_form_template = "admin/tournaments/hand/object_history_form.html"

    @admin.display(description=_("points"))
    def points_line(self, obj):
        if obj.points_ns is None and obj.points_ew is None:
            return "—"
        return f"{'' if obj.points_ns is None else obj.points_ns}–{'' if obj.points_ew is None else obj.points_ew}"

    @admin.display(description=_("score"))
    def score_line(self, obj):
        return f"{obj.score_ns}–{obj.score_ew}"

    @admin.display(description=_("totals"))
    def totals_line(self, obj):
        return f"{obj.total_ns}–{obj.total_ew}"

    def history_view(self, request, object_id, extra_context=None):
        from django.contrib.admin.utils import unquote

        hand = self.get_queryset(request).select_related("game__match__ns", "game__match__ew").filter(
            pk=unquote(object_id)).first()
        if hand is None and not access.is_unscoped(request.user):
            raise Http404(gettext("No such object."))
        names = side_names(hand.game.match) if hand is not None else {"ns": "NS", "ew": "EW"}
        request._hand_side_names = names
        columns = [(column, f"{self._history_column_title(column)} {names['ns']}–{names['ew']}")
                   for column in self.get_history_list_display(request)]
        extra_context = {**(extra_context or {}), "history_columns": columns}
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        # A version's page says when, by whom and why it was made (the correction's reason), above its fields.
        from django.contrib.admin.utils import unquote

        version = (self.model.history.filter(id=unquote(object_id), history_id=unquote(version_id))
                   .select_related("history_user").first())
        return super().history_form_view(request, object_id, version_id,
                                         {**(extra_context or {}), "version": version})

    def _history_column_title(self, column: str) -> str:
        method = getattr(self, column, None)
        return str(getattr(method, "short_description", None) or hand_field_label(column, {"ns": "", "ew": ""}))

    def get_historical_record_context_helper(self, request, historical_record):
        names = getattr(request, "_hand_side_names", None) or {"ns": "NS", "ew": "EW"}
        return _HandHistoryHelper(self.model, historical_record, names=names)

    def has_add_permission(self, request):
        return False  # hands are entered on their game, where the whole game is checked

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through the game's inline, which re-scores the rest

    def has_delete_permission(self, request, obj=None):
        return False


class _ComputedAdmin(ScopedAdmin):
    """Rows the service writes itself (standings, snapshots, task records): shown, never added or edited here."""

    role = "organizer"
    scope_path = "tournament"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Standing)
class StandingAdmin(_ComputedAdmin):
    # Games and points as "won–lost" columns, the time of the computation on the row's page: fits 1,024 px.
    list_display = ("tournament", "rank", "team", "played", "won", "drawn", "lost", "match_points", "games_line",
                    "points_line")
    list_filter = (("tournament", RELATED_ONLY),)
    search_fields = ("team__name", "tournament__name")
    list_select_related = ("tournament", "team")

    @admin.display(description=_("games won–lost"), ordering="games_won")
    def games_line(self, obj):
        return f"{obj.games_won}–{obj.games_lost}"

    @admin.display(description=_("points for–against"), ordering="points_for")
    def points_line(self, obj):
        return f"{obj.points_for}–{obj.points_against}"


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("tournament", "team_a", "team_b", "reason", "created_at")
    list_filter = (("tournament", RELATED_ONLY),)
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
    list_filter = ("kind", "status", ("tournament", RELATED_ONLY))
    search_fields = ("id", "tournament__name")
    list_select_related = ("tournament", "created_by")


def _now_matches(request) -> list[Match]:
    """Return the matches in progress of the user's tournaments, each with its game in progress."""
    from django.db.models import Q

    # Playing, or waiting for its first game in a round still open (a volunteer enters it from paper).
    matches = Match.objects.filter(
        Q(status=Match.Status.PLAYING)
        | Q(status=Match.Status.SCHEDULED, ew__isnull=False) & ~Q(round__status=Round.Status.FINISHED)
    ).select_related("round__tournament", "ns", "ew")
    if not access.is_unscoped(request.user):
        matches = matches.filter(round__tournament__in=access.scorekept_tournaments(request.user).values("pk"))
    matches = list(matches.order_by("round__tournament__name", "round__number", "table")[:50])
    games = {g.match_id: g for g in Game.objects.filter(match__in=matches, status=Game.Status.PLAYING)}
    for match in matches:
        match.current_game = games.get(match.pk)
    return matches


class _NowIndex:
    """The admin index opens on a "now" panel: the matches in progress of the user's tournaments."""

    def __init__(self, site):
        self.site = site
        self.original = site.index

    def __call__(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "now_matches": _now_matches(request)}
        return self.original(request, extra_context)


admin.site.index_template = "admin/tournaments/index.html"
admin.site.index = _NowIndex(admin.site)
