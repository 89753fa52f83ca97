"""The score sheet: a game's hands typed inline from the paper sheet, checked by the rules engine as a whole
game and applied in one transaction by the hand services (``game_sheet_apply``)."""

from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments.admin.base import COMPUTED_HAND_FIELDS, RELATED_ONLY, ScopedAdmin
from tournaments.admin.forms import (
    HandInlineForm,
    HandInlineFormSet,
    hand_form_for,
    refusal_text,
    side_names,
    team_header,
)
from tournaments.admin.play import can_start_next_game
from tournaments.models import Game, Hand, Match
from tournaments.services.errors import ServiceError
from tournaments.services.hand_data import hand_form_changes, hand_from_fields
from tournaments.services.sheets import game_sheet_apply
from tournaments.vocabulary import LABEL_WORDS


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
        extra_context = {**(extra_context or {}), "can_start_next_game": can_start_next_game(game.match),
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
        if obj.status == Game.Status.FINISHED and can_start_next_game(obj.match):
            start = reverse("admin:tournaments_match_start_next_game", args=[obj.match_id])
            self.message_user(request, format_html(
                '{} <a class="button" href="{}">{}</a>', gettext("Saved: the game is finished."), start,
                gettext("Start the next game")), messages.SUCCESS)
        else:
            self.message_user(request, gettext("Saved."), messages.SUCCESS)
        return HttpResponseRedirect(url)
