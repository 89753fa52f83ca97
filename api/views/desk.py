"""The director's desk: a tournament's actions on results and entries (``tournaments.services.desk``)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.access import can_direct
from tournaments.models import DirectorAction, Entry, Match
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.desk_preview import desk_action_preview
from tournaments.services.errors import ServiceError

from ..serializers.desk import (
    DirectorActionCreateSerializer, DirectorActionPreviewRequestSerializer, DirectorActionPreviewSerializer,
    DirectorActionRevertSerializer, DirectorActionSerializer,
)
from .tournaments import TOURNAMENT_ID, TournamentChildMixin

ACTION_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The action's id.")


class DirectorOnly(permissions.IsAuthenticated):
    """The desk is the directors': staff and the tournament's organizers (``access.can_direct``), reads included
    (its reasons are the directors' own words)."""

    def has_permission(self, request, view):
        return super().has_permission(request, view) and can_direct(request.user, view.get_tournament().pk)


@extend_schema_view(
    list=extend_schema(summary="The director's actions in the tournament, reverted ones included",
                       parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="A director's action", parameters=[TOURNAMENT_ID, ACTION_ID]),
)
class DirectorActionViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                            viewsets.GenericViewSet):
    """Forfeits, withdrawals, adjusted results, penalties, decisions and deductions: taken and reverted."""

    lookup_value_regex = r"[0-9]{1,18}"
    serializer_class = DirectorActionSerializer
    permission_classes = [DirectorOnly]
    filter_backends = []
    conflict_methods = ("POST",)
    rule_methods = ("POST",)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return DirectorAction.objects.none()
        return DirectorAction.objects.filter(tournament=self.get_tournament()).order_by("created_at", "id")

    @extend_schema(summary="Take a director's action, with its reason", parameters=[TOURNAMENT_ID],
                   request=DirectorActionCreateSerializer, responses={201: DirectorActionSerializer})
    def create(self, request, tournament_id=None):
        data, tournament, match, entry = self._target(request, DirectorActionCreateSerializer)
        outcome = desk_action_take(tournament=tournament, kind=data["kind"], reason=data["reason"],
                                   user=request.user, match=match, entry=entry, params=data["params"])
        outcome.action.rounds_kept = outcome.rounds_kept
        return Response(DirectorActionSerializer(outcome.action).data, status=status.HTTP_201_CREATED)

    def _target(self, request, serializer):
        body = serializer(data=request.data)
        body.is_valid(raise_exception=True)
        data, tournament = body.validated_data, self.get_tournament()
        # A match or entry of another tournament, or none, is refused alike (nothing about it leaks).
        match = entry = None
        if "match" in data:
            match = Match.objects.filter(pk=data["match"], round__tournament=tournament).first()
            if match is None:
                raise ServiceError("match_other_tournament", "match", {"match": data["match"]})
        if "entry" in data:
            entry = Entry.objects.filter(pk=data["entry"], tournament=tournament).first()
            if entry is None:
                raise ServiceError("entry_other_tournament", "entry", {"entry": data["entry"]})
        return data, tournament, match, entry

    @extend_schema(summary="What an action would do to the standings, nothing saved", parameters=[TOURNAMENT_ID],
                   request=DirectorActionPreviewRequestSerializer, responses=DirectorActionPreviewSerializer)
    @action(detail=False, methods=["post"])
    def preview(self, request, tournament_id=None):
        data, tournament, match, entry = self._target(request, DirectorActionPreviewRequestSerializer)
        found = desk_action_preview(tournament=tournament, kind=data["kind"], reason=data["reason"],
                                    user=request.user, match=match, entry=entry, params=data["params"])
        return Response(DirectorActionPreviewSerializer(found).data)

    @extend_schema(summary="Revert a director's action (the result and standings worked out again)",
                   parameters=[TOURNAMENT_ID, ACTION_ID], request=DirectorActionRevertSerializer,
                   responses=DirectorActionSerializer)
    @action(detail=True, methods=["post"])
    def revert(self, request, tournament_id=None, pk=None):
        body = DirectorActionRevertSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        outcome = desk_action_revert(action=self.get_object(), user=request.user,
                                     reason=body.validated_data["reason"])
        outcome.action.rounds_kept = outcome.rounds_kept
        return Response(DirectorActionSerializer(outcome.action).data)
