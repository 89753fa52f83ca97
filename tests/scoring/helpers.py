"""Builders for the scoring tests: deals with chosen cards, random legal play-outs, summaries."""

from __future__ import annotations

import random

from scoring import GameState, Hand, Play, check_play, get_variant

SEATS = ("N", "E", "S", "W")


def suit(card: str) -> str:
    return card[-1]


def build_deal(variant: str, fixed: dict[str, list[str]], void: dict[str, str] | None = None,
               without: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Deal the fixed cards to their seats and fill up the rest, keeping each seat out of the suits in
    ``void`` and away from the cards in ``without``."""
    v = get_variant(variant)
    per = len(v.cards) // 4
    hands = {s: list(fixed.get(s, [])) for s in SEATS}
    used = {c for cs in hands.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in hands.values()), "a fixed card is given twice"
    void = void or {}
    without = without or {}

    def eligible(card):
        return [s for s in SEATS if len(hands[s]) < per and suit(card) not in void.get(s, "")
                and card not in without.get(s, ())]

    rest = [c for c in v.cards if c not in used]
    # Most constrained cards first, each to the eligible seat with the most room.
    rest.sort(key=lambda c: len([s for s in SEATS if suit(c) not in void.get(s, "")
                                 and c not in without.get(s, ())]))
    for card in rest:
        seats = eligible(card)
        assert seats, f"cannot place {card}"
        target = max(seats, key=lambda s: per - len(hands[s]))
        hands[target].append(card)
    return hands


def random_deal(variant: str, rng: random.Random) -> dict[str, list[str]]:
    v = get_variant(variant)
    cards = list(v.cards)
    rng.shuffle(cards)
    per = len(cards) // 4
    return {s: cards[i * per:(i + 1) * per] for i, s in enumerate(SEATS)}


def random_trump(variant: str, rng: random.Random, hands, dealer) -> dict:
    v = get_variant(variant)
    if v.trump_mode == "turned":
        return {"turned_card": rng.choice(hands[dealer])}
    choices = list(v.suits) + (["none"] if v.no_trump else [])
    return {"trump": rng.choice(choices)}


def random_play(variant: str, rng: random.Random, dealer: str | None = None, options=None):
    """Deal at random and play random legal cards to the end; return (dealer, hands, trump kwargs, cards, result)."""
    dealer = dealer or rng.choice(SEATS)
    hands = random_deal(variant, rng)
    trump = random_trump(variant, rng, hands, dealer)
    cards: list[str] = []
    while True:
        result = check_play(variant, dealer=dealer, hands=hands, cards=cards, options=options, **trump)
        assert result.legal, result.violation
        if result.complete:
            return dealer, hands, trump, cards, result
        cards.append(rng.choice(result.next["legal_cards"]))


def play_hand(variant: str, rng: random.Random, dealer: str, options=None, **extra) -> tuple[Hand, Hand]:
    """Return the same random hand twice: entered as a full play and as the summary it yields."""
    dealer, hands, trump, cards, result = random_play(variant, rng, dealer, options)
    as_play = Hand(dealer=dealer, play=Play({s: tuple(c) for s, c in hands.items()}, tuple(cards)),
                   **trump, **extra)
    as_summary = Hand(dealer=dealer, tricks=result.tricks_won, points=result.points, **trump, **extra)
    return as_play, as_summary


def random_summary(variant: str, rng: random.Random, dealer: str, thrown_in_rate: float = 0.05) -> Hand:
    """Return a random hand summary whose numbers pass the checks of rules.md §4."""
    v = get_variant(variant)
    deck = v.deck
    if rng.random() < thrown_in_rate:
        return Hand(dealer=dealer, thrown_in=True)
    hands = random_deal(variant, rng)
    trump = random_trump(variant, rng, hands, dealer)
    n = v.tricks_per_deal
    k = rng.choice([0, n] if rng.random() < 0.05 else range(n + 1))
    total = deck.best_points[deck.size]
    if k == 0:
        card = 0
    elif k == n:
        card = total
    else:
        low = max(0, total - deck.best_points[4 * (n - k)])
        high = deck.best_points[4 * k]
        card = rng.randint(low, high)
    tp = v.trick_points
    points = {"ns": card + tp * k, "ew": total - card + tp * (n - k)}
    extra = {}
    if v.doublings and rng.random() < 0.2:
        extra["doublings"] = rng.randint(1, 2)
    if trump.get("trump") == "none" and rng.random() < 0.3:
        extra["blind"] = True
    return Hand(dealer=dealer, tricks={"ns": k, "ew": n - k}, points=points, **trump, **extra)


def state(**kw) -> GameState:
    return GameState(**kw)


#: The seats in each direction of play, from N.
ORDER = {"clockwise": "NESW", "counterclockwise": "NWSE"}


def margin_unit(variant: str) -> int:
    """What a hand won by one point above the base scores: Macau scores the difference between the sides (2)."""
    return 2 if get_variant(variant).score_rule == "difference" else 1


def margin_hand(variant: str, dealer: str, margin: int | None) -> Hand:
    """A hand in which NS make ``margin`` points above the base (EW, below 0; 0: a tie), or a thrown-in deal (None).

    Half the tricks to each side keep every margin up to 25 possible; a turned-up 2 is worth nothing, so
    no turn-up bonus changes the totals, and hearts is no favourite suit (none is drawn).
    """
    if margin is None:
        return Hand(dealer=dealer, thrown_in=True)
    v = get_variant(variant)
    half = v.tricks_per_deal // 2
    trump = {"turned_card": "2O"} if v.trump_mode == "turned" else {"trump": "H"}
    ns = v.base + margin
    return Hand(dealer=dealer, tricks={"ns": half, "ew": half}, points={"ns": ns, "ew": v.hand_total - ns}, **trump)


def margin_game(variant: str, margins: list[int | None]) -> list[Hand]:
    """The hands of ``margins`` (``margin_hand``) dealt in turn from N."""
    seats = ORDER[get_variant(variant).direction]
    return [margin_hand(variant, seats[i % 4], m) for i, m in enumerate(margins)]
