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


def _same_input(row: Hand, entered: scoring.Hand) -> bool:
    """Tell whether a stored hand was entered with exactly this input (a retry of its request)."""
    try:
        return scoring.Hand.from_dict(hand_input_dict(row)).to_dict() == entered.to_dict()
    except Exception:  # a stored hand the engine no longer reads the same way: not a retry
        return False


def _refuse_repeated_deciding_hand(match: Match, entered: scoring.Hand) -> None:
    """Refuse (409 ``duplicate_hand``) a hand that would open a game and repeats the previous game's last hand.

    A retried request (a lost answer, a double tap) of the hand that decided a game must not be
    stored again as the first hand of the next game. Within a game a repeat is refused anyway
    (the dealer is out of turn); the first hand of a game has a free dealer, hence this check. A
    client that really means it names the hand (``number`` 1, or ``game`` and ``number``).
    """
    games = list(match.games.order_by("-number")[:2])
    if not games:
        return
    if games[0].status == Game.Status.PLAYING:
        if games[0].hands.exists() or len(games) < 2:
            return  # the hand continues a game: not the first hand of one
        previous = games[1]  # a game started (POST .../games/) but still empty
    else:
        previous = games[0]  # the hand would start the next game
    last = previous.hands.order_by("-number").first()
    if last is not None and _same_input(last, entered):
        raise Conflict("duplicate_hand",
                       f"this hand repeats hand {last.number} of game {previous.number}, which decided that game; "
                       "a retried request is not stored twice. To enter it as the first hand of the next game, "
                       "send its number (1)", field="number")


@transaction.atomic
def hand_enter(*, match: Match, data: Mapping, user=None, idempotency_key: str | None = None,
               number: int | None = None, game_number: int | None = None) -> tuple[Hand, bool]:
    """Enter the next hand of the match's game in progress; return the hand and whether it was stored now.

    Without an idempotency key, a number or a game number, a hand that would be the first of a
    game and repeats the hand that decided the previous game is refused as a duplicate (409).
    """
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
    if number is None and game_number is None:
        _refuse_repeated_deciding_hand(match, entered)
    game = _current_game(match, entered.dealer)
    if game_number is not None and game_number != game.number:
        raise Conflict("game_number",
                       f"the hand would be entered in game {game.number}, not game {game_number}", field="game")
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
