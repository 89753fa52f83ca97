"""The shapes of individual events: players named with their club, kept-apart pairs, a round's draws, the clock."""

from rest_framework import serializers

from tournaments.models import KeptApart, Player
from tournaments.selectors.clock import NOT_STARTED, OVER, PAUSED, RUNNING
from tournaments.services.clock import CLOCK_MINUTES_MAX

from .matches import ClubRefSerializer


class PlayerSummarySerializer(serializers.Serializer):
    """A player named for a list (entries, standings): id, name and club (null: a player without a club)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubRefSerializer(allow_null=True)

    class Meta:
        ref_name = "PlayerSummary"


def player_summary(player: Player | None) -> dict | None:
    """A player as ``PlayerSummarySerializer`` shows one; ``player__club`` joined."""
    if player is None:
        return None
    club = player.club
    return {"id": player.pk, "name": player.name,
            "club": None if club is None else {"id": club.pk, "name": club.name}}


class ClockSerializer(serializers.Serializer):
    """A round's clock, kept by the server (``tournaments.selectors.clock.round_clock``)."""

    status = serializers.ChoiceField(choices=[NOT_STARTED, RUNNING, PAUSED, OVER])
    started_at = serializers.DateTimeField(allow_null=True, help_text="When the organizer started it.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When the time is up, while it runs or once "
                                                                   "over; null when not started or paused.")
    remaining = serializers.IntegerField(allow_null=True, help_text="Seconds left at `server_time` (paused: kept "
                                                                    "as they were); null before the start.")
    minutes = serializers.IntegerField(allow_null=True, help_text="The event's minutes a round when its matches are "
                                                                  "timed; null otherwise.")
    server_time = serializers.DateTimeField(help_text="The server's time when this answer was made: count down "
                                                      "from it, whatever the device's own clock says.")


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend", "end"],
                                     help_text="`start` (for `minutes`, the event's minutes a round by default), "
                                               "`pause`, `resume`, `extend` (by `minutes`), `end` (now: the timed "
                                               "matches without a game in play are decided).")
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=CLOCK_MINUTES_MAX,
                                       help_text="`start`: the round's minutes; `extend`: the minutes added "
                                                 "(required).")

    def validate(self, attrs):
        if attrs["action"] == "extend" and "minutes" not in attrs:
            raise serializers.ValidationError({"minutes": [serializers.ErrorDetail(
                serializers.Field.default_error_messages["required"], code="required")]})
        return attrs


class KeptApartSerializer(serializers.ModelSerializer):
    """Two players of an individual event the draw never seats at one table."""

    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), help_text="A player entered.")
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), help_text="Another player entered.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, allow_null=True,
                                   help_text="Why (for the organizers): null to whoever else reads the list.")
    player_a_detail = serializers.SerializerMethodField()
    player_b_detail = serializers.SerializerMethodField()

    class Meta:
        model = KeptApart
        fields = ["id", "player_a", "player_b", "reason", "player_a_detail", "player_b_detail", "created_at"]
        read_only_fields = ["created_at"]

    def get_player_a_detail(self, pair) -> dict:
        return {"id": pair.player_a_id, "name": pair.player_a.name}

    def get_player_b_detail(self, pair) -> dict:
        return {"id": pair.player_b_id, "name": pair.player_b.name}

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("organizer"):
            data["reason"] = None
        return data


class RoundDrawSerializer(serializers.Serializer):
    seed = serializers.CharField(help_text="The seed the server drew for this draw.")
    version = serializers.CharField(help_text="The draw algorithm's version.")
    in_use = serializers.BooleanField(help_text="The draw the round's tables come from (the last one made with the "
                                                "round's seed).")
    created_at = serializers.DateTimeField()
    inputs = serializers.DictField(help_text="Everything the draw depends on (start numbers, never database ids; "
                                             "clubs, constraints, earlier rounds, the seed, the version): the pure "
                                             "draw module makes the same draw again from it alone.")
    result = serializers.DictField(help_text="What it drew: the tables by start number with their seats, who sits "
                                             "out, and its report (repeated partners and opponents against their "
                                             "lower bounds, club conflicts). `changes`: what the event's withdrawals "
                                             "changed afterwards (tables left out, players waiting).")


class RoundDrawsSerializer(serializers.Serializer):
    """A round's draw as anyone may check it: every draw kept, the one in use marked."""

    round = serializers.IntegerField(help_text="The round's number.")
    seed = serializers.CharField(allow_null=True, help_text="The seed of the draw in use; null in a team event.")
    inputs = serializers.DictField(allow_null=True, help_text="The inputs of the draw in use (null in a team "
                                                              "event): this answer as it is is what `python -m "
                                                              "tournaments.pairing.individual.check` reads.")
    result = serializers.DictField(allow_null=True, help_text="The result of the draw in use (null in a team event).")
    draws = RoundDrawSerializer(many=True, help_text="Every draw of the round, oldest first (a redraw adds one); "
                                                     "empty in a team event.")


class StartNumberSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The entry's id.")
    start_number = serializers.IntegerField(min_value=1, max_value=100000)


class StartNumbersSerializer(serializers.Serializer):
    numbers = StartNumberSerializer(many=True, allow_empty=False, max_length=5000,
                                    help_text="The entries whose start numbers change, set together (numbers may "
                                              "be swapped); before the first draw.")
