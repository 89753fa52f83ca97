"""Checks shared by summary scoring and the play checker: the trump and the deal."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .types import Violation, bad, shown
from .variants import Rules

NO_TRUMP = "none"


def check_seat(rules: Rules, seat: Any, field_name: str, errors: list[Violation]) -> bool:
    """Return whether ``seat`` is a seat of the variant, appending invalid_input to ``errors`` if not."""
    if seat in rules.position:
        return True
    errors.append(bad(field_name, "seat", field=field_name, value=shown(seat), seats=list(rules.order)))
    return False


def resolve_trump(rules: Rules, trump: str | None, turned_card: str | None,
                  errors: list[Violation], required: bool = True) -> int | None:
    """Return the trump suit index (None for no trump), appending any violation to ``errors``.

    In a turn-up variant the turned card is required and gives the trump; a
    ``trump`` sent with it must be its suit. In a chosen-trump variant ``trump``
    is a suit letter, or "none" where the variant allows no trump.
    """
    v = rules.variant
    deck = rules.deck
    if trump is not None and trump != NO_TRUMP and deck.suit_index(trump) is None:
        errors.append(Violation("trump_invalid", "trump", {"reason": "not_a_suit", "trump": shown(trump),
                                                           "variant": v.slug, "suits": list(v.suits)}))
        return None
    if v.trump_mode == "turned":
        if turned_card is None:
            if required:
                errors.append(Violation("trump_invalid", "turned_card",
                                        {"reason": "turned_card_required", "variant": v.slug}))
            return None
        index = deck.index.get(turned_card)
        if index is None:
            errors.append(Violation("unknown_card", "turned_card", {"card": shown(turned_card), "variant": v.slug}))
            return None
        suit = deck.suit_of[index]
        if trump is not None and trump != v.suits[suit]:
            errors.append(Violation("trump_invalid", "trump",
                                    {"reason": "not_turned_suit", "trump": shown(trump), "card": turned_card}))
            return None
        return suit
    if turned_card is not None:
        errors.append(Violation("trump_invalid", "turned_card", {"reason": "turns_no_card", "variant": v.slug}))
        return None
    if trump is None:
        if required:
            errors.append(Violation("trump_invalid", "trump", {"reason": "trump_required", "variant": v.slug}))
        return None
    if trump == NO_TRUMP:
        if not v.no_trump:
            errors.append(Violation("trump_invalid", "trump", {"reason": "no_no_trump", "variant": v.slug}))
        return None
    return deck.suit_index(trump)


def parse_deal(rules: Rules, hands: Any, dealer: str, turned_card: str | None,
               errors: list[Violation], prefix: str = "") -> dict[str, int] | None:
    """Return each seat's dealt cards as a bit mask, appending unknown_card / deck_invalid violations.

    The four hands must hold every card of the deck once, the right number each,
    and the dealer must hold the turned card.
    """
    deck = rules.deck
    seats = rules.order
    field_name = prefix + "hands"
    if not isinstance(hands, Mapping) or set(hands) != set(seats):
        errors.append(Violation("deck_invalid", field_name, {"reason": "seats", "seats": list(seats)}))
        return None
    per_seat = deck.size // len(seats)
    index = deck.index
    masks: dict[str, int] = {}
    seen = 0
    start = len(errors)
    for seat in seats:
        cards: Sequence[str] = hands[seat]
        if len(cards) != per_seat:
            errors.append(Violation("deck_invalid", f"{field_name}.{seat}",
                                    {"reason": "count", "seat": seat, "count": len(cards), "per_seat": per_seat}))
        mask = 0
        for code in cards:
            i = index.get(code)
            if i is None:
                errors.append(Violation("unknown_card", f"{field_name}.{seat}",
                                        {"card": shown(code), "variant": rules.variant.slug}))
                continue
            bit = 1 << i
            if seen & bit:
                errors.append(Violation("deck_invalid", f"{field_name}.{seat}", {"reason": "twice", "card": code}))
            seen |= bit
            mask |= bit
        masks[seat] = mask
    if len(errors) > start:
        return None
    if seen != deck.full:
        missing = deck.codes_of(deck.full & ~seen)
        errors.append(Violation("deck_invalid", field_name,
                                {"reason": "missing", "count": len(missing), "cards": list(missing)}))
        return None
    if turned_card is not None:
        i = index.get(turned_card)
        if i is not None and not masks.get(dealer, 0) >> i & 1:
            errors.append(Violation("deck_invalid", field_name,
                                    {"reason": "turned_not_dealt", "card": turned_card, "dealer": dealer}))
            return None
    return masks
