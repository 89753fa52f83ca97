"""Clubs, players, teams, tournaments and entries."""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from tournaments.models import Club, Entry, Player, Team, Tournament
from tournaments.ranking import METRICS
from tournaments.ranking.metrics import DEFAULT_METRICS

from ..engine import get_variant
from .variants import VARIANT_CHOICES

User = get_user_model()


class FlatListField(serializers.ListField):
    """A list whose items' errors are reported on the list itself (``players``, not ``players.0``).

    The OpenAPI error schema names every field an error can concern; an item index is not one of them.
    """

    def run_child_validation(self, data):
        result = []
        for item in data:
            try:
                result.append(self.child.run_validation(item))
            except serializers.ValidationError as exc:
                raise serializers.ValidationError(exc.detail) from None
        return result


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "is_staff"]
        read_only_fields = fields


class ClubSerializer(serializers.ModelSerializer):
    managers = serializers.PrimaryKeyRelatedField(
        many=True, queryset=User.objects.all(), required=False,
        help_text="User ids of the club's managers; the creator is added.",
    )

    class Meta:
        model = Club
        fields = ["id", "name", "city", "managers", "created_at"]
        read_only_fields = ["created_at"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "licence"]
        # A player without a club (individual events accept them) is registered by an organizer from the
        # workspace; through the API a player is registered in a club, whose managers keep them.
        extra_kwargs = {"club": {"required": True, "allow_null": False}}


class TeamSerializer(serializers.ModelSerializer):
    players = FlatListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        min_length=2, max_length=2,
        help_text="The two players' ids.",
    )

    class Meta:
        model = Team
        fields = ["id", "name", "club", "players"]

    def to_representation(self, instance):
        return {"id": instance.pk, "name": instance.name, "club": instance.club_id,
                "players": [instance.player_1_id, instance.player_2_id]}

    def validate_players(self, players):
        if players[0].pk == players[1].pk:
            raise serializers.ValidationError("A team is two different players.", code="players_distinct")
        return players

    def validate(self, attrs):
        players = attrs.pop("players", None)
        if players is not None:
            attrs["player_1"], attrs["player_2"] = players
        return attrs


class TournamentSerializer(serializers.ModelSerializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, help_text="Variant slug (rules.md).")
    options = serializers.DictField(
        required=False, default=dict,
        help_text="House options of the variant (see GET /api/v1/variants/{slug}/); checked by the rules engine.",
    )
    tiebreaks = FlatListField(
        child=serializers.ChoiceField(choices=sorted(METRICS)), required=False, max_length=20,
        help_text="Ordered standings metric names. Sent empty or left out: the default order, "
                  f"{', '.join(DEFAULT_METRICS)}, which is what a tournament without its own order answers.",
    )
    organizers = serializers.PrimaryKeyRelatedField(
        many=True, queryset=User.objects.all(), required=False,
        help_text="User ids of the organizers; the creator is added.",
    )
    scorekeepers = serializers.PrimaryKeyRelatedField(many=True, queryset=User.objects.all(), required=False)

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "slug", "club", "variant", "format", "rounds", "best_of", "options", "public", "status",
            "organizers", "scorekeepers", "tiebreaks", "points_win", "points_draw", "points_bye",
            "separate_clubs_rounds", "double_round_robin", "starts_on", "created_at",
        ]
        read_only_fields = ["slug", "status", "created_at"]
        extra_kwargs = {
            "points_win": {"max_value": 100},
            "points_draw": {"max_value": 100},
            "points_bye": {"max_value": 100},
            "separate_clubs_rounds": {"max_value": 99},
        }

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not data.get("tiebreaks"):  # no order of its own: the standings use the default one, shown as such
            data["tiebreaks"] = list(DEFAULT_METRICS)
        return data

    def validate(self, attrs):
        # The variant's own checker validates house options (raises RuleViolation: invalid_option).
        variant = attrs.get("variant", getattr(self.instance, "variant", None))
        options = attrs.get("options", getattr(self.instance, "options", {}))
        if variant is not None and ("options" in attrs or "variant" in attrs):
            get_variant(variant).validate_options(options or {})
        return attrs


class EntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = ["id", "team", "seed", "withdrawn", "withdrawn_after_round", "created_at"]
        read_only_fields = ["withdrawn", "withdrawn_after_round", "created_at"]
        extra_kwargs = {"seed": {"max_value": 100000}}


class EntryUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = ["seed"]
        extra_kwargs = {"seed": {"max_value": 100000}}
