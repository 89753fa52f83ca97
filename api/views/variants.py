"""The variants and the stateless calculators, answered by the rules engine."""

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings

from ..engine import VARIANTS, GameState, Hand, check_play, score_hand
from ..openapi_examples import (
    EXAMPLE_BELGIAN_SCORE, EXAMPLE_BELGIAN_SCORE_REQUEST, EXAMPLE_DEALS_SCORE_REQUEST, EXAMPLE_RULE_REFUSAL,
    EXAMPLE_SPANISH_HAND,
)
from ..serializers.variants import (
    CheckPlayRequestSerializer, CheckPlayResponseSerializer, ScoreRequestSerializer, ScoreResponseSerializer,
    VariantSerializer,
)
from .common import plain

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, enum=list(VARIANTS),
                        description="Variant slug (rules.md).")


@extend_schema_view(
    list=extend_schema(summary="List the variants", responses=VariantSerializer(many=True)),
    retrieve=extend_schema(summary="Describe a variant", parameters=[SLUG], responses=VariantSerializer),
)
class VariantViewSet(viewsets.ViewSet):
    """The six variants of rules.md, their decks, counts and house options."""

    permission_classes = [AllowAny]
    throttle_classes = []  # stateless and public: nothing to protect
    lookup_field = "slug"
    lookup_value_regex = "[a-z0-9-]+"
    rule_methods = ("POST",)
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    def get_variant(self):
        variant = VARIANTS.get(self.kwargs["slug"])
        if variant is None:
            raise Http404
        return variant

    def list(self, request):
        paginator = self.pagination_class()
        rows = [v.to_dict() for v in VARIANTS.values()]
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(page)

    def retrieve(self, request, slug=None):
        return Response(self.get_variant().to_dict())

    @extend_schema(summary="Score one hand without storing it", parameters=[SLUG],
                   request=ScoreRequestSerializer, responses=ScoreResponseSerializer,
                   examples=[EXAMPLE_BELGIAN_SCORE_REQUEST, EXAMPLE_SPANISH_HAND, EXAMPLE_DEALS_SCORE_REQUEST,
                             EXAMPLE_BELGIAN_SCORE, EXAMPLE_RULE_REFUSAL])
    @action(detail=True, methods=["post"])
    def score(self, request, slug=None):
        variant = self.get_variant()
        body = ScoreRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = plain(body.validated_data)
        state = GameState.from_dict(data.pop("state")) if "state" in data else None
        result = score_hand(variant, Hand.from_dict(data), state=state, options=data.get("options") or None)
        return Response({**result.to_dict(), "state": result.state.to_dict()})

    @extend_schema(summary="Check a full or partial card play", parameters=[SLUG],
                   request=CheckPlayRequestSerializer, responses=CheckPlayResponseSerializer)
    @action(detail=True, methods=["post"], url_path="check-play")
    def check_play(self, request, slug=None):
        variant = self.get_variant()
        body = CheckPlayRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = plain(body.validated_data)
        result = check_play(variant, dealer=data["dealer"], hands=data["hands"], cards=data["cards"],
                            trump=data.get("trump"), turned_card=data.get("turned_card"),
                            options=data.get("options") or None)
        return Response(result.to_dict())
