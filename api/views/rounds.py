"""Rounds (paired in a worker), the pairing tasks and the standings."""

from django.db.models import Case, Prefetch, When
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from tournaments import access, refusals, versions
from tournaments.models import Match, Round, Stage, TaskRecord
from tournaments.selectors.clock import round_clock
from tournaments.selectors.seats import players_of_matches, sitting_out_ids
from tournaments.selectors.standings import standings_for, task_status
from tournaments.services import clock as clock_services
from tournaments.services.draws import round_redraw
from tournaments.services.publication import round_publish
from tournaments.services.rounds import round_pair_request

from ..openapi_examples import EXAMPLE_STANDINGS
from ..permissions import TournamentOrganizerWrite, visible_tournaments
from ..serializers.desk import ClockDecisionSerializer, DirectorActionSerializer
from ..serializers.individual import ClockActionSerializer, ClockSerializer, RoundDrawsSerializer
from ..serializers.rounds import (
    RoundPairRequestSerializer, RoundSerializer, StandingsSerializer, TaskAcceptedSerializer, TaskStatusSerializer,
)
from .common import validated
from .conditional import VisitorNotModified
from .desk import DirectorOnly
from .tournaments import TOURNAMENT_ID, TournamentChildMixin

ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number.")
ROUND_STAGE = OpenApiParameter(
    "stage", int, OpenApiParameter.QUERY, required=False,
    description="A multi-stage event numbers its rounds per stage: the round of this stage (by default, of the "
                "running stage, else of the last stage that has that round).")
LIMIT = OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100000}, required=False,
                         description="Only this many rows from the offset (the top N with no offset); all when absent.")
OFFSET = OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": 100000}, required=False,
                          description="Rows to skip first (0 when absent).")


class LimitSerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100000)
    offset = serializers.IntegerField(required=False, min_value=0, max_value=100000)


@extend_schema_view(
    list=extend_schema(summary="The rounds with their matches", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="A round with its matches", parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE]),
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
        # The teams' players joined: a team event's ``players`` cost no query (an individual event's seats, one).
        matches = Prefetch("matches", queryset=Match.objects.select_related(
            "ns__club", "ew__club", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2").order_by("table"))
        # Stage by stage, each stage's rounds by number (an event of one stage: by number, as always).
        # The rounds not yet published for its organizers, directors and scorekeepers alone (a 404 to others).
        rounds = Round.objects.filter(tournament=self.get_tournament())
        if not self.sees_unpublished():
            rounds = rounds.published()
        return rounds.select_related("stage").prefetch_related(matches).order_by("stage__number", "number")

    def get_object(self):
        """A round by its number: in the stage ``?stage=`` names, else in the running stage (a multi-stage event
        numbers its rounds per stage), else in the last stage that has that round. A one-stage event: by number,
        as always."""
        rounds = self.get_queryset().filter(number=self.kwargs["number"])
        stage = self.request.GET.get("stage")
        if stage is not None:
            if not stage.isdigit():
                raise Http404  # no stage of that number, so no such round
            rounds = rounds.filter(stage__number=int(stage))
        rnd = rounds.order_by(Case(When(stage__status=Stage.Status.RUNNING, then=0), default=1),
                              "-stage__number").first()
        if rnd is None:
            raise Http404
        self.check_object_permissions(self.request, rnd)
        return rnd

    def get_serializer(self, *args, **kwargs):
        """The rounds' serializer with every match's players and every round's sit-outs read at once."""
        if args and self.action in ("list", "retrieve", "redraw", "publish"):
            rounds = list(args[0]) if kwargs.get("many") else [args[0]]
            tournament = self.get_tournament()
            for rnd in rounds:
                rnd.tournament = tournament  # the clock reads the event's minutes
            context = {**self.get_serializer_context(),
                       "players": players_of_matches([m for r in rounds for m in r.matches.all()]),
                       "sitting_out": sitting_out_ids(rounds) if tournament.is_individual else {}}
            return RoundSerializer(*args, context=context, **kwargs)
        return super().get_serializer(*args, **kwargs)

    def answer_versions(self, request, kwargs, pk):
        if "number" in kwargs:
            stage = request.GET.get("stage")
            return versions.results_keys(pk), ("round", pk, kwargs["number"], *([stage] if stage else []))
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

    @extend_schema(summary="Publish the round: everyone who sees the event sees it from now on",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, tournament_id=None, number=None):
        rnd = round_publish(round=self.get_object(), user=request.user)
        return Response(self.get_serializer(self.get_queryset().get(pk=rnd.pk)).data)

    @extend_schema(summary="The round's draw: its inputs and result, every redraw",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], responses=RoundDrawsSerializer)
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def draw(self, request, tournament_id=None, number=None):
        rnd = self.get_object()
        kept = list(rnd.draws.order_by("created_at", "id"))
        in_use = next((d for d in reversed(kept) if d.seed == rnd.seed), None)
        data = {"round": rnd.number, "seed": rnd.seed or None, "inputs": getattr(in_use, "inputs", None),
                "result": getattr(in_use, "result", None),
                "draws": [{"seed": d.seed, "version": d.version, "in_use": d is in_use, "created_at": d.created_at,
                           "inputs": d.inputs, "result": d.result} for d in kept]}
        return Response(RoundDrawsSerializer(data).data)

    @extend_schema(summary="Draw the round again with a new seed (before any game)",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def redraw(self, request, tournament_id=None, number=None):
        rnd = round_redraw(round=self.get_object(), user=request.user)
        return Response(self.get_serializer(self.get_queryset().get(pk=rnd.pk)).data)

    @extend_schema(methods=["GET"], summary="The round clock, from the server's time",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], responses=ClockSerializer)
    @extend_schema(methods=["POST"], summary="Start, pause, resume, extend or end the round clock",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], request=ClockActionSerializer,
                   responses=ClockSerializer)
    @action(detail=True, methods=["get", "post"], url_path="clock", pagination_class=None, filter_backends=[])
    def clock(self, request, tournament_id=None, number=None):
        rnd = self.get_object()
        if request.method == "POST":
            body = ClockActionSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            act, minutes = body.validated_data["action"], body.validated_data.get("minutes")
            if act == "start":
                rnd = clock_services.round_clock_start(round=rnd, minutes=minutes, user=request.user)
            elif act == "extend":
                rnd = clock_services.round_clock_extend(round=rnd, minutes=minutes, user=request.user)
            else:
                rnd = getattr(clock_services, f"round_clock_{act}")(round=rnd, user=request.user)
            rnd.tournament = self.get_tournament()
        return Response(ClockSerializer(round_clock(rnd)).data)

    @extend_schema(summary="The clock was ended early by mistake: reopen the tables it finished (directors)",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], request=ClockDecisionSerializer,
                   responses={201: DirectorActionSerializer})
    @action(detail=True, methods=["post"], url_path="clock/reopen", permission_classes=[DirectorOnly])
    def clock_reopen(self, request, tournament_id=None, number=None):
        return self._clock_decision(request, clock_services.round_clock_reopen)

    @extend_schema(summary="The clock was ended early by mistake: keep its results as they stood (directors)",
                   parameters=[TOURNAMENT_ID, ROUND_NUMBER, ROUND_STAGE], request=ClockDecisionSerializer,
                   responses={201: DirectorActionSerializer})
    @action(detail=True, methods=["post"], url_path="clock/keep", permission_classes=[DirectorOnly])
    def clock_keep(self, request, tournament_id=None, number=None):
        return self._clock_decision(request, clock_services.round_clock_keep)

    def _clock_decision(self, request, decide):
        """A director's action on a clock ended early (``clock_reopened``, ``clock_kept``), answered as the desk's
        actions are; 409 ``clock_not_cut`` unless the clock was ended early and given no time since."""
        rnd = self.get_object()
        body = ClockDecisionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        taken = decide(round=rnd, reason=body.validated_data["reason"], user=request.user)
        return Response(DirectorActionSerializer(taken).data, status=status.HTTP_201_CREATED)


def standings_page(request, count: int, limit: int | None, offset: int) -> dict:
    """The standings' ``count`` (every row), ``next`` and ``previous`` (the windows of ``limit`` rows after and
    before this one; null without a limit, at the end and at the start), as the lists' pages say them."""
    url = request.build_absolute_uri()
    following = preceding = None
    if limit is not None and offset + limit < count:
        following = replace_query_param(url, "offset", offset + limit)
    if offset > 0:
        start = max(offset - (limit or offset), 0)
        preceding = replace_query_param(url, "offset", start) if start else remove_query_param(url, "offset")
        if limit is None:
            preceding = replace_query_param(preceding, "limit", offset)
    return {"count": count, "next": following, "previous": preceding}


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
        # With a window, its links name this request's URL: an answer is kept per URL.
        return versions.standings_keys(pk), ("standings", pk, *self._window(request),
                                             request.build_absolute_uri() if request.GET else "")

    def visitor_versions(self, request, kwargs):
        # A limit or an offset is validated by DRF's path first (its 400 is DRF's).
        return None if request.GET else super().visitor_versions(request, kwargs)

    @extend_schema(summary="The standings, one row a team (a player) in rank order",
                   parameters=[TOURNAMENT_ID, LIMIT, OFFSET],
                   responses=StandingsSerializer, examples=[EXAMPLE_STANDINGS])
    def get(self, request, tournament_id=None):
        limit, offset = self._window(request)

        def build():
            data = standings_for(self.get_tournament())
            rows = data["rows"]
            data.update(standings_page(request, len(rows), limit, offset))
            if limit is not None or offset:
                data["rows"] = rows[offset:None if limit is None else offset + limit]
            data["clubs"] = [{**c, "club_detail": None if c.get("club_name") is None else
                              {"id": c["club"], "name": c["club_name"]}} for c in data["clubs"]]
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
        if number is not None and not access.tournament_rounds(request.user, tournament).filter(
                number=number).exists():
            number = None  # a round not yet published: not named to those who do not see it
        round_url = None
        if number is not None:
            round_url = request.build_absolute_uri(reverse(
                "api:round-detail", kwargs={"tournament_id": tournament.pk, "number": number}))
        data = {
            "task": info["id"], "kind": info["kind"], "tournament": tournament.pk,
            "tournament_detail": {"id": tournament.pk, "name": tournament.name}, "status": info["status"],
            "progress": info["progress"], "round": round_url, "round_number": number,
            "error": refusals.stored(info["error"]),
            "created_at": info["created_at"], "updated_at": info["updated_at"],
        }
        return Response(TaskStatusSerializer(data).data)
