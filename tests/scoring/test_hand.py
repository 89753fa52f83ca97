"""score_hand: every check of rules.md §4 on a summary, multipliers, penalties, thrown-in deals."""

import random

import pytest

from scoring import GameSettings, GameState, Hand, Penalty, Play, RuleViolation, score_hand
from tests.scoring.helpers import build_deal, play_hand

BELGIAN_OK = dict(dealer="N", trump="H", tricks={"ns": 5, "ew": 3}, points={"ns": 37, "ew": 23})
SPANISH_OK = dict(dealer="N", turned_card="2O", tricks={"ns": 7, "ew": 5}, points={"ns": 45, "ew": 27})


def violations(variant, hand, state=None, **kw):
    with pytest.raises(RuleViolation) as exc:
        score_hand(variant, hand, state, **kw)
    return exc.value.violations


def test_points_total_names_the_numbers():
    [v] = violations("belgian-manille", Hand(**dict(BELGIAN_OK, points={"ns": 37, "ew": 22})))
    assert v.to_dict() == {"code": "points_total", "attr": "points",
                           "params": {"total": 60, "ns": 37, "ew": 22, "sum": 59}}


def test_every_violation_is_reported():
    hand = Hand(dealer="E", trump="X", blind=True, doublings=1, tricks={"ns": 5, "ew": 5},
                points={"ns": 40, "ew": 40}, penalty=Penalty("renege", "ns"))
    codes = [v.code for v in violations("spanish-manilla", hand, GameState(previous_dealer="E", winner="ns"))]
    assert codes == ["game_over", "dealer_out_of_turn", "trump_invalid", "call_not_allowed", "call_not_allowed",
                     "penalty_not_allowed", "tricks_total", "points_total"]


def test_tricks_total():
    [v] = violations("spanish-manilla", Hand(**dict(SPANISH_OK, tricks={"ns": 7, "ew": 4},
                                                    points={"ns": 45, "ew": 27})))
    assert v.code == "tricks_total" and v.params == {"total": 12, "ns": 7, "ew": 4, "sum": 11}


@pytest.mark.parametrize("tricks, points, field", [
    ({"ns": 8, "ew": 0}, {"ns": 55, "ew": 5}, "points.ew"),     # 0 tricks, 5 points
    ({"ns": 1, "ew": 7}, {"ns": 25, "ew": 35}, "points.ns"),    # 4 cards hold at most 5+5+5+5 = 20
    ({"ns": 7, "ew": 1}, {"ns": 35, "ew": 25}, "points.ew"),
])
def test_points_impossible_belgian(tricks, points, field):
    found = violations("belgian-manille", Hand(dealer="N", trump="H", tricks=tricks, points=points))
    assert ("points_impossible", field) in [(v.code, v.field) for v in found]
    assert {v.code for v in found} == {"points_impossible"}


def test_points_impossible_counts_trick_points():
    # 1 trick in Spain: at most 20 card points + 1 trick point = 21.
    hand = Hand(dealer="N", turned_card="2O", tricks={"ns": 1, "ew": 11}, points={"ns": 22, "ew": 50})
    found = violations("spanish-manilla", hand)
    assert [v.code for v in found] == ["points_impossible", "points_impossible"]  # ns too many, ew too few
    assert found[0].params == {"reason": "card_points", "side": "ns", "card_points": 21, "points": 22,
                               "trick_points": 1, "tricks": 1, "other_tricks": 11, "low": 0, "high": 20}
    ok = Hand(dealer="N", turned_card="2O", tricks={"ns": 1, "ew": 11}, points={"ns": 21, "ew": 51})
    assert score_hand("spanish-manilla", ok).score == {"ns": 0, "ew": 15}


def test_points_impossible_zero_points_with_tricks_below_trick_points():
    hand = Hand(dealer="N", turned_card="2O", tricks={"ns": 3, "ew": 9}, points={"ns": 2, "ew": 70})
    assert {v.code for v in violations("spanish-manilla", hand)} == {"points_impossible"}


def test_unknown_turned_card():
    [v] = violations("spanish-manilla", Hand(**dict(SPANISH_OK, turned_card="10S")))
    assert v.code == "unknown_card" and v.field == "turned_card"
    assert v.params == {"card": "'10S'", "variant": "spanish-manilla"}


@pytest.mark.parametrize("variant, hand", [
    ("spanish-manilla", dict(SPANISH_OK, turned_card=None, trump="O")),
    ("spanish-manilla", dict(SPANISH_OK, trump="C")),
    ("belgian-manille", dict(BELGIAN_OK, trump="O")),
    ("belgian-manille", dict(BELGIAN_OK, trump=None)),
    ("macau-manilla", dict(BELGIAN_OK, trump="none", tricks={"ns": 5, "ew": 5}, points={"ns": 35, "ew": 35})),
])
def test_trump_invalid(variant, hand):
    assert [v.code for v in violations(variant, Hand(**hand))] == ["trump_invalid"]


def test_trump_may_come_with_its_turned_card():
    assert score_hand("spanish-manilla", Hand(**dict(SPANISH_OK, trump="O"))).score == {"ns": 9, "ew": 0}


@pytest.mark.parametrize("variant, hand, options, field", [
    ("spanish-manilla", dict(SPANISH_OK, doublings=1), None, "doublings"),
    ("spanish-manilla", dict(SPANISH_OK, blind=True), None, "blind"),
    ("belgian-manille", dict(BELGIAN_OK, blind=True), None, "blind"),  # blind without no trump
    ("belgian-manille", dict(BELGIAN_OK, trump="none", blind=True), {"blind_allowed": False}, "blind"),
    ("belgian-manille", dict(BELGIAN_OK, trump="none", blind=True), {"max_multiplier": 2}, "blind"),
    ("belgian-manille", dict(BELGIAN_OK, doublings=2), {"max_multiplier": 2}, "doublings"),
])
def test_call_not_allowed(variant, hand, options, field):
    [v] = violations(variant, Hand(**hand), options=options)
    assert (v.code, v.field) == ("call_not_allowed", field)


def test_favourite_and_albur_not_allowed_elsewhere():
    [v] = violations("spanish-manilla", Hand(**SPANISH_OK), settings=GameSettings("spanish-manilla", favourite="O"))
    assert (v.code, v.field) == ("call_not_allowed", "favourite")
    [v] = violations("mexican-malilla", Hand(dealer="N", turned_card="2O", tricks={"ns": 5, "ew": 5},
                                             points={"ns": 35, "ew": 35}),
                     settings=GameSettings("mexican-malilla", albur="ew"))
    assert (v.code, v.field) == ("call_not_allowed", "albur")


@pytest.mark.parametrize("variant, penalty", [
    ("belgian-manille", "renege"), ("spanish-manilla", "signalling"), ("catalan-manilla", "renuncio"),
    ("mexican-malilla", "renuncio"), ("macau-manilla", "renege"), ("classic-malilla", "signalling"),
])
def test_penalty_not_allowed(variant, penalty):
    hand = Hand(**(BELGIAN_OK if variant in ("belgian-manille", "macau-manilla") else SPANISH_OK),
                penalty=Penalty(penalty, "ns"))
    if variant == "macau-manilla":
        hand = Hand(dealer="N", trump="H", tricks={"ns": 5, "ew": 5}, points={"ns": 35, "ew": 35},
                    penalty=Penalty(penalty, "ns"))
    if variant == "mexican-malilla":
        hand = Hand(dealer="N", turned_card="2O", tricks={"ns": 5, "ew": 5}, points={"ns": 35, "ew": 35},
                    penalty=Penalty(penalty, "ns"))
    assert [v.code for v in violations(variant, hand)] == ["penalty_not_allowed"]


def test_dealer_out_of_turn_names_the_seats():
    [v] = violations("belgian-manille", Hand(**BELGIAN_OK), GameState(previous_dealer="N"))
    assert v.code == "dealer_out_of_turn"
    assert v.params == {"reason": "next_seat", "previous": "N", "expected": "E", "dealer": "N",
                        "direction": "clockwise"}
    [v] = violations("spanish-manilla", Hand(**dict(SPANISH_OK, dealer="E")), GameState(previous_dealer="N"))
    assert (v.params["expected"], v.params["direction"]) == ("W", "counterclockwise")


def test_first_dealer_is_checked_when_recorded():
    [v] = violations("belgian-manille", Hand(**BELGIAN_OK), settings=GameSettings("belgian-manille", first_dealer="S"))
    assert v.code == "dealer_out_of_turn"


def test_score_mismatch_shows_both():
    [v] = violations("belgian-manille", Hand(**BELGIAN_OK, score={"ns": 14, "ew": 0}))
    assert v.code == "score_mismatch"
    assert v.params == {"sheet_ns": 14, "sheet_ew": 0, "ns": 7, "ew": 0, "variant": "belgian-manille"}
    assert score_hand("belgian-manille", Hand(**BELGIAN_OK, score={"ns": 7, "ew": 0})).score == {"ns": 7, "ew": 0}


def test_missing_tricks_and_points():
    assert [v.code for v in violations("belgian-manille", Hand(dealer="N", trump="H"))] == ["invalid_input"]
    [v] = violations("belgian-manille", Hand(dealer="N", trump="H", tricks={"ns": 4, "ew": 4}))
    assert v.field == "points"


def test_thrown_in_deal_scores_nothing_and_keeps_the_tie_double():
    before = GameState(totals={"ns": 10, "ew": 4}, tie_pending=True, previous_dealer="N")
    result = score_hand("belgian-manille", Hand(dealer="E", thrown_in=True), before)
    assert result.score == {"ns": 0, "ew": 0} and result.totals == {"ns": 10, "ew": 4}
    assert result.tie_pending and result.next_multiplier == 2 and result.next_dealer == "S"
    assert result.labels == ("thrown_in",)


def test_thrown_in_deal_carries_no_tricks():
    [v] = violations("belgian-manille", Hand(dealer="N", thrown_in=True, tricks={"ns": 4, "ew": 4},
                                             points={"ns": 30, "ew": 30}))[:1]
    assert v.code == "invalid_input"


def test_thrown_in_turn_up_deal_has_no_bonus():
    result = score_hand("spanish-manilla", Hand(dealer="N", turned_card="9O", thrown_in=True))
    assert result.bonus is None and result.totals == {"ns": 0, "ew": 0}


def test_belgian_tie_doubling_options():
    tie = Hand(dealer="E", trump="H", tricks={"ns": 4, "ew": 4}, points={"ns": 30, "ew": 30})
    pending = GameState(tie_pending=True, previous_dealer="N")
    assert score_hand("belgian-manille", tie, pending).next_multiplier == 2  # "next": no stacking
    stacked = score_hand("belgian-manille", tie, pending, options={"tie_doubling": "stack"})
    assert stacked.next_multiplier == 4 and stacked.state.tie_multiplier == 4
    off = score_hand("belgian-manille", tie, GameState(previous_dealer="N"), options={"tie_doubling": "off"})
    assert not off.tie_pending and off.next_multiplier == 1


def test_signalling_needs_no_tricks_and_uses_up_the_tie_double():
    result = score_hand("belgian-manille", Hand(dealer="N", trump="none", penalty=Penalty("signalling", "ns")),
                        GameState(tie_pending=True))
    assert result.score == {"ns": 0, "ew": 20} and not result.tie_pending
    assert "penalty" in result.labels and "signalling" in result.labels


def test_classic_renuncio_offending_dealers_lose_their_turn_up():
    hand = Hand(dealer="N", turned_card="9O", penalty=Penalty("renuncio", "ns"))
    result = score_hand("classic-malilla", hand)
    assert result.score == {"ns": 0, "ew": 10}
    assert result.bonus.applied is False and result.totals == {"ns": 0, "ew": 10}


def test_full_play_yields_the_summary():
    rng = random.Random(3)
    for variant in ("belgian-manille", "spanish-manilla", "mexican-malilla"):
        as_play, as_summary = play_hand(variant, rng, "N")
        assert score_hand(variant, as_play).to_dict() == score_hand(variant, as_summary).to_dict()
        # Given along with the play, tricks and points must match it.
        both = Hand(**{**as_play.__dict__, "tricks": as_summary.tricks, "points": as_summary.points})
        assert score_hand(variant, both).score == score_hand(variant, as_summary).score
        wrong = Hand(**{**as_play.__dict__, "tricks": {"ns": as_summary.tricks["ew"], "ew": as_summary.tricks["ns"]}})
        if as_summary.tricks["ns"] != as_summary.tricks["ew"]:
            assert "play_mismatch" in [v.code for v in violations(variant, wrong)]


def test_illegal_play_is_raised_with_its_code():
    hands = build_deal("spanish-manilla", {"W": ["5C"], "S": ["1C", "2B"], "N": ["2O"]})
    play = Play({s: tuple(c) for s, c in hands.items()}, ("5C", "2B"))
    [v] = violations("spanish-manilla", Hand(dealer="N", turned_card="2O", play=play))
    assert (v.code, v.field) == ("must_follow_suit", "play.cards")
    assert (v.params["trick"], v.params["seat"], v.params["card"]) == (1, "S", "2B")


def test_incomplete_or_malformed_play_is_refused():
    hands = build_deal("belgian-manille", {})
    play = Play({s: tuple(c) for s, c in hands.items()}, ())
    [v] = violations("belgian-manille", Hand(dealer="N", trump="H", play=play))
    assert (v.code, v.field) == ("invalid_input", "play.cards")
    bad = Play(dict(play.hands, N=play.hands["N"][:-1]), ())
    assert [v.code for v in violations("belgian-manille", Hand(dealer="N", trump="H", play=bad))][0] == "deck_invalid"


def test_hand_from_dict_round_trips_and_rejects_wrong_shapes():
    data = {"dealer": "N", "trump": "H", "blind": False, "doublings": 1, "tricks": {"ns": 5, "ew": 3},
            "points": {"ns": 37, "ew": 23}, "penalty": {"type": "signalling", "side": "ew"},
            "score": {"ns": 14, "ew": 0}, "play": {"hands": {"N": ["10H"]}, "cards": ["10H"]}}
    hand = Hand.from_dict(data)
    assert Hand.from_dict(hand.to_dict()) == hand
    assert hand.penalty == Penalty("signalling", "ew") and hand.play.cards == ("10H",)
    with pytest.raises(RuleViolation) as exc:
        Hand.from_dict({"dealer": 3, "tricks": {"ns": "5"}, "doublings": -1, "blind": "yes",
                        "penalty": {"type": "x", "side": "nw"}})
    fields = {v.field for v in exc.value.violations}
    assert {"dealer", "tricks", "doublings", "blind", "penalty"} <= fields
    assert set(exc.value.codes) == {"invalid_input"}


def test_hand_result_to_dict_fields():
    d = score_hand("spanish-manilla", Hand(**dict(SPANISH_OK, turned_card="9O"))).to_dict()
    assert d["bonus"] == {"side": "ns", "points": 5, "held_back": False, "applied": True}
    assert d["totals"] == {"ns": 14, "ew": 0} and d["score"] == {"ns": 9, "ew": 0}
    assert {"multiplier", "all_tricks", "score", "bonus", "totals", "game_winner", "tie_pending", "next_dealer",
            "labels", "tricks", "points", "next_multiplier"} == set(d)


def test_state_from_dict_api_shape():
    state = GameState.from_dict({"totals": {"ns": 33, "ew": 33}, "tie_pending": False, "previous_dealer": "E",
                                 "favourite": "O"})
    assert state.totals == {"ns": 33, "ew": 33} and state.previous_dealer == "E"
    with pytest.raises(RuleViolation):
        GameState.from_dict({"totals": {"ns": "x", "ew": 0}})


def test_scores_are_ints_and_deterministic():
    a = score_hand("belgian-manille", Hand(**BELGIAN_OK)).to_dict()
    b = score_hand("belgian-manille", Hand(**BELGIAN_OK)).to_dict()
    assert a == b and all(type(x) is int for x in a["score"].values())


# --------------------------------------------------------------------------- states the rules cannot reach


@pytest.mark.parametrize("variant, hand", [
    ("spanish-manilla", SPANISH_OK), ("catalan-manilla", SPANISH_OK),
    ("mexican-malilla", dict(dealer="N", turned_card="2O", tricks={"ns": 6, "ew": 4}, points={"ns": 40, "ew": 30})),
    ("macau-manilla", dict(dealer="N", trump="H", tricks={"ns": 6, "ew": 4}, points={"ns": 40, "ew": 30})),
])
def test_a_pending_tie_is_refused_where_ties_do_not_double(variant, hand):
    assert score_hand(variant, Hand(**hand)).multiplier == 1
    [v] = violations(variant, Hand(**hand), GameState(tie_pending=True))
    assert (v.code, v.field) == ("invalid_input", "state.tie_pending")
    assert v.params == {"reason": "no_tie_double", "variant": variant, "multiplier": 2}
    [v] = violations(variant, Hand(**hand), GameState(tie_multiplier=4))
    assert (v.code, v.field) == ("invalid_input", "state.tie_multiplier")


def test_spanish_tie_pending_no_longer_doubles_the_score():
    hand = Hand(dealer="N", turned_card="2O", tricks={"ns": 7, "ew": 5}, points={"ns": 40, "ew": 32})
    assert score_hand("spanish-manilla", hand).score == {"ns": 4, "ew": 0}
    with pytest.raises(RuleViolation) as exc:
        score_hand("spanish-manilla", hand, GameState(tie_pending=True))  # was scored 8
    assert [v.code for v in exc.value.violations] == ["invalid_input"]


def test_belgian_pending_tie_must_match_its_tie_doubling_option():
    hand = Hand(**BELGIAN_OK)
    assert score_hand("belgian-manille", hand, GameState(tie_pending=True)).multiplier == 2
    assert score_hand("belgian-manille", hand, GameState(tie_multiplier=8),
                      options={"tie_doubling": "stack"}).multiplier == 8
    [v] = violations("belgian-manille", hand, GameState(tie_pending=True), options={"tie_doubling": "off"})
    assert (v.code, v.field) == ("invalid_input", "state.tie_pending") and v.params["reason"] == "tie_doubling_off"
    [v] = violations("belgian-manille", hand, GameState(tie_multiplier=4))  # "next" never stacks
    assert (v.code, v.field) == ("invalid_input", "state.tie_multiplier")


@pytest.mark.parametrize("variant, hand, totals, options", [
    ("spanish-manilla", SPANISH_OK, {"ns": 12, "ew": 40}, None),
    ("catalan-manilla", SPANISH_OK, {"ns": 41, "ew": 3}, None),
    ("belgian-manille", BELGIAN_OK, {"ns": 101, "ew": 88}, None),
    ("belgian-manille", BELGIAN_OK, {"ns": 60, "ew": 50}, {"target": 51}),
])
def test_totals_at_the_target_mean_the_game_is_over(variant, hand, totals, options):
    [v] = violations(variant, Hand(**hand), GameState(totals=totals), options=options)
    assert (v.code, v.field) == ("game_over", "state.totals")
    assert (v.params["reason"], v.params["ns"], v.params["ew"]) == ("target_reached", totals["ns"], totals["ew"])


def test_totals_one_short_of_the_target_still_score():
    result = score_hand("spanish-manilla", Hand(**SPANISH_OK), GameState(totals={"ns": 39, "ew": 39}))
    assert result.game_winner == "ns" and result.totals == {"ns": 48, "ew": 39}


def test_a_game_without_target_is_never_over_by_its_totals():
    hand = Hand(dealer="N", turned_card="2O", tricks={"ns": 7, "ew": 5}, points={"ns": 45, "ew": 27})
    result = score_hand("classic-malilla", hand, GameState(totals={"ns": 500, "ew": 0}))
    assert result.totals["ns"] > 500
