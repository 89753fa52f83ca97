"""Rounds, pairing tasks and standings."""

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from tournaments.models import Match, Round, TaskRecord
from tournaments.selectors.clock import round_clock
from tournaments.selectors.matches import team_summary

from .individual import ClockSerializer, PlayerSummarySerializer
from .matches import ClubRefSerializer, ForfeitField, MatchPlayersMixin, TeamSummarySerializer, WinnerField
from .refs import RefSerializer


class RoundMatchSerializer(MatchPlayersMixin, serializers.ModelSerializer):
    ew = serializers.IntegerField(source="ew_id", allow_null=True,
                                  help_text="The second team's id; null for a bye and in an individual event.")
    ns = serializers.IntegerField(source="ns_id", allow_null=True,
                                  help_text="The first team's id; null in an individual event (see `players`).")
    winner = WinnerField()
    forfeit = ForfeitField()
    ns_detail = serializers.SerializerMethodField(help_text="The first team: id, name and club; null in an "
                                                            "individual event.")
    ew_detail = serializers.SerializerMethodField(help_text="The second team: id, name and club; null for a bye and "
                                                            "in an individual event.")

    class Meta:
        model = Match
        fields = ["id", "table", "ns", "ew", "bye", "players", "status", "winner", "forfeit", "ns_detail",
                  "ew_detail"]
        read_only_fields = fields

    @extend_schema_field(TeamSummarySerializer(allow_null=True))
    def get_ns_detail(self, match):
        return team_summary(match.ns)

    @extend_schema_field(TeamSummarySerializer(allow_null=True))
    def get_ew_detail(self, match):
        return team_summary(match.ew)


class RoundSerializer(serializers.ModelSerializer):
    """A round with its matches; an individual event's also lists who sits it out and the seed of its draw.

    The view puts the players of every match and the sit-outs of every round it answers in the context
    (``players``, ``sitting_out``: one query each, however many rounds and tables).
    """

    matches = RoundMatchSerializer(many=True, read_only=True)
    sitting_out = serializers.SerializerMethodField(
        help_text="Individual events: the ids of the players who sit this round out (empty when none, and in team "
                  "events).")
    seed = serializers.SerializerMethodField(
        help_text="Individual events: the seed of the draw in use (`GET .../rounds/{number}/draw/` has its inputs "
                  "and every redraw); null in team events.")
    stage = serializers.IntegerField(source="stage.number", read_only=True,
                                     help_text="The number of the stage the round belongs to (1 in a one-stage "
                                               "event); round numbers count per stage.")
    clock = serializers.SerializerMethodField(
        help_text="The round clock as of `server_time` (an answer kept for its ETag may be older: count down from "
                  "`ends_at`, or read `GET .../rounds/{number}/clock/`).")

    published = serializers.BooleanField(
        read_only=True, help_text="Whether the round is published. Until it is (an event whose organizers publish "
                                  "its rounds on purpose), its organizers, directors and scorekeepers alone see it: "
                                  "a 404 to anyone else, and absent from their lists.")
    published_at = serializers.DateTimeField(read_only=True, allow_null=True,
                                             help_text="When the round was published; null: not yet.")

    class Meta:
        model = Round
        fields = ["number", "stage", "status", "published", "published_at", "matches", "sitting_out", "seed", "clock"]
        read_only_fields = fields

    def get_sitting_out(self, rnd) -> list[int]:
        return self.context.get("sitting_out", {}).get(rnd.pk, [])

    def get_seed(self, rnd) -> str | None:
        return rnd.seed or None

    @extend_schema_field(ClockSerializer)
    def get_clock(self, rnd):
        return ClockSerializer(round_clock(rnd)).data


class RoundPairRequestSerializer(serializers.Serializer):
    force = serializers.BooleanField(required=False, default=False,
                                     help_text="Pair although matches of the last round are unfinished.")


class TaskAcceptedSerializer(serializers.Serializer):
    task = serializers.CharField(help_text="The task's id.")
    status_url = serializers.URLField(help_text="Where to follow it: GET /api/v1/tasks/{id}/.")


class TaskErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True, required=False)
    teams = serializers.ListField(child=serializers.IntegerField(), required=False)


class TaskStatusSerializer(serializers.Serializer):
    task = serializers.CharField()
    kind = serializers.ChoiceField(choices=TaskRecord.Kind.choices)
    tournament = serializers.IntegerField()
    tournament_detail = RefSerializer(help_text="The tournament: id and name.")
    status = serializers.ChoiceField(choices=TaskRecord.Status.choices)
    progress = serializers.DictField(allow_null=True, help_text="While running: the stage reached.")
    round = serializers.URLField(allow_null=True, help_text="Once succeeded: the paired round.")
    round_number = serializers.IntegerField(allow_null=True)
    error = TaskErrorSerializer(allow_null=True, help_text="Once failed: the reason.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class StandingNumbersSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    forfeits_won = serializers.IntegerField(help_text="Matches won by forfeit: not in `played` nor `won` (their "
                                                      "match points, games and game points count).")
    forfeits_lost = serializers.IntegerField(help_text="Matches lost by forfeit: not in `played` nor `lost`.")
    withdrawn = serializers.BooleanField(help_text="Withdrawn from the event (never paired again); its results "
                                                   "stand.")
    tiebreaks = serializers.DictField(help_text="Each metric of the tournament's ordered list, by name.")
    unconfirmed = serializers.IntegerField(
        required=False, min_value=0,
        help_text="How many of the results counted in this row wait for the opponents' confirmation (`entered` or "
                  "`disputed`). Only when the tournament counts unconfirmed results (`confirmation: \"opponents\"`, "
                  "`unconfirmed: \"count\"`); absent otherwise.")
    # A multi-stage event's rows, and a stage's (absent from a one-stage event's standings).
    stage = serializers.IntegerField(required=False, help_text="Multi-stage events: the stage the row ranks in (the "
                                                               "event's standings: the last stage reached).")
    stage_rank = serializers.IntegerField(required=False, help_text="The event's standings: the rank in that stage.")


class StandingRowSerializer(StandingNumbersSerializer):
    """A team's row (team events)."""

    team = serializers.IntegerField()
    team_detail = TeamSummarySerializer(help_text="The team: id, name and club.")


class PlayerStandingRowSerializer(StandingNumbersSerializer):
    """A player's row (individual events): ``player`` instead of ``team``, the same numbers. A round sat out
    counts as the event's sit-out rule scores it (not as a match played)."""

    player = serializers.IntegerField(help_text="The player's id.")
    start_number = serializers.IntegerField(allow_null=True, help_text="The player's start number.")
    player_detail = PlayerSummarySerializer(help_text="The player: id, name and club (null without one).")


@extend_schema_field(PolymorphicProxySerializer(
    component_name="StandingsRow", serializers=[StandingRowSerializer, PlayerStandingRowSerializer],
    resource_type_field_name=None))
class StandingsRowField(serializers.Field):
    """A standings row: a team's (``team``) or, in an individual event, a player's (``player``)."""

    def to_representation(self, value):
        return (_PLAYER_ROW if "player" in value else _TEAM_ROW).to_representation(value)


class ClubStandingSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    club_detail = ClubRefSerializer(allow_null=True, help_text="The club: id and name (null for a club deleted "
                                                               "since).")
    club_name = serializers.CharField(allow_null=True, help_text="Deprecated: `club_detail.name`.")
    rank = serializers.IntegerField()
    teams = serializers.IntegerField(help_text="How many of its teams count: those with a result.")
    percentage = serializers.FloatField(help_text="The average of its teams' match-point percentages, 0-100.")


class PlayersClubStandingSerializer(serializers.Serializer):
    """A club ranked from its players in an individual event (players without a club are left out)."""

    club = serializers.IntegerField(help_text="The club's id.")
    club_detail = ClubRefSerializer(allow_null=True, help_text="The club: id and name (null for a club deleted "
                                                               "since).")
    club_name = serializers.CharField(allow_null=True, help_text="Deprecated: `club_detail.name`.")
    rank = serializers.IntegerField()
    players = serializers.IntegerField(help_text="How many of its players count (with `club_best_n`, at most N).")
    percentage = serializers.FloatField(help_text="Matches won over matches played, its players pooled (sit-outs "
                                                  "left out); with `club_best_n`, the mean of its N best players' "
                                                  "percentages. 0-100.")


@extend_schema_field(PolymorphicProxySerializer(
    component_name="ClubStandingsRow", serializers=[ClubStandingSerializer, PlayersClubStandingSerializer],
    resource_type_field_name=None))
class ClubStandingsRowField(serializers.Field):
    """A club row: from its teams, or (an individual event) from its players."""

    def to_representation(self, value):
        return (_PLAYERS_CLUB if "players" in value else _TEAMS_CLUB).to_representation(value)


# Each row is written by one serializer made once: a new one a row deep-copies its declared fields, which cost
# a thousand rows a second.
_TEAM_ROW, _PLAYER_ROW = StandingRowSerializer(), PlayerStandingRowSerializer()
_TEAMS_CLUB, _PLAYERS_CLUB = ClubStandingSerializer(), PlayersClubStandingSerializer()


class StandingsSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField(allow_null=True, help_text="Null before the first computation.")
    count = serializers.IntegerField(help_text="How many rows the whole standings have (`limit` and `offset` "
                                               "aside).")
    next = serializers.URLField(allow_null=True, help_text="The next rows (`limit` more); null at the end, and "
                                                           "without `limit`.")
    previous = serializers.URLField(allow_null=True, help_text="The rows before (`limit` fewer); null at the start.")
    rows = serializers.ListField(child=StandingsRowField(), help_text="In rank order: one row a team, or one row a "
                                                                      "player in an individual event.")
    clubs = serializers.ListField(child=ClubStandingsRowField(), help_text="Club standings.")


class _StageRowFields(serializers.Serializer):
    pool = serializers.IntegerField(allow_null=True, help_text="The row's pool (a pools stage), else null.")
    pool_rank = serializers.IntegerField(allow_null=True, help_text="The rank in its pool (a pools stage), else "
                                                                    "null.")
    qualified = serializers.BooleanField(allow_null=True, help_text="Whether it went on to the next stage (null "
                                                                    "until the stage is closed).")


class StageStandingRowSerializer(StandingRowSerializer, _StageRowFields):
    """A team's row in a stage's standings."""


class StagePlayerStandingRowSerializer(PlayerStandingRowSerializer, _StageRowFields):
    """A player's row in a stage's standings (individual events)."""


_STAGE_TEAM_ROW, _STAGE_PLAYER_ROW = StageStandingRowSerializer(), StagePlayerStandingRowSerializer()


@extend_schema_field(PolymorphicProxySerializer(
    component_name="StageStandingsRow", serializers=[StageStandingRowSerializer, StagePlayerStandingRowSerializer],
    resource_type_field_name=None))
class StageStandingsRowField(serializers.Field):
    """A stage's standings row: a team's or a player's, with its pool and whether it went on."""

    def to_representation(self, value):
        return (_STAGE_PLAYER_ROW if "player" in value else _STAGE_TEAM_ROW).to_representation(value)


class StageTieSerializer(serializers.Serializer):
    """How a cut separated entrants level on its first criterion (docs/stages.md)."""

    cut = serializers.CharField(help_text="`top`, `pool`, `next_place` or `table`.")
    at = serializers.IntegerField(help_text="The last place that qualifies, or the pool's or table's number.")
    tied = serializers.ListField(child=serializers.IntegerField(), help_text="The entrants level, in the order "
                                                                             "decided.")
    qualified = serializers.ListField(child=serializers.IntegerField(), help_text="Those of them the cut let "
                                                                                  "through.")
    by = serializers.CharField(help_text="`metric`, `per_match`, `previous_rank` or `draw`.")
    metric = serializers.CharField(allow_null=True, help_text="The deciding metric (`metric`, `per_match`).")


class StageReplacementSerializer(serializers.Serializer):
    withdrawn = serializers.IntegerField(help_text="The qualifier who withdrew.")
    by = serializers.IntegerField(allow_null=True, help_text="Who went on in their place (null: nobody).")


class StageStandingsSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField(allow_null=True, help_text="Null before the first computation.")
    stage = serializers.IntegerField(help_text="The stage's number.")
    rows = serializers.ListField(child=StageStandingsRowField(),
                                 help_text="In the stage's order (a pools stage: place by place across the pools, per "
                                           "match played).")
    ties = StageTieSerializer(many=True, help_text="The ties at the cut into the next stage (once closed).")
    replacements = StageReplacementSerializer(many=True, help_text="Withdrawn qualifiers and who went on instead.")
    count = serializers.IntegerField(help_text="How many rows (as the lists' pages say it).")
    next = serializers.URLField(allow_null=True, help_text="Always null: a stage's rows come in one answer.")
    previous = serializers.URLField(allow_null=True, help_text="Always null: a stage's rows come in one answer.")
