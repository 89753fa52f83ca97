"""Checks shared by summary scoring and the play checker: the trump and the deal."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .types import Violation
from .variants import Rules

NO_TRUMP = "none"


def check_seat(rules: Rules, seat: Any, field_name: str, errors: list[Violation]) -> bool:
    """Return whether ``seat`` is a seat of the variant, appending invalid_input to ``errors`` if not."""
    if seat in rules.position:
        return True
    name = field_name.rpartition(".")[2]
    errors.append(Violation("invalid_input", field_name,
                            f"{name} must be one of {', '.join(rules.order)}; got {seat!r}"))
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
        errors.append(Violation("trump_invalid", "trump",
                                f"trump {trump!r} is not a suit of {v.slug} ({', '.join(v.suits)})"))
        return None
    if v.trump_mode == "turned":
        if turned_card is None:
            if required:
                errors.append(Violation("trump_invalid", "turned_card",
                                        f"{v.slug} turns up the dealer's last card: turned_card is required"))
            return None
        index = deck.index.get(turned_card)
        if index is None:
            errors.append(Violation("unknown_card", "turned_card",
                                    f"turned card {turned_card!r} is not a card of {v.slug}"))
            return None
        suit = deck.suit_of[index]
        if trump is not None and trump != v.suits[suit]:
            errors.append(Violation("trump_invalid", "trump",
                                    f"trump {trump!r} is not the suit of the turned card {turned_card}"))
            return None
        return suit
    if turned_card is not None:
        errors.append(Violation("trump_invalid", "turned_card",
                                f"{v.slug} turns no card: the trump is entered as 'trump'"))
        return None
    if trump is None:
        if required:
            errors.append(Violation("trump_invalid", "trump", f"{v.slug} needs a trump suit"))
        return None
    if trump == NO_TRUMP:
        if not v.no_trump:
            errors.append(Violation("trump_invalid", "trump", f"{v.slug} has no no-trump hands"))
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
        errors.append(Violation("deck_invalid", field_name,
                                f"hands must give the cards of each seat {', '.join(seats)}"))
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
                                    f"{seat} holds {len(cards)} cards; each seat must hold {per_seat}"))
        mask = 0
        for code in cards:
            i = index.get(code)
            if i is None:
                errors.append(Violation("unknown_card", f"{field_name}.{seat}",
                                        f"{code!r} is not a card of {rules.variant.slug}"))
                continue
            bit = 1 << i
            if seen & bit:
                errors.append(Violation("deck_invalid", f"{field_name}.{seat}", f"{code} is dealt twice"))
            seen |= bit
            mask |= bit
        masks[seat] = mask
    if len(errors) > start:
        return None
    if seen != deck.full:
        missing = deck.codes_of(deck.full & ~seen)
        errors.append(Violation("deck_invalid", field_name,
                                f"{len(missing)} cards are not dealt: {', '.join(missing)}"))
        return None
    if turned_card is not None:
        i = index.get(turned_card)
        if i is not None and not masks.get(dealer, 0) >> i & 1:
            errors.append(Violation("deck_invalid", field_name,
                                    f"the turned card {turned_card} is not in the dealer {dealer}'s hand"))
            return None
    return masks
