"""An event's stages (issue 27): the list, one stage, the next stage added by an organizer, a stage's rounds."""

from django.db.models import Count, Prefetch
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.models import Match, Round, Stage
from tournaments.selectors.seats import players_of_matches, sitting_out_ids
from tournaments.services.stages import stage_add

from ..permissions import TournamentOrganizerWrite
from ..serializers.rounds import RoundSerializer
from ..serializers.stages import StageCreateSerializer, StageSerializer
from .common import PAGINATION, page_of
from .tournaments import TOURNAMENT_ID, TournamentChildMixin

STAGE_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The stage's number (from 1).")


@extend_schema_view(
    list=extend_schema(summary="The event's stages in order", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="One stage", parameters=[TOURNAMENT_ID, STAGE_NUMBER]),
    create=extend_schema(summary="Add the next stage", parameters=[TOURNAMENT_ID], request=StageCreateSerializer,
                         responses={201: StageSerializer}),
)
class StageViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   viewsets.GenericViewSet):
    serializer_class = StageSerializer
    permission_classes = [TournamentOrganizerWrite]
    lookup_field = "number"
    lookup_value_regex = r"[0-9]{1,4}"
    filter_backends = []
    # Refusals with no field: `format_for_entry`, `pool_count`, `stage_capacity`, `qualification_invalid`,
    # `carry_over_invalid` (docs/refusals.md).
    rule_methods = ("POST",)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Stage.objects.none()
        return (Stage.objects.filter(tournament=self.get_tournament()).annotate(round_count=Count("round_set"))
                .order_by("number"))

    def create(self, request, tournament_id=None):
        body = StageCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = dict(body.validated_data)
        stage = stage_add(tournament=self.get_tournament(), user=request.user, **fields)
        stage.round_count = 0
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The stage's rounds with their matches", parameters=[TOURNAMENT_ID, STAGE_NUMBER],
                   responses=RoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=PAGINATION, filter_backends=[])
    def rounds(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        tournament = self.get_tournament()
        matches = Prefetch("matches", queryset=Match.objects.select_related(
            "ns__club", "ew__club", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2").order_by("table"))
        rounds = list(Round.objects.filter(stage=stage).prefetch_related(matches).order_by("number"))
        for rnd in rounds:
            rnd.tournament, rnd.stage = tournament, stage  # the clock reads the event's minutes
        context = {**self.get_serializer_context(),
                   "players": players_of_matches([m for r in rounds for m in r.matches.all()]),
                   "sitting_out": sitting_out_ids(rounds) if tournament.is_individual else {}}
        return page_of(request, rounds, lambda page: RoundSerializer(page, many=True, context=context).data,
                       view=self)
