"""Card representation: each card of a deck is a small int, a set of cards is a bit mask.

A card's index is ``suit_index * len(ranks) + rank_index``, ranks counted from the
highest, so within a suit a *lower* index is a *stronger* card. The public API
speaks card codes ("10S", "12O"); only this module and the play checker see ints.
"""

from __future__ import annotations

from typing import Iterable, Mapping


class Deck:
    """Lookup tables of one deck: codes, suits, strength and points of every card."""

    __slots__ = (
        "suits", "ranks", "codes", "index", "suit_of", "points", "suit_mask",
        "above", "tops", "full", "size", "best_points",
    )

    def __init__(self, suits: tuple[str, ...], ranks: tuple[str, ...], rank_points: Mapping[str, int]):
        n = len(ranks)
        self.suits = suits
        self.ranks = ranks
        self.codes: tuple[str, ...] = tuple(r + s for s in suits for r in ranks)
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.codes)}
        self.size = len(self.codes)
        self.suit_of: tuple[int, ...] = tuple(i // n for i in range(self.size))
        self.points: tuple[int, ...] = tuple(rank_points.get(r, 0) for _ in suits for r in ranks)
        self.suit_mask: tuple[int, ...] = tuple(((1 << n) - 1) << (si * n) for si in range(len(suits)))
        # above[c]: the cards of c's suit that beat c (same suit, lower index).
        self.above: tuple[int, ...] = tuple(
            ((1 << i) - 1) & self.suit_mask[i // n] for i in range(self.size)
        )
        # The top card of each suit (the manille / manilla / malilla), as one mask.
        self.tops = sum(1 << (si * n) for si in range(len(suits)))
        self.full = (1 << self.size) - 1
        # best_points[k]: the most card points any k cards can hold.
        desc = sorted(self.points, reverse=True)
        self.best_points: tuple[int, ...] = tuple(sum(desc[:k]) for k in range(self.size + 1))

    def suit_index(self, suit: str) -> int | None:
        """Return the index of a suit letter, or None if the deck has no such suit."""
        try:
            return self.suits.index(suit)
        except ValueError:
            return None

    def card_suit(self, code: str) -> int:
        """Return the suit index of a known card code."""
        return self.suit_of[self.index[code]]

    def mask(self, codes: Iterable[str]) -> int:
        """Return the bit mask of known card codes."""
        m = 0
        for code in codes:
            m |= 1 << self.index[code]
        return m

    def codes_of(self, mask: int) -> list[str]:
        """Return the card codes of a mask in deck order (suit by suit, high to low)."""
        out = []
        codes = self.codes
        while mask:
            low = mask & -mask
            out.append(codes[low.bit_length() - 1])
            mask ^= low
        return out

    def max_card_points(self, cards: int) -> int:
        """Return the most card points that ``cards`` cards of this deck can hold."""
        return self.best_points[max(0, min(cards, self.size))]
