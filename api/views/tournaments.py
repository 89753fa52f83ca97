"""Tournaments and their entries."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, viewsets
from rest_framework.decorators import action

from tournaments import versions
from tournaments.access import sees_unpublished
from tournaments.models import Entry, KeptApart, Tournament
from tournaments.services.draws import entry_add_player, entry_numbers_set, kept_apart_add, kept_apart_remove
from tournaments.services.rounds import entry_add_late, entry_withdraw
from tournaments.services.tournaments import tournament_create, tournament_delete, tournament_update

from ..filters import EntryFilter, TournamentFilter
from ..openapi_examples import EXAMPLE_ENTRY_PLAYER, EXAMPLE_ENTRY_TEAM, EXAMPLE_TOURNAMENT, EXAMPLE_TOURNAMENT_INDIVIDUAL
from ..permissions import (
    TournamentOrganizerWrite, TournamentWrite, is_organizer, require_club_manager, visible_tournaments,
)
from ..serializers.individual import KeptApartSerializer, StartNumbersSerializer
from ..serializers.registry import EntrySerializer, EntryUpdateSerializer, TournamentSerializer
from .common import PAGINATION, page_of
from .conditional import public_answer, versioned

TOURNAMENT_ID = OpenApiParameter("tournament_id", str, OpenApiParameter.PATH,
                                 description="The tournament's id, or its slug (`gentse-beker`).")
TOURNAMENT_LOOKUP = OpenApiParameter("id", str, OpenApiParameter.PATH,
                                     description="The tournament's id, or its slug (`gentse-beker`).")
# A tournament's id or slug in a URL; all digits is an id (a slug made only of digits is reached by its id).
TOURNAMENT_REF = r"[0-9]+|[-a-zA-Z0-9_]+"


def tournament_lookup(value) -> dict:
    """The filter that finds a tournament by its id (all digits) or its slug."""
    value = str(value)
    return {"pk": int(value)} if value.isdigit() else {"slug": value}


@extend_schema_view(
    list=extend_schema(summary="List the tournaments you may see"),
    retrieve=extend_schema(summary="A tournament", parameters=[TOURNAMENT_LOOKUP]),
    create=extend_schema(summary="Create a tournament (its creator becomes an organizer)",
                         examples=[EXAMPLE_TOURNAMENT, EXAMPLE_TOURNAMENT_INDIVIDUAL]),
    update=extend_schema(summary="Replace a tournament", parameters=[TOURNAMENT_LOOKUP]),
    partial_update=extend_schema(summary="Update a tournament", parameters=[TOURNAMENT_LOOKUP]),
    destroy=extend_schema(summary="Delete a tournament that has no rounds yet", parameters=[TOURNAMENT_LOOKUP]),
)
class TournamentViewSet(viewsets.ModelViewSet):
    lookup_value_regex = TOURNAMENT_REF
    serializer_class = TournamentSerializer
    permission_classes = [TournamentWrite]
    filterset_class = TournamentFilter
    search_fields = ["name", "slug"]
    ordering_fields = ["name", "created_at", "starts_on", "status"]
    rule_methods = ("POST", "PUT", "PATCH")
    conflict_methods = ("PUT", "PATCH", "DELETE")

    def get_queryset(self):
        return visible_tournaments(self.request.user).select_related("club").prefetch_related(
            "organizers", "directors", "scorekeepers")

    def get_object(self):
        obj = get_object_or_404(self.filter_queryset(self.get_queryset()), **tournament_lookup(self.kwargs["pk"]))
        self.check_object_permissions(self.request, obj)
        return obj

    def perform_create(self, serializer):
        require_club_manager(self.request.user, serializer, "hold a tournament in its name")
        serializer.instance = tournament_create(user=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        require_club_manager(self.request.user, serializer, "hold a tournament in its name")
        serializer.instance = tournament_update(tournament=serializer.instance, user=self.request.user,
                                                **serializer.validated_data)

    def perform_destroy(self, instance):
        tournament_delete(tournament=instance, user=self.request.user)


class TournamentChildMixin:
    """A view nested under /tournaments/{tournament_id}/: the tournament must be visible."""

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(visible_tournaments(self.request.user),
                                                 **tournament_lookup(self.kwargs["tournament_id"]))
        return self._tournament

    def answer_versions(self, request, kwargs, pk: int) -> tuple[tuple[str, ...], tuple]:
        """The stamps' keys and the ETag's parts of this view's conditional GET of tournament ``pk``."""
        raise NotImplementedError

    def visitor_versions(self, request, kwargs):
        """``VisitorNotModified``'s: for the tournament named by its number."""
        value = str(kwargs["tournament_id"])
        return (int(value), *self.answer_versions(request, kwargs, int(value))) if value.isdigit() else None

    def conditional(self, build):
        """``versioned`` for this tournament's answer (``answer_versions``), ``build()`` making its data (it may
        call ``get_tournament``). A visitor who is not signed in, naming the tournament by its number, is answered
        from the stamps with no SQL for a 304 (``public_answer``)."""
        value = str(self.kwargs["tournament_id"])
        if not self.request.user.is_authenticated and value.isdigit():
            return public_answer(self.request, int(value), *self.answer_versions(self.request, self.kwargs,
                                                                                 int(value)), build)
        tournament = self.get_tournament()
        keys, parts = self.answer_versions(self.request, self.kwargs, tournament.pk)
        if self.sees_unpublished():  # an answer with the rounds not yet published: kept apart from the public's,
            # and moved by their writes too (which leave the public's stamps as they are: tournaments.versions)
            keys, parts = (*keys, versions.unpublished_key(tournament.pk)), (*parts, "unpublished")
        return versioned(self.request, keys, parts, build)

    def sees_unpublished(self) -> bool:
        """Whether this request's user sees the tournament's rounds not yet published (``access.sees_unpublished``):
        asked only of an event that publishes on purpose (one publishing automatically has none: turning it on
        publishes them)."""
        if not hasattr(self, "_sees_unpublished"):
            tournament = self.get_tournament()
            self._sees_unpublished = (not tournament.auto_publish
                                      and sees_unpublished(self.request.user, tournament.pk))
        return self._sees_unpublished


def _required(field: str) -> exceptions.ValidationError:
    return exceptions.ValidationError({field: [exceptions.ErrorDetail(
        serializers.Field.default_error_messages["required"], code="required")]})


@extend_schema_view(
    list=extend_schema(summary="The teams or players entered", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="An entry", parameters=[TOURNAMENT_ID]),
    create=extend_schema(summary="Enter a team, or a player in an individual event", parameters=[TOURNAMENT_ID],
                         examples=[EXAMPLE_ENTRY_TEAM, EXAMPLE_ENTRY_PLAYER]),
    partial_update=extend_schema(summary="Change an entry's seed or start number", parameters=[TOURNAMENT_ID],
                                 request=EntryUpdateSerializer, responses=EntrySerializer),
    destroy=extend_schema(summary="Withdraw a team or a player: not drawn or paired again, the played results stand",
                          parameters=[TOURNAMENT_ID]),
)
class EntryViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                   mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                   viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]+"
    serializer_class = EntrySerializer
    permission_classes = [TournamentOrganizerWrite]
    filterset_class = EntryFilter
    ordering_fields = ["seed", "start_number", "created_at"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    conflict_methods = ("POST", "PATCH", "DELETE")
    # Refusals with no field: `late_entry_closed`; `entry_kind` (a team into an individual event, a player into a
    # team event), `tournament_started` (start numbers after the first draw) (docs/refusals.md).
    rule_methods = ("POST", "PATCH")

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no tournament in the URL
            return Entry.objects.none()
        entries = Entry.objects.filter(tournament=self.get_tournament()).select_related("team", "player__club")
        # An individual event lists its players by start number (the draw's order), a team event by seed.
        return entries.order_by("start_number", "id") if self.get_tournament().is_individual else entries

    def get_serializer_class(self):
        return EntryUpdateSerializer if self.action == "partial_update" else EntrySerializer

    def perform_create(self, serializer):
        """A team through ``entry_add_late``, a player through ``draws.entry_add_player``: each refuses an entry of
        the other kind (``entry_kind``), so a team sent to an individual event goes to the one that says so."""
        tournament, data = self.get_tournament(), serializer.validated_data
        individual = ("player", "start_number", "fixed_table", "reserve")
        user = self.request.user
        if tournament.is_individual and data.get("team") is None or not tournament.is_individual and any(
                data.get(f) not in (None, False) for f in individual):
            if tournament.is_individual and data.get("player") is None:
                raise _required("player")
            serializer.instance = entry_add_player(
                tournament=tournament, player=data.get("player"), start_number=data.get("start_number"),
                fixed_table=data.get("fixed_table"), reserve=data.get("reserve", False), user=user)
            return
        if data.get("team") is None:
            raise _required("team")
        serializer.instance = entry_add_late(tournament=tournament, team=data["team"], seed=data.get("seed"),
                                             user=user)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        if "start_number" in data:
            entry_numbers_set(tournament=self.get_tournament(), numbers={serializer.instance.pk: data.pop(
                "start_number")}, user=self.request.user)
        if data:
            serializer.save(**data)

    def update(self, request, *args, **kwargs):
        response = super().update(request, *args, **kwargs)
        response.data = EntrySerializer(self.get_object()).data
        return response

    def perform_destroy(self, instance):
        entry_withdraw(entry=instance, user=self.request.user)

    @extend_schema(summary="Set start numbers together, before the first draw", parameters=[TOURNAMENT_ID],
                   request=StartNumbersSerializer, responses=EntrySerializer(many=True))
    @action(detail=False, methods=["patch"], url_path="start-numbers", pagination_class=PAGINATION,
            filter_backends=[])
    def start_numbers(self, request, tournament_id=None):
        body = StartNumbersSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry_numbers_set(tournament=self.get_tournament(), user=request.user,
                          numbers={n["entry"]: n["start_number"] for n in body.validated_data["numbers"]})
        return page_of(request, self.get_queryset(), lambda page: EntrySerializer(page, many=True).data, view=self)


@extend_schema_view(
    list=extend_schema(summary="The players kept apart in the draws", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="A pair kept apart", parameters=[TOURNAMENT_ID]),
    create=extend_schema(summary="Keep two players apart in every draw", parameters=[TOURNAMENT_ID]),
    destroy=extend_schema(summary="No longer keep two players apart", parameters=[TOURNAMENT_ID]),
)
class KeptApartViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                       mixins.CreateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Individual events: pairs of players who never share a table (``draws.kept_apart_add``/``_remove``)."""

    lookup_value_regex = r"[0-9]+"
    serializer_class = KeptApartSerializer
    permission_classes = [TournamentOrganizerWrite]
    filter_backends = []
    conflict_methods = ("POST", "DELETE")
    rule_methods = ("POST",)  # `entry_kind` (a team event), `not_entered`, `same_player`

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return KeptApart.objects.none()
        return (KeptApart.objects.filter(tournament=self.get_tournament())
                .select_related("player_a", "player_b").order_by("id"))

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False) and "tournament_id" in self.kwargs:
            context["organizer"] = is_organizer(self.request.user, self.get_tournament().pk)
        return context

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = kept_apart_add(tournament=self.get_tournament(), player_a=data["player_a"],
                                             player_b=data["player_b"], reason=data.get("reason") or "",
                                             user=self.request.user)

    def perform_destroy(self, instance):
        kept_apart_remove(pair=instance, user=self.request.user)
