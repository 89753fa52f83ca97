"""Admin forms: a game's hands typed from a paper sheet, checked by the rules engine before saving."""

import scoring
from django import forms
from django.core.exceptions import ValidationError

from tournaments.models import Hand, Tournament
from tournaments.services.hand_data import engine_hands, game_settings

ENTRY_FIELDS = ["dealer", "trump", "turned_card", "blind", "doublings", "tricks_ns", "tricks_ew",
                "points_ns", "points_ew", "penalty_type", "penalty_side", "thrown_in"]

PENALTY_CHOICES = [("", "—"), ("signalling", "signalling"), ("renege", "renege"), ("renuncio", "renuncio")]


def form_hand_data(cleaned: dict) -> dict:
    """Return the api.md hand JSON for a hand form's cleaned data."""
    data: dict = {"dealer": cleaned.get("dealer") or ""}
    for key in ("trump", "turned_card"):
        if cleaned.get(key):
            data[key] = cleaned[key].strip()
    for key in ("blind", "thrown_in"):
        if cleaned.get(key):
            data[key] = True
    if cleaned.get("doublings"):
        data["doublings"] = cleaned["doublings"]
    for name in ("tricks", "points"):
        ns, ew = cleaned.get(f"{name}_ns"), cleaned.get(f"{name}_ew")
        if ns is not None or ew is not None:
            data[name] = {"ns": ns if ns is not None else 0, "ew": ew if ew is not None else 0}
    if cleaned.get("penalty_type"):
        data["penalty"] = {"type": cleaned["penalty_type"], "side": cleaned.get("penalty_side") or ""}
    return data


def violation_form_field(field: str | None) -> str | None:
    """Map an engine field ("points", "tricks.ns", "penalty.side") to the inline's form field."""
    if not field:
        return None
    head, _, tail = field.partition(".")
    if head in ("tricks", "points"):
        return f"{head}_{tail}" if tail in ("ns", "ew") else f"{head}_ns"
    if head == "penalty":
        return "penalty_side" if tail == "side" else "penalty_type"
    if head in ENTRY_FIELDS:
        return head
    return None


class HandInlineForm(forms.ModelForm):
    penalty_type = forms.ChoiceField(choices=PENALTY_CHOICES, required=False)
    penalty_side = forms.ChoiceField(choices=[("", "—"), ("ns", "ns"), ("ew", "ew")], required=False,
                                     help_text="The offending side.")

    class Meta:
        model = Hand
        fields = ENTRY_FIELDS
        widgets = {
            "trump": forms.TextInput(attrs={"size": 4}),
            "turned_card": forms.TextInput(attrs={"size": 4}),
            **{name: forms.NumberInput(attrs={"style": "width: 4em"})
               for name in ("doublings", "tricks_ns", "tricks_ew", "points_ns", "points_ew")},
        }


class HandInlineFormSet(forms.BaseInlineFormSet):
    """Fold the whole game as typed through the rules engine and put its errors on the right fields."""

    def get_form_kwargs(self, index):
        kwargs = super().get_form_kwargs(index)
        if index is not None and index >= self.initial_form_count() and self.instance.next_dealer:
            kwargs["initial"] = {"dealer": self.instance.next_dealer}  # the blank row: who deals next
        return kwargs

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
                form.add_error(None, ValidationError(
                    f"only the last hand (hand {existing_numbers[-1]}) can be deleted", code="not_last_hand"))
                return
        inputs, forms_in_order = [], []
        for form in kept:
            if form.instance.pk and not form.has_changed():
                inputs.append(engine_hands([form.instance])[0])
            else:
                try:
                    inputs.append(scoring.Hand.from_dict(form_hand_data(form.cleaned_data)))
                except scoring.RuleViolation as exc:
                    _add_violations(form, exc.violations)
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
                    _add_violations(forms_in_order[index], violations)
                else:
                    raise ValidationError([ValidationError(v.message, code=v.code) for v in violations]) from exc


def _add_violations(form, violations) -> None:
    for violation in violations:
        field = violation_form_field(violation.field)
        message = f"{violation.message} [{violation.code}]"
        form.add_error(field if field in form.fields else None, ValidationError(message, code=violation.code))


class NextGameForm(forms.Form):
    """The intermediate page of the admin action that starts a match's next game."""

    first_dealer = forms.ChoiceField(choices=[("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")],
                                     help_text="The first dealer, drawn at the table.")
    favourite = forms.CharField(max_length=1, required=False, help_text="Classic Malilla: the favourite suit.")
    albur = forms.ChoiceField(choices=[("", "—"), ("ns", "ns"), ("ew", "ew")], required=False,
                              help_text="Mexican Malilla with the albur option: the side that won it.")


class TournamentAdminForm(forms.ModelForm):
    """A tournament whose variant is picked from the rules engine's (``Tournament.clean`` checks the options)."""

    variant = forms.ChoiceField(choices=[(slug, v.name) for slug, v in sorted(scoring.VARIANTS.items())])

    class Meta:
        model = Tournament
        fields = "__all__"
