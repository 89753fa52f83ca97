"""Start matches and their games; fold a match's games into its result."""

import scoring
from django.db import transaction

from tournaments.models import Game, Match
from tournaments.services.errors import Conflict

SEATS = ("N", "E", "S", "W")


def _violation(code: str, field: str, message: str) -> scoring.RuleViolation:
    return scoring.RuleViolation([scoring.Violation(code=code, field=field, message=message)])


def match_lock(match_id: int) -> Match:
    """Return the match row locked for update, with its round and tournament."""
    return Match.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=match_id)


def match_refresh_result(match: Match) -> None:
    """Recompute games won, winner and status of a locked match from its games, and save it."""
    tournament = match.round.tournament
    games = list(match.games.order_by("number").values_list("status", "winner"))
    winners = [winner or None for status, winner in games if status == Game.Status.FINISHED]
    result = scoring.fold_match(tournament.effective_best_of, winners)
    match.games_won_ns = result.games_won["ns"]
    match.games_won_ew = result.games_won["ew"]
    match.winner = (result.winner or "") if result.finished else ""
    if result.finished:
        match.status = Match.Status.FINISHED
    elif games:
        match.status = Match.Status.PLAYING
    else:
        match.status = Match.Status.SCHEDULED
    match.save(update_fields=["games_won_ns", "games_won_ew", "winner", "status", "updated_at"])


@transaction.atomic
def game_start(*, match: Match, first_dealer: str, favourite: str = "", albur: str = "", user=None) -> Game:
    """Start the match's next game with the dealer drawn at the table."""
    match = match_lock(match.pk)
    return _game_start_locked(match=match, first_dealer=first_dealer, favourite=favourite, albur=albur)


def _game_start_locked(*, match: Match, first_dealer: str, favourite: str = "", albur: str = "") -> Game:
    tournament = match.round.tournament
    variant = scoring.get_variant(tournament.variant)
    if match.is_bye:
        raise _violation("game_over", "match", "a bye has no games to play")
    if match.status == Match.Status.FINISHED:
        raise _violation("game_over", "match",
                         f"the match is decided: {match.games_won_ns}–{match.games_won_ew} in games")
    if first_dealer not in SEATS:
        raise _violation("dealer_out_of_turn", "first_dealer", f"{first_dealer!r} is not a seat (N, E, S or W)")
    if favourite and favourite not in variant.suits:
        raise _violation("trump_invalid", "favourite",
                         f"favourite {favourite!r} is not a suit of {variant.slug} ({', '.join(variant.suits)})")
    if albur and albur not in ("ns", "ew"):
        raise _violation("call_not_allowed", "albur", f"albur must be won by ns or ew, not {albur!r}")
    last = match.games.order_by("-number").first()
    if last is not None and last.status != Game.Status.FINISHED:
        raise Conflict("game_in_progress", f"game {last.number} of this match is still being played")
    game = Game.objects.create(
        match=match, number=(last.number + 1) if last else 1, first_dealer=first_dealer,
        favourite=favourite, albur=albur, next_dealer=first_dealer,
    )
    # Let the engine fold the empty game: the albur's 5 points, the first dealer.
    from tournaments.services.hand_data import game_settings

    folded = scoring.fold_game(game_settings(game), [])
    game.total_ns, game.total_ew = folded.totals["ns"], folded.totals["ew"]
    game.next_dealer = folded.next_dealer or first_dealer
    game.next_multiplier = folded.next_multiplier
    game.save(update_fields=["total_ns", "total_ew", "next_dealer", "next_multiplier", "updated_at"])
    if match.status == Match.Status.SCHEDULED:
        match.status = Match.Status.PLAYING
        match.save(update_fields=["status", "updated_at"])
    return game
