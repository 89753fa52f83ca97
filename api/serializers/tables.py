"""The shapes of a round's tables and of the live matches (tournaments.selectors.tables)."""

from rest_framework import serializers

from tournaments.models import Game, Match, Round

from .matches import SidesPlayersSerializer, TeamSummarySerializer
from .variants import WINNERS, SideIntsSerializer


class TableGameSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The game's number in the match.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    totals = SideIntsSerializer(help_text="The game's points so far.")


class TableSerializer(serializers.Serializer):
    """One table: a match with its teams and players named, games won and the current game's points."""

    id = serializers.IntegerField(help_text="The match's id (its scoreboard: GET /api/v1/matches/{id}/).")
    round = serializers.IntegerField(help_text="The round's number.")
    table = serializers.IntegerField()
    bye = serializers.BooleanField(help_text="True when the first team has a bye (no second team); an individual "
                                             "event has no byes.")
    ns = serializers.IntegerField(allow_null=True, help_text="The first team's id; null in an individual event (see "
                                                             "`players`).")
    ns_detail = TeamSummarySerializer(allow_null=True, help_text="The first team: id, name and club; null in an "
                                                                 "individual event.")
    ew = serializers.IntegerField(allow_null=True, help_text="The second team's id; null for a bye and in an "
                                                             "individual event.")
    ew_detail = TeamSummarySerializer(allow_null=True, help_text="The second team: id, name and club; null for a bye "
                                                                 "and in an individual event.")
    players = SidesPlayersSerializer(help_text="Each side's players, with their ids and names, in every event.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    result_status = serializers.ChoiceField(
        choices=["entered", "confirmed", "disputed", "final"], allow_null=True,
        help_text="Null while the match is scheduled or being played; once finished `final` (a bye, or any "
                  "finished match when the tournament's `confirmation` is `off`), else where the opponents' "
                  "confirmation stands: `entered`, `confirmed`, `disputed` or `final` (a director's decision).")
    winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    games_won = SideIntsSerializer()
    points = SideIntsSerializer(help_text="The match's game points: the sum of its games' totals.")
    game = TableGameSerializer(allow_null=True,
                               help_text="The match's current game (the last one begun); null before the first hand.")
    updated_at = serializers.DateTimeField(help_text="When the match last changed.")


class RoundTablesSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The round's number.")
    status = serializers.ChoiceField(choices=Round.Status.choices)
    tables = TableSerializer(many=True, help_text="Every table of the round, in table order.")


class LiveTablesSerializer(serializers.Serializer):
    tables = TableSerializer(many=True, help_text="The matches being played now, by round and table.")
