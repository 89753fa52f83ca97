"""The workspace's forms of accounts: a tournament's settings (its variant's house options as real fields,
the tiebreak order as a sortable list), an invitation, and the account an invitee makes.

The forms only collect and explain; the rules stay where they are: the house options are checked by the
variant's own declaration (``scoring``), the rest by ``Tournament.clean`` and the services.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments import access, refusals
from tournaments.models import Club, Tournament
from tournaments.ranking import DEFAULT_METRICS, INDIVIDUAL_TIEBREAKS, METRICS
from tournaments.services.tournaments import FROZEN_ONCE_PAIRED
from tournaments import vocabulary

from . import event_words

#: The settings the form edits, in the order the services take them.
SETTINGS = ("name", "club", "variant", "format", "rounds", "best_of", "points_win", "points_draw", "points_bye",
            "separate_clubs_rounds", "double_round_robin", "starts_on", "public")
#: The settings of the entry kind, the match length and individual events; a choice left out keeps its default.
EVENT_SETTINGS = ("entry", "match_length", "match_games", "minutes", "at_time", "sit_out_score", "withdrawal",
                  "club_best_n", "confirmation", "unconfirmed", "auto_confirm_minutes", "auto_publish")
#: The fixed score of a sit-out: the form's field of each key of ``Tournament.sit_out_fixed``.
SIT_OUT_FIELDS = {"match_points": "sit_out_match_points", "games_won": "sit_out_games_won",
                  "points_for": "sit_out_points_for"}
CHOICE_DEFAULTS = {"entry": Tournament.EntryKind.TEAMS, "match_length": Tournament.MatchLength.BEST_OF,
                   "at_time": Tournament.AtTime.FINISH, "sit_out_score": Tournament.SitOutScore.MEAN,
                   "withdrawal": Tournament.Withdrawal.SIT_OUT, "confirmation": Tournament.Confirmation.OFF,
                   "unconfirmed": Tournament.Unconfirmed.COUNT}


def option_field_name(variant_slug: str, option: str) -> str:
    """Return the form field of a variant's house option: every variant's options are fields of the form."""
    return f"o_{variant_slug.replace('-', '_')}__{option}"


def default_text(spec: scoring.OptionSpec, option: str) -> str:
    """Return an option's default in words ("101", "yes", "no limit")."""
    return vocabulary.option_value(option, spec.default)


def _option_field(option: str, spec: scoring.OptionSpec) -> forms.Field:
    """Build the form field of one house option from its declaration: kind, default, minimum, choices."""
    label = vocabulary.OPTION_LABELS.get(option, option)
    help_text = vocabulary.OPTION_HELP.get(option, spec.help)
    if spec.kind == "bool":
        field = forms.BooleanField(label=label, help_text=help_text, required=False)
    elif spec.kind == "int":
        attrs = {"inputmode": "numeric"}
        if spec.nullable:
            attrs["placeholder"] = vocabulary.option_value(option, None)
        field = forms.IntegerField(label=label, help_text=help_text, required=False, min_value=spec.minimum,
                                   max_value=spec.maximum, widget=forms.NumberInput(attrs=attrs))
    else:
        field = forms.ChoiceField(label=label, help_text=help_text, required=False,
                                  choices=[(c, vocabulary.option_value(option, c)) for c in spec.choices])
    field.option = option
    field.spec = spec
    field.default_text = default_text(spec, option)
    return field


class TournamentForm(forms.Form):
    """A tournament's settings for ``tournament_create`` / ``tournament_update``.

    Every variant's house options are fields (``o_<variant>__<option>``); only the chosen variant's are read,
    the page shows the others' only without JavaScript. Once a round is paired the fields that shape its
    matches (``FROZEN_ONCE_PAIRED``) are shown but disabled, as the service would refuse them.
    """

    name = forms.CharField(label=_("Name"), max_length=160)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False,
                                  empty_label=_("No club"),
                                  help_text=_("The club that holds the tournament: one of the clubs you manage."))
    variant = forms.ChoiceField(label=_("Variant"), help_text=_("The rules every hand is checked by."))
    format = forms.ChoiceField(label=_("Format"), choices=list(vocabulary.FORMAT_LABELS.items()))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=99, initial=5,
                                help_text=_("How many rounds (Swiss); a round robin plays every pairing."))
    best_of = forms.IntegerField(label=_("Best of"), min_value=1, max_value=15, required=False,
                                 help_text=_("Games per match; empty: the variant's default."))
    points_win = forms.IntegerField(label=_("Points for a win"), min_value=0, max_value=100, initial=2)
    points_draw = forms.IntegerField(label=_("Points for a draw"), min_value=0, max_value=100, initial=1)
    points_bye = forms.IntegerField(label=_("Points for a bye"), min_value=0, max_value=100, initial=2)
    separate_clubs_rounds = forms.IntegerField(
        label=_("Rounds keeping clubs apart"), min_value=0, max_value=99, initial=0,
        help_text=_("Swiss: teams of the same club do not meet in this many first rounds."))
    double_round_robin = forms.BooleanField(label=_("Double round robin"), required=False,
                                            help_text=_("Round robin: every pairing is played twice."))
    starts_on = forms.DateField(label=_("Start date"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    public = forms.BooleanField(label=_("Public"), required=False, initial=False,
                                help_text=_("Shown on the public site; unticked, only its organizers and "
                                            "scorekeepers see it. A new tournament starts hidden: publish it "
                                            "when it is ready."))
    # Rounds published on purpose (issue 28); left out, as published automatically (today's default).
    auto_publish = forms.TypedChoiceField(
        label=_("Publishing the rounds"), required=False, widget=forms.RadioSelect, empty_value=True,
        coerce=lambda value: value in (True, "True"),
        choices=[(True, _("Automatically: everyone sees a round as soon as it is paired")),
                 (False, _("On purpose: a round stays with the organizers, directors and scorekeepers until an "
                           "organizer publishes it (print and check it first)"))])
    # -- the entry kind, the match length, individual events (words: web/workspace/event_words.py) ------------
    entry = forms.ChoiceField(label=_("Who enters"), choices=event_words.ENTRY_CHOICES, required=False,
                              widget=forms.RadioSelect)
    match_length = forms.ChoiceField(label=_("Match length"), choices=event_words.MATCH_LENGTH_CHOICES,
                                     required=False, widget=forms.RadioSelect)
    match_games = forms.IntegerField(label=_("Games a match"), min_value=1, max_value=15, required=False,
                                     help_text=_("Every game is played and counts; the match is won on games won, "
                                                 "then points."))
    minutes = forms.IntegerField(label=_("Minutes a round"), min_value=1, max_value=600, required=False,
                                 help_text=_("The round clock's time. A hall that gives 90 minutes to a whole table "
                                             "of four sets 30 minutes a round."))
    at_time = forms.ChoiceField(label=_("When the time is up"), choices=event_words.AT_TIME_CHOICES,
                                required=False, widget=forms.RadioSelect)
    sit_out_score = forms.ChoiceField(label=_("A player who sits a round out scores"),
                                      choices=event_words.SIT_OUT_CHOICES, required=False, widget=forms.RadioSelect)
    sit_out_match_points = forms.IntegerField(label=_("Match points"), min_value=0, max_value=10**6,
                                              required=False)
    sit_out_games_won = forms.IntegerField(label=_("Games won"), min_value=0, max_value=10**6, required=False)
    sit_out_points_for = forms.IntegerField(label=_("Points"), min_value=0, max_value=10**6, required=False)
    withdrawal = forms.ChoiceField(label=_("A player who withdraws during a cycle"),
                                   choices=event_words.WITHDRAWAL_CHOICES, required=False, widget=forms.RadioSelect)
    club_best_n = forms.IntegerField(label=_("Club ranking: the best players of each club"), min_value=1,
                                     max_value=99, required=False,
                                     help_text=_("Clubs ranked by the mean of their N best players' results; empty: "
                                                 "every player of the club counts (matches won over matches "
                                                 "played). Players without a club are left out."))
    # -- results confirmed by the opponents (docs/confirmation.md) ------------------------------------------------
    confirmation = forms.ChoiceField(label=_("Confirmation of results"), choices=event_words.CONFIRMATION_CHOICES,
                                     required=False, widget=forms.RadioSelect)
    unconfirmed = forms.ChoiceField(label=_("Results not yet confirmed"), choices=event_words.UNCONFIRMED_CHOICES,
                                    required=False, widget=forms.RadioSelect)
    auto_confirm_minutes = forms.IntegerField(
        label=_("Confirm automatically after (minutes)"), min_value=1, max_value=1440, required=False,
        help_text=_("A result nobody disputed is confirmed after this many minutes; empty: never."))
    tiebreaks = forms.MultipleChoiceField(
        label=_("Standings order"), required=False, choices=[(m, vocabulary.METRIC_LABELS[m][1]) for m in METRICS],
        help_text=_("The ticked measures rank the teams, the first one first; none ticked: the default order."))

    def __init__(self, data=None, *, user, tournament: Tournament | None = None):
        self.tournament = tournament
        self.user = user
        super().__init__(data, initial=self._initial(tournament))
        clubs = access.clubs_for_tournaments(user)
        if tournament is not None and tournament.club_id:
            clubs = clubs | Club.objects.filter(pk=tournament.club_id)  # kept, as the API lets it stay
        self.fields["club"].queryset = clubs.distinct().order_by("name")
        if tournament is None and not self.is_bound:
            mine = list(self.fields["club"].queryset[:2])
            if len(mine) == 1:  # a manager of one club holds the tournament in its name, most likely
                self.initial["club"] = mine[0].pk
        self.fields["variant"].choices = [(slug, vocabulary.variant_name(v)) for slug, v in scoring.VARIANTS.items()]
        self.fields["variant"].initial = self.initial.get("variant", "belgian-manille")
        current = tournament.options if tournament is not None else {}
        self.option_groups = []
        for slug, variant in scoring.VARIANTS.items():
            names = []
            for option, spec in variant.options.items():
                name = option_field_name(slug, option)
                field = self.fields[name] = _option_field(option, spec)
                mine = tournament is not None and tournament.variant == slug
                field.initial = (current or {}).get(option, spec.default) if mine else spec.default
                names.append(name)
            self.option_groups.append({"variant": variant, "names": names})
        self.frozen = bool(tournament is not None and tournament.pk and tournament.round_set.exists())
        if self.frozen:
            for name in (*FROZEN_ONCE_PAIRED, *self.option_names()):
                if name in self.fields:
                    self.fields[name].disabled = True
        # Teams or players: what is entered already decides it (the entries page enters one kind).
        self.entry_fixed = bool(tournament is not None and tournament.pk and tournament.entries.exists())
        if self.entry_fixed:
            self.fields["entry"].disabled = True
            self.fields["entry"].help_text = _("Entries are made already: the choice between teams and players "
                                               "stays as it is.")

    @staticmethod
    def _initial(tournament):
        if tournament is None:
            return {"variant": "belgian-manille", "tiebreaks": list(DEFAULT_METRICS), **CHOICE_DEFAULTS}
        initial = {name: getattr(tournament, name) for name in (*SETTINGS, *EVENT_SETTINGS)}
        initial["club"] = tournament.club_id
        fixed = tournament.sit_out_fixed or {}
        initial.update({field: fixed.get(key) for key, field in SIT_OUT_FIELDS.items()})
        initial["tiebreaks"] = list(tournament.tiebreaks or DEFAULT_METRICS)
        return initial

    def option_names(self, variant_slug: str | None = None) -> list[str]:
        """Return the option fields of one variant (all variants' without one)."""
        return [name for group in self.option_groups if variant_slug in (None, group["variant"].slug)
                for name in group["names"]]

    def option_fieldsets(self):
        """Each variant's house options, bound fields in declaration order, the chosen variant marked."""
        chosen = self._chosen_variant()
        return [{"variant": g["variant"], "chosen": g["variant"].slug == chosen,
                 "fields": [self[name] for name in g["names"]]} for g in self.option_groups]

    def _chosen_variant(self) -> str:
        if self.is_bound and not self.fields["variant"].disabled:
            return self.data.get(self.add_prefix("variant")) or ""
        return self.initial.get("variant", "")

    def tiebreak_items(self) -> list[dict]:
        """The measures in the order shown: the ticked ones in their order, then the others."""
        if self.is_bound:
            chosen = [m for m in self.data.getlist(self.add_prefix("tiebreaks")) if m in METRICS]
        else:
            chosen = [m for m in self.initial.get("tiebreaks", DEFAULT_METRICS) if m in METRICS]
        rest = [m for m in METRICS if m not in chosen]
        order = list(METRICS)
        words = vocabulary.METRIC_LABELS
        return [{"value": m, "index": order.index(m), "short": words[m][0], "name": words[m][1],
                 "help": words[m][2], "checked": m in chosen,
                 "default": DEFAULT_METRICS.index(m) + 1 if m in DEFAULT_METRICS else None}
                for m in chosen + rest]

    def default_tiebreaks(self) -> list[str]:
        return [str(vocabulary.METRIC_LABELS[m][1]) for m in DEFAULT_METRICS]

    def individual_tiebreaks(self) -> list[str]:
        """The order an individual event's players are ranked in when the default order is left ticked."""
        return [str(vocabulary.METRIC_LABELS[m][1]) for m in INDIVIDUAL_TIEBREAKS]

    def clean(self):
        cleaned = super().clean()
        slug = cleaned.get("variant")
        if not slug:
            return cleaned
        variant = scoring.get_variant(slug)
        for name in set(self.option_names()) - set(self.option_names(slug)):
            self._errors.pop(name, None)  # another variant's fields, shown without JavaScript, are not read
        options = {}
        for option, spec in variant.options.items():
            name = option_field_name(slug, option)
            if name in self.errors:
                continue
            value = cleaned.get(name)
            if spec.kind == "choice" and value == "":
                value = None
            if value is None and not spec.nullable and spec.kind != "bool":
                self.add_error(name, ValidationError(gettext("Give a value (the default is %(default)s).")
                                                     % {"default": default_text(spec, option)}, code="required"))
                continue
            violation = spec.check(option, value)
            if violation is not None:  # the declaration's own check, in case the field let it through
                self.add_error(name, refusals.validation_error(violation.code, violation.params))
            elif value != spec.default:
                options[option] = value
        if any(name in self.errors for name in self.option_names(slug)):
            return cleaned
        cleaned["options"] = options
        for name, default in CHOICE_DEFAULTS.items():  # a choice not sent keeps its default (or its value)
            if not cleaned.get(name):
                cleaned[name] = getattr(self.tournament, name) if self.tournament is not None else default
        if "auto_publish" not in self.data:  # not sent: as it is (a new event publishes its rounds automatically)
            cleaned["auto_publish"] = self.tournament.auto_publish if self.tournament is not None else True
        cleaned["sit_out_fixed"] = {key: cleaned[field] for key, field in SIT_OUT_FIELDS.items()
                                    if cleaned.get(field) is not None}
        tiebreaks = cleaned.get("tiebreaks") or []
        cleaned["tiebreaks"] = [] if list(tiebreaks) == list(DEFAULT_METRICS) else list(tiebreaks)
        # The model's own checks, the services' too: the variant, all its options together, the tiebreaks, the
        # points in order, no second tournament of this name, club and start date.
        probe = Tournament(variant=slug, options=options, tiebreaks=cleaned["tiebreaks"])
        if self.tournament is not None:
            probe.pk = self.tournament.pk
        for name in (*SETTINGS, *EVENT_SETTINGS, "sit_out_fixed"):
            if name in cleaned:
                setattr(probe, name, cleaned[name])
            elif self.tournament is not None:
                setattr(probe, name, getattr(self.tournament, name))
        try:
            probe.clean()
        except ValidationError as exc:
            self.add_model_errors(exc)
        return cleaned

    def add_model_errors(self, exc: ValidationError) -> None:
        """Show a model's (or a service's) errors on their fields; the house options' above the form."""
        for field, errors in exc.error_dict.items():  # the errors themselves: their codes stay (tests, scripts)
            if field == "sit_out_fixed":
                field = SIT_OUT_FIELDS["match_points"]
            target = field if field in self.fields and field != "options" else None
            for error in errors:
                for message in error.messages:
                    if target is None or target not in self.errors or message not in self.errors[target]:
                        self.add_error(target, ValidationError(message, code=error.code))

    def service_fields(self) -> dict:
        """The cleaned settings as ``tournament_create`` / ``tournament_update`` take them."""
        fields = {name: self.cleaned_data[name] for name in (*SETTINGS, *EVENT_SETTINGS, "sit_out_fixed")}
        fields["options"] = self.cleaned_data["options"]
        fields["tiebreaks"] = self.cleaned_data["tiebreaks"]
        if self.frozen:
            for name in FROZEN_ONCE_PAIRED:
                fields.pop(name, None)
        return fields


ROLE_CHOICES = [("scorekeeper", _("Scorekeeper: enters the results of the matches")),
                ("director", _("Director: settles disputed results and changes confirmed ones")),
                ("organizer", _("Co-organizer: runs the tournament with you"))]


class InviteForm(forms.Form):
    role = forms.ChoiceField(label=_("Invite as"), choices=ROLE_CHOICES, initial="scorekeeper",
                             widget=forms.RadioSelect)
    email = forms.EmailField(label=_("E-mail address (optional)"), required=False,
                             help_text=_("The link is also sent there; leave it empty to pass the link on "
                                         "yourself."))

    def __init__(self, *args, email_enabled: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not email_enabled:
            del self.fields["email"]


class InviteeCreationForm(UserCreationForm):
    """The account an invitee makes on the invitation's page: a username and a password, twice."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
