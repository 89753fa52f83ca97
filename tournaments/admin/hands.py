"""Single hands in the admin and their history, in the volunteer's words."""

import dataclasses

from django.contrib import admin
from django.http import Http404
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from tournaments import access
from tournaments.admin.base import RELATED_ONLY, ScopedAdmin
from tournaments.admin.forms import side_names
from tournaments.models import Game, Hand
from tournaments.vocabulary import LABEL_WORDS, PENALTY_LABELS


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
        # Scoped as the history list is: a version of another tournament's hand (deleted ones too, by their game).
        if version is not None and not access.is_unscoped(request.user) and not Game.objects.filter(
                pk=version.game_id, match__round__tournament__in=self.scope(request).values("pk")).exists():
            raise Http404(gettext("No such object."))
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
