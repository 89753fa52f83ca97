"""A game's score sheet applied as a whole: its deletions, corrections and new hands, or none of them."""

from collections.abc import Iterable, Mapping

from django.db import transaction

from tournaments.models import Game, Hand
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter


@transaction.atomic
def game_sheet_apply(*, game: Game, deleted: Iterable[Hand] = (), corrected: Iterable[tuple[Hand, Mapping]] = (),
                     entered: Iterable[Mapping] = (), user=None, reason: str | None = None) -> None:
    """Apply a game's score sheet in one transaction: a refusal of any row stores nothing of it.

    In order: the ``deleted`` hands (the game's last ones), the ``corrected`` hands (each with its
    changes, ``hand_correct``'s; ``reason`` is kept in their history), by number, then the ``entered``
    hands (api.md), each as the next hand of this game. The services' refusals reach the caller unchanged.
    """
    for hand in sorted(deleted, key=lambda h: -h.number):
        hand_delete_last(hand=hand, user=user)
    for hand, changes in sorted(corrected, key=lambda pair: pair[0].number):
        hand_correct(hand=hand, data=changes, user=user, reason=reason)
    for data in entered:
        hand_enter(match=game.match, data=data, user=user, game_number=game.number)
