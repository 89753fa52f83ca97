"""Property tests over random deals played out with random legal cards, and random games."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from scoring import VARIANTS, GameSettings, GameState, RuleViolation, fold_game, get_variant, score_hand
from tests.scoring.helpers import SEATS, margin_game, play_hand, random_play, random_summary

VARIANT = st.sampled_from(sorted(VARIANTS))
SEED = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(variant=VARIANT, seed=SEED)
def test_play_points_add_up_to_the_hand_total(variant, seed):
    v = get_variant(variant)
    _, _, _, cards, result = random_play(variant, random.Random(seed))
    assert len(cards) == len(v.cards)
    assert sum(result.tricks_won.values()) == v.tricks_per_deal
    assert sum(result.points.values()) == v.hand_total
    assert sum(t["points"] for t in result.tricks) == v.hand_total
    for side in ("ns", "ew"):
        mine = [t for t in result.tricks if (t["winner"] in "NS") == (side == "ns")]
        assert result.points[side] == sum(t["points"] for t in mine)


@FAST
@given(variant=VARIANT, seed=SEED)
def test_a_summary_derived_from_a_play_scores_the_same(variant, seed):
    rng = random.Random(seed)
    as_play, as_summary = play_hand(variant, rng, rng.choice(SEATS))
    assert score_hand(variant, as_play) == score_hand(variant, as_summary)


@FAST
@given(variant=VARIANT, seed=SEED)
def test_every_prefix_of_a_legal_play_is_legal_and_its_next_card_among_the_legal_ones(variant, seed):
    from scoring import check_play
    rng = random.Random(seed)
    dealer, hands, trump, cards, _ = random_play(variant, rng)
    cut = rng.randrange(len(cards))
    partial = check_play(variant, dealer=dealer, hands=hands, cards=cards[:cut], **trump)
    assert partial.legal and not partial.complete
    assert cards[cut] in partial.next["legal_cards"]


def random_game(variant, rng, length):
    dealer = rng.choice(SEATS)
    rules = get_variant(variant).rules()
    hands = []
    for _ in range(length):
        hands.append(random_summary(variant, rng, dealer))
        dealer = rules.next_seat[dealer]
    return hands


@settings(max_examples=400, deadline=None)
@given(variant=VARIANT, seed=SEED, length=st.integers(1, 30))
def test_no_score_is_negative_and_the_game_ends_exactly_at_the_target(variant, seed, length):
    rng = random.Random(seed)
    v = get_variant(variant)
    hands = random_game(variant, rng, length)
    game_settings = GameSettings(variant, first_dealer=hands[0].dealer)
    played = []
    for hand in hands:
        try:
            game = fold_game(game_settings, played + [hand])
        except RuleViolation as exc:
            # Only a hand after the end may be refused.
            assert exc.codes == ["game_over"]
            assert played and fold_game(game_settings, played).finished
            break
        played.append(hand)
        result = game.hands[-1]
        assert all(type(s) is int and s >= 0 for s in result.score.values())
        if len(game.hands) > 1:
            previous = game.hands[-2].totals
            assert all(result.totals[s] >= previous[s] for s in previous)
        totals = result.totals
        reached = v.target is not None and max(totals.values()) >= v.target
        capote = v.all_tricks == "wins_game" and result.all_tricks
        rounds_over = v.game_rule == "rounds" and len(played) == 2 * 4
        assert (result.game_winner is not None) == (reached or capote or rounds_over), (totals, result)
        if reached and not capote:
            assert result.game_winner == max(totals, key=totals.get)
        for earlier in game.hands[:-1]:
            assert earlier.game_winner is None


@settings(max_examples=200, deadline=None)
@given(variant=VARIANT, seed=SEED, length=st.integers(2, 12), data=st.data())
def test_a_correction_then_its_reversal_gives_back_the_same_game(variant, seed, length, data):
    rng = random.Random(seed)
    hands = random_game(variant, rng, length)
    game_settings = GameSettings(variant, first_dealer=hands[0].dealer)
    try:
        original = fold_game(game_settings, hands)
    except RuleViolation:
        hands = hands[:1]
        original = fold_game(game_settings, hands)
    i = data.draw(st.integers(0, len(hands) - 1))
    corrected_hands = list(hands)
    corrected_hands[i] = random_summary(variant, rng, hands[i].dealer)
    try:
        fold_game(game_settings, corrected_hands)
    except RuleViolation as exc:
        assert set(exc.codes) == {"game_over"}  # the correction decided the game earlier
    restored = fold_game(game_settings, hands)
    assert restored == original
    assert [h.to_dict() for h in restored.hands] == [h.to_dict() for h in original.hands]


@settings(max_examples=200, deadline=None)
@given(variant=VARIANT, seed=SEED, length=st.integers(1, 10))
def test_fold_is_the_chain_of_score_hand(variant, seed, length):
    rng = random.Random(seed)
    hands = random_game(variant, rng, length)
    game_settings = GameSettings(variant, first_dealer=hands[0].dealer)
    try:
        game = fold_game(game_settings, hands)
    except RuleViolation:
        return
    state = None
    for hand, expected in zip(hands, game.hands):
        result = score_hand(variant, hand, state, settings=game_settings)
        assert result == expected
        state = result.state


@settings(max_examples=300, deadline=None)
@given(variant=VARIANT, deals=st.integers(1, 12), tiebreak=st.none() | st.integers(1, 4),
       margins=st.lists(st.sampled_from([-2, -1, 0, 1, 2, None]), min_size=1, max_size=40))
def test_a_capped_game_never_has_more_hands_than_its_deals_and_the_tie_break_deals_its_ties_called(
        variant, deals, tiebreak, margins):
    """Small margins, ties and thrown-in deals make level games common: the tie-break deals are played often."""
    options = {"deals": deals, "tiebreak_deals": tiebreak}
    game_settings = GameSettings(variant, options, first_dealer="N")
    hands = margin_game(variant, margins)
    played, state, level_boundaries = [], None, 0
    for i, hand in enumerate(hands):
        # The stateless score, its state sent back through JSON as a client would, scores as the fold does.
        sent = None if state is None else GameState.from_dict(state.to_dict())
        try:
            result = score_hand(variant, hand, sent, settings=game_settings)
        except RuleViolation as exc:
            assert exc.codes == ["game_over"] and state.winner is not None
            break
        assert fold_game(game_settings, hands[:i + 1]).hands[-1] == result
        played.append(hand)
        state = result.state
        n = len(played)
        at_boundary = n >= deals and (tiebreak is None or (n - deals) % tiebreak == 0)
        assert n <= deals + (tiebreak or 0) * level_boundaries  # the ties before this hand called the extra deals
        if at_boundary and result.totals["ns"] == result.totals["ew"] and tiebreak is not None:
            level_boundaries += 1
        if n < deals:
            assert result.game_winner is None and state.deals_left == deals - n and not state.tiebreak
        elif at_boundary:
            ahead = "draw" if result.totals["ns"] == result.totals["ew"] else max(result.totals,
                                                                                 key=result.totals.get)
            expected = ahead if tiebreak is None or ahead != "draw" else None
            assert result.game_winner == expected
            assert state.ended_on_deals == (expected is not None)
            assert state.tiebreak == (tiebreak is not None and (n > deals or expected is None))
        else:
            assert result.game_winner is None and state.tiebreak and 0 < state.deals_left < tiebreak
    if state is not None and state.winner is not None:
        assert state.deals_left == 0 and state.deals_played == len(played)
