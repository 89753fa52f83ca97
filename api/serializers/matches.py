"""Matches, games and stored hands: the shapes of the scoreboard and of a hand's result."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import CORRECTION_REASON_MAX, Game, Match
from tournaments.selectors.matches import team_summary
from tournaments.selectors import confirmation
from tournaments.selectors.seats import match_players

from .refs import RefSerializer, detail_field
from .variants import (
    SEATS, SIDES, WINNERS, BonusSerializer, HandInputSerializer, PenaltySerializer,
    PlaySerializer, SideIntsSerializer,
)


#: A finished match's result status (docs/confirmation.md).
RESULT_STATUSES = ["entered", "confirmed", "disputed", "final"]


@extend_schema_field(serializers.ChoiceField(choices=WINNERS, allow_null=True))
class WinnerField(serializers.ReadOnlyField):
    """A match's winner: ``ns``, ``ew``, ``draw``, or null while undecided (stored blank)."""

    def to_representation(self, value):
        return value or None


class HandEnterSerializer(HandInputSerializer):
    number = serializers.IntegerField(
        min_value=1, max_value=1000, required=False,
        help_text="Optional: the hand number the client expects to enter; another next number is a 409.",
    )
    game = serializers.IntegerField(
        min_value=1, max_value=100, required=False,
        help_text="Optional: the game number the client expects the hand to go to; another game is a 409. "
                  "Without `number` or `game`, a hand that would open a game and repeats the hand that decided "
                  "the previous one is refused as a retry (409 `duplicate_hand`).",
    )
    played_at = serializers.DateTimeField(
        required=False,
        help_text="Optional: when the hand was played at the table (ISO 8601; an offline device sends its queue "
                  "later). A timed round's clock judges this time, never later than the server's now: a game "
                  "started after the clock's end is refused (409 `round_time_over`).",
    )


class HandPatchSerializer(HandInputSerializer):
    """Any fields of a hand; a field set to null is removed."""

    dealer = serializers.ChoiceField(choices=SEATS, required=False)
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=CORRECTION_REASON_MAX, write_only=True,
        help_text="Optional: why the hand is corrected, kept in its history (`reason`: \"corrected: <reason>\").",
    )


class ClubRefSerializer(RefSerializer):
    class Meta:
        ref_name = "ClubRef"


class PlayerRefSerializer(RefSerializer):
    class Meta:
        ref_name = "PlayerRef"


class SidesPlayersSerializer(serializers.Serializer):
    """A match's players by side: a team event's two teams' players (``ew`` empty for a bye), an individual
    event's seated players (``ns``: N, the seated scorer, and S; ``ew``: E and W)."""

    ns = PlayerRefSerializer(many=True, help_text="The first side's players.")
    ew = PlayerRefSerializer(many=True, help_text="The second side's players; empty for a bye.")

    class Meta:
        ref_name = "SidesPlayers"


class TeamSummarySerializer(RefSerializer):
    """A team named for a list: id, name and its club."""

    club = ClubRefSerializer()

    class Meta:
        ref_name = "TeamSummary"


class TeamRefSerializer(TeamSummarySerializer):
    """A side of the scoreboard: the team, its club and its two players."""

    players = PlayerRefSerializer(many=True)

    class Meta:
        ref_name = "TeamRef"


class StoredHandSerializer(serializers.Serializer):
    """A stored hand: what was entered and what the engine computed."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    dealer = serializers.ChoiceField(choices=SEATS)
    trump = serializers.CharField(allow_null=True)
    turned_card = serializers.CharField(required=False)
    blind = serializers.BooleanField()
    doublings = serializers.IntegerField()
    tricks = SideIntsSerializer(allow_null=True)
    points = SideIntsSerializer(allow_null=True)
    penalty = PenaltySerializer(required=False)
    thrown_in = serializers.BooleanField()
    play = PlaySerializer(required=False)
    sheet_score = SideIntsSerializer(allow_null=True, help_text="The score sent from the paper sheet, if any.")
    multiplier = serializers.IntegerField()
    all_tricks = serializers.BooleanField()
    score = SideIntsSerializer(help_text="What the play earned; the bonus is apart, counted in totals.")
    bonus = BonusSerializer(allow_null=True)
    totals = SideIntsSerializer(help_text="The game's running totals after this hand.")
    game_winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    labels = serializers.ListField(child=serializers.CharField())


FORFEITS = ["ns", "ew", "both"]
FORFEIT_HELP = ("A forfeit (the director's desk): the side absent, `both` when both were (both lost); null when "
                "played. A forfeit is not a match played: the standings count it apart.")
DECIDED_BY = ["forfeit", "withdrawal", "adjusted", "decision"]
DECIDED_BY_HELP = ("The director's action that decided the result (a forfeit, a withdrawal mid-match, an adjusted "
                   "result, a drawn knockout decided); null when the games did.")


class ForfeitField(serializers.ChoiceField):
    """A match's ``forfeit``: its side absent, or null."""

    def __init__(self, **kwargs):
        super().__init__(choices=FORFEITS, allow_null=True, read_only=True, help_text=FORFEIT_HELP, **kwargs)

    def to_representation(self, value):
        return value or None


class MatchStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    games_won = SideIntsSerializer()
    winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    next_dealer = serializers.ChoiceField(choices=SEATS, allow_null=True)
    tie_pending = serializers.BooleanField()


class HandResultSerializer(StoredHandSerializer):
    """The answer to entering or correcting a hand (api.md)."""

    game = serializers.IntegerField(help_text="The game's number in the match.")
    game_id = serializers.IntegerField()
    match = MatchStateSerializer()


class ScoreboardGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    first_dealer = serializers.ChoiceField(choices=SEATS)
    favourite = serializers.CharField(allow_null=True)
    albur = serializers.ChoiceField(choices=SIDES, allow_null=True)
    totals = SideIntsSerializer()
    winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    next_dealer = serializers.ChoiceField(choices=SEATS, allow_null=True)
    next_multiplier = serializers.IntegerField(allow_null=True, help_text="What the next hand is worth.")
    tie_pending = serializers.BooleanField()
    hands = StoredHandSerializer(many=True)


class TournamentRefSerializer(RefSerializer):
    """A tournament named: id, name and variant."""

    variant = serializers.CharField()

    class Meta:
        ref_name = "TournamentRef"


class ScoreboardSerializer(MatchStateSerializer):
    """The match scoreboard: where the match stands (as in a hand's answer), its teams and every game."""

    tournament = serializers.IntegerField(help_text="The tournament's id.")
    tournament_detail = TournamentRefSerializer(help_text="The tournament: id, name and variant.")
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    bye = serializers.BooleanField(help_text="True for a team event's bye (no second team); an individual event "
                                             "has no byes.")
    ns = serializers.IntegerField(allow_null=True, help_text="The first team's id; null in an individual event (see "
                                                             "`players`).")
    ns_detail = TeamRefSerializer(allow_null=True, help_text="The first team with its club and players; null in an "
                                                             "individual event.")
    ew = serializers.IntegerField(allow_null=True, help_text="The second team's id; null for a bye and in an "
                                                             "individual event.")
    ew_detail = TeamRefSerializer(allow_null=True, help_text="The second team with its club and players; null for a "
                                                             "bye and in an individual event.")
    players = SidesPlayersSerializer(help_text="Each side's players, in every event.")
    best_of = serializers.IntegerField()
    forfeit = serializers.ChoiceField(choices=FORFEITS, allow_null=True, help_text=FORFEIT_HELP)
    decided_by = serializers.ChoiceField(choices=DECIDED_BY, allow_null=True, help_text=DECIDED_BY_HELP)
    next_multiplier = serializers.IntegerField(allow_null=True, help_text="What the next hand is worth.")
    current_game = serializers.IntegerField(allow_null=True)
    result_status = serializers.ChoiceField(
        choices=RESULT_STATUSES, allow_null=True,
        help_text="Null while the match is scheduled or played; then `final` (a bye, or any finished match when "
                  "the tournament's `confirmation` is `off`), or where the opponents' confirmation stands: "
                  "`entered`, `confirmed`, `disputed`, `final` (a director's decision).")
    result_mark = serializers.ChoiceField(
        choices=["paper", "auto"], allow_null=True,
        help_text="How a result was confirmed when not by the opponents: `paper` (by a director), `auto` (after "
                  "the tournament's `auto_confirm_minutes` without a dispute).")
    updated_at = serializers.DateTimeField()
    games = ScoreboardGameSerializer(many=True)


class GameStartSerializer(serializers.Serializer):
    first_dealer = serializers.ChoiceField(choices=SEATS, help_text="The first dealer, drawn at the table.")
    favourite = serializers.CharField(max_length=1, required=False, allow_blank=True,
                                      help_text="Classic Malilla: the favourite suit drawn before the game.")
    albur = serializers.ChoiceField(choices=SIDES, required=False, allow_blank=True,
                                    help_text="Mexican albur option: the side that won the albur.")


class MatchPlayersMixin(serializers.Serializer):
    """``players`` and ``bye`` of a match, in every event; the players read for all the matches listed at once
    (``players`` in the serializer's context: ``tournaments.selectors.seats.players_of_matches``)."""

    players = serializers.SerializerMethodField(help_text="Each side's players, in every event.")
    bye = serializers.SerializerMethodField(help_text="True for a team event's bye (no second team); an "
                                                      "individual event has no byes.")

    @extend_schema_field(SidesPlayersSerializer)
    def get_players(self, match):
        found = self.context.get("players")
        if found is None or match.pk not in found:
            return match_players(match)
        return found[match.pk]

    def get_bye(self, match) -> bool:
        return match.is_bye


class MatchListSerializer(MatchPlayersMixin, serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    tournament_detail = detail_field("round.tournament", shape=TournamentRefSerializer, allow_null=False,
                                     build=lambda t: {"id": t.pk, "name": t.name, "variant": t.variant},
                                     help_text="The tournament: id, name and variant.")
    round = serializers.IntegerField(source="round.number", read_only=True)
    winner = WinnerField()
    games_won = serializers.SerializerMethodField()
    result_status = serializers.SerializerMethodField(
        help_text="Null while the match is scheduled or played, then `entered`, `confirmed`, `disputed` or "
                  "`final` (see the scoreboard).")
    ns_detail = detail_field(shape=TeamSummarySerializer, build=team_summary,
                             help_text="The first team: id, name and club; null in an individual event.")
    ew_detail = detail_field(shape=TeamSummarySerializer, build=team_summary,
                             help_text="The second team: id, name and club; null for a bye and in an individual "
                                       "event.")

    class Meta:
        model = Match
        fields = ["id", "tournament", "tournament_detail", "round", "table", "ns", "ns_detail", "ew", "ew_detail",
                  "bye", "players", "status", "result_status", "winner", "games_won", "updated_at"]
        read_only_fields = fields
        extra_kwargs = {"updated_at": {"help_text": "When the match last changed (a hand entered, corrected or "
                                                    "deleted, a result, a pairing edit)."},
                        "ns": {"help_text": "The first team's id; null in an individual event (see `players`)."},
                        "ew": {"help_text": "The second team's id; null for a bye and in an individual event."}}

    @extend_schema_field(serializers.ChoiceField(choices=RESULT_STATUSES, allow_null=True))
    def get_result_status(self, match):
        return confirmation.status_of(match)

    @extend_schema_field(SideIntsSerializer)
    def get_games_won(self, match):
        return {"ns": match.games_won_ns, "ew": match.games_won_ew}


class HandHistorySerializer(serializers.Serializer):
    history_id = serializers.IntegerField()
    date = serializers.DateTimeField()
    change = serializers.ChoiceField(choices=["created", "changed", "deleted"])
    user = serializers.IntegerField(allow_null=True)
    user_detail = RefSerializer(allow_null=True, help_text="Who made the change: id and name (their user name); "
                                                           "null for the system.")
    reason = serializers.CharField(allow_null=True)
    hand = StoredHandSerializer(help_text="The hand as it was after this change.")


class HandListedSerializer(StoredHandSerializer):
    """A hand of the hands list: the stored hand with its game and match."""

    game = serializers.IntegerField(help_text="The game's number in the match.")
    game_id = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The match's id.")
    updated_at = serializers.DateTimeField(help_text="When the hand was entered or last changed.")
    deleted = serializers.BooleanField(help_text="False: a stored hand.")


class HandTombstoneSerializer(serializers.Serializer):
    """A hand deleted since the cursor (``updated_after`` only)."""

    id = serializers.IntegerField(help_text="The deleted hand's id.")
    deleted = serializers.BooleanField(help_text="True: this hand was deleted.")
    deleted_at = serializers.DateTimeField()
    game_id = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The match's id.")
