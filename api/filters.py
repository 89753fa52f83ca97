"""django-filter filter sets of the lists."""

import re

import django_filters
from django import forms
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import filters
from rest_framework.exceptions import ErrorDetail, ValidationError

from tournaments.models import Club, Entry, Hand, Match, Player, RoundSeat, Team, Tournament


class IdFilter(django_filters.NumberFilter):
    """An integer id (a decimal NumberFilter would accept 1.5 and 1e40)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


@extend_schema_field(OpenApiTypes.BOOL)
class BooleanFilter(django_filters.TypedChoiceFilter):
    """``true`` or ``false`` (``True``, ``1``, ...); anything else is refused (django-filter's ignored it)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", [(v, v) for v in ("true", "false", "True", "False", "1", "0")])
        kwargs.setdefault("coerce", lambda value: value in ("true", "True", "1"))
        super().__init__(*args, **kwargs)


#: A tournament named in a query: its id (digits) or its slug, as in a URL (api.views.tournaments.TOURNAMENT_REF).
TOURNAMENT_REF_PATTERN = r"^(?:[0-9]{1,19}|[-a-zA-Z0-9_]{1,180})$"


class TournamentRefField(forms.CharField):
    """A tournament's id or its slug; the lookup that finds it (``{"pk": 12}`` or ``{"slug": "…"}``). All digits
    is an id (as in a URL); an id no tournament can have (0, beyond 2**63 - 1) finds nothing."""

    default_error_messages = {"invalid": "Give a tournament's id or slug."}

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        if not re.fullmatch(TOURNAMENT_REF_PATTERN, value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        if value.isdigit():
            return {"pk": int(value) if 1 <= int(value) <= 2**63 - 1 else None}
        return {"slug": value}


@extend_schema_field({"type": "string", "pattern": TOURNAMENT_REF_PATTERN, "maxLength": 180,
                      "description": "The tournament's id or its slug (`12` or `gentse-beker`)."})
class TournamentRefFilter(django_filters.Filter):
    """``?tournament=`` by id or slug (docs/api.md: a slug works wherever an id does). ``field_name``: the path to
    the tournament (``round__tournament``)."""

    field_class = TournamentRefField

    def filter(self, qs, value):
        if not value:
            return qs
        (key, found), = value.items()
        if found is None:
            return qs.none()
        return qs.filter(**{f"{self.field_name}__{key}": found})


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    city = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Club
        fields = ["name", "city"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="club")  # an id no club has lists nothing (a choice field refused `club=0`)

    class Meta:
        model = Player
        fields = ["club", "name", "licence"]


class TeamFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="club")
    player = IdFilter(method="filter_player", label="Teams with this player")

    class Meta:
        model = Team
        fields = ["club", "name", "player"]

    def filter_player(self, queryset, name, value: int):  # the hint types the parameter in the schema
        return queryset.filter(Q(player_1=value) | Q(player_2=value))


class TournamentFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    starts_after = django_filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    starts_before = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    club = IdFilter(field_name="club")
    public = BooleanFilter()

    class Meta:
        model = Tournament
        fields = ["name", "variant", "entry", "format", "status", "club", "public", "starts_after", "starts_before"]


class EntryFilter(django_filters.FilterSet):
    team = IdFilter(field_name="team")
    player = IdFilter(field_name="player")
    withdrawn = BooleanFilter()
    reserve = BooleanFilter()

    class Meta:
        model = Entry
        fields = ["team", "player", "withdrawn", "reserve"]


class MatchFilter(django_filters.FilterSet):
    tournament = TournamentRefFilter(field_name="round__tournament", label="Matches of this tournament (id or slug)")
    round = IdFilter(field_name="round__number", max_value=32767, label="Round number")
    team = IdFilter(method="filter_team", label="Matches of this team")
    player = IdFilter(method="filter_player", label="Matches of this player (seated, or in a team of the match)")

    class Meta:
        model = Match
        fields = ["tournament", "round", "status", "team", "player"]

    def filter_team(self, queryset, name, value: int):  # the hint types the parameter in the schema
        return queryset.filter(Q(ns=value) | Q(ew=value))

    def filter_player(self, queryset, name, value: int):
        """An individual event's matches through their seats, a team event's through its teams' players."""
        seated = RoundSeat.objects.filter(player=value, match__isnull=False).values("match_id")
        return queryset.filter(Q(pk__in=seated) | Q(ns__player_1=value) | Q(ns__player_2=value)
                               | Q(ew__player_1=value) | Q(ew__player_2=value))


class SearchFilter(filters.SearchFilter):
    """DRF's ``?search=``, whose refusals (a null character) name the ``search`` parameter as their field; in the
    schema only where the view searches something (``search_fields``)."""

    def get_schema_operation_parameters(self, view):
        if not getattr(view, "search_fields", None):
            return []
        found = super().get_schema_operation_parameters(view)
        for parameter in found:
            parameter["description"] = "A search term (or several, space-separated, all required) in: " + ", ".join(
                f"`{name.lstrip('^=@$')}`" for name in view.search_fields) + "."
            parameter["allowEmptyValue"] = True  # an empty ?search= searches nothing: everything listed
        return found

    def get_search_terms(self, request):
        try:
            return super().get_search_terms(request)
        except ValidationError as exc:
            raise ValidationError({self.search_param: exc.detail}) from exc


class HandFilter(django_filters.FilterSet):
    match = IdFilter(field_name="game__match", label="Hands of this match")
    tournament = TournamentRefFilter(field_name="game__match__round__tournament",
                                     label="Hands of this tournament (id or slug)")

    class Meta:
        model = Hand
        fields = ["match", "tournament"]


class OrderingFilter(filters.OrderingFilter):
    """``?ordering=``: one of the view's ``ordering_fields``, ascending or with ``-`` descending; several separated
    by commas. The values are listed in the schema (an ``enum``); any other is refused (400 ``invalid_choice`` on
    ``ordering``; DRF ignored it). A view without ``ordering_fields`` has no ``ordering``.
    """

    @staticmethod
    def choices(view) -> list[str]:
        fields = getattr(view, "ordering_fields", None) or []
        return [value for name in fields for value in (name, f"-{name}")]

    def get_valid_fields(self, queryset, view, context=None):
        return [(name, name) for name in getattr(view, "ordering_fields", None) or []]

    def get_ordering(self, request, queryset, view):
        params = request.query_params.get(self.ordering_param)
        if params:
            terms = [term.strip() for term in params.split(",")]
            allowed = self.choices(view)
            wrong = [term for term in terms if term not in allowed]
            if wrong:
                raise ValidationError({self.ordering_param: [ErrorDetail(
                    f"{wrong[0]!r} is not a valid choice: {', '.join(allowed) or 'none'}.", code="invalid_choice")]})
            return terms
        return self.get_default_ordering(view)

    def get_schema_operation_parameters(self, view):
        allowed = self.choices(view)
        if not allowed:
            return []
        return [{
            "name": self.ordering_param, "required": False, "in": "query",
            "description": "How to sort: a field, ascending, or with `-` descending (several, comma-separated, "
                           "are accepted too).",
            "schema": {"type": "string", "enum": allowed},
            "allowEmptyValue": True,  # an empty ?ordering= is the default order, as no ?ordering= at all
        }]
