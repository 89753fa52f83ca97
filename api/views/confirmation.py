"""A result's confirmation (docs/confirmation.md): the other side confirms or disputes it, a director settles it or
confirms it on paper; a director reads every step of it.

``POST /matches/{id}/confirm/`` and ``/dispute/`` take a player who names themselves with their personal code
(and the table's code in an individual event), or a signed-in player's account; ``/settle/`` and
``/confirm-on-paper/`` a director's; ``GET /matches/{id}/result-events/`` answers the steps to a director.
Every write goes through ``tournaments.services.confirmation`` (which records its actor, the phone named by
the optional ``X-Device`` header and the address).
"""

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access
from tournaments.models import Match, ResultEvent
from tournaments.selectors.matches import match_scoreboard
from tournaments.services import confirmation as services

from ..serializers.matches import ScoreboardSerializer

X_DEVICE = OpenApiParameter(
    "X-Device", str, OpenApiParameter.HEADER, required=False,
    description="An id of the phone or app sending the request (up to 40 characters), kept with the step: the "
                "phone that entered a result cannot confirm it.")


class ProofSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="The player who confirms, naming themselves (left "
                                                                "out: the signed-in account's player).")
    code = serializers.CharField(required=False, allow_blank=True, max_length=20,
                                 help_text="The player's personal code (on their entry slip and the round's seat "
                                           "list).")
    table_code = serializers.CharField(required=False, allow_blank=True, max_length=20,
                                       help_text="An individual event: the code of the match's table (it binds the "
                                                 "request to this match and round).")


class DisputeSerializer(ProofSerializer):
    reason = serializers.CharField(max_length=300, help_text="Why the result is wrong, in a few words.")


class DecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True,
                                   help_text="The director's reason (required to settle).")


class ResultEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ResultEvent.Kind.choices)
    status = serializers.CharField(help_text="The result's status after the step (empty: unfinished again).")
    user = serializers.IntegerField(allow_null=True, help_text="The account that took the step.")
    player = serializers.IntegerField(allow_null=True, help_text="The player who named themselves.")
    side = serializers.CharField(help_text="Their side, `ns` or `ew` (empty: not a player, or not known).")
    device = serializers.CharField(help_text="The phone's id (the table's phone, or the `X-Device` header).")
    address = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    result = serializers.JSONField(help_text="The result at that step: winner, games won and points by side.")
    at = serializers.DateTimeField()


def _acting(request):
    return services.acting(device=request.headers.get("X-Device", "")[:40],
                           address=request.META.get("REMOTE_ADDR"))


def _match_id(pk) -> int:
    if not str(pk).isdigit():
        raise Http404
    return int(pk)


class _ResultStep(APIView):
    """One step of a result's confirmation on ``match_id``; the answer is the match's scoreboard."""

    permission_classes = [AllowAny]
    body = ProofSerializer
    conflict_methods = forbidden_methods = ("POST",)  # the schema's 409 and 403 (api/openapi.py)

    def step(self, request, match_id: int, data: dict):
        raise NotImplementedError

    def post(self, request, match_id=None):
        pk = _match_id(match_id)
        if not access.visible_matches(request.user).filter(pk=pk).exists():
            raise Http404
        body = self.body(data=request.data)
        body.is_valid(raise_exception=True)
        with _acting(request):
            try:
                self.step(request, pk, dict(body.validated_data))
            except Match.DoesNotExist:
                raise Http404 from None
        return Response(match_scoreboard(match_id=pk))


def _proof(request, data: dict) -> dict:
    return {"player_id": data.get("player"), "code": data.get("code", ""), "table_code": data.get("table_code"),
            "user": request.user if request.user.is_authenticated else None}


class ResultConfirmView(_ResultStep):
    @extend_schema(summary="Confirm the match's entered result (someone of the other side)",
                   parameters=[X_DEVICE], request=ProofSerializer, responses={200: ScoreboardSerializer})
    def post(self, request, match_id=None):
        return super().post(request, match_id)

    def step(self, request, match_id, data):
        services.result_confirm(match_id=match_id, **_proof(request, data))


class ResultDisputeView(_ResultStep):
    body = DisputeSerializer

    @extend_schema(summary="Dispute the match's entered result, with a reason (someone of the other side)",
                   parameters=[X_DEVICE], request=DisputeSerializer, responses={200: ScoreboardSerializer})
    def post(self, request, match_id=None):
        return super().post(request, match_id)

    def step(self, request, match_id, data):
        services.result_dispute(match_id=match_id, reason=data["reason"], **_proof(request, data))


class ResultSettleView(_ResultStep):
    permission_classes = [IsAuthenticated]
    body = DecisionSerializer

    @extend_schema(summary="Settle the match's result as it stands: final (a director)",
                   parameters=[X_DEVICE], request=DecisionSerializer, responses={200: ScoreboardSerializer})
    def post(self, request, match_id=None):
        return super().post(request, match_id)

    def step(self, request, match_id, data):
        services.result_settle(match_id=match_id, user=request.user, reason=data.get("reason", ""))


class ResultPaperView(_ResultStep):
    permission_classes = [IsAuthenticated]
    body = DecisionSerializer

    @extend_schema(summary="Confirm the match's result on paper for the other side (a director)",
                   parameters=[X_DEVICE], request=DecisionSerializer, responses={200: ScoreboardSerializer})
    def post(self, request, match_id=None):
        return super().post(request, match_id)

    def step(self, request, match_id, data):
        services.result_confirm_on_paper(match_id=match_id, user=request.user, reason=data.get("reason", ""))


class ResultEventsView(APIView):
    permission_classes = [IsAuthenticated]
    forbidden_methods = ("GET",)

    @extend_schema(summary="Every step of the match's result, oldest first (a director)",
                   responses=ResultEventSerializer(many=True))
    def get(self, request, match_id=None):
        pk = _match_id(match_id)
        tournament_id = (access.visible_matches(request.user).filter(pk=pk)
                         .values_list("round__tournament_id", flat=True).first())
        if tournament_id is None:
            raise Http404
        if not access.is_director(request.user, tournament_id):
            self.permission_denied(request)
        rows = [{"id": e.pk, "kind": e.kind, "status": e.status, "user": e.user_id, "player": e.player_id,
                 "side": e.side, "device": e.device, "address": e.address, "reason": e.reason, "result": e.result,
                 "at": e.at} for e in ResultEvent.objects.filter(match_id=pk).order_by("at", "id")]
        return Response(ResultEventSerializer(rows, many=True).data)
