"""The play checker against a slow, independent reading of rules.md §3-4 written on card codes.

At random points of random legal plays a random card of the player's hand is
tried: the engine must call it legal exactly when the reference does, and give
the same code and the same legal cards.
"""

import random

from hypothesis import given, settings, strategies as st

from scoring import VARIANTS, check_play, get_variant
from tests.scoring.helpers import SEATS, random_deal, random_trump

SIDE = {"N": 0, "S": 0, "E": 1, "W": 1}


def suit(card):
    return card[-1]


def rank(v, card):
    return v.ranks.index(card[:-1])


def trick_winner(v, trump, trick):
    """Return the (seat, card) winning a trick so far."""
    best = trick[0]
    for seat, card in trick[1:]:
        b = best[1]
        if suit(card) == suit(b) and rank(v, card) < rank(v, b):
            best = (seat, card)
        elif suit(card) == trump and suit(b) != trump:
            best = (seat, card)
    return best


def reference(v, options, trump, hand, trick, seat, led_suits):
    """Return (legal cards, code for each illegal card) for ``seat`` holding ``hand``."""
    if not trick:
        return set(hand), {}
    led = suit(trick[0][1])
    win_seat, win = trick_winner(v, trump, trick)
    partner = SIDE[win_seat] == SIDE[seat]
    follow = {c for c in hand if suit(c) == led}
    codes = {}
    if follow:
        for c in hand:
            if suit(c) != led:
                codes[c] = "must_follow_suit"
        legal = follow
        if not partner and suit(win) == led:
            higher = {c for c in follow if rank(v, c) < rank(v, win)}
            if higher:
                legal = higher
                for c in follow - higher:
                    codes[c] = "must_beat"
        return legal, codes
    trumps = {c for c in hand if suit(c) == trump}
    legal = set(hand)
    if not partner and trumps:
        if suit(win) != trump:
            return trumps, {c: "must_trump" for c in legal - trumps}
        over = {c for c in trumps if rank(v, c) < rank(v, win)}
        if over:
            return over, {c: "must_overtrump" for c in legal - over}
    if v.slug == "belgian-manille" and suit(win) == trump:
        under = {c for c in trumps if rank(v, c) > rank(v, win)}
        if legal - under:
            codes.update({c: "no_undertrump" for c in under})
            legal -= under
    if v.slug == "mexican-malilla" and options.get("malilla_rule", True):
        sevens = {c for c in legal if rank(v, c) == 0 and suit(c) != trump and suit(c) not in led_suits}
        if legal - sevens:
            codes.update({c: "malilla_discard" for c in sevens})
            legal -= sevens
    return legal, codes


@settings(max_examples=400, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32 - 1),
       malilla=st.booleans(), clockwise=st.booleans())
def test_engine_agrees_with_the_reference(variant, seed, malilla, clockwise):
    rng = random.Random(seed)
    v = get_variant(variant)
    options = {}
    if variant == "mexican-malilla":
        options = {"malilla_rule": malilla, "clockwise": clockwise}
    rules = v.rules(options)
    dealer = rng.choice(SEATS)
    hands = random_deal(variant, rng)
    trump_kw = random_trump(variant, rng, hands, dealer)
    trump = suit(trump_kw["turned_card"]) if "turned_card" in trump_kw else trump_kw["trump"]
    left = {s: list(c) for s, c in hands.items()}
    order = rules.order
    seat = order[(order.index(dealer) + 1) % 4]
    played, trick, led_suits = [], [], set()
    tries = 0
    while len(played) < len(v.cards):
        legal, codes = reference(v, options, trump, left[seat], trick, seat, led_suits)
        assert legal | set(codes) == set(left[seat])
        if rng.random() < 0.25 and tries < 6:
            tries += 1
            card = rng.choice(left[seat])
            r = check_play(variant, dealer=dealer, hands=hands, cards=played + [card], options=options, **trump_kw)
            if card in legal:
                assert r.legal
            else:
                assert not r.legal
                assert r.violation["code"] == codes[card]
                assert set(r.violation["legal_cards"]) == legal
                assert r.violation["seat"] == seat
        card = rng.choice(sorted(legal))
        played.append(card)
        left[seat].remove(card)
        if not trick:
            led_suits.add(suit(card))
        trick.append((seat, card))
        if len(trick) == 4:
            seat = trick_winner(v, trump, trick)[0]
            trick = []
        else:
            seat = order[(order.index(seat) + 1) % 4]
    r = check_play(variant, dealer=dealer, hands=hands, cards=played, options=options, **trump_kw)
    assert r.legal and r.complete
