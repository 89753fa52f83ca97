"""Variants as declarations: parameters from rules.md, options, description, extension."""

import pytest

from scoring import VARIANTS, Hand, OptionSpec, RuleViolation, Variant, check_play, get_variant, score_hand
from scoring.variants import FRENCH_SUITS

EXPECTED = {
    # slug: (cards, tricks, trick_points, hand_total, base, target, best_of, direction, trump_mode)
    "belgian-manille": (32, 8, 0, 60, 30, 101, 3, "clockwise", "chosen"),
    "spanish-manilla": (48, 12, 1, 72, 36, 40, 1, "counterclockwise", "turned"),
    "catalan-manilla": (48, 12, 1, 72, 36, 40, 3, "counterclockwise", "turned"),
    "mexican-malilla": (40, 10, 1, 70, 35, 35, 1, "counterclockwise", "turned"),
    "macau-manilla": (40, 10, 1, 70, 35, 70, 1, "counterclockwise", "chosen"),
    "classic-malilla": (48, 12, 1, 72, 36, None, 1, "counterclockwise", "turned"),
}


@pytest.mark.parametrize("slug", list(EXPECTED))
def test_parameters(slug):
    v = get_variant(slug)
    assert (len(v.cards), v.tricks_per_deal, v.trick_points, v.hand_total, v.base, v.target, v.best_of,
            v.direction, v.trump_mode) == EXPECTED[slug]
    assert sum(v.rank_points.values()) * len(v.suits) == 60
    assert sorted(v.rank_points.values(), reverse=True) == [5, 4, 3, 2, 1]
    assert list(v.rank_points) == list(v.ranks[:5])  # the five top ranks carry the points


def test_six_variants():
    assert set(VARIANTS) == set(EXPECTED)


def test_card_codes():
    assert "10S" in get_variant("belgian-manille").cards and "2S" not in get_variant("belgian-manille").cards
    assert "12O" in get_variant("spanish-manilla").cards and "9B" in get_variant("spanish-manilla").cards
    assert "9O" not in get_variant("mexican-malilla").cards and "8O" not in get_variant("mexican-malilla").cards
    assert "3H" not in get_variant("macau-manilla").cards and "JH" in get_variant("macau-manilla").cards


def test_next_seat():
    assert get_variant("belgian-manille").next_seat("N") == "E"
    assert get_variant("spanish-manilla").next_seat("N") == "W"
    assert get_variant("mexican-malilla").next_seat("N", {"clockwise": True}) == "E"


def test_validate_options_fills_defaults():
    assert get_variant("belgian-manille").validate_options(None) == {
        "target": 101, "tie_doubling": "next", "max_multiplier": None, "blind_allowed": True, "deals": None,
        "tiebreak_deals": None}
    assert get_variant("mexican-malilla").validate_options({"albur": True})["albur"] is True
    # Classic Malilla's rounds are its deals: two rounds of four, eight deals.
    assert get_variant("classic-malilla").validate_options({}) == {
        "target": None, "rounds": 2, "mariperez": False, "deals": 8, "tiebreak_deals": None}


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_every_variant_has_the_deal_options(slug):
    options = get_variant(slug).to_dict()["options"]
    assert options["deals"] == {"default": None, "type": "int", "help": options["deals"]["help"], "minimum": 1,
                                "maximum": 100, "nullable": True}
    assert "target then no longer ends the game" in options["deals"]["help"]
    assert options["tiebreak_deals"]["minimum"] == 1 and options["tiebreak_deals"]["nullable"]


@pytest.mark.parametrize("slug, options, field", [
    ("belgian-manille", {"tie_doubling": "twice"}, "options.tie_doubling"),
    ("belgian-manille", {"target": "101"}, "options.target"),
    ("belgian-manille", {"target": True}, "options.target"),
    ("belgian-manille", {"max_multiplier": 0}, "options.max_multiplier"),
    ("belgian-manille", {"blind_allowed": 1}, "options.blind_allowed"),
    ("spanish-manilla", {"malilla_rule": False}, "options.malilla_rule"),
    ("classic-malilla", {"rounds": 0}, "options.rounds"),
    ("belgian-manille", {"deals": 0}, "options.deals"),
    ("spanish-manilla", {"deals": -4}, "options.deals"),
    ("catalan-manilla", {"deals": "16"}, "options.deals"),
    ("mexican-malilla", {"deals": 16.0}, "options.deals"),
    ("macau-manilla", {"deals": True}, "options.deals"),
    ("classic-malilla", {"deals": 101}, "options.deals"),
    ("belgian-manille", {"deals": 16, "tiebreak_deals": 0}, "options.tiebreak_deals"),
    ("classic-malilla", {"tiebreak_deals": "2"}, "options.tiebreak_deals"),
    ("mexican-malilla", {"target": None}, "options.target"),
])
def test_bad_options(slug, options, field):
    with pytest.raises(RuleViolation) as exc:
        get_variant(slug).validate_options(options)
    [v] = exc.value.violations
    assert (v.code, v.field) == ("invalid_option", field)


def test_unknown_variant():
    with pytest.raises(RuleViolation) as exc:
        get_variant("bridge")
    assert exc.value.violations[0].field == "variant"


def test_to_dict():
    d = get_variant("belgian-manille").to_dict()
    assert d["deck"]["ranks"] == ["10", "A", "K", "Q", "J", "9", "8", "7"]
    assert d["deck"]["points"]["10"] == 5 and d["deck"]["points"]["9"] == 0
    assert d["options"]["tie_doubling"]["default"] == "next"
    assert d["options"]["tie_doubling"]["choices"] == ["next", "stack", "off"]
    for key in ("tricks_per_deal", "trick_points", "hand_total", "base", "target", "best_of", "direction",
                "trump_mode", "name"):
        assert key in d
    import json
    for v in VARIANTS.values():
        json.dumps(v.to_dict())


def test_a_new_variant_is_a_declaration():
    # A club's Belgian game to 61 with the Spanish trick point and a 20-card... just data:
    piquet = Variant(
        slug="club-manille", name="Club Manille", suits=FRENCH_SUITS,
        ranks=("10", "A", "K", "Q", "J", "9", "8", "7"), rank_points={"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1},
        trick_points=1, target=61, best_of=1, direction="clockwise", trump_mode="chosen",
        undertrump_ban=True, options={"target": OptionSpec(61, "int", minimum=1)},
    )
    assert piquet.hand_total == 68 and piquet.base == 34
    result = score_hand(piquet, Hand(dealer="N", trump="S", tricks={"ns": 5, "ew": 3}, points={"ns": 40, "ew": 28}))
    assert result.score == {"ns": 6, "ew": 0}


def test_a_two_player_form_is_a_declaration():
    duel = Variant(
        slug="duel-manille", name="Manille for two", suits=FRENCH_SUITS, seats=("N", "E"),
        ranks=("10", "A", "K", "Q", "J", "9", "8", "7"), rank_points={"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1},
        trick_points=0, target=101, best_of=3, direction="clockwise", trump_mode="chosen", undertrump_ban=True,
        options={},
    )
    assert duel.tricks_per_deal == 16
    hands = {"N": [c for c in duel.cards if c[-1] in "SH"], "E": [c for c in duel.cards if c[-1] in "DC"]}
    r = check_play(duel, dealer="E", hands=hands, cards=["10S", "10D"], trump="H")
    assert r.legal and r.tricks[0]["winner"] == "N" and r.next["seat"] == "N"
