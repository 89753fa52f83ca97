"""Admin forms: a game's hands typed from a paper sheet, checked by the rules engine before saving.

The forms speak the volunteer's words (suits, cards, penalties and the teams by name); the engine's
codes stay in the API.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments import refusals
from tournaments.models import CORRECTION_REASON_MAX, Hand, Tournament
from tournaments.selectors.seats import match_players
from tournaments.services.hand_data import FORM_FIELDS, engine_hands, game_settings, hand_fields, hand_from_fields
from tournaments.vocabulary import OPTION_HELP, OPTION_LABELS, PENALTY_LABELS, card_name, suit_name, variant_name

ENTRY_FIELDS = list(FORM_FIELDS)

SEATS = ("N", "E", "S", "W")
SEAT_SIDE = {"N": "ns", "S": "ns", "E": "ew", "W": "ew"}
BLANK = [("", "—")]


def side_names(match) -> dict:
    """Return each side's name (``ns``, ``ew``) for a match: its team's, or in an individual event its partnership's
    ("An Peeters & Bram Claes", one query for the seats)."""
    if match.ns_id is None and match.pk:
        players = match_players(match)
        return {side: " & ".join(p["name"] for p in players[side]) or side.upper() for side in ("ns", "ew")}
    return {"ns": match.ns.name if match.ns_id else "NS", "ew": match.ew.name if match.ew_id else "EW"}


def short_team(name: str, *, word: int = 8, length: int = 20) -> str:
    """Return a team name short enough for a narrow column header: long words cut with a dot, then the name."""
    words = [w if len(w) <= word else w[:word - 1] + "." for w in name.split()]
    short = " ".join(words)
    if len(short) > length:
        short = short[:length - 1].rsplit(" ", 1)[0].rstrip(".") + "…"
    return short


def team_header(template, name: str):
    """Return ``template`` ("points %(team)s") with the team's name; abbreviated with its full name as a title."""
    short = short_team(name)
    if short == name:
        return str(template) % {"team": name}
    return mark_safe(conditional_escape(str(template)) % {"team": format_html('<abbr title="{}">{}</abbr>', name, short)})


def seat_choices(match) -> list[tuple[str, str]]:
    """Return the four seats, each with its team's name: "N (Ajuinen)"."""
    names = side_names(match)
    return [(seat, f"{seat} ({names[SEAT_SIDE[seat]]})") for seat in SEATS]


def side_choices(match) -> list[tuple[str, str]]:
    names = side_names(match)
    return [("ns", names["ns"]), ("ew", names["ew"])]


def trump_choices(variant: scoring.Variant) -> list[tuple[str, str]]:
    """Return the variant's suits in words, and "no trump" where the variant has it."""
    choices = [(suit, suit_name(variant, suit)) for suit in variant.suits]
    if variant.no_trump:
        choices.append(("none", suit_name(variant, "none")))
    return BLANK + choices


def card_choices(variant: scoring.Variant) -> list[tuple[str, str]]:
    """Return the deck's cards in words, grouped by suit."""
    return BLANK + [(suit_name(variant, suit), [(code, card_name(variant, code)) for code in variant.cards
                                                if code[-1] == suit])
                    for suit in variant.suits]


def penalty_choices(variant: scoring.Variant) -> list[tuple[str, str]]:
    return BLANK + [(code, PENALTY_LABELS.get(code, code)) for code in variant.penalties]


def violation_form_field(field: str | None) -> str | None:
    """Map an engine field ("points", "tricks.ns", "penalty.side") to the inline's form field."""
    if not field:
        return None
    head, _sep, tail = field.partition(".")
    if head in ("tricks", "points"):
        return f"{head}_{tail}" if tail in ("ns", "ew") else f"{head}_ns"
    if head == "penalty":
        return "penalty_side" if tail == "side" else "penalty_type"
    if head in ENTRY_FIELDS:
        return head
    return None


# -- the engine's refusals in plain words -------------------------------------------------------------


def plain_message(code: str, params: dict | None = None, names: dict | None = None) -> str:
    """Return an engine or service refusal in words a volunteer reads: the teams by name, no codes."""
    return refusals.words(code, params, names=names)


def refusal_text(exc: Exception, names: dict | None = None) -> str:
    """Return a service's or the engine's refusal in plain words."""
    return refusals.text(exc, names=names)


# -- a game's hands ----------------------------------------------------------------------------------


class HandInlineForm(forms.ModelForm):
    penalty_type = forms.ChoiceField(label=_("penalty"), choices=BLANK + list(PENALTY_LABELS.items()), required=False)
    penalty_side = forms.ChoiceField(label=_("by"), choices=BLANK + [("ns", "NS"), ("ew", "EW")], required=False,
                                     help_text=_("The offending team."))

    class Meta:
        model = Hand
        fields = ENTRY_FIELDS
        labels = {"dealer": _("dealer"), "trump": _("trump"), "turned_card": _("turned card"),
                  "blind": _("blind"), "doublings": _("doublings"), "thrown_in": _("thrown in")}
        widgets = {
            **{name: forms.NumberInput(attrs={"class": "hand-number"})
               for name in ("doublings", "tricks_ns", "tricks_ew", "points_ns", "points_ew")},
        }

    #: Set by ``hand_form_for``: the match's team names by side.
    side_names = {"ns": "NS", "ew": "EW"}

    def __init__(self, *args, **kwargs):
        instance = kwargs.get("instance")
        if instance is not None and instance.pk:  # a stored hand shown as the table entry shows it
            kwargs["initial"] = {**hand_fields(instance), **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)
        labels = {"tricks_ns": _("tricks %(team)s"), "tricks_ew": _("tricks %(team)s"),
                  "points_ns": _("points %(team)s"), "points_ew": _("points %(team)s")}
        for name, label in labels.items():
            if name in self.fields:
                self.fields[name].label = team_header(label, self.side_names[name[-2:]])


def hand_form_for(game) -> type[HandInlineForm]:
    """Return the hand form of a game: its variant's suits, cards and penalties, its teams by name."""
    match = game.match
    variant = scoring.get_variant(match.round.tournament.variant)
    names = side_names(match)
    fields = {
        "dealer": forms.ChoiceField(label=_("dealer"), choices=[(seat, seat) for seat in SEATS]),
        "trump": forms.ChoiceField(label=_("trump"), choices=trump_choices(variant), required=False),
        "turned_card": forms.ChoiceField(label=_("turned card"), choices=card_choices(variant), required=False),
        "penalty_type": forms.ChoiceField(label=_("penalty"), choices=penalty_choices(variant), required=False),
        "penalty_side": forms.ChoiceField(label=_("by"), choices=BLANK + side_choices(match), required=False,
                                          help_text=_("The offending team.")),
    }
    if variant.trump_mode != "turned":
        fields["turned_card"] = None  # Django drops a declared field set to None
    if not variant.penalties:
        fields["penalty_type"] = fields["penalty_side"] = None
    return type("GameHandForm", (HandInlineForm,), {**fields, "side_names": names})


class HandInlineFormSet(forms.BaseInlineFormSet):
    """Fold the whole game as typed through the rules engine and put its errors on the right fields."""

    def get_form_kwargs(self, index):
        kwargs = super().get_form_kwargs(index)
        # The blank row and the rows added with "Add another": who deals next.
        if (index is None or index >= self.initial_form_count()) and self.instance.next_dealer:
            kwargs["initial"] = {"dealer": self.instance.next_dealer}
        return kwargs

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        if form.instance.pk is None and self.instance.pk is not None:
            form.instance.game = self.instance  # the blank row shows what the next hand counts
        return form

    def _names(self) -> dict:
        return getattr(self.form, "side_names", None) or {"ns": "NS", "ew": "EW"}

    def clean(self):
        super().clean()
        if any(form.errors for form in self.forms):
            return
        game = self.instance
        if game.pk is None:
            return
        kept, deleted = [], []
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or not form.cleaned_data:
                continue
            if self.can_delete and self._should_delete_form(form):
                if form.instance.pk:
                    deleted.append(form)
                continue
            kept.append(form)
        kept.sort(key=lambda f: (f.instance.number is None, f.instance.number or 0))
        existing_numbers = sorted(h.number for h in game.hands.all())
        for form in deleted:
            if form.instance.number != existing_numbers[-1] or len(deleted) > 1:
                # On the formset, not on the form: Django ignores the errors of a form marked for deletion.
                raise ValidationError(
                    _("Only the last hand can be deleted (hand %(last)s); hand %(number)s is followed by "
                      "others. Nothing was saved."),
                    code="not_last_hand", params={"last": existing_numbers[-1], "number": form.instance.number})
        inputs, forms_in_order = [], []
        for form in kept:
            if form.instance.pk and not form.has_changed():
                inputs.append(engine_hands([form.instance])[0])
            else:
                try:
                    inputs.append(scoring.Hand.from_dict(hand_from_fields(form.cleaned_data)))
                except scoring.RuleViolation as exc:
                    _add_violations(form, exc.violations, self._names())
                    return
            forms_in_order.append(form)
        try:
            scoring.fold_game(game_settings(game), inputs)
        except scoring.RuleViolation as exc:
            by_index: dict[int | None, list] = {}
            for violation in exc.violations:
                by_index.setdefault(violation.hand_index, []).append(violation)
            for index, violations in by_index.items():
                if index is not None and index < len(forms_in_order):
                    _add_violations(forms_in_order[index], violations, self._names())
                else:
                    raise ValidationError([ValidationError(plain_message(v.code, v.params, self._names()),
                                                           code=v.code) for v in violations]) from exc
            return
        corrected = [form.instance.number for form in kept if form.instance.pk and form.has_changed()]
        self.correction_reason = " ".join(str(self.data.get("correction_reason") or "").split())
        if corrected and not self.correction_reason:
            # A stored hand changes: the history keeps who changed it, when and (told here) why.
            raise ValidationError(
                ngettext("Hand %(numbers)s is corrected: say why in the reason below (it is kept in the hand's "
                         "history). Nothing was saved.",
                         "Hands %(numbers)s are corrected: say why in the reason below (it is kept in the hands' "
                         "history). Nothing was saved.", len(corrected)),
                code="reason_required", params={"numbers": ", ".join(map(str, sorted(corrected)))})
        if len(self.correction_reason) > CORRECTION_REASON_MAX:
            raise ValidationError(_("A reason has at most %(max)s characters."), code="reason_too_long",
                                  params={"max": CORRECTION_REASON_MAX})


def _add_violations(form, violations, names: dict) -> None:
    for violation in violations:
        field = violation_form_field(violation.field)
        message = plain_message(violation.code, violation.params, names)
        form.add_error(field if field in form.fields else None, ValidationError(message, code=violation.code))


class NextGameForm(forms.Form):
    """Start a match's next game: the first dealer (the teams named), and the variant's own draws."""

    first_dealer = forms.ChoiceField(label=_("first dealer"), choices=[(s, s) for s in SEATS],
                                     help_text=_("The first dealer, drawn at the table."))
    favourite = forms.ChoiceField(label=_("favourite suit"), required=False, choices=BLANK,
                                  help_text=_("The favourite suit, drawn at the table."))
    albur = forms.ChoiceField(label=_("albur won by"), required=False, choices=BLANK,
                              help_text=_("The team that won the albur: the other team deals first."))

    def __init__(self, *args, match=None, **kwargs):
        super().__init__(*args, **kwargs)
        if match is None:
            return
        tournament = match.round.tournament
        variant = scoring.get_variant(tournament.variant)
        self.fields["first_dealer"].choices = seat_choices(match)
        if variant.favourite:
            self.fields["favourite"].choices = [(s, suit_name(variant, s)) for s in variant.suits]
            self.fields["favourite"].required = True
        else:
            del self.fields["favourite"]
        if variant.albur_points and (tournament.options or {}).get("albur"):
            self.fields["albur"].choices = BLANK + side_choices(match)
        else:
            del self.fields["albur"]


def default_variant() -> str:
    """Return the variant a new tournament's form starts with: the first of the engine's, as the select shows."""
    return min(scoring.VARIANTS)


#: A tournament's settings with a default that a form posted without them (an older page, a script) keeps: the
#: tournament's own, or the default of a new one (issue 26 added them; every page shows them).
KEPT_WHEN_LEFT_OUT = ("entry", "match_length", "at_time", "sit_out_score", "withdrawal", "confirmation", "unconfirmed")


class TournamentAdminForm(forms.ModelForm):
    """A tournament whose variant is picked from the rules engine's and whose house options are a form.

    On the add page the house options are those of the variant chosen (``?variant=`` or the one posted);
    a small script reloads the page with the new variant when it changes, and without it a save with a
    changed variant shows the new variant's options to check rather than saving the other one's.
    """

    variant = forms.ChoiceField(label=_("Variant"),
                                choices=lambda: [(slug, variant_name(v)) for slug, v in sorted(scoring.VARIANTS.items())],
                                help_text=_("The house options below are the variant's: changing it reloads them."))
    options_variant = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        variant_slug = self.data.get(self.add_prefix("variant")) if self.is_bound else None
        variant_slug = variant_slug or self.initial.get("variant") or self.instance.variant
        if not self.instance.pk and variant_slug not in scoring.VARIANTS:
            variant_slug = default_variant()
        self.variant = scoring.VARIANTS.get(variant_slug) if variant_slug else None
        self.variant_switched = False
        if self.variant is not None and "options" in self.fields:
            self._option_fields()
            self.fields["options_variant"].initial = variant_slug
            if self.is_bound and not self.instance.pk:
                shown = self.data.get(self.add_prefix("options_variant"))
                self.variant_switched = bool(shown) and shown != variant_slug
                if self.variant_switched:
                    self._show_defaults(variant_slug)
        else:
            del self.fields["options_variant"]
        for name in KEPT_WHEN_LEFT_OUT:
            if name in self.fields:
                self.fields[name].required = False

    def _show_defaults(self, variant_slug: str) -> None:
        """The variant changed since the page was drawn: offer its options with their defaults, to check."""
        self.data = self.data.copy()
        self.data[self.add_prefix("options_variant")] = variant_slug
        for name, spec in self.variant.options.items():
            key = self.add_prefix(f"option_{name}")
            if spec.kind == "bool":
                if spec.default:
                    self.data[key] = "on"
                else:
                    self.data.pop(key, None)
            else:
                self.data[key] = "" if spec.default is None else str(spec.default)

    def _option_fields(self):
        """Replace the raw JSON by one field a house option of the variant."""
        del self.fields["options"]
        current = self.instance.options or {}
        for name, spec in self.variant.options.items():
            label = OPTION_LABELS.get(name, name)
            help_text = OPTION_HELP.get(name, spec.help)
            initial = current.get(name, spec.default)
            if spec.kind == "bool":
                field = forms.BooleanField(label=label, help_text=help_text, required=False)
            elif spec.kind == "int":
                field = forms.IntegerField(label=label, help_text=help_text, required=not spec.nullable,
                                           min_value=spec.minimum, max_value=spec.maximum)
            elif spec.choices:
                field = forms.ChoiceField(label=label, help_text=help_text,
                                          choices=[(c, str(c)) for c in spec.choices])
            else:
                field = forms.CharField(label=label, help_text=help_text, required=not spec.nullable)
            field.initial = initial
            self.fields[f"option_{name}"] = field

    @property
    def option_field_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith("option_")]

    def clean(self):
        cleaned = super().clean()
        for name in KEPT_WHEN_LEFT_OUT:
            if name in self.fields and not cleaned.get(name):
                cleaned[name] = (getattr(self.instance, name) if self.instance.pk
                                 else Tournament._meta.get_field(name).get_default())
        if self.variant_switched:
            self.add_error("variant", ValidationError(
                _("The house options are now those of %(variant)s: check them and save again."),
                code="variant_switched", params={"variant": self.variant.name}))
            return cleaned
        if self.option_field_names:
            options = dict(self.instance.options or {})
            for name in self.option_field_names:
                value = cleaned.get(name)
                spec = self.variant.options[name.removeprefix("option_")]
                if value is None or value == spec.default:
                    options.pop(name.removeprefix("option_"), None)
                else:
                    options[name.removeprefix("option_")] = value
            self.instance.options = options
        return cleaned
