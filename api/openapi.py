"""The schema class: drf-standardized-errors' AutoSchema plus the 409 and rule-violation answers.

A view says which of its methods can conflict with the current state (``conflict_methods``) and
which are checked by the rules engine (``rule_methods``); the schema then documents a 409 answer,
and a 400 whose errors carry the codes of rules.md §4 (free strings: the engine names them).
"""

from drf_spectacular.utils import PolymorphicProxySerializer
from drf_standardized_errors.openapi import AutoSchema as BaseAutoSchema
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ValidationErrorEnum
from rest_framework import serializers

RULE_CODES = (
    "unknown_card", "dealer_out_of_turn", "game_over", "trump_invalid", "call_not_allowed", "tricks_total",
    "points_total", "points_impossible", "penalty_not_allowed", "deck_invalid", "not_your_turn",
    "card_not_in_hand", "must_follow_suit", "must_beat", "must_trump", "must_overtrump", "no_undertrump",
    "malilla_discard", "score_mismatch", "invalid_option", "invalid_input",
)


class RuleErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A code of rules.md §4 (" + ", ".join(RULE_CODES) + ") or a field "
                                           "validation code (required, invalid, max_value, ...).")
    attr = serializers.CharField(allow_null=True, help_text="The field concerned, dotted (`points`, `play.cards`).")
    detail = serializers.CharField(help_text="A message naming the numbers involved.")


class RuleValidationErrorResponseSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ValidationErrorEnum.choices)
    errors = RuleErrorSerializer(many=True)

    class Meta:
        ref_name = "RuleValidationErrorResponse"


class ConflictErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Why: `hand_exists`, `protected`, `round_paired`, ...")
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class ErrorResponse409Serializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ClientErrorEnum.choices)
    errors = ConflictErrorSerializer(many=True)


class AutoSchema(BaseAutoSchema):
    """Document 409 where a view can conflict, and rule-violation 400s where the engine checks."""

    def _in(self, attribute: str) -> bool:
        return self.method.upper() in {m.upper() for m in getattr(self.view, attribute, ())}

    def _should_add_error_response(self, responses: dict, status_code: str) -> bool:
        if status_code == "409":
            return status_code not in responses and self._in("conflict_methods")
        return super()._should_add_error_response(responses, status_code)

    def _should_add_validation_error_response(self) -> bool:
        return self._in("rule_methods") or super()._should_add_validation_error_response()

    def _get_serializer_for_validation_error_response(self):
        if self._in("rule_methods"):
            return RuleValidationErrorResponseSerializer
        return super()._get_serializer_for_validation_error_response()

    def _get_http400_serializer(self):
        serializer = super()._get_http400_serializer()
        if isinstance(serializer, PolymorphicProxySerializer) and not serializer.serializers:
            return None
        return serializer

    def _should_add_http429_error_response(self) -> bool:
        return any(getattr(t, "applies_to_method", lambda m: True)(self.method) for t in self.view.get_throttles())
