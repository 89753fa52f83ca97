"""The director's desk's shapes: an action as kept (``DirectorAction``), and what a director sends to take one."""

from rest_framework import serializers

from tournaments.models import DESK_REASON_MAX, DirectorAction

from .rounds import StandingNumbersSerializer


class DirectorActionSerializer(serializers.ModelSerializer):
    """An action of the director's desk, with its reason and actor; reverted ones are kept, marked."""

    active = serializers.BooleanField(read_only=True, help_text="Not reverted: it shapes the result (or the "
                                                                "standings) now.")
    rounds_kept = serializers.SerializerMethodField(
        help_text="In the answer to taking or reverting an action: the later rounds already paired, which stay as "
                  "they are (the standings are recomputed; the pairings are not). Empty in lists.")

    class Meta:
        model = DirectorAction
        fields = ["id", "kind", "match", "entry", "params", "reason", "actor", "created_at", "active", "reverted_at",
                  "reverted_by", "revert_reason", "rounds_kept"]
        read_only_fields = fields

    def get_rounds_kept(self, obj) -> list[int]:
        return list(getattr(obj, "rounds_kept", []))


class DirectorActionCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=DirectorAction.Kind.choices,
        help_text="`forfeit`, `withdrawal` (mid-match), `adjusted`, `penalty`, `decision` (a drawn knockout) act "
                  "on a `match`; `withdrawal_event` and `deduction` on an `entry`.")
    match = serializers.IntegerField(required=False, help_text="The match's id (its kinds).")
    entry = serializers.IntegerField(required=False, help_text="The entry's id (its kinds).")
    params = serializers.DictField(
        required=False, default=dict,
        help_text='By kind: forfeit `{"absent": "ns"|"ew"|"both"}`; withdrawal `{"side": "ns"|"ew"}`; adjusted '
                  '`{"games_won_ns", "games_won_ew", "points_ns", "points_ew", "winner": "ns"|"ew"|"draw"}`; '
                  'penalty `{"side", "points"}`; decision `{"winner": "ns"|"ew"}`; deduction `{"metric": '
                  '"match_points"|"points_for", "amount"}`; withdrawal_event `{}`. The event\'s forfeit points '
                  'and withdrawal award are added, as they stand when the action is taken.')
    reason = serializers.CharField(max_length=DESK_REASON_MAX, help_text="Why: kept with the action.")


class DirectorActionRevertSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=DESK_REASON_MAX, required=False, allow_blank=True, default="",
                                   help_text="Why it is reverted (kept with the action).")


class ClockDecisionSerializer(serializers.Serializer):
    """A director's word on a round clock ended early by mistake: why the tables reopen, or why they stand."""

    reason = serializers.CharField(max_length=DESK_REASON_MAX, help_text="Why (required): kept with the action.")


class DirectorActionPreviewRequestSerializer(DirectorActionCreateSerializer):
    reason = serializers.CharField(max_length=DESK_REASON_MAX, required=False, allow_blank=True, default="",
                                   help_text="Optional here: nothing is kept.")


class PreviewNumbersSerializer(StandingNumbersSerializer):
    """A standings row's numbers as a preview computes them: a row's own, without the stage or confirmation marks."""

    unconfirmed = None
    stage = None
    stage_rank = None


class PreviewRowSerializer(serializers.Serializer):
    team = serializers.IntegerField(required=False, help_text="The team (team events).")
    player = serializers.IntegerField(required=False, help_text="The player (individual events).")
    name = serializers.CharField()
    before = PreviewNumbersSerializer(allow_null=True, help_text="The row now (recomputed); null if it has none.")
    after = PreviewNumbersSerializer(allow_null=True, help_text="The row with the action; null if it would have "
                                                                "none.")
    moved = serializers.IntegerField(help_text="Places gained (negative: lost).")


class DirectorActionPreviewSerializer(serializers.Serializer):
    """What an action would do to the standings; nothing saved."""

    kind = serializers.ChoiceField(choices=DirectorAction.Kind.choices)
    params = serializers.DictField(help_text="The parameters as the action would keep them.")
    rounds_kept = serializers.ListField(child=serializers.IntegerField(),
                                        help_text="The later rounds already paired, which would stay as they are.")
    rows = PreviewRowSerializer(many=True, help_text="The standings rows whose rank, numbers or tiebreaks would "
                                                     "change, in the order of the standings with the action.")
