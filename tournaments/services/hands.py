"""Enter, correct and delete hands: the engine computes, the services store.

Each service locks the match row, so the writes of one match are serialised; it folds the whole
game through the rules engine (a pure function of the game's settings and its hands), stores what
comes back, and refuses what the engine refuses with its codes.
"""

from collections.abc import Mapping

import scoring
from django.db import IntegrityError, transaction

from tournaments.models import Game, Hand, Match
from tournaments.services.errors import Conflict
from tournaments.services.games import _game_start_locked, _violation, match_lock, match_refresh_result
from tournaments.services.hand_data import (
    apply_input,
    apply_result,
    engine_hands,
    game_settings,
    hand_input_dict,
    merge_input,
)


def _result_changed(match: Match) -> None:
    from tournaments.services.standings import match_result_changed

    match_result_changed(match=match)


def _fold(game: Game, inputs: list[scoring.Hand]) -> scoring.GameResult:
    """Fold a whole game through the rules engine; its refusals reach the caller unchanged."""
    return scoring.fold_game(game_settings(game), inputs)


def _store_game(game: Game, folded: scoring.GameResult) -> None:
    game.total_ns, game.total_ew = folded.totals["ns"], folded.totals["ew"]
    game.winner = (folded.winner or "") if folded.finished else ""
    game.status = Game.Status.FINISHED if folded.finished else Game.Status.PLAYING
    game.next_dealer = folded.next_dealer or ""
    game.next_multiplier = folded.next_multiplier
    game.tie_pending = folded.state.tie_pending
    game.save(update_fields=["total_ns", "total_ew", "winner", "status", "next_dealer", "next_multiplier",
                             "tie_pending", "updated_at"])


def _audit(hand: Hand, user, reason: str) -> None:
    """Tell the history record of the hand's next save or delete who made it and why."""
    hand._history_user = user if getattr(user, "is_authenticated", False) else None
    hand._change_reason = reason


def _save_hand(hand: Hand, user, reason: str, update_fields: list[str] | None = None) -> None:
    _audit(hand, user, reason)
    if update_fields is None:
        hand.save()
    else:
        hand.save(update_fields=[*update_fields, "updated_at"])


def _current_game(match: Match, dealer: str | None) -> Game:
    """Return the game in progress, starting the next one when the last is finished and the match is not."""
    game = match.games.order_by("-number").first()
    if game is not None and game.status == Game.Status.PLAYING:
        return game
    if match.status == Match.Status.FINISHED:
        raise _violation("game_over", "match",
                         f"the match is decided: {match.games_won_ns}–{match.games_won_ew} in games")
    return _game_start_locked(match=match, first_dealer=dealer or "")


@transaction.atomic
def hand_enter(*, match: Match, data: Mapping, user=None, idempotency_key: str | None = None,
               number: int | None = None) -> tuple[Hand, bool]:
    """Enter the next hand of the match's game in progress; return the hand and whether it was stored now."""
    match = match_lock(match.pk)
    # Checked after the lock: a retry racing its first attempt sees the first one's committed hand.
    if idempotency_key:
        existing = Hand.objects.select_related("game").filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            if existing.game.match_id != match.pk:
                raise Conflict("idempotency_key_reused",
                               "this Idempotency-Key was already used for a hand of another match")
            return existing, False
    entered = scoring.Hand.from_dict(data)  # shape errors before anything is created
    game = _current_game(match, entered.dealer)
    rows = list(game.hands.order_by("number"))
    next_number = rows[-1].number + 1 if rows else 1
    if number is not None and number < next_number:
        raise Conflict("hand_exists",
                       f"hand {number} of game {game.number} is already entered; the next hand is {next_number}",
                       field="number")
    if number is not None and number > next_number:
        raise Conflict("hand_number",
                       f"hand {number} of game {game.number} cannot come yet: the next hand is {next_number}",
                       field="number")
    folded = _fold(game, [*engine_hands(rows), entered])
    hand = Hand(game=game, number=next_number, entered_by=user if getattr(user, "pk", None) else None,
                idempotency_key=idempotency_key or None)
    apply_input(hand, entered.to_dict())
    apply_result(hand, folded.hands[-1])
    try:
        with transaction.atomic():
            _save_hand(hand, user, "entered")
    except IntegrityError as exc:
        raise Conflict("hand_exists", f"hand {next_number} of game {game.number} was entered meanwhile") from exc
    _store_game(game, folded)
    match_refresh_result(match)
    _result_changed(match)
    return hand, True


@transaction.atomic
def hand_correct(*, hand: Hand, data: Mapping, user=None) -> Hand:
    """Correct an entered hand and re-score every hand after it in its game."""
    match = match_lock(hand.game.match_id)
    game = Game.objects.get(pk=hand.game_id)
    rows = list(game.hands.order_by("number"))
    index = next(i for i, row in enumerate(rows) if row.pk == hand.pk)
    corrected = scoring.Hand.from_dict(merge_input(hand_input_dict(rows[index]), data))
    inputs = engine_hands(rows)
    inputs[index] = corrected
    folded = _fold(game, inputs)
    was_winner = game.winner
    new_winner = (folded.winner or "") if folded.finished else ""
    if new_winner != was_winner and match.games.filter(number__gt=game.number).exists():
        raise Conflict("later_games_exist",
                       f"this correction changes the result of game {game.number}, but game {game.number + 1} "
                       "has started; delete its hands first", field="game")
    for i, (row, result) in enumerate(zip(rows, folded.hands, strict=True)):
        if i == index:
            apply_input(row, corrected.to_dict())
            apply_result(row, result)
            _save_hand(row, user, "corrected")
        elif i > index:
            changed = apply_result(row, result)
            if changed:
                _save_hand(row, user, f"re-scored after the correction of hand {rows[index].number}", changed)
    _store_game(game, folded)
    match_refresh_result(match)
    _result_changed(match)
    return rows[index]


@transaction.atomic
def hand_delete_last(*, hand: Hand, user=None) -> None:
    """Delete the last hand of a game (and an empty game after it), re-opening the game and match."""
    match = match_lock(hand.game.match_id)
    game = Game.objects.get(pk=hand.game_id)
    last = game.hands.order_by("-number").first()
    if last is None or last.pk != hand.pk:
        raise Conflict("not_last_hand",
                       f"only the last hand of a game can be deleted; hand {hand.number} is followed by hand "
                       f"{last.number if last else '?'}", field="number")
    later = list(match.games.filter(number__gt=game.number))
    if any(g.hands.exists() for g in later):
        raise Conflict("later_games_exist",
                       f"game {game.number + 1} has hands; delete them before hand {hand.number} of game {game.number}")
    for g in later:
        g.delete()
    _audit(hand, user, "deleted")
    hand.delete()
    rows = list(game.hands.order_by("number"))
    _store_game(game, _fold(game, engine_hands(rows)))
    match_refresh_result(match)
    _result_changed(match)
