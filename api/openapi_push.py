"""The push channel in the schema: the ticket's request and answer, and what the stream's events carry.

The stream (``GET /api/v1/push/stream/``) is ``text/event-stream``: each event an ``id:`` line (its place, for
``Last-Event-ID``) and a ``data:`` line of JSON, which ``PushEvent`` describes: one of the webhooks' bodies
(the same components, ``api.openapi_events.ENVELOPES``), or the stream's own ``ready`` and ``reset``.
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from .openapi_events import ENVELOPES, EventTournamentSerializer

SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
RESET_REASONS = [("expired", "expired"), ("unknown", "unknown"), ("too_many", "too_many")]


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 1},
                                {"type": "string", "minLength": 1, "maxLength": 180, "pattern": SLUG_PATTERN}]})
class TournamentRefField(serializers.Field):
    """A tournament's id (an integer from 1) or its slug; null (or left out): every tournament."""

    default_error_messages = {"invalid": _("Give a tournament's id or slug, or null.")}

    def to_internal_value(self, data):
        import re

        if isinstance(data, int) and not isinstance(data, bool) and data >= 1:
            return {"pk": data}
        if isinstance(data, str) and 1 <= len(data) <= 180 and re.match(SLUG_PATTERN, data):
            return {"pk": int(data)} if data.isdigit() else {"slug": data}
        self.fail("invalid")

    def to_representation(self, value):
        return value


class PushTicketRequestSerializer(serializers.Serializer):
    tournament = TournamentRefField(
        required=False, allow_null=True,
        help_text="The tournament to follow, by id or slug; left out or null: every tournament you may see "
                  "(the public ones, and the private ones you organize or keep score of).")


class PushTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="Open the stream with it once, within its lifetime.")
    expires = serializers.DateTimeField(help_text="When the ticket lapses unused (`PUSH_TICKET_SECONDS` after it was "
                                                  "issued, 60 s by default).")
    url = serializers.URLField(help_text="The stream's URL with the ticket: open it with an `EventSource`.")


class PushReadySerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=[("ready", "ready")])
    replayed = serializers.IntegerField(help_text="How many events were replayed before it (after a `Last-Event-ID`).")
    kept_seconds = serializers.IntegerField(help_text="How far back a reconnection can replay.")
    tournament = serializers.IntegerField(allow_null=True, help_text="The id of the tournament followed; null: all "
                                                                     "you may see.")
    tournament_detail = EventTournamentSerializer(allow_null=True, help_text="The tournament followed: id, name and "
                                                                             "slug; null: all you may see.")


class PushResetSerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=[("reset", "reset")])
    reason = serializers.ChoiceField(
        choices=RESET_REASONS,
        help_text="`expired`: the last event is older than what is kept; `unknown`: the server never gave that id; "
                  "`too_many`: more events since than a reconnection replays.")
    detail = serializers.CharField(help_text="The same in words, in the language of `Accept-Language`.")
    kept_seconds = serializers.IntegerField()


PUSH_EVENT = PolymorphicProxySerializer(
    component_name="PushEvent",
    serializers={**{name: envelope for name, envelope in ENVELOPES.items() if name != "webhook.test"},
                 "ready": PushReadySerializer, "reset": PushResetSerializer},
    resource_type_field_name="event",
    help_text="The JSON of one event's `data:` line.")
