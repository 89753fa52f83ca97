"""A game of a fixed number of deals (house options ``deals`` and ``tiebreak_deals``), worked by hand for every
variant: the deal count alone ends the game, thrown-in deals count, a level game is drawn or played on in
tie-break deals, a pending Belgian tie doubles the first of them, Classic Malilla's rounds are its deals."""

import pytest

from scoring import VARIANTS, GameSettings, GameState, Hand, Penalty, RuleViolation, fold_game, get_variant, score_hand
from tests.scoring.helpers import margin_game as game
from tests.scoring.helpers import margin_hand as deal
from tests.scoring.helpers import margin_unit as unit


def fold(slug: str, margins: list[int | None], **options):
    """Fold the game of ``margins`` (``helpers.margin_hand``) under these house options, N dealing first."""
    return fold_game(GameSettings(slug, options, first_dealer="N"), game(slug, margins))


VARIANT = pytest.mark.parametrize("slug", sorted(VARIANTS))


@VARIANT
def test_a_capped_game_is_won_by_the_side_ahead_after_its_last_deal(slug):
    u = unit(slug)
    result = fold(slug, [5, -3, 2, -1], deals=4)
    assert result.totals == {"ns": 7 * u, "ew": 4 * u}
    assert (result.winner, result.finished) == ("ns", True)
    assert [h.game_winner for h in result.hands] == [None, None, None, "ns"]
    assert [h.state.deals_left for h in result.hands] == [3, 2, 1, 0]
    state = result.state
    assert (state.deals_played, state.deals_left, state.ended_on_deals, state.tiebreak) == (4, 0, True, False)
    assert result.next_dealer is None and result.next_multiplier == 1


@VARIANT
def test_a_capped_game_level_after_its_last_deal_is_drawn_and_a_thrown_in_deal_counts(slug):
    u = unit(slug)
    result = fold(slug, [5, None, -3, -2], deals=4)
    assert result.totals == {"ns": 5 * u, "ew": 5 * u}
    assert (result.winner, result.finished) == ("draw", True)
    assert result.hands[1].labels == ("thrown_in",) and result.hands[-1].game_winner == "draw"
    assert result.state.to_dict() == {
        "totals": {"ns": 5 * u, "ew": 5 * u}, "tie_pending": False, "tie_multiplier": 1,
        "previous_dealer": result.state.previous_dealer, "favourite": None, "deals_played": 4, "winner": "draw",
        "deals_left": 0, "ended_on_deals": True, "tiebreak": False}
    with pytest.raises(RuleViolation) as exc:
        fold(slug, [5, None, -3, -2, 1], deals=4)
    assert exc.value.codes == ["game_over"] and exc.value.violations[0].hand_index == 4


@VARIANT
def test_the_target_no_longer_ends_a_capped_game(slug):
    """Roeselare (formats.md): "we do not play to 101: every player deals four times"."""
    u = unit(slug)
    result = fold(slug, [20, 20, -5, -5], deals=4, target=30 * u)
    assert [h.game_winner for h in result.hands] == [None, None, None, "ns"]
    assert result.totals == {"ns": 40 * u, "ew": 10 * u}
    # Uncapped, the same game ends at the target with its second hand.
    uncapped = fold(slug, [20, 20], target=30 * u)
    assert [h.game_winner for h in uncapped.hands] == [None, "ns"]


@VARIANT
def test_tie_break_deals_one_block_not_enough_then_decided(slug):
    u = unit(slug)
    margins = [5, -5, 3, -3,  # level after the four deals: 8-8
               1, -1,         # two tie-break deals: level again
               4, None]       # two more: NS ahead after the block (a thrown-in deal counts there too)
    options = {"deals": 4, "tiebreak_deals": 2}
    after_four = fold(slug, margins[:4], **options)
    assert after_four.totals == {"ns": 8 * u, "ew": 8 * u} and not after_four.finished
    assert (after_four.state.deals_left, after_four.state.tiebreak, after_four.state.ended_on_deals) == (2, True, False)
    after_six = fold(slug, margins[:6], **options)
    assert not after_six.finished and after_six.state.deals_left == 2
    after_seven = fold(slug, margins[:7], **options)
    assert after_seven.totals == {"ns": 13 * u, "ew": 9 * u}
    assert not after_seven.finished and after_seven.state.deals_left == 1  # ahead, but the block is not over
    result = fold(slug, margins, **options)
    assert (result.winner, result.totals) == ("ns", {"ns": 13 * u, "ew": 9 * u})
    state = result.state
    assert (state.deals_played, state.deals_left, state.ended_on_deals, state.tiebreak) == (8, 0, True, True)
    # Without tie-break deals the same game was drawn after four.
    assert fold(slug, margins[:4], deals=4).winner == "draw"


@VARIANT
def test_a_game_decided_on_its_deals_plays_no_tie_break(slug):
    result = fold(slug, [5, -3, 2, -1], deals=4, tiebreak_deals=2)
    assert result.winner == "ns" and result.state.tiebreak is False and result.state.deals_left == 0


def test_a_pending_belgian_tie_doubles_the_first_tie_break_deal():
    """A 30-30 tie on the last deal, the game level: the first extra deal counts double (rules.md, Belgian ties)."""
    result = fold("belgian-manille", [5, -3, -2, 0, 3], deals=4, tiebreak_deals=1)
    assert result.hands[3].labels == ("tie",) and result.hands[3].next_multiplier == 2
    assert result.hands[3].game_winner is None and result.hands[3].state.tiebreak
    assert result.hands[4].multiplier == 2 and result.hands[4].score == {"ns": 6, "ew": 0}
    assert (result.winner, result.totals) == ("ns", {"ns": 11, "ew": 5})
    # With stacking ties, two ties in the tie-break make x4; without the tie double, x1.
    stacked = fold("belgian-manille", [5, -3, -2, 0, 0, 3], deals=4, tiebreak_deals=1, tie_doubling="stack")
    assert stacked.hands[-1].multiplier == 4 and stacked.totals == {"ns": 17, "ew": 5}
    off = fold("belgian-manille", [5, -3, -2, 0, 3], deals=4, tiebreak_deals=1, tie_doubling="off")
    assert off.hands[-1].multiplier == 1 and off.totals == {"ns": 8, "ew": 5}


def test_a_belgian_tie_on_the_last_deal_of_a_drawn_game_leaves_nothing_pending():
    result = fold("belgian-manille", [5, -3, -2, 0], deals=4)
    assert result.winner == "draw" and result.next_multiplier == 1 and not result.state.tie_pending


def test_classic_malilla_rounds_are_its_deals():
    margins = [5, -3, 2, None, -1, 4, -6, 1]
    two_rounds = fold("classic-malilla", margins, rounds=2)
    assert two_rounds == fold("classic-malilla", margins, deals=8) == fold("classic-malilla", margins)
    assert two_rounds == fold("classic-malilla", margins, rounds=2, deals=8)
    assert (two_rounds.winner, two_rounds.totals) == ("ns", {"ns": 12, "ew": 10})
    mariperez = fold("classic-malilla", margins, rounds=2, mariperez=True)
    assert mariperez == fold("classic-malilla", margins, deals=8, mariperez=True)
    # The first and the last round count double: every deal of a two-round game.
    assert [h.multiplier for h in mariperez.hands if h.points] == [2] * 7
    variant = get_variant("classic-malilla")
    assert variant.rules({"rounds": 3}).deals == variant.rules({"deals": 12}).deals == 12
    assert variant.validate_options({"deals": 12})["rounds"] == 3
    assert variant.validate_options({"deals": 10})["rounds"] is None  # not whole rounds


def test_classic_malilla_rounds_and_deals_that_disagree_are_refused():
    with pytest.raises(RuleViolation) as exc:
        get_variant("classic-malilla").validate_options({"rounds": 2, "deals": 9})
    [v] = exc.value.violations
    assert (v.code, v.field, dict(v.params)) == (
        "options_inconsistent", "options.deals", {"reason": "deals_rounds", "deals": 9, "rounds": 2, "expected": 8})


def test_classic_malilla_given_a_target_and_no_deals_plays_to_the_target():
    variant = get_variant("classic-malilla")
    assert variant.rules({"target": 20}).deals is None and variant.rules({"target": 20}).target == 20
    assert variant.validate_options({"target": 20})["rounds"] is None
    # Given rounds or deals as well, the deals decide and the target is not used.
    both = variant.rules({"target": 20, "rounds": 1})
    assert (both.deals, both.target) == (4, None)
    assert fold("classic-malilla", [15, 10], target=20).winner == "ns"
    assert not fold("classic-malilla", [15, 10], target=20, rounds=1).finished


def test_classic_mariperez_tie_break_deals_count_once():
    """The tie-break deals are no round of the game: Mariperez doubles the first and the last round only."""
    result = fold("classic-malilla", [2, -2, 1, -1, 3], rounds=1, tiebreak_deals=1, mariperez=True)
    assert [h.multiplier for h in result.hands] == [2, 2, 2, 2, 1]
    assert result.hands[3].next_multiplier == 1 and result.winner == "ns"


@VARIANT
def test_tie_break_deals_need_a_game_of_a_fixed_number_of_deals(slug):
    options = {"tiebreak_deals": 2, **({"target": 40} if slug == "classic-malilla" else {})}
    with pytest.raises(RuleViolation) as exc:
        get_variant(slug).validate_options(options)
    [v] = exc.value.violations
    assert (v.code, v.field, dict(v.params)) == (
        "options_inconsistent", "options.tiebreak_deals", {"reason": "tiebreak_without_deals", "tiebreak_deals": 2})


@pytest.mark.parametrize("name", ["deals", "tiebreak_deals"])
@pytest.mark.parametrize("value, reason", [(0, "minimum"), (-3, "minimum"), ("4", "integer"), (4.0, "integer"),
                                           (True, "integer")])
def test_bad_deal_options_are_refused_with_their_reason(name, value, reason):
    options = {"deals": 8, name: value}
    with pytest.raises(RuleViolation) as exc:
        get_variant("belgian-manille").validate_options(options)
    [v] = exc.value.violations
    assert (v.code, v.field, v.params["reason"], v.params["option"]) == ("invalid_option", f"options.{name}", reason,
                                                                         name)


def test_a_catalan_capote_does_not_end_a_capped_game():
    capote = Hand(dealer="N", turned_card="2O", tricks={"ns": 12, "ew": 0}, points={"ns": 72, "ew": 0})
    result = fold_game(GameSettings("catalan-manilla", {"deals": 4}, first_dealer="N"), [capote])
    assert result.hands[0].all_tricks and result.hands[0].score == {"ns": 36, "ew": 0} and not result.finished


def test_a_mexican_renege_still_loses_a_capped_game():
    hands = [deal("mexican-malilla", "N", 5),
             Hand(dealer="W", turned_card="2O", penalty=Penalty("renege", "ns"))]
    result = fold_game(GameSettings("mexican-malilla", {"deals": 16}, first_dealer="N"), hands)
    assert result.winner == "ew"
    assert (result.state.deals_left, result.state.ended_on_deals, result.state.tiebreak) == (0, False, False)


def test_an_uncapped_game_has_no_deals_left():
    result = fold("belgian-manille", [5, -3])
    assert (result.state.deals_played, result.state.deals_left, result.state.ended_on_deals) == (2, None, False)
    assert fold_game(GameSettings("belgian-manille", {"deals": 16}, first_dealer="N"), []).state.deals_left == 16


def test_a_state_sent_with_its_deals_played_is_game_over():
    """The stateless score: a state whose deals are played is over, even without its winner."""
    options = {"deals": 4}
    hand = deal("belgian-manille", "N", 5)
    with pytest.raises(RuleViolation) as exc:
        score_hand("belgian-manille", hand, GameState(totals={"ns": 5, "ew": 3}, deals_played=4), options=options)
    [v] = exc.value.violations
    assert (v.code, v.field, v.params["reason"], v.params["deals_played"]) == (
        "game_over", "state.deals_played", "deals_played", 4)
    with pytest.raises(RuleViolation):  # level too: a drawn game without tie-break deals
        score_hand("belgian-manille", hand, GameState(totals={"ns": 5, "ew": 5}, deals_played=4), options=options)
    tiebreak = {"deals": 4, "tiebreak_deals": 2}
    level = score_hand("belgian-manille", hand, GameState(totals={"ns": 5, "ew": 5}, deals_played=4), options=tiebreak)
    assert level.game_winner is None and level.state.deals_left == 1 and level.state.tiebreak
    decided = score_hand("belgian-manille", deal("belgian-manille", "N", -1),
                         GameState(totals={"ns": 10, "ew": 5}, deals_played=5), options=tiebreak)
    assert decided.game_winner == "ns" and decided.state.ended_on_deals


def test_the_game_result_tells_its_deals():
    d = fold("spanish-manilla", [5, -3], deals=16).to_dict()
    assert (d["deals_played"], d["deals_left"], d["ended_on_deals"], d["tiebreak"]) == (2, 14, False, False)
