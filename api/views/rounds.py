"""Rounds (paired in a worker), the pairing tasks and the standings."""

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import refusals, versions
from tournaments.models import Match, Round, TaskRecord
from tournaments.selectors.standings import standings_for, task_status
from tournaments.services.rounds import round_pair_request

from ..openapi import EXAMPLE_STANDINGS
from ..permissions import TournamentOrganizerWrite, visible_tournaments
from ..serializers.rounds import (
    RoundPairRequestSerializer, RoundSerializer, StandingsSerializer, TaskAcceptedSerializer, TaskStatusSerializer,
)
from .common import validated
from .conditional import VisitorNotModified
from .tournaments import TOURNAMENT_ID, TournamentChildMixin

ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number.")
LIMIT = OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100000}, required=False,
                         description="Only this many rows from the offset (the top N with no offset); all when absent.")
OFFSET = OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": 100000}, required=False,
                          description="Rows to skip first (0 when absent).")


class LimitSerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100000)
    offset = serializers.IntegerField(required=False, min_value=0, max_value=100000)


@extend_schema_view(
    list=extend_schema(summary="The rounds with their matches", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="A round with its matches", parameters=[TOURNAMENT_ID, ROUND_NUMBER]),
)
class RoundViewSet(TournamentChildMixin, VisitorNotModified, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                   viewsets.GenericViewSet):
    serializer_class = RoundSerializer
    permission_classes = [TournamentOrganizerWrite]
    lookup_field = "number"
    lookup_value_regex = r"[0-9]{1,4}"
    filter_backends = []
    conflict_methods = ("POST",)
    rule_methods = ("POST",)  # a refusal with no field: `too_few_teams` (docs/refusals.md)
    conditional_actions = ("list", "retrieve")  # ETag and 304 (the schema's If-None-Match: api/openapi_http.py)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        matches = Prefetch("matches", queryset=Match.objects.select_related("ns__club", "ew__club").order_by("table"))
        return Round.objects.filter(tournament=self.get_tournament()).prefetch_related(matches).order_by("number")

    def answer_versions(self, request, kwargs, pk):
        if "number" in kwargs:
            return versions.results_keys(pk), ("round", pk, kwargs["number"])
        return versions.results_keys(pk), ("rounds", pk, request.build_absolute_uri())

    def list(self, request, tournament_id=None):
        return self.conditional(lambda: super(RoundViewSet, self).list(request, tournament_id=tournament_id).data)

    def retrieve(self, request, tournament_id=None, number=None):
        return self.conditional(lambda: super(RoundViewSet, self).retrieve(request, tournament_id=tournament_id,
                                                                           number=number).data)

    @extend_schema(summary="Pair the next round (in a worker)", parameters=[TOURNAMENT_ID],
                   request=RoundPairRequestSerializer, responses={202: TaskAcceptedSerializer})
    def create(self, request, tournament_id=None):
        tournament = self.get_tournament()
        body = RoundPairRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        # The contract's 409s (a pairing under way, an unfinished round) are answered at once.
        record = round_pair_request(tournament=tournament, force=body.validated_data["force"], user=request.user)
        url = request.build_absolute_uri(reverse("api:task-detail", kwargs={"task_id": str(record.id)}))
        return Response({"task": str(record.id), "status_url": url}, status=status.HTTP_202_ACCEPTED,
                        headers={"Location": url})


class StandingsView(TournamentChildMixin, VisitorNotModified, APIView):
    """The tournament's standings, as last computed."""

    query_serializer = LimitSerializer  # limit and offset are validated: their 400 is documented
    conditional_actions = ("get",)  # ETag and 304 (the schema's If-None-Match: api/openapi_http.py)
    # Made once (``validated``): a new one per request deep-copied its fields, a tenth of a 304's time.
    query = LimitSerializer()

    def _window(self, request) -> tuple[int | None, int]:
        """The rows asked for: the limit (None: all) and the offset, validated once a request."""
        if not request.GET:
            return None, 0
        if not hasattr(self, "window"):
            query = validated(self.query, request.GET)
            self.window = query.get("limit"), query.get("offset", 0)
        return self.window

    def answer_versions(self, request, kwargs, pk):
        return versions.standings_keys(pk), ("standings", pk, *self._window(request))

    def visitor_versions(self, request, kwargs):
        # A limit or an offset is validated by DRF's path first (its 400 is DRF's).
        return None if request.GET else super().visitor_versions(request, kwargs)

    @extend_schema(summary="The standings, one row a team in rank order", parameters=[TOURNAMENT_ID, LIMIT, OFFSET],
                   responses=StandingsSerializer, examples=[EXAMPLE_STANDINGS])
    def get(self, request, tournament_id=None):
        limit, offset = self._window(request)

        def build():
            data = standings_for(self.get_tournament())
            if limit is not None or offset:
                data["rows"] = data["rows"][offset:None if limit is None else offset + limit]
            return StandingsSerializer(data).data

        return self.conditional(build)


class TaskView(APIView):
    """A pairing task: pending, running (with progress), succeeded (with the round) or failed (with the reason)."""

    @extend_schema(summary="Follow a pairing task",
                   parameters=[OpenApiParameter("task_id", str, OpenApiParameter.PATH, description="The task id.")],
                   responses=TaskStatusSerializer)
    def get(self, request, task_id=None):
        info = task_status(task_id)
        if info is None:
            raise Http404
        tournament = get_object_or_404(visible_tournaments(request.user), pk=info["tournament"])
        number = (info["result"] or {}).get("round") if info["status"] == TaskRecord.Status.SUCCEEDED else None
        round_url = None
        if number is not None:
            round_url = request.build_absolute_uri(reverse(
                "api:round-detail", kwargs={"tournament_id": tournament.pk, "number": number}))
        data = {
            "task": info["id"], "kind": info["kind"], "tournament": tournament.pk, "status": info["status"],
            "progress": info["progress"], "round": round_url, "round_number": number,
            "error": refusals.stored(info["error"]),
            "created_at": info["created_at"], "updated_at": info["updated_at"],
        }
        return Response(TaskStatusSerializer(data).data)
