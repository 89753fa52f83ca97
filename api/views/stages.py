"""An event's stages (issue 27): the list, one stage, the next stage added by an organizer, a stage's rounds."""

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from rest_framework import serializers

from tournaments.models import Entry, Match, Round, Stage
from tournaments.selectors.seats import players_of_matches, sitting_out_ids
from tournaments.selectors.standings import stage_standings_for
from tournaments.services.stages import (
    stage_add,
    stage_close,
    stage_place_entrant,
    stage_reopen,
    stage_start,
    stage_update,
)

from ..permissions import TournamentOrganizerWrite
from ..serializers.rounds import RoundSerializer, StageStandingsSerializer
from ..serializers.stages import StageCreateSerializer, StagePlaceSerializer, StageSerializer, StageUpdateSerializer
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
    http_method_names = ["get", "post", "patch", "head", "options"]
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
        counted = None if self.sees_unpublished() else Q(round_set__published_at__isnull=False)
        return (Stage.objects.filter(tournament=self.get_tournament())
                .annotate(round_count=Count("round_set", filter=counted)).order_by("number"))

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
        rounds = Round.objects.filter(stage=stage)
        rounds = list((rounds if self.sees_unpublished() else rounds.published()).prefetch_related(matches)
                      .order_by("number"))
        for rnd in rounds:
            rnd.tournament, rnd.stage = tournament, stage  # the clock reads the event's minutes
        context = {**self.get_serializer_context(),
                   "players": players_of_matches([m for r in rounds for m in r.matches.all()]),
                   "sitting_out": sitting_out_ids(rounds) if tournament.is_individual else {}}
        return page_of(request, rounds, lambda page: RoundSerializer(page, many=True, context=context).data,
                       view=self)

    def _answer(self, stage: Stage) -> Response:
        rounds = Round.objects.filter(stage=stage)
        stage.round_count = (rounds if self.sees_unpublished() else rounds.published()).count()
        return Response(StageSerializer(stage).data)

    @extend_schema(summary="Change a stage before its first round", parameters=[TOURNAMENT_ID, STAGE_NUMBER],
                   request=StageUpdateSerializer, responses=StageSerializer)
    def partial_update(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        body = StageUpdateSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        return self._answer(stage_update(tournament=self.get_tournament(), number=stage.number, user=request.user,
                                         **body.validated_data))

    @extend_schema(summary="Close the stage: its standings cut by its rule, the qualifiers stored",
                   parameters=[TOURNAMENT_ID, STAGE_NUMBER], request=None, responses=StageSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        return self._answer(stage_close(tournament=self.get_tournament(), number=stage.number, user=request.user))

    @extend_schema(summary="Start the stage: its pools or bracket drawn from its published seed",
                   parameters=[TOURNAMENT_ID, STAGE_NUMBER], request=None, responses=StageSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        return self._answer(stage_start(tournament=self.get_tournament(), number=stage.number, user=request.user))

    @extend_schema(summary="Reopen a closed stage so that its results can change",
                   parameters=[TOURNAMENT_ID, STAGE_NUMBER], request=None, responses=StageSerializer)
    @action(detail=True, methods=["post"])
    def reopen(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        return self._answer(stage_reopen(tournament=self.get_tournament(), number=stage.number, user=request.user))

    @extend_schema(summary="Place an entrant by hand in a stage that has not started",
                   parameters=[TOURNAMENT_ID, STAGE_NUMBER], request=StagePlaceSerializer,
                   responses={201: StagePlaceSerializer})
    @action(detail=True, methods=["post"])
    def entrants(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        body = StagePlaceSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        entry = Entry.objects.filter(tournament=tournament, pk=body.validated_data["entry"]).first()
        if entry is None:
            raise serializers.ValidationError({"entry": [_("Entry %(entry)s is not an entry of this tournament.") % {
                "entry": body.validated_data["entry"]}]})
        placed = stage_place_entrant(tournament=tournament, number=stage.number, entry=entry, user=request.user,
                                     seed=body.validated_data.get("seed"), pool=body.validated_data.get("pool"))
        return Response({"entry": placed.entry_id, "seed": placed.seed, "pool": placed.pool},
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="The stage's standings (a pools stage: `?pool=` for one pool)",
                   parameters=[TOURNAMENT_ID, STAGE_NUMBER,
                               OpenApiParameter("pool", int, OpenApiParameter.QUERY, required=False,
                                                description="A pools stage: only this pool's rows.")],
                   responses=StageStandingsSerializer)
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request, tournament_id=None, number=None):
        stage = self.get_object()
        pool = request.GET.get("pool")
        if pool is not None:
            if not pool.isdigit():
                raise serializers.ValidationError({"pool": ["A pool's number, from 1."]})
            pool = int(pool)
        data = stage_standings_for(stage, self.get_tournament(), pool)
        data = {**data, "count": len(data["rows"]), "next": None, "previous": None}  # the standings' page words
        return Response(StageStandingsSerializer(data).data)
