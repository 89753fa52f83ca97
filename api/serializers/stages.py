"""An event's stages (issue 27): format, status, rounds, match length and the rule into the next stage."""

from rest_framework import serializers

from tournaments.models import Stage
from tournaments.stages import CARRY_PARTS


class QualificationSerializer(serializers.Serializer):
    """The rule that leads from a stage into the next."""

    kind = serializers.ChoiceField(choices=Stage.Rule.choices,
                                   help_text="`top` N of the standings; `pools`: the first K of each pool and the "
                                             "best M of place K + 1 across the pools; `table_winners` (after a "
                                             "`tables` cycle); `all`.")
    count = serializers.IntegerField(required=False, default=0, min_value=0, max_value=10000,
                                     help_text="`top`: N.")
    per_pool = serializers.IntegerField(required=False, default=0, min_value=0, max_value=10000,
                                        help_text="`pools`: the first K of each pool.")
    best_next = serializers.IntegerField(required=False, default=0, min_value=0, max_value=10000,
                                         help_text="`pools`: the best M of place K + 1 across the pools.")
    carry = serializers.ListField(child=serializers.ChoiceField(choices=list(CARRY_PARTS)), required=False,
                                  default=list, max_length=len(CARRY_PARTS),
                                  help_text="What the qualifiers take with them into the next stage (never into a "
                                            "knockout).")


class StageSerializer(serializers.ModelSerializer):
    qualification = serializers.SerializerMethodField(
        help_text="The rule into the next stage; null on the last stage.")
    round_count = serializers.IntegerField(read_only=True, help_text="The rounds of this stage paired so far.")
    seed = serializers.SerializerMethodField(help_text="The published seed of the stage's draws; null until drawn.")

    class Meta:
        model = Stage
        fields = ["number", "format", "status", "rounds", "round_count", "best_of", "match_length", "match_games",
                  "minutes", "at_time", "pools", "third_place", "tiebreak_deals", "qualification", "seed"]
        read_only_fields = fields

    def get_qualification(self, stage) -> QualificationSerializer(allow_null=True):
        return stage.qualification

    def get_seed(self, stage) -> str | None:
        return stage.seed or None


class StageCreateSerializer(serializers.ModelSerializer):
    """The next stage, and (unless the last stage has one already) the rule that leads into it."""

    format = serializers.ChoiceField(choices=Stage.Format.choices)
    previous_qualification = QualificationSerializer(
        required=False, help_text="The rule of the stage before this one into it; required unless that stage has "
                                  "one already.")

    class Meta:
        model = Stage
        fields = ["format", "rounds", "best_of", "match_length", "match_games", "minutes", "at_time", "pools",
                  "third_place", "tiebreak_deals", "previous_qualification"]


class StageUpdateSerializer(serializers.ModelSerializer):
    """A stage changed before its first round: a pending stage's settings; stage 1's `pools`, `seed`,
    `third_place` and `tiebreak_deals` only."""

    format = serializers.ChoiceField(choices=Stage.Format.choices, required=False)

    class Meta:
        model = Stage
        fields = ["format", "rounds", "best_of", "match_length", "match_games", "minutes", "at_time", "pools", "seed",
                  "third_place", "tiebreak_deals"]
        extra_kwargs = {name: {"required": False} for name in fields}


class StagePlaceSerializer(serializers.Serializer):
    """An entrant placed by hand in a stage that has not started (audited)."""

    entry = serializers.IntegerField(help_text="The entry's id (`/entries/`).")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    help_text="Its seed in the stage (last when left out).")
    pool = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    help_text="A pools stage: its pool.")
