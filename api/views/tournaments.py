"""Tournaments and their entries."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets

from tournaments.models import Entry, Tournament
from tournaments.services.rounds import entry_add_late, entry_withdraw
from tournaments.services.tournaments import tournament_create, tournament_delete, tournament_update

from ..filters import EntryFilter, TournamentFilter
from ..openapi import EXAMPLE_TOURNAMENT
from ..permissions import TournamentOrganizerWrite, TournamentWrite, require_club_manager, visible_tournaments
from ..serializers.registry import EntrySerializer, EntryUpdateSerializer, TournamentSerializer
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
                         examples=[EXAMPLE_TOURNAMENT]),
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
        return visible_tournaments(self.request.user).prefetch_related("organizers", "scorekeepers")

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
        pk = self.get_tournament().pk
        return versioned(self.request, *self.answer_versions(self.request, self.kwargs, pk), build)


@extend_schema_view(
    list=extend_schema(summary="The teams entered", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="An entry", parameters=[TOURNAMENT_ID]),
    create=extend_schema(summary="Enter a team", parameters=[TOURNAMENT_ID]),
    partial_update=extend_schema(summary="Change an entry's seed", parameters=[TOURNAMENT_ID],
                                 request=EntryUpdateSerializer, responses=EntrySerializer),
    destroy=extend_schema(summary="Withdraw a team: not paired again, its played results stand",
                          parameters=[TOURNAMENT_ID]),
)
class EntryViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                   mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                   viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]+"
    serializer_class = EntrySerializer
    permission_classes = [TournamentOrganizerWrite]
    filterset_class = EntryFilter
    ordering_fields = ["seed", "created_at"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    conflict_methods = ("POST", "DELETE")
    rule_methods = ("POST",)  # a refusal with no field: `late_entry_closed` (docs/refusals.md)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no tournament in the URL
            return Entry.objects.none()
        return Entry.objects.filter(tournament=self.get_tournament()).select_related("team")

    def get_serializer_class(self):
        return EntryUpdateSerializer if self.action == "partial_update" else EntrySerializer

    def perform_create(self, serializer):
        serializer.instance = entry_add_late(tournament=self.get_tournament(), team=serializer.validated_data["team"],
                                             seed=serializer.validated_data.get("seed"), user=self.request.user)

    def update(self, request, *args, **kwargs):
        response = super().update(request, *args, **kwargs)
        response.data = EntrySerializer(self.get_object()).data
        return response

    def perform_destroy(self, instance):
        entry_withdraw(entry=instance, user=self.request.user)
