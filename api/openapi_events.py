"""The webhook events' payloads in the schema (OpenAPI 3.1 ``webhooks``; issue 29).

Each event is a signed JSON POST to the registered URL (webhooks/services.py builds them): an envelope
(id, event, created, tournament) around the event's ``data``. These serializers only describe the bodies
for the schema; ``tests/api/test_generated_clients.py`` checks real payloads against them.
"""

from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers

from tournaments.models import DirectorAction, Match, Round, Stage

from .serializers.matches import SidesPlayersSerializer
from .serializers.variants import SideIntsSerializer, WINNERS


class EventTeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class EventTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class EventSidesSerializer(serializers.Serializer):
    """A match's teams in an event: ids with their ``_detail`` (``{id, name}``), as the API's answers have them."""

    ns = serializers.IntegerField(allow_null=True, help_text="The first team's id; null in an individual event.")
    ns_detail = EventTeamSerializer(allow_null=True, help_text="The first team: id and name; null in an individual "
                                                               "event.")
    ew = serializers.IntegerField(allow_null=True, help_text="The second team's id; null for a bye and in an "
                                                             "individual event.")
    ew_detail = EventTeamSerializer(allow_null=True, help_text="The second team: id and name; null for a bye and in "
                                                               "an individual event.")


class EventMatchSerializer(EventSidesSerializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number.")
    table = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    bye = serializers.BooleanField(help_text="A team event's bye (no second team); an individual event has none.")
    players = SidesPlayersSerializer(help_text="Each side's players, in every event.")
    games_won = SideIntsSerializer()
    points = SideIntsSerializer(help_text="Game points: the sum of the games' totals.")
    winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)


class EventHandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's number in the match.")
    number = serializers.IntegerField(help_text="The hand's number in the game.")
    input = serializers.DictField(help_text="What was entered, as in `POST /matches/{id}/hands/`.")
    multiplier = serializers.IntegerField()
    score = SideIntsSerializer()
    totals = SideIntsSerializer()
    game_winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    labels = serializers.ListField(child=serializers.CharField())


class EventHandRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)


class EventRoundMatchSerializer(EventSidesSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    bye = serializers.BooleanField()
    players = SidesPlayersSerializer(help_text="Each side's players, in every event.")
    status = serializers.ChoiceField(choices=Match.Status.choices)


class EventRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    matches = EventRoundMatchSerializer(many=True)
    sitting_out = serializers.ListField(child=serializers.IntegerField(),
                                        help_text="Individual events: the ids of the players who sit the round out.")
    seed = serializers.CharField(allow_null=True, help_text="Individual events: the seed of the round's draw.")
    published_at = serializers.DateTimeField(
        allow_null=True, help_text="When the round was published; null: not yet (`round.paired` of an event whose "
                                   "organizers publish on purpose: sent to their endpoints alone).")


class EventStandingNumbersSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    points_for = serializers.IntegerField()
    tiebreaks = serializers.DictField(help_text="The tiebreaks' values by name.")


class EventStandingSerializer(EventStandingNumbersSerializer):
    """A team's row."""

    team = serializers.IntegerField(help_text="The team's id.")
    team_detail = EventTeamSerializer(help_text="The team: id and name.")


class EventPlayerStandingSerializer(EventStandingNumbersSerializer):
    """An individual event's row: ``player`` instead of ``team``."""

    player = serializers.IntegerField(help_text="The player's id.")
    player_detail = EventTeamSerializer(help_text="The player: id and name.")


class HandEventDataSerializer(serializers.Serializer):
    hand = EventHandSerializer()
    match = EventMatchSerializer()


class HandDeletedDataSerializer(serializers.Serializer):
    hand = EventHandRefSerializer()
    match = EventMatchSerializer()


class MatchFinishedDataSerializer(serializers.Serializer):
    match = EventMatchSerializer()


class RoundPairedDataSerializer(serializers.Serializer):
    round = EventRoundSerializer()


class StandingsUpdatedDataSerializer(serializers.Serializer):
    standings = PolymorphicProxySerializer(
        component_name="EventStandingsRow", serializers=[EventStandingSerializer, EventPlayerStandingSerializer],
        resource_type_field_name=None, many=True, help_text="One row a team, or a player in an individual event.")


class EventQualifierSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(help_text="The team's id (a player's in an individual event).")
    seed = serializers.IntegerField(help_text="Its seed in the next stage.")
    how = serializers.CharField(help_text="`top`, `pool_place`, `next_place`, `table_winner` or `all`.")


class EventStageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Stage.Format.choices)
    status = serializers.ChoiceField(choices=Stage.Status.choices)
    seed = serializers.CharField(allow_null=True, help_text="The published seed of its draws.")
    qualification = serializers.DictField(allow_null=True, help_text="The rule into the next stage (as the stages "
                                                                     "list gives it); null on the last stage.")
    qualifiers = EventQualifierSerializer(many=True, help_text="stage.closed: who goes on, seed 1 first; "
                                                               "stage.started: empty.")


class StageEventDataSerializer(serializers.Serializer):
    stage = EventStageSerializer()


class EventDirectorActionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DirectorAction.Kind.choices)
    match = serializers.IntegerField(allow_null=True, help_text="The match's id (its kinds), else null.")
    entry = serializers.IntegerField(allow_null=True, help_text="The entry's id (its kinds), else null.")
    params = serializers.DictField(help_text="The action's parameters, by kind (docs/api.md, the director's desk).")
    reason = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    active = serializers.BooleanField(help_text="False once reverted.")
    reverted_at = serializers.DateTimeField(allow_null=True)
    reverted_by = serializers.IntegerField(allow_null=True)
    revert_reason = serializers.CharField(allow_blank=True)


class DirectorActionDataSerializer(serializers.Serializer):
    action = EventDirectorActionSerializer()
    match = EventMatchSerializer(allow_null=True, help_text="The match as the action left it (its kinds), else "
                                                            "null.")


class EventResultStepSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The step's id (as in `GET /matches/{id}/result-events/`).")
    # The step's kind (``ResultEvent.Kind``) as a string: the result-events endpoint names that enum already.
    kind = serializers.CharField(help_text="result.confirmed: `confirmed`, `paper` or `auto`; result.disputed: "
                                           "`disputed`; result.settled: `settled`, or `decided` (a director changed "
                                           "a confirmed, disputed or final result).")
    status = serializers.ChoiceField(choices=Match.ResultStatus.choices, help_text="The result's status after it.")
    side = serializers.ChoiceField(choices=[("ns", "ns"), ("ew", "ew")], allow_null=True,
                                   help_text="The side of the player who confirmed or disputed; else null.")
    player = serializers.IntegerField(allow_null=True, help_text="The player who confirmed or disputed.")
    player_detail = EventTeamSerializer(allow_null=True, help_text="That player: id and name.")
    user = serializers.IntegerField(allow_null=True, help_text="The account that took the step, if any.")
    reason = serializers.CharField(allow_blank=True, help_text="A dispute's or a director's reason.")
    at = serializers.DateTimeField()


class ResultStepDataSerializer(serializers.Serializer):
    step = EventResultStepSerializer(help_text="The step; never the phone nor the address it came from.")
    match = EventMatchSerializer(help_text="The match as it stands when the event is sent.")


class WebhookTestDataSerializer(serializers.Serializer):
    message = serializers.CharField()


def _envelope(name: str, event: str, data: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """An event's body: the envelope with ``event`` fixed and ``data`` of the event's shape."""
    fields = {
        "id": serializers.UUIDField(help_text="The event's id, also in `X-Manille-Delivery`; the same on every "
                                              "retry of a delivery."),
        "event": serializers.ChoiceField(choices=[(event, event)]),
        "created": serializers.DateTimeField(help_text="When the event happened, in the server's zone with its "
                                                       "offset."),
        "tournament": serializers.IntegerField(help_text="The tournament's id."),
        "tournament_detail": EventTournamentSerializer(help_text="The tournament: id, name and slug."),
        "data": data(),
    }
    return type(name, (serializers.Serializer,), fields)


HEADERS_TEXT = ("Sent as a JSON POST with `X-Manille-Event` (the event), `X-Manille-Delivery` (the event's id), "
                "`X-Manille-Timestamp` (Unix seconds) and `X-Manille-Signature: sha256=<hex HMAC-SHA256 of the raw "
                "body with the webhook's secret>`. Answer 2xx; other answers are retried (docs/api.md).")
RECEIVED = {200: OpenApiResponse(description="Received (any 2xx will do).")}


#: Each event's body by its name: the push channel's stream sends the same (api/openapi_push.py).
ENVELOPES: dict[str, type[serializers.Serializer]] = {}


def _webhook(event: str, serializer_name: str, data, summary: str) -> OpenApiWebhook:
    ENVELOPES[event] = envelope = _envelope(serializer_name, event, data)
    return OpenApiWebhook(name=event, decorator=extend_schema(
        summary=summary, description=HEADERS_TEXT, request=envelope, responses=RECEIVED))


HAND_ENTERED = _webhook("hand.entered", "HandEnteredEvent", HandEventDataSerializer, "A hand was entered")
HAND_CORRECTED = _webhook("hand.corrected", "HandCorrectedEvent", HandEventDataSerializer, "A hand was corrected")
HAND_DELETED = _webhook("hand.deleted", "HandDeletedEvent", HandDeletedDataSerializer, "A game's last hand was "
                                                                                       "deleted")
MATCH_FINISHED = _webhook("match.finished", "MatchFinishedEvent", MatchFinishedDataSerializer,
                          "A match was decided (sent after the hand.entered that decided it)")
ROUND_PAIRED = _webhook("round.paired", "RoundPairedEvent", RoundPairedDataSerializer, "A round was paired")
ROUND_PUBLISHED = _webhook("round.published", "RoundPublishedEvent", RoundPairedDataSerializer,
                          "A round was published: everyone who sees the event sees it from now on (at its pairing "
                          "when the event publishes automatically)")
STANDINGS_UPDATED = _webhook("standings.updated", "StandingsUpdatedEvent", StandingsUpdatedDataSerializer,
                             "The standings were recomputed")
STAGE_CLOSED = _webhook("stage.closed", "StageClosedEvent", StageEventDataSerializer,
                        "A stage was closed: its qualifiers are the next stage's entrants")
STAGE_STARTED = _webhook("stage.started", "StageStartedEvent", StageEventDataSerializer,
                         "A stage was started: its pools or bracket are drawn")
DIRECTOR_ACTION = _webhook("director.action", "DirectorActionEvent", DirectorActionDataSerializer,
                           "A director's action was taken or reverted (the result and standings follow)")
RESULT_CONFIRMED = _webhook("result.confirmed", "ResultConfirmedEvent", ResultStepDataSerializer,
                            "A result was confirmed: by the other side, by a director on paper, or automatically")
RESULT_DISPUTED = _webhook("result.disputed", "ResultDisputedEvent", ResultStepDataSerializer,
                           "A result was disputed by the other side (a director settles it)")
RESULT_SETTLED = _webhook("result.settled", "ResultSettledEvent", ResultStepDataSerializer,
                          "A director settled a result, or changed a confirmed one: it is final")
WEBHOOK_TEST = _webhook("webhook.test", "WebhookTestEvent", WebhookTestDataSerializer,
                        "A test event (the webhook's test button or `POST .../test/`)")
