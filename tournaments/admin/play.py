"""Rounds and matches in the admin: the tables of a round, a match's games, starting the next game."""

from django.contrib import admin, messages
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import scoring
from tournaments import access, links, vocabulary
from tournaments.admin.base import RELATED_ONLY, ScopedAdmin
from tournaments.admin.forms import NextGameForm, refusal_text, side_names
from tournaments.models import Game, Hand, Match, Round, RoundDraw, RoundSeat
from tournaments.selectors.seats import SIDE_SEATS, match_players
from tournaments.services.errors import ServiceError
from tournaments.services.games import game_start, hand_next


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


def players_line(match: Match, players: dict | None = None) -> str:
    """A match's players by side, as the admin shows them: "An & Bram – Els & Frank"."""
    players = players if players is not None else match_players(match)
    return " – ".join(" & ".join(p["name"] for p in players[side]) or "—" for side in ("ns", "ew"))


class IndividualMatchInline(admin.TabularInline):
    """An individual event's tables: made by the draw (and its redraw), shown with their players, never edited."""

    model = Match
    extra = 0
    fields = ("table", "players", "table_code", "status", "winner", "games_won_ns", "games_won_ew")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description=_("players"))
    def players(self, obj):
        seats = {s.seat: s.player for s in obj.seats.all()}
        return players_line(obj, {side: [{"name": seats[s].name} for s in pair if s in seats]
                                  for side, pair in SIDE_SEATS.items()})


class RoundSeatInline(admin.TabularInline):
    """Who sits where in an individual event's round (a player without a table sits it out)."""

    model = RoundSeat
    extra = 0
    fields = ("player", "table", "seat")
    readonly_fields = fields
    can_delete = False
    verbose_name = _("seat")
    verbose_name_plural = _("seats")

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player", "match").order_by("match__table", "seat")

    @admin.display(description=_("table"))
    def table(self, obj):
        return obj.match.table if obj.match_id else gettext("sits out")


class RoundDrawInline(admin.TabularInline):
    """Every draw of an individual event's round, kept with its seed (the one in use is the round's seed)."""

    model = RoundDraw
    extra = 0
    fields = ("seed", "version", "created_at", "drawn_by", "in_use")
    readonly_fields = fields
    can_delete = False
    verbose_name = _("draw of the round")
    verbose_name_plural = _("draws of the round")

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("in use"), boolean=True)
    def in_use(self, obj):
        return obj.seed == obj.round.seed


@admin.register(Round)
class RoundAdmin(ScopedAdmin):
    role = "organizer"
    scope_path = "tournament"
    list_display = ("__str__", "tournament", "number", "status", "published_at")
    list_filter = ("status", ("tournament", RELATED_ONLY))
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)
    readonly_fields = ("status", "published_at")  # published by the services (round_publish), shown here
    inlines = [MatchInline]
    list_select_related = ("tournament",)
    #: An individual event's round: drawn by the services, its clock kept by them; shown here.
    individual_readonly = ("tournament", "number", "status", "published_at", "seed", "clock_started_at",
                           "clock_ends_at", "clock_paused_left")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.tournament.is_individual:
            return self.individual_readonly
        if obj is not None:
            return ("tournament", "number", "status", "published_at")
        return self.readonly_fields

    def get_fields(self, request, obj=None):
        if obj is not None and obj.tournament.is_individual:
            return self.individual_readonly
        return ("tournament", "number", "status", "published_at")

    def get_inlines(self, request, obj):
        if obj is not None and obj.tournament.is_individual:
            return [IndividualMatchInline, RoundSeatInline, RoundDrawInline]
        return self.inlines


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
    autocomplete_fields = ("ns", "ew", "round")
    search_fields = ("ns__name", "ew__name", "seats__player__name", "round__tournament__name")
    readonly_fields = ("status", "winner", "games_won_ns", "games_won_ew", "points_ns", "points_ew",
                       "players_by_side", "table_code", "pairing_reasons", "scoreboard_link",
                       # The result's confirmation: written by its services alone (tournaments/services/confirmation.py)
                       "result_status", "result_mark", "result_side", "result_user", "result_device", "result_at",
                       "result_reason")
    exclude = ("why", "explanation")  # the pairing's reasons are its own, shown in words (pairing_reasons)
    list_select_related = ("round__tournament", "ns", "ew")
    inlines = [GameInline]
    actions = [start_next_game]
    change_form_template = "admin/tournaments/match/change_form.html"

    def has_add_permission(self, request):
        return super().has_add_permission(request) and (
            access.is_unscoped(request.user) or access.organized_tournaments(request.user).exists())

    def _readonly_fields(self, request, obj=None):
        fields = self.readonly_fields
        if obj is not None and (_has_hands(obj) or not access.is_organizer(request.user, obj.round.tournament_id)
                                and not access.is_unscoped(request.user)):
            # Results exist (or the user only keeps score): the pairing stays as it was played.
            fields = ("round", "table", "ns", "ew", *fields)
        return fields

    def get_readonly_fields(self, request, obj=None):
        fields = self._readonly_fields(request, obj)
        if obj is not None and obj.ns_id is None:  # an individual event's match: drawn, its seats its players
            fields = tuple(dict.fromkeys(("round", "table", "ns", "ew", *fields)))
        return fields

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and obj.ns_id is None:
            return [f for f in fields if f not in ("ns", "ew")]
        return [f for f in fields if f != "table_code"]

    @admin.display(description=_("players"))
    def players_by_side(self, obj):
        return players_line(obj) if obj.pk else "—"

    @admin.display(description=_("games"))
    def score_line(self, obj):
        return f"{obj.games_won_ns}–{obj.games_won_ew}"

    @admin.display(description=_("why this pairing"))
    def pairing_reasons(self, obj):
        return vocabulary.pairing_reasons(obj.why, obj.explanation)

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
        extra_context = {**(extra_context or {}), "can_start_next_game": can_start_next_game(match)}
        return super().change_view(request, object_id, form_url, extra_context)


def can_start_next_game(match: Match) -> bool:
    """Tell whether the match's next game may start now (its last game is over and the match is not)."""
    last = match.games.order_by("-number").first()
    return hand_next(match=match, games=[last] if last else [], played=0).starts_game
