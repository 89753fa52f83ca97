"""django-filter filter sets of the lists."""

import django_filters
from django import forms
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import filters
from rest_framework.exceptions import ValidationError

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
    tournament = IdFilter(field_name="round__tournament")
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
    """DRF's ``?search=``, whose refusals (a null character) name the ``search`` parameter as their field."""

    def get_search_terms(self, request):
        try:
            return super().get_search_terms(request)
        except ValidationError as exc:
            raise ValidationError({self.search_param: exc.detail}) from exc


class HandFilter(django_filters.FilterSet):
    match = IdFilter(field_name="game__match", label="Hands of this match")
    tournament = IdFilter(field_name="game__match__round__tournament", label="Hands of this tournament (its id)")

    class Meta:
        model = Hand
        fields = ["match", "tournament"]
