"""The engine's state a game keeps (``Game.engine_state``): the next hand scored from it is the hand a
fold of the whole game scores, and a state that is missing or behind the hands is not believed."""

import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from scoring import VARIANTS, GameSettings, RuleViolation, fold_game
from scoring import Hand as Hand_
from tests.scoring.helpers import margin_game
from tests.scoring.test_properties import random_game
from tournaments.models import Game, Hand
from tournaments.services.hand_data import state_after, stored_state
from tournaments.services.hands import hand_enter


def kept(state, hands):
    """The state as the database gives it back: through JSON."""
    return SimpleNamespace(engine_state=json.loads(json.dumps(stored_state(state, hands))))


#: House options of a game of a fixed number of deals (rules.md): its state says more (deals left, tie-break).
DEALS = st.sampled_from([{}, {"deals": 6}, {"deals": 3, "tiebreak_deals": 2}])


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32 - 1), length=st.integers(2, 30),
       options=DEALS, data=st.data())
def test_the_rest_of_a_game_folded_from_the_kept_state_is_the_whole_fold(variant, seed, length, options, data):
    rng = random.Random(seed)
    if options and rng.random() < 0.5:  # small margins and ties: level games, so tie-break deals too
        hands = margin_game(variant, [rng.choice([-1, 0, 1, None]) for _ in range(length)])
    else:
        hands = random_game(variant, rng, length)
    game_settings = GameSettings(variant, options, first_dealer=hands[0].dealer)
    k = data.draw(st.integers(1, length - 1))
    try:
        head = fold_game(game_settings, hands[:k])
    except RuleViolation:
        return  # the game was over before hand k: nothing to continue
    state = state_after(kept(head.state, k), k)
    assert state == head.state
    try:
        whole = fold_game(game_settings, hands)
    except RuleViolation as exc:
        with pytest.raises(RuleViolation) as rest:
            fold_game(game_settings, hands[k:], state=state, start=k)
        assert rest.value.violations == exc.violations  # the same refusal, of the same hand of the game
        return
    rest = fold_game(game_settings, hands[k:], state=state, start=k)
    assert rest.hands == whole.hands[k:]
    assert (rest.totals, rest.winner, rest.finished, rest.next_dealer, rest.next_multiplier, rest.state) == (
        whole.totals, whole.winner, whole.finished, whole.next_dealer, whole.next_multiplier, whole.state)


def test_a_state_behind_the_hands_or_of_another_shape_is_not_believed():
    state = fold_game(GameSettings("belgian-manille", first_dealer="N"), [Hand_.from_dict(belgian("N", 37))]).state
    assert state_after(kept(state, 1), 1) == state
    assert state_after(kept(state, 1), 2) is None
    assert state_after(SimpleNamespace(engine_state=None), 1) is None
    assert state_after(SimpleNamespace(engine_state={"hands": 1, "totals": {"ns": 1, "ew": 0}}), 1) is None
    with pytest.raises(ValueError):
        fold_game(GameSettings("belgian-manille", first_dealer="N"), [], state=state, start=1)


def belgian(dealer, ns):
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": 5 if ns > 30 else 3, "ew": 3 if ns > 30 else 5},
            "points": {"ns": ns, "ew": 60 - ns}}


@pytest.mark.django_db
@pytest.mark.parametrize("lose", ["nothing", "the state", "a hand behind"])
def test_hands_entered_keep_the_state_and_score_as_the_whole_game(belgian_match, lose):
    match = belgian_match
    dealers, scores = "NESW" * 3, [37, 23, 30, 30, 45, 20, 37]
    for i, ns in enumerate(scores[:4]):
        hand_enter(match=match, data=belgian(dealers[i], ns))
    game = Game.objects.get(match=match)
    assert game.engine_state["hands"] == 4
    if lose == "the state":
        Game.objects.filter(pk=game.pk).update(engine_state=None)  # a game from before the state was kept
    elif lose == "a hand behind":
        Game.objects.filter(pk=game.pk).update(engine_state={**game.engine_state, "hands": 3})
    for i, ns in enumerate(scores[4:], 4):
        hand_enter(match=match, data=belgian(dealers[i], ns))
    game.refresh_from_db()
    whole = fold_game(GameSettings("belgian-manille", first_dealer="N"),
                      [Hand_.from_dict(belgian(dealers[i], ns)) for i, ns in enumerate(scores)])
    assert (game.total_ns, game.total_ew, game.next_dealer, game.next_multiplier, game.tie_pending) == (
        whole.totals["ns"], whole.totals["ew"], whole.next_dealer, whole.next_multiplier, whole.state.tie_pending)
    assert state_after(game, len(scores)) == whole.state
    stored = list(Hand.objects.filter(game=game).order_by("number").values_list("total_ns", "total_ew"))
    assert stored == [(h.totals["ns"], h.totals["ew"]) for h in whole.hands]
