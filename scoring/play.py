"""Check a full or partial card play: turn order, every obligation, trick winners and points.

Hands are bit masks (see cards.py), so the legal cards of a player are a few
mask operations; this is what keeps a whole deal's check in the microseconds.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .checks import check_seat, parse_deal, resolve_trump
from .types import PlayResult, RuleViolation, Violation, bad, shown
from .variants import Rules, Variant, get_variant


def legal_mask(rules: Rules, hand: int, lead: int, win: int, partner_winning: bool,
               trump_suit: int | None, led_tops: int) -> int:
    """Return the mask of the cards of ``hand`` that may be played to a trick already led.

    ``lead`` is the card led, ``win`` the card winning so far, ``led_tops`` the
    top cards (malillas) of the suits led to a trick so far.
    """
    deck = rules.deck
    suit_of = deck.suit_of
    lead_suit = suit_of[lead]
    follow = hand & deck.suit_mask[lead_suit]
    if follow:
        if partner_winning or suit_of[win] != lead_suit:
            # Partner winning: any card of the suit. A plain lead an opponent
            # trumped: no card of the suit can win, so any of them will do.
            return follow
        return (follow & deck.above[win]) or follow
    trumps = hand & deck.suit_mask[trump_suit] if trump_suit is not None else 0
    win_is_trump = suit_of[win] == trump_suit
    if not partner_winning and trumps:
        if not win_is_trump:
            return trumps  # must trump, any trump
        over = trumps & deck.above[win]
        if over:
            return over  # must overtrump
    legal = hand
    if rules.variant.undertrump_ban and win_is_trump and trumps:
        allowed = legal & ~(trumps & ~deck.above[win])
        if allowed:
            legal = allowed
    if rules.malilla_rule:
        forbidden = deck.tops & ~led_tops
        if trump_suit is not None:
            forbidden &= ~deck.suit_mask[trump_suit]
        allowed = legal & ~forbidden
        if allowed:
            legal = allowed
    return legal


def violation_code(rules: Rules, card: int, hand: int, lead: int, win: int,
                   partner_winning: bool, trump_suit: int | None) -> str:
    """Return the code of the first obligation an illegal ``card`` breaks (rules.md §4 order)."""
    deck = rules.deck
    suit_of = deck.suit_of
    lead_suit = suit_of[lead]
    if hand & deck.suit_mask[lead_suit]:
        return "must_follow_suit" if suit_of[card] != lead_suit else "must_beat"
    trumps = hand & deck.suit_mask[trump_suit] if trump_suit is not None else 0
    win_is_trump = suit_of[win] == trump_suit
    if not partner_winning and trumps:
        if not win_is_trump:
            return "must_trump"
        if trumps & deck.above[win]:
            return "must_overtrump"
    if rules.variant.undertrump_ban and win_is_trump and suit_of[card] == trump_suit:
        return "no_undertrump"
    return "malilla_discard"


def check_play(variant: "str | Variant", *, dealer: str, hands: Mapping[str, Sequence[str]],
               cards: Sequence[str], trump: str | None = None, turned_card: str | None = None,
               options: Mapping | None = None) -> PlayResult:
    """Check a full or partial play; raise RuleViolation for a malformed deal, trump or card."""
    rules = get_variant(variant).rules(options)
    errors: list[Violation] = []
    check_seat(rules, dealer, "dealer", errors)
    trump_suit = resolve_trump(rules, trump, turned_card, errors)
    masks = parse_deal(rules, hands, dealer, turned_card, errors)
    if not isinstance(cards, (list, tuple)):
        errors.append(bad("cards", "card_list", field="cards"))
    if errors:
        raise RuleViolation(errors)
    return run_play(rules, dealer, trump_suit, masks, cards)


def run_play(rules: Rules, dealer: str, trump_suit: int | None, masks: Mapping[str, int],
             cards: Sequence[str], field_name: str = "cards") -> PlayResult:
    """Play ``cards`` out of a valid deal and report tricks, points and the first illegal card."""
    deck = rules.deck
    index, suit_of, points = deck.index, deck.suit_of, deck.points
    order, side = rules.order, rules.side_index
    n = len(order)
    trick_points = rules.variant.trick_points
    malilla = rules.malilla_rule
    tops = deck.tops
    suit_mask = deck.suit_mask
    hm = [masks[s] for s in order]
    p = (rules.position[dealer] + 1) % n
    leader = p
    tricks: list[dict] = []
    won = [0, 0]
    got = [0, 0]
    trick: list[str] = []
    lead = win = winp = 0
    tpts = 0
    led_tops = 0
    for code in cards:
        c = index.get(code)
        if c is None:
            raise RuleViolation(Violation("unknown_card", field_name,
                                          {"card": shown(code), "variant": rules.variant.slug}))
        hand = hm[p]
        bit = 1 << c
        if not hand & bit:
            holder = next((order[q] for q in range(n) if hm[q] & bit), None)
            legal = _legal_to_play(rules, hand, trick, lead, win, side[winp] == side[p], trump_suit, led_tops)
            why = "not_your_turn" if holder else "card_not_in_hand"
            return _illegal(rules, tricks, leader, trick, won, got, why, order[p], code, legal, holder)
        if not trick:
            lead = win = c
            winp = p
            tpts = points[c]
            if malilla:
                led_tops |= tops & suit_mask[suit_of[c]]
        else:
            partner = side[winp] == side[p]
            legal = legal_mask(rules, hand, lead, win, partner, trump_suit, led_tops)
            if not legal & bit:
                why = violation_code(rules, c, hand, lead, win, partner, trump_suit)
                return _illegal(rules, tricks, leader, trick, won, got, why, order[p], code, legal)
            cs, ws = suit_of[c], suit_of[win]
            if (c < win and cs == ws) or (cs == trump_suit and ws != trump_suit):
                win, winp = c, p
            tpts += points[c]
        hm[p] = hand ^ bit
        trick.append(code)
        if len(trick) == n:
            s = side[winp]
            won[s] += 1
            got[s] += tpts + trick_points
            tricks.append({"leader": order[leader], "cards": trick, "winner": order[winp],
                           "points": tpts + trick_points})
            trick = []
            p = leader = winp
        else:
            p = (p + 1) % n
    complete = len(tricks) * n == deck.size
    nxt = None
    if not complete:
        legal = _legal_to_play(rules, hm[p], trick, lead, win, side[winp] == side[p], trump_suit, led_tops)
        nxt = {"seat": order[p], "legal_cards": deck.codes_of(legal)}
        _add_open_trick(rules, tricks, leader, trick)
    return PlayResult(
        legal=True, tricks=tricks, tricks_won={"ns": won[0], "ew": won[1]},
        points={"ns": got[0], "ew": got[1]}, complete=complete, next=nxt, violation=None,
    )


def _legal_to_play(rules: Rules, hand: int, trick: list[str], lead: int, win: int, partner_winning: bool,
                   trump_suit: int | None, led_tops: int) -> int:
    """Return the cards the player to play may play: any card to lead, else ``legal_mask``."""
    if not trick:
        return hand
    return legal_mask(rules, hand, lead, win, partner_winning, trump_suit, led_tops)


def _add_open_trick(rules: Rules, tricks: list[dict], leader: int, trick: list[str]) -> None:
    """List an unfinished trick (no winner, no points yet) after the finished ones."""
    if trick:
        tricks.append({"leader": rules.order[leader], "cards": trick, "winner": None, "points": None})


def _illegal(rules: Rules, tricks: list[dict], leader: int, trick: list[str], won: list[int], got: list[int],
             code: str, seat: str, card: str, legal: int, played_by: str | None = None) -> PlayResult:
    """Return the answer for an illegal card: the tricks before it, their counts, and the violation."""
    violation = {"code": code, "trick": len(tricks) + 1, "seat": seat, "card": card,
                 "legal_cards": rules.deck.codes_of(legal)}
    if played_by:
        violation["played_by"] = played_by
    _add_open_trick(rules, tricks, leader, trick)
    return PlayResult(legal=False, tricks=tricks, tricks_won={"ns": won[0], "ew": won[1]},
                      points={"ns": got[0], "ew": got[1]}, complete=False, next=None, violation=violation)
