"""Enter, correct and delete hands: the engine computes, the services store.

Each service locks the match row, so the writes of one match are serialised; it runs the game
through the rules engine (a pure function of the game's settings and its hands), stores what comes
back, and refuses what the engine refuses with its codes. A correction or a deletion folds the whole
game again. A new hand is scored from the engine's state after the hands before it, which the game
keeps (``Game.engine_state``): the same result as folding the whole game (tested), without reading
its hands. A game that keeps no state for its hands (a row from before it was kept) is folded whole.

``hand_preview`` answers what ``hand_enter`` would store for the same request without storing it,
through the same steps (``_next_game``: where the hand goes, by ``games.hand_next``, and the checks).
"""

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

import scoring
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.utils import timezone

from tournaments.models import Game, Hand, Match, Tournament
from tournaments.services import confirmation
from tournaments.selectors.clock import time_over
from tournaments.services.errors import Conflict, IdempotencyKeyMismatch
from tournaments.services.games import (
    NextHand,
    _game_start_locked,
    _violation,
    game_next,
    hand_next,
    match_games,
    match_lock,
    match_lock_with_games,
    match_refresh_result,
    match_result_apply,
    match_result_fields,
    match_result_saved,
)
from tournaments.services.hand_data import (
    apply_input,
    apply_result,
    engine_hands,
    game_settings,
    hand_input_dict,
    merge_input,
    state_after,
    stored_state,
)
from tournaments.services.lengths import length_of
from tournaments.services.rows import insert_with_history, update
from tournaments.services.stages import stage_open


def _result_changed(match: Match, user=None, reason: str = "") -> None:
    from tournaments.services.results import match_result_changed

    confirmation.result_moved(match, user, reason=reason)
    match_result_changed(match=match)


def _fold(game: Game, inputs: list[scoring.Hand]) -> scoring.GameResult:
    """Fold a whole game through the rules engine; its refusals reach the caller unchanged."""
    return scoring.fold_game(game_settings(game), inputs)


def _fold_next(game: Game, played: int, entered: scoring.Hand) -> scoring.GameResult:
    """Score the hand that follows the game's ``played`` hands: from the engine's state the game keeps
    after them, or, when it keeps none for them, by folding them all (one query more)."""
    state = state_after(game, played) if played else None
    if played and state is None:
        return _fold(game, [*engine_hands(list(game.hands.order_by("number"))), entered])
    return scoring.fold_game(game_settings(game), [entered], state=state, start=played)


#: The fields ``_game_apply`` sets.
GAME_RESULT_FIELDS = ("total_ns", "total_ew", "winner", "status", "next_dealer", "next_multiplier", "tie_pending",
                      "engine_state")


def _store_game(game: Game, folded: scoring.GameResult) -> None:
    """Store the result of a fold of the whole game (its hands are ``folded.hands``)."""
    _game_apply(game, folded, len(folded.hands))
    update(game, GAME_RESULT_FIELDS)


def _game_apply(game: Game, folded: scoring.GameResult, hands: int) -> None:
    """Set the result fields of a game (``GAME_RESULT_FIELDS``) from the engine's fold, unsaved; ``hands``:
    how many hands the game has with the fold's."""
    game.total_ns, game.total_ew = folded.totals["ns"], folded.totals["ew"]
    game.winner = (folded.winner or "") if folded.finished else ""
    game.status = Game.Status.FINISHED if folded.finished else Game.Status.PLAYING
    game.next_dealer = folded.next_dealer or ""
    game.next_multiplier = folded.next_multiplier
    game.tie_pending = folded.state.tie_pending
    game.engine_state = stored_state(folded.state, hands)
    if game.ended_by_clock and not folded.finished:
        _game_stop(game)


def _game_stop(game: Game) -> None:
    """End a game in play by its points (a timed match's ``stop`` rule at the clock's end): the side ahead wins,
    equal totals draw. Its hands stay the engine's; only the game's end is the clock's."""
    game.ended_by_clock = True
    game.status = Game.Status.FINISHED
    game.winner = ("ns" if game.total_ns > game.total_ew else "ew" if game.total_ew > game.total_ns else "draw")
    game.next_dealer, game.next_multiplier, game.tie_pending = "", 1, False


def _stops_at_time(match: Match, game: Game, at: datetime) -> bool:
    """Tell whether a hand at ``at`` is the deal in play at the end of a timed ``stop`` match's clock."""
    length = length_of(match.round)  # (a knockout's tie-break game is played out, whatever the clock)
    return (game.status == Game.Status.PLAYING and length.timed and not game.tiebreak_deals
            and length.at_time == Tournament.AtTime.STOP and time_over(match.round, at))


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


def _insert_hand(hand: Hand, user, reason: str, game: Game, match: Match) -> None:
    """Insert a new hand with its history record and write its game's and match's results (applied, unsaved):
    one statement on PostgreSQL, ``save()`` and two updates elsewhere.

    The one statement writes the record itself, so the save signal is sent with the history's own
    receiver told to skip it (``skip_history_when_saving``); the other receivers (webhooks) hear it.
    """
    _audit(hand, user, reason)
    updates = ((game, GAME_RESULT_FIELDS), (match, match_result_fields(match)))
    if not insert_with_history(hand, getattr(hand._history_user, "pk", None), reason, updates):
        hand.save()
        for instance, names in updates:
            update(instance, names)
        return
    hand.skip_history_when_saving = True
    try:
        post_save.send(sender=Hand, instance=hand, created=True, update_fields=None, raw=False,
                       using=connection.alias)
    finally:
        del hand.skip_history_when_saving


def _current_game(match: Match, nxt: NextHand, games: list[Game], dealer: str | None, start: bool = True,
                  at: datetime | None = None) -> Game:
    """Return the game in progress, starting the next one when the last is finished and the match is not; without
    ``start`` (a preview), the next game as it would start, unsaved; ``at``: the table's time."""
    if nxt.game is not None:
        return nxt.game
    if match.is_bye:  # a bye is finished too, but "no games to play" is what to say of it
        raise _violation("game_over", "match", reason="bye")
    if match.status == Match.Status.FINISHED:
        raise _violation("game_over", "match", reason="match_decided", ns=match.games_won_ns, ew=match.games_won_ew)
    if not start:
        return game_next(match=match, first_dealer=dealer or "", games=games, at=at)
    return _game_start_locked(match=match, first_dealer=dealer or "", games=games, at=at)


def _same_input(row: Hand, entered: scoring.Hand) -> bool:
    """Tell whether a stored hand was entered with exactly this input (a retry of its request)."""
    try:
        return scoring.Hand.from_dict(hand_input_dict(row)).to_dict() == entered.to_dict()
    except Exception:  # a stored hand the engine no longer reads the same way: not a retry
        return False


def _refuse_repeated_deciding_hand(games: list[Game], played: int, entered: scoring.Hand) -> None:
    """Refuse (409 ``duplicate_hand``) a hand that would open a game and repeats the previous game's last hand.

    A retried request (a lost answer, a double tap) of the hand that decided a game must not be
    stored again as the first hand of the next game. Within a game a repeat is refused anyway
    (the dealer is out of turn); the first hand of a game has a free dealer, hence this check. A
    client that really means it names the hand (``number`` 1, or ``game`` and ``number``).
    ``games``: the match's games in order; ``played``: how many hands the last one has when it is playing.
    """
    if not games:
        return
    if games[-1].status == Game.Status.PLAYING:
        if played or len(games) < 2:
            return  # the hand continues a game: not the first hand of one
        previous = games[-2]  # a game started (POST .../games/) but still empty
    else:
        previous = games[-1]  # the hand would start the next game
    last = previous.hands.order_by("-number").first()
    if last is not None and _same_input(last, entered):
        raise Conflict("duplicate_hand", "number", {"hand": last.number, "game": previous.number})


def request_fingerprint(*, match_id: int, entered: scoring.Hand, number: int | None = None,
                        game_number: int | None = None) -> str:
    """The fingerprint of a hand's request, kept with its Idempotency-Key (``Hand.idempotency_fingerprint``).

    What decides what is stored, in canonical form: the match, the hand as the rules engine reads it
    (``entered``: ``scoring.Hand.from_dict(data)``, so another key order or an equivalent input, such
    as a ``null`` for an absent field, is the same request), and the hand and game numbers when the
    request names them. sha256 of its JSON with sorted keys, in hex.
    """
    canonical = json.dumps({"match": match_id, "hand": entered.to_dict(), "number": number, "game": game_number},
                           sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(existing: Hand, match_id: int, data: Mapping, number: int | None, game_number: int | None) -> Hand:
    """Answer a request whose Idempotency-Key is stored with ``existing``: the hand itself when the request is
    the one it was stored with (a retry), else refuse it (409 ``idempotency_key_reused`` for another match,
    422 ``idempotency_key_mismatch`` for another hand or a body that is not a hand)."""
    if existing.game.match_id != match_id:
        raise Conflict("idempotency_key_reused")
    try:
        entered = scoring.Hand.from_dict(data)
    except scoring.RuleViolation:
        raise IdempotencyKeyMismatch() from None
    if existing.idempotency_fingerprint is None:  # stored before fingerprints were kept: its input decides
        same = _same_input(existing, entered)
    else:
        same = existing.idempotency_fingerprint == request_fingerprint(
            match_id=match_id, entered=entered, number=number, game_number=game_number)
    if not same:
        raise IdempotencyKeyMismatch()
    return existing


def hand_key_refuse_invalid(*, idempotency_key: str | None) -> None:
    """Refuse (422 ``idempotency_key_mismatch``) a hand's request whose body was refused before ``hand_enter``
    (it did not validate) when its Idempotency-Key is stored: the stored request was valid, so this one is
    not its retry. Returns when the key is new (or none): the caller then answers the body's refusal."""
    if idempotency_key and Hand.objects.filter(idempotency_key=idempotency_key).exists():
        raise IdempotencyKeyMismatch()


class _Clash(Exception):
    """A unique constraint refused the new hand (its number, or its idempotency key): answered after the rollback."""

    def __init__(self, number: int, game_number: int):
        super().__init__(number, game_number)
        self.number, self.game_number = number, game_number


def hand_key(*, user, key: str | None) -> str | None:
    """Return a client's Idempotency-Key as it is stored: scoped to its user (None without a key)."""
    return f"{getattr(user, 'pk', None)}:{key}" if key else None


#: What ``hand_enter``'s ``read`` returns: the hand (api.md), and the hand and game numbers the request names.
HandRequest = tuple[Mapping, int | None, int | None]


def hand_enter(*, match: Match | None = None, data: Mapping | None = None, user=None,
               idempotency_key: str | None = None, number: int | None = None, game_number: int | None = None,
               match_id: int | None = None, viewer=None, authorize: Callable[[Match], None] | None = None,
               read: Callable[[], HandRequest] | None = None, played_at: datetime | None = None) -> tuple[Hand, bool]:
    """Enter the next hand of the match's game in progress; return the hand and whether it was stored now.

    ``read`` (instead of ``data``, ``number`` and ``game_number``) reads them from the request: what it
    raises (a body that does not validate) is raised unchanged, unless the idempotency key is stored:
    the stored request was valid, so this one is not its retry (``IdempotencyKeyMismatch``, 422).

    Without an idempotency key, a number or a game number, a hand that would be the first of a
    game and repeats the hand that decided the previous game is refused as a duplicate (409).

    The match (``match`` or ``match_id``) is locked first with its round and tournament; with
    ``viewer`` (the API's user), ``Match.DoesNotExist`` unless they may see it, and the match's
    ``keeps_score`` tells whether they may enter its results; ``authorize(match)`` may then
    refuse. The returned hand's ``game`` is its game as saved and ``game.match`` the match as
    saved, both current (the game is the match's last).

    An idempotency key costs nothing while it is new: the hand is inserted with it and with the
    fingerprint of its request (``request_fingerprint``), and only a refusal (the unique key, or a
    rule a retry breaks once its first attempt is stored) looks for the hand stored under it, after
    the rollback: the same request (the same fingerprint) is answered that hand, another one is
    refused, ``IdempotencyKeyMismatch`` (422), so that a key used twice never loses a hand. The
    fingerprint is the request's at entry: a correction of the hand does not change it.

    ``played_at``: when the hand was played at the table (the offline queue sends it later; now by default,
    never later than now). A timed match's round clock judges it: a game cannot start after the clock's end
    (``round_time_over``), and with the ``stop`` rule the hand in play at the end ends its game on points.
    """
    if read is not None:
        try:
            data, number, game_number = read()
        except Exception:
            hand_key_refuse_invalid(idempotency_key=idempotency_key)
            raise
    pk = match.pk if match is not None else match_id
    try:
        now = timezone.now()
        at = min(played_at, now) if played_at is not None else now
        return _hand_enter(pk, data, user, idempotency_key, number, game_number, viewer, authorize, at)
    except (_Clash, Conflict, scoring.RuleViolation) as exc:
        if idempotency_key:
            existing = Hand.objects.select_related("game").filter(idempotency_key=idempotency_key).first()
            if existing is not None:
                try:
                    return _replay(existing, pk, data, number, game_number), False
                except (Conflict, IdempotencyKeyMismatch) as refusal:
                    raise refusal from exc
        if isinstance(exc, _Clash):
            raise Conflict("hand_exists", "number",
                           {"reason": "meanwhile", "number": exc.number, "game": exc.game_number}) from exc
        raise


@transaction.atomic
def _hand_enter(pk, data, user, idempotency_key, number, game_number, viewer, authorize, at) -> tuple[Hand, bool]:
    match, games, played = match_lock_with_games(pk, viewer)
    if authorize is not None:
        authorize(match)
    confirmation.change_check(match, user, finishing=False)  # a finished match takes no hand anyway
    entered = scoring.Hand.from_dict(data)  # shape errors before anything is created
    if games is None:  # not read with the lock (SQLite), or changed while it waited: read now
        games, played = match_games(match)
    game, next_number = _next_game(match, games, played, entered, number, game_number, start=True, at=at)
    folded = _fold_next(game, next_number - 1, entered)
    hand = Hand(game=game, number=next_number, entered_by=user if getattr(user, "pk", None) else None,
                idempotency_key=idempotency_key or None,
                idempotency_fingerprint=request_fingerprint(match_id=match.pk, entered=entered, number=number,
                                                            game_number=game_number) if idempotency_key else None)
    apply_input(hand, entered.to_dict())
    apply_result(hand, folded.hands[-1])
    _game_apply(game, folded, next_number)
    stopped = _stops_at_time(match, game, at)
    if stopped:
        _game_stop(game)
    moved = match_result_apply(match, games, at=at)
    try:
        _insert_hand(hand, user, "entered", game, match)
    except IntegrityError as exc:  # no savepoint: the transaction is rolled back, then answered (hand_enter)
        raise _Clash(next_number, game.number) from exc
    if stopped:  # rare: written apart, so the hand's one statement keeps within psycopg's statement cache
        update(game, ("ended_by_clock",))
    match_result_saved(match, moved)
    _result_changed(match, user)
    return hand, True


def _next_game(match: Match, games: list[Game], played: int, entered: scoring.Hand, number: int | None,
               game_number: int | None, *, start: bool, at: datetime | None = None) -> tuple[Game, int]:
    """The game the entered hand goes to and its number there, refused as ``hand_enter`` refuses it; without
    ``start`` (a preview) a new game is not started but returned unsaved."""
    if number is None and game_number is None:
        _refuse_repeated_deciding_hand(games, played, entered)
    nxt = hand_next(match=match, games=games, played=played)
    game = _current_game(match, nxt, games, entered.dealer, start, at)
    next_number = nxt.number
    if game_number is not None and game_number != game.number:
        raise Conflict("game_number", "game", {"game": game.number, "asked": game_number})
    if number is not None and number < next_number:
        raise Conflict("hand_exists", "number",
                       {"reason": "entered", "number": number, "game": game.number, "next": next_number})
    if number is not None and number > next_number:
        raise Conflict("hand_number", "number", {"number": number, "game": game.number, "next": next_number})
    return game, next_number


@dataclass(frozen=True)
class HandPreview:
    """What entering a hand would store: its game (unsaved when the hand would start it), number and result."""

    game: Game
    number: int
    result: scoring.HandResult


def hand_preview(*, match: Match, data: Mapping, number: int | None = None,
                 game_number: int | None = None) -> HandPreview:
    """Score ``data`` as the match's next hand without storing it: what ``hand_enter`` would store, or refuse.

    The same steps as ``hand_enter`` for the same request (``number``, ``game_number``), on the
    match as it is (nothing locked); a hand that would start a game is scored in it unsaved.
    """
    entered = scoring.Hand.from_dict(data)
    games, played = match_games(match)
    game, next_number = _next_game(match, games, played, entered, number, game_number, start=False)
    return HandPreview(game=game, number=next_number, result=_fold_next(game, next_number - 1, entered).hands[-1])


@transaction.atomic
def hand_correct(*, hand: Hand, data: Mapping, user=None, reason: str | None = None) -> Hand:
    """Correct an entered hand and re-score every hand after it in its game; ``reason`` (the corrector's words)
    is kept in the hand's history record ("corrected: <reason>"). Refused in a closed stage (``stage_closed``)."""
    match = match_lock(hand.game.match_id)
    stage_open(match.round)
    confirmation.change_check(match, user, reason=reason)
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
        raise Conflict("later_games_exist", "game",
                       {"reason": "correction", "game": game.number, "later": game.number + 1})
    for i, (row, result) in enumerate(zip(rows, folded.hands, strict=True)):
        if i == index:
            apply_input(row, corrected.to_dict())
            apply_result(row, result)
            _save_hand(row, user, f"corrected: {reason}" if reason else "corrected")
        elif i > index:
            changed = apply_result(row, result)
            if changed:
                _save_hand(row, user, f"re-scored after the correction of hand {rows[index].number}", changed)
    _store_game(game, folded)
    match_refresh_result(match)
    _result_changed(match, user, reason=reason or "")
    return rows[index]


@transaction.atomic
def hand_delete_last(*, hand: Hand, user=None, reason: str | None = None) -> None:
    """Delete the last hand of a game (and an empty game after it), re-opening the game and match. Refused in a
    closed stage (``stage_closed``); ``reason``: a director's, asked when the result is confirmed, disputed or
    final (``confirmation.change_check``)."""
    match = match_lock(hand.game.match_id)
    stage_open(match.round)
    confirmation.change_check(match, user, reason=reason)
    game = Game.objects.get(pk=hand.game_id)
    last = game.hands.order_by("-number").first()
    if last is None or last.pk != hand.pk:
        raise Conflict("not_last_hand", "number", {"number": hand.number, "last": last.number if last else None})
    later = list(match.games.filter(number__gt=game.number))
    if any(g.hands.exists() for g in later):
        raise Conflict("later_games_exist", None,
                       {"reason": "delete", "game": game.number, "later": game.number + 1, "number": hand.number})
    for g in later:
        g.delete()
    _audit(hand, user, "deleted")
    hand.delete()
    rows = list(game.hands.order_by("number"))
    _store_game(game, _fold(game, engine_hands(rows)))
    match_refresh_result(match)
    _result_changed(match, user, reason=reason or "")
