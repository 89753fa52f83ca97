"""Rounds, pairing tasks and standings."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Match, Round, TaskRecord
from tournaments.selectors.matches import team_summary

from .matches import TeamSummarySerializer, WinnerField


class RoundMatchSerializer(serializers.ModelSerializer):
    ew = serializers.IntegerField(source="ew_id", allow_null=True, help_text="The second team's id; null for a bye.")
    ns = serializers.IntegerField(source="ns_id", help_text="The first team's id.")
    winner = WinnerField()
    ns_detail = serializers.SerializerMethodField(help_text="The first team: id, name and club.")
    ew_detail = serializers.SerializerMethodField(help_text="The second team: id, name and club; null for a bye.")

    class Meta:
        model = Match
        fields = ["id", "table", "ns", "ew", "status", "winner", "ns_detail", "ew_detail"]
        read_only_fields = fields

    @extend_schema_field(TeamSummarySerializer)
    def get_ns_detail(self, match):
        return team_summary(match.ns)

    @extend_schema_field(TeamSummarySerializer(allow_null=True))
    def get_ew_detail(self, match):
        return team_summary(match.ew)


class RoundSerializer(serializers.ModelSerializer):
    matches = RoundMatchSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "status", "matches"]
        read_only_fields = fields


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
    status = serializers.ChoiceField(choices=TaskRecord.Status.choices)
    progress = serializers.DictField(allow_null=True, help_text="While running: the stage reached.")
    round = serializers.URLField(allow_null=True, help_text="Once succeeded: the paired round.")
    round_number = serializers.IntegerField(allow_null=True)
    error = TaskErrorSerializer(allow_null=True, help_text="Once failed: the reason.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    tiebreaks = serializers.DictField(help_text="Each metric of the tournament's ordered list, by name.")
    team_detail = TeamSummarySerializer(help_text="The team: id, name and club.")


class ClubStandingSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    club_name = serializers.CharField(allow_null=True)
    rank = serializers.IntegerField()
    teams = serializers.IntegerField(help_text="How many of its teams count: those with a result.")
    percentage = serializers.FloatField(help_text="The average of its teams' match-point percentages, 0-100.")


class StandingsSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField(allow_null=True, help_text="Null before the first computation.")
    rows = StandingRowSerializer(many=True)
    clubs = ClubStandingSerializer(many=True, help_text="Club standings.")
