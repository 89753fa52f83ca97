"""Clubs, players, teams, tournaments and entries."""

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Club, Entry, Player, Team, Tournament
from tournaments.ranking import METRICS
from tournaments.ranking.metrics import DEFAULT_METRICS

from ..engine import get_variant
from .individual import PlayerSummarySerializer, player_summary
from .refs import RefSerializer, detail_field, ref
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
    managers_detail = detail_field("managers", many=True, name_attr="username",
                                   help_text="The managers: id and name (their user name).")

    class Meta:
        model = Club
        fields = ["id", "name", "city", "managers", "managers_detail", "created_at"]
        read_only_fields = ["created_at"]


class PlayerSerializer(serializers.ModelSerializer):
    club_detail = detail_field(help_text="The player's club: id and name.")

    class Meta:
        model = Player
        fields = ["id", "name", "club", "club_detail", "licence"]
        # A player without a club (individual events accept them) is registered by an organizer from the
        # workspace; through the API a player is registered in a club, whose managers keep them.
        extra_kwargs = {"club": {"required": True, "allow_null": False}}


class TeamSerializer(serializers.ModelSerializer):
    players = FlatListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        min_length=2, max_length=2,
        help_text="The two players' ids.",
    )
    club_detail = detail_field(help_text="The team's club: id and name.")
    players_detail = serializers.SerializerMethodField(help_text="The two players: id and name.")

    class Meta:
        model = Team
        fields = ["id", "name", "club", "club_detail", "players", "players_detail"]

    def to_representation(self, instance):
        return {"id": instance.pk, "name": instance.name, "club": instance.club_id, "club_detail": ref(instance.club),
                "players": [instance.player_1_id, instance.player_2_id],
                "players_detail": [ref(instance.player_1), ref(instance.player_2)]}

    def get_players_detail(self, team) -> RefSerializer(many=True):  # the schema's; to_representation writes it
        return [ref(team.player_1), ref(team.player_2)]

    def validate_players(self, players):
        if players[0].pk == players[1].pk:
            raise serializers.ValidationError("A team is two different players.", code="players_distinct")
        return players

    def validate(self, attrs):
        players = attrs.pop("players", None)
        if players is not None:
            attrs["player_1"], attrs["player_2"] = players
        return attrs


#: The largest number a fixed sit-out score may give (``Tournament.clean`` refuses more).
SIT_OUT_FIXED_MAX = 10**6


@extend_schema_field({
    "type": "object", "additionalProperties": False,
    "properties": {key: {"type": "integer", "minimum": 0, "maximum": SIT_OUT_FIXED_MAX}
                   for key in ("match_points", "games_won", "points_for")},
    "description": "Individual events, `sit_out_score` `fixed`: what a player who sits a round out scores "
                   "(each missing key: 0). Checked by the tournament's rules (`sit_out_fixed_invalid`).",
})
class SitOutFixedField(serializers.DictField):
    """A JSON object passed on as it is: ``Tournament.clean`` refuses its keys and values (``sit_out_fixed_invalid``),
    so every door refuses it with the same code."""


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
    directors = serializers.PrimaryKeyRelatedField(
        many=True, queryset=User.objects.all(), required=False,
        help_text="User ids of the directors: they settle disputed results and alone change confirmed ones "
                  "(organizers are directors too).")
    sit_out_fixed = SitOutFixedField(required=False)
    club_detail = detail_field(help_text="The club that holds the tournament: id and name; null for none.")
    organizers_detail = detail_field("organizers", many=True, name_attr="username",
                                     help_text="The organizers: id and name (their user name).")
    scorekeepers_detail = detail_field("scorekeepers", many=True, name_attr="username",
                                       help_text="The scorekeepers: id and name (their user name).")
    directors_detail = detail_field("directors", many=True, name_attr="username",
                                    help_text="The directors: id and name (their user name).")

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "slug", "club", "club_detail", "variant", "entry", "format", "rounds", "best_of",
            "match_length", "match_games", "minutes", "at_time", "options", "public", "status",
            "organizers", "organizers_detail", "directors", "directors_detail", "scorekeepers", "scorekeepers_detail",
            "confirmation", "unconfirmed", "auto_confirm_minutes", "tiebreaks", "points_win", "points_draw",
            "points_bye",
            "separate_clubs_rounds", "double_round_robin", "sit_out_score", "sit_out_fixed", "withdrawal",
            "club_best_n", "starts_on", "created_at",
            "forfeit_points", "withdrawal_award", "auto_publish",
        ]
        read_only_fields = ["slug", "status", "created_at"]
        extra_kwargs = {
            "points_win": {"max_value": 100},
            "points_draw": {"max_value": 100},
            "points_bye": {"max_value": 100},
            "separate_clubs_rounds": {"max_value": 99},
            "entry": {"help_text": "`teams` (fixed pairs, the default) or `individual` (players entered alone, drawn "
                                   "to tables of four; format `tables` or `swiss`). Fixed once anyone is entered."},
            "format": {"help_text": "Team events: `swiss`, `round_robin`, `knockout` or `pools` (round robins in "
                                    "pools; their number is stage 1's `pools`). Individual events: `tables` "
                                    "(a table of four keeps its players for a cycle of three rounds, partners "
                                    "rotating) or `swiss` (new partners and tables each round by the standings)."},
            "match_length": {"help_text": "`best_of` (the first to win a majority of `best_of` games), `games` "
                                          "(exactly `match_games` games, each counted) or `timed` (`minutes` a "
                                          "round, then `at_time`)."},
            "at_time": {"help_text": "Timed matches at the clock's end: `finish` the game in play, or `stop` it after "
                                     "the deal in play (won on points by the side ahead)."},
            "sit_out_score": {"help_text": "Individual events: what a round sat out scores: `nothing`, `mean` (the "
                                           "round's mean of match points, games won and points, each rounded half "
                                           "up) or `fixed` (`sit_out_fixed`)."},
            "withdrawal": {"help_text": "Individual events, a player who withdraws mid-cycle: `reserve` (the first "
                                        "reserve takes the seat) or `sit_out` (the players of the table sit the "
                                        "cycle's remaining rounds out, scored by `sit_out_score`)."},
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
    """A team entered in a team event, or a player in an individual event (exactly one of the two)."""

    team = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True,
        help_text="Team events: the team's id (null in an individual event's entries).")
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True,
        help_text="Individual events: the player's id (null in a team event's entries).")
    player_detail = serializers.SerializerMethodField(
        help_text="Individual events: the player with their club (null for a player without one); null for a team.")
    team_detail = detail_field(help_text="Team events: the team, id and name; null in an individual event.")

    class Meta:
        model = Entry
        fields = ["id", "team", "team_detail", "player", "start_number", "fixed_table", "reserve", "replaces", "seed",
                  "withdrawn", "withdrawn_after_round", "player_detail", "created_at"]
        read_only_fields = ["replaces", "withdrawn", "withdrawn_after_round", "created_at"]
        extra_kwargs = {
            "seed": {"max_value": 100000, "help_text": "Team events: the seed of the first pairing."},
            "start_number": {"min_value": 1, "max_value": 100000,
                             "help_text": "Individual events: the player's number in the draw (the next free one "
                                          "when not given)."},
            "fixed_table": {"min_value": 1, "max_value": 10000,
                            "help_text": "Individual events: a player who cannot move sits at this table in every "
                                         "round, as its seated scorer."},
            "reserve": {"help_text": "Individual events: drawn only to take the seat of a player who withdraws "
                                     "mid-cycle (the `reserve` withdrawal rule)."},
            "replaces": {"help_text": "Individual events: the entry whose seat this reserve took."},
        }

    @extend_schema_field(PlayerSummarySerializer(allow_null=True))
    def get_player_detail(self, entry):
        return player_summary(entry.player) if entry.player_id else None


class EntryUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = ["seed", "start_number"]
        extra_kwargs = {"seed": {"max_value": 100000, "help_text": "Team events: the seed of the first pairing."},
                        "start_number": {"min_value": 1, "max_value": 100000, "allow_null": False,
                                         "help_text": "Individual events, before the first draw: the player's "
                                                      "number (a number taken is a 409: swap numbers with "
                                                      "`PATCH .../entries/start-numbers/`)."}}
