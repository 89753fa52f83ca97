"""fold_game and fold_match: totals, winners, dealer order, game_over, corrections."""

import pytest

from scoring import GameSettings, Hand, Penalty, RuleViolation, fold_game, fold_match, score_hand

BEL = GameSettings("belgian-manille", first_dealer="N")


def bel(dealer, ns, tricks_ns=4, **kw):
    return Hand(dealer=dealer, trump=kw.pop("trump", "H"), tricks={"ns": tricks_ns, "ew": 8 - tricks_ns},
                points={"ns": ns, "ew": 60 - ns}, **kw)


def test_fold_accumulates_and_passes_the_deal():
    game = fold_game(BEL, [bel("N", 37, 5), bel("E", 20, 3), bel("S", 45, 6)])
    assert [h.totals for h in game.hands] == [{"ns": 7, "ew": 0}, {"ns": 7, "ew": 10}, {"ns": 22, "ew": 10}]
    assert game.next_dealer == "W" and not game.finished and game.winner is None


def test_empty_game():
    game = fold_game(BEL, [])
    assert game.totals == {"ns": 0, "ew": 0} and game.next_dealer == "N" and game.next_multiplier == 1


def test_dealer_out_of_turn_carries_the_hand_index():
    with pytest.raises(RuleViolation) as exc:
        fold_game(BEL, [bel("N", 37, 5), bel("S", 20, 3)])
    [v] = exc.value.violations
    assert (v.code, v.hand_index) == ("dealer_out_of_turn", 1)


def test_thrown_in_deals_count_for_the_dealer_order():
    game = fold_game(BEL, [bel("N", 37, 5), Hand(dealer="E", thrown_in=True), bel("S", 37, 5)])
    assert game.totals == {"ns": 14, "ew": 0} and game.next_dealer == "W"


def test_game_ends_at_the_target_and_later_hands_are_game_over():
    hands = [bel("N", 60, 8), bel("E", 60, 8)]
    game = fold_game(BEL, hands)
    assert game.winner == "ns" and game.finished and game.next_dealer is None
    with pytest.raises(RuleViolation) as exc:
        fold_game(BEL, hands + [bel("S", 37, 5)])
    assert exc.value.codes == ["game_over"] and exc.value.violations[0].hand_index == 2


def test_house_target():
    game = fold_game(GameSettings("belgian-manille", {"target": 61}, "N"), [bel("N", 60, 8), bel("E", 31, 4)])
    assert game.winner == "ns" and game.totals == {"ns": 61, "ew": 0}


def test_tie_then_thrown_in_then_played_deal_is_doubled():
    game = fold_game(BEL, [bel("N", 30), Hand(dealer="E", thrown_in=True), bel("S", 37, 5)])
    assert game.hands[-1].multiplier == 2 and game.totals == {"ns": 14, "ew": 0}


def test_mexican_renege_loses_the_game():
    settings = GameSettings("mexican-malilla", first_dealer="N")
    game = fold_game(settings, [
        Hand(dealer="N", turned_card="2O", tricks={"ns": 8, "ew": 2}, points={"ns": 55, "ew": 15}),
        Hand(dealer="W", turned_card="2O", penalty=Penalty("renege", "ns")),
    ])
    assert game.winner == "ew" and game.totals == {"ns": 20, "ew": 0}


def test_catalan_set_and_match_of_three_sets():
    settings = GameSettings("catalan-manilla", first_dealer="N")
    capote = Hand(dealer="N", turned_card="2O", tricks={"ns": 0, "ew": 12}, points={"ns": 0, "ew": 72})
    assert fold_game(settings, [capote]).winner == "ew"
    assert fold_match(3, ["ew", "ns"]).winner is None
    m = fold_match(3, ["ew", "ns", "ew"])
    assert m.winner == "ew" and m.games_won == {"ns": 1, "ew": 2} and m.games_needed == 2


def test_classic_fixed_rounds_and_draw():
    settings = GameSettings("classic-malilla", {"rounds": 1}, first_dealer="N")
    even = [Hand(dealer=d, turned_card="2O", tricks={"ns": 6, "ew": 6}, points={"ns": p, "ew": 72 - p})
            for d, p in zip("NWSE", (40, 32, 41, 31))]
    game = fold_game(settings, even)
    assert game.totals == {"ns": 9, "ew": 9} and game.winner == "draw" and game.finished
    assert [h.game_winner for h in game.hands] == [None, None, None, "draw"]
    won = fold_game(settings, even[:3] + [Hand(dealer="E", thrown_in=True)])
    assert won.winner == "ns" and won.totals == {"ns": 9, "ew": 4}


def test_classic_mariperez_next_multiplier():
    settings = GameSettings("classic-malilla", {"rounds": 3, "mariperez": True}, first_dealer="N")
    assert fold_game(settings, []).next_multiplier == 2
    hands = [Hand(dealer=d, thrown_in=True) for d in "NWSE"]
    assert fold_game(settings, hands).next_multiplier == 1
    assert fold_game(settings, hands * 2).next_multiplier == 2


def test_correction_refolds_the_rest():
    hands = [bel("N", 37, 5), bel("E", 30), bel("S", 40, 5), bel("W", 20, 3)]
    before = fold_game(BEL, hands)
    corrected = fold_game(BEL, [hands[0], bel("E", 31, 4)] + hands[2:])
    assert before.hands[2].multiplier == 2 and corrected.hands[2].multiplier == 1
    assert corrected.totals == {"ns": 7 + 1 + 10, "ew": 10}
    assert fold_game(BEL, hands) == before


def test_fold_equals_chained_score_hand():
    hands = [bel("N", 37, 5), bel("E", 30), bel("S", 40, 5), bel("W", 20, 3)]
    game = fold_game(BEL, hands)
    state = None
    for hand, expected in zip(hands, game.hands):
        result = score_hand("belgian-manille", hand, state, settings=BEL)
        assert result == expected
        state = result.state


def test_albur_points_are_in_the_opening_totals():
    settings = GameSettings("mexican-malilla", {"albur": True}, first_dealer="E", albur="ns")
    assert fold_game(settings, []).totals == {"ns": 5, "ew": 0}


def test_settings_violations():
    with pytest.raises(RuleViolation) as exc:
        fold_game(GameSettings("belgian-manille", {"target": 0, "colour": 1}), [])
    assert exc.value.codes == ["invalid_option", "invalid_option"]
    with pytest.raises(RuleViolation) as exc:
        fold_game(GameSettings("nope"), [])
    assert exc.value.codes == ["invalid_input"]
    with pytest.raises(RuleViolation) as exc:
        fold_game(GameSettings("classic-malilla", favourite="S"), [])
    assert exc.value.codes == ["invalid_input"]


@pytest.mark.parametrize("best_of, games, winner, finished", [
    (3, [], None, False),
    (3, ["ns"], None, False),
    (3, ["ns", "ns"], "ns", True),
    (3, ["ns", "ew", None], None, False),
    (3, ["ns", "ew", "ew"], "ew", True),
    (1, ["ew"], "ew", True),
    (1, ["draw"], "draw", True),
    (3, ["draw", "ns", "draw"], "ns", True),
    (3, ["draw", "ns", "ew"], "draw", True),
    (2, ["ns"], "ns", True),
    (5, ["ns", "ew", "ns", "ew", "ns"], "ns", True),
])
def test_fold_match(best_of, games, winner, finished):
    m = fold_match(best_of, games)
    assert (m.winner, m.finished) == (winner, finished)


def test_fold_match_refuses_games_after_the_end():
    with pytest.raises(RuleViolation) as exc:
        fold_match(3, ["ns", "ns", "ew"])
    assert exc.value.codes == ["game_over"]
    with pytest.raises(RuleViolation):
        fold_match(3, [None, "ns"])
    with pytest.raises(RuleViolation):
        fold_match(0, [])
