"""Reads of a match's hands for entering the next one: where the match stands and where its next hand goes."""

from dataclasses import dataclass

from tournaments.models import Game, Hand, Match
from tournaments.services.games import NextHand, hand_next


@dataclass(frozen=True)
class EntryState:
    """A match as its table's entry sees it: its last game with that game's hands, and where the next hand goes."""

    match: Match
    #: The match's last game (None before the first).
    current: Game | None
    #: The last game's hands, in order.
    hands: list[Hand]
    next: NextHand

    @property
    def playing(self) -> bool:
        """Tell whether the next hand continues the last game."""
        return self.next.game is not None


def match_entry_state(*, match: Match) -> EntryState:
    """Return where a match stands for entering its next hand (two queries: its games, its last game's hands)."""
    games = list(match.games.order_by("number"))
    current = games[-1] if games else None
    hands = list(current.hands.order_by("number")) if current is not None else []
    playing = current is not None and current.status == Game.Status.PLAYING
    nxt = hand_next(match=match, games=games, played=len(hands) if playing else 0,
                    last_dealer=hands[-1].dealer if hands else "")
    return EntryState(match=match, current=current, hands=hands, next=nxt)
