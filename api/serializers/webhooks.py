"""The webhooks' shapes: an endpoint and its deliveries."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from webhooks.models import EVENT_NAMES, Delivery, Endpoint, validate_http_url


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = Delivery
        fields = ["id", "event_id", "event", "status", "attempts", "response_status", "response_body", "duration_ms",
                  "error", "created_at", "attempted_at"]
        read_only_fields = fields


class EndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_NAMES), required=False, allow_empty=True,
        help_text="The events to send (" + ", ".join(EVENT_NAMES) + "); empty or absent: all of them.")
    secret = serializers.CharField(read_only=True, help_text="The HMAC-SHA256 key of `X-Manille-Signature`.")
    last_delivery = serializers.SerializerMethodField()

    class Meta:
        model = Endpoint
        fields = ["id", "url", "description", "events", "active", "secret", "created_at", "last_delivery"]
        read_only_fields = ["id", "secret", "created_at", "last_delivery"]
        # The codes a refused target answers on ``url`` (webhooks/targets.py), so the schema's 400 lists them.
        extra_kwargs = {"url": {"error_messages": {code: code for code in (
            "invalid_url", "unresolvable_host", "forbidden_address")}}}

    def validate_url(self, value):
        try:
            validate_http_url(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages[0], code="invalid_url") from exc
        return value

    def get_last_delivery(self, endpoint) -> DeliverySerializer(allow_null=True):
        last = endpoint.deliveries.order_by("-id").first()
        return DeliverySerializer(last).data if last else None
