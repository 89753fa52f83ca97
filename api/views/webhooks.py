"""The webhooks API: /api/v1/tournaments/{tournament_id}/webhooks/, for the tournament's organizers (and staff)."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.access import is_organizer
from webhooks.models import Endpoint
from webhooks.services import (
    endpoint_create,
    endpoint_delete,
    endpoint_rotate_secret,
    endpoint_send_test,
    endpoint_update,
)

from ..serializers.webhooks import DeliverySerializer, EndpointSerializer
from .common import page_of
from .tournaments import TOURNAMENT_ID, TournamentChildMixin


class OrganizerOnly(permissions.IsAuthenticated):
    """Webhooks are the organizers' (and staff's): others get 403 on a tournament they can see."""

    def has_permission(self, request, view):
        if not super().has_permission(request, view):
            return False
        if getattr(view, "swagger_fake_view", False):
            return True
        return is_organizer(request.user, view.get_tournament().pk)


EXAMPLE_ENDPOINT = OpenApiExample(
    "A club's scoreboard", request_only=True,
    value={"url": "https://scores.dezwartekat.be/hooks/manille", "description": "The club's screen",
           "events": ["hand.entered", "standings.updated"]})


@extend_schema_view(
    list=extend_schema(summary="The tournament's webhooks", parameters=[TOURNAMENT_ID]),
    retrieve=extend_schema(summary="A webhook with its last delivery", parameters=[TOURNAMENT_ID]),
    create=extend_schema(summary="Register a webhook URL", parameters=[TOURNAMENT_ID], examples=[EXAMPLE_ENDPOINT]),
    partial_update=extend_schema(summary="Change a webhook", parameters=[TOURNAMENT_ID]),
    destroy=extend_schema(summary="Remove a webhook", parameters=[TOURNAMENT_ID]),
    test=extend_schema(summary="Send a test event", parameters=[TOURNAMENT_ID], request=None,
                       responses={202: DeliverySerializer}),
    rotate_secret=extend_schema(summary="Replace the signing secret", parameters=[TOURNAMENT_ID], request=None,
                                responses=EndpointSerializer),
    deliveries=extend_schema(summary="The webhook's delivery log", parameters=[TOURNAMENT_ID],
                             responses=DeliverySerializer(many=True)),
)
class EndpointViewSet(TournamentChildMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                      mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                      viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]+"
    serializer_class = EndpointSerializer
    permission_classes = [OrganizerOnly]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    ordering_fields = ["id", "created_at"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Endpoint.objects.none()
        return Endpoint.objects.filter(tournament=self.get_tournament()).order_by("id")

    def perform_create(self, serializer):
        data = serializer.validated_data
        try:
            serializer.instance = endpoint_create(tournament=self.get_tournament(), url=data["url"],
                                                  events=data.get("events", []),
                                                  description=data.get("description", ""),
                                                  active=data.get("active", True), user=self.request.user)
        except DjangoValidationError as exc:
            raise exceptions.ValidationError(exc.messages) from exc

    def perform_update(self, serializer):
        try:
            serializer.instance = endpoint_update(endpoint=serializer.instance, **serializer.validated_data)
        except DjangoValidationError as exc:
            raise exceptions.ValidationError(exc.messages) from exc

    def perform_destroy(self, instance):
        endpoint_delete(endpoint=instance)

    @action(detail=True, methods=["post"])
    def test(self, request, *args, **kwargs):
        delivery = endpoint_send_test(endpoint=self.get_object())
        delivery.refresh_from_db()  # tried already when there is no worker (tasks run in-process)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request, *args, **kwargs):
        endpoint = endpoint_rotate_secret(endpoint=self.get_object())
        return Response(EndpointSerializer(endpoint).data)

    @action(detail=True, methods=["get"])
    def deliveries(self, request, *args, **kwargs):
        endpoint = self.get_object()
        return page_of(request, endpoint.deliveries.order_by("-id"),
                       lambda page: DeliverySerializer(page, many=True).data, view=self)
