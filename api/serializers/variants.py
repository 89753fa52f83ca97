"""Shapes of the rules engine's inputs and answers: variants, a hand, a play, a hand result."""

from rest_framework import serializers

from ..engine import VARIANTS

VARIANT_CHOICES = [(slug, variant.name) for slug, variant in VARIANTS.items()]
SEATS = ["N", "E", "S", "W"]
SIDES = ["ns", "ew"]
WINNERS = ["ns", "ew", "draw"]
PENALTIES = ["signalling", "renege", "renuncio"]
MAX_COUNT = 1000  # tricks and points of a side: far above any deck, low enough to be harmless
MAX_SCORE = 1_000_000


def card_field(**kwargs):
    """A card code as a short string; the engine says whether its deck knows it (unknown_card)."""
    return serializers.CharField(max_length=8, help_text="A card code, rank then suit (rules.md §2): `10S`, `12O`.",
                                 **kwargs)


def card_list(**kwargs):
    return serializers.ListField(child=card_field(), max_length=60, **kwargs)


class SidesSerializer(serializers.Serializer):
    ns = serializers.IntegerField(min_value=0, max_value=MAX_COUNT)
    ew = serializers.IntegerField(min_value=0, max_value=MAX_COUNT)

    class Meta:
        ref_name = "SideCounts"


class SideScoresSerializer(serializers.Serializer):
    ns = serializers.IntegerField(min_value=0, max_value=MAX_SCORE)
    ew = serializers.IntegerField(min_value=0, max_value=MAX_SCORE)

    class Meta:
        ref_name = "SideScores"


class PenaltySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=PENALTIES)
    side = serializers.ChoiceField(choices=SIDES, help_text="The offending side.")


class DealSerializer(serializers.Serializer):
    N = card_list()
    E = card_list()
    S = card_list()
    W = card_list()


class PlaySerializer(serializers.Serializer):
    hands = DealSerializer(help_text="The cards dealt to each seat.")
    cards = card_list(help_text="Every card played, in order.")


class HandInputSerializer(serializers.Serializer):
    """A hand as entered (api.md "A hand"): a summary, or the full play."""

    dealer = serializers.ChoiceField(choices=SEATS)
    trump = serializers.CharField(max_length=8, required=False, allow_null=True,
                                  help_text='A suit letter or "none"; turn-up variants may send turned_card instead.')
    turned_card = card_field(required=False, allow_null=True)
    blind = serializers.BooleanField(required=False, help_text="Belgian blind no-trump.")
    doublings = serializers.IntegerField(min_value=0, max_value=20, required=False)
    tricks = SidesSerializer(required=False, allow_null=True)
    points = SidesSerializer(required=False, allow_null=True,
                             help_text="Card points + trick points of each side, as the variant counts.")
    penalty = PenaltySerializer(required=False, allow_null=True)
    thrown_in = serializers.BooleanField(required=False, help_text="A thrown-in deal sends no tricks and no points.")
    score = SideScoresSerializer(required=False, allow_null=True,
                                 help_text="What the paper sheet says; checked (score_mismatch).")
    play = PlaySerializer(required=False, allow_null=True, help_text="The full play instead of tricks and points.")


class GameStateSerializer(serializers.Serializer):
    totals = SideScoresSerializer(required=False)
    tie_pending = serializers.BooleanField(required=False)
    previous_dealer = serializers.ChoiceField(choices=SEATS, required=False, allow_null=True)
    favourite = serializers.CharField(max_length=2, required=False, allow_null=True,
                                      help_text="Classic Malilla favourite suit.")
    deals_played = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, required=False,
                                            help_text="Deals dealt so far, thrown-in deals included.")
    winner = serializers.ChoiceField(choices=WINNERS, required=False, allow_null=True,
                                     help_text='Set when the game is already decided ("draw": a game of a fixed '
                                               "number of deals level after its last deal).")
    tie_multiplier = serializers.IntegerField(min_value=1, max_value=1 << 20, required=False)
    # What the engine works out of the deals (rules.md "A game of a fixed number of deals"): answered, never read.
    deals_left = serializers.IntegerField(read_only=True, allow_null=True,
                                          help_text="Deals still to play: null without option deals; 0 once the "
                                                    "game is over; in tie-break deals, those left of the block.")
    ended_on_deals = serializers.BooleanField(read_only=True,
                                              help_text="The game ended on its deals (option deals).")
    tiebreak = serializers.BooleanField(read_only=True,
                                        help_text="The game is in tie-break deals (option tiebreak_deals), or was "
                                                  "decided in them.")

    class Meta:
        ref_name = "GameState"


class ScoreRequestSerializer(HandInputSerializer):
    state = GameStateSerializer(required=False, help_text="The game so far.")
    options = serializers.DictField(required=False, help_text="House options of the variant.")


class BonusSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    points = serializers.IntegerField()
    held_back = serializers.BooleanField()
    applied = serializers.BooleanField()


class SideIntsSerializer(serializers.Serializer):
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()

    class Meta:
        ref_name = "SideValues"


class HandResultFieldsSerializer(serializers.Serializer):
    """What the engine computes for a hand."""

    tricks = SideIntsSerializer(allow_null=True)
    points = SideIntsSerializer(allow_null=True)
    multiplier = serializers.IntegerField()
    all_tricks = serializers.BooleanField()
    score = SideIntsSerializer(help_text="What the play earned; the bonus is apart, counted in totals.")
    bonus = BonusSerializer(allow_null=True)
    totals = SideIntsSerializer()
    game_winner = serializers.ChoiceField(choices=WINNERS, allow_null=True)
    tie_pending = serializers.BooleanField()
    next_dealer = serializers.ChoiceField(choices=SEATS)
    next_multiplier = serializers.IntegerField()
    labels = serializers.ListField(child=serializers.CharField())


class ScoreResponseSerializer(HandResultFieldsSerializer):
    state = GameStateSerializer(help_text="The game after this hand: send it back as the next hand's state.")


class CheckPlayRequestSerializer(serializers.Serializer):
    dealer = serializers.ChoiceField(choices=SEATS)
    trump = serializers.CharField(max_length=8, required=False, allow_null=True)
    turned_card = card_field(required=False, allow_null=True)
    hands = DealSerializer()
    cards = card_list()
    options = serializers.DictField(required=False)


class TrickSerializer(serializers.Serializer):
    leader = serializers.ChoiceField(choices=SEATS)
    cards = serializers.ListField(child=serializers.CharField())
    winner = serializers.ChoiceField(choices=SEATS, required=False, allow_null=True)
    points = serializers.IntegerField(required=False, allow_null=True)


class NextCardSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=SEATS)
    legal_cards = serializers.ListField(child=serializers.CharField())


class PlayViolationSerializer(serializers.Serializer):
    code = serializers.CharField()
    trick = serializers.IntegerField()
    seat = serializers.ChoiceField(choices=SEATS)
    card = serializers.CharField()
    legal_cards = serializers.ListField(child=serializers.CharField())


class CheckPlayResponseSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    tricks = TrickSerializer(many=True)
    tricks_won = SideIntsSerializer(required=False)
    points = SideIntsSerializer(required=False)
    complete = serializers.BooleanField(required=False)
    next = NextCardSerializer(required=False, allow_null=True)
    violation = PlayViolationSerializer(required=False, help_text="The first illegal card.")


class DeckSerializer(serializers.Serializer):
    suits = serializers.ListField(child=serializers.CharField())
    suit_names = serializers.DictField(child=serializers.CharField())
    ranks = serializers.ListField(child=serializers.CharField(), help_text="High to low.")
    points = serializers.DictField(child=serializers.IntegerField(), help_text="Card points of each rank.")
    size = serializers.IntegerField()


class PenaltyRuleSerializer(serializers.Serializer):
    kind = serializers.CharField()
    points = serializers.IntegerField()
    help = serializers.CharField(allow_blank=True)


class OptionSpecSerializer(serializers.Serializer):
    default = serializers.JSONField(allow_null=True)
    type = serializers.ChoiceField(choices=["int", "bool", "choice"])
    help = serializers.CharField(allow_blank=True)
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    minimum = serializers.IntegerField(required=False)
    nullable = serializers.BooleanField(required=False)


class VariantSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    source = serializers.CharField(allow_blank=True)
    deck = DeckSerializer()
    seats = serializers.ListField(child=serializers.ChoiceField(choices=SEATS))
    tricks_per_deal = serializers.IntegerField()
    trick_points = serializers.IntegerField()
    hand_total = serializers.IntegerField()
    base = serializers.IntegerField()
    target = serializers.IntegerField(allow_null=True, help_text="Default target; null where games have none.")
    best_of = serializers.IntegerField(help_text="Default best-of.")
    direction = serializers.ChoiceField(choices=["clockwise", "counterclockwise"])
    trump_mode = serializers.ChoiceField(choices=["chosen", "turned"])
    no_trump = serializers.BooleanField()
    turn_up_bonus = serializers.CharField(allow_null=True)
    penalties = serializers.DictField(child=PenaltyRuleSerializer())
    options = serializers.DictField(child=OptionSpecSerializer(), help_text="House options with their defaults.")
