"""Start matches and their games; fold a match's games into its result."""

import functools

import scoring
from django.db import connection, transaction

from tournaments import versions
from tournaments.access import is_unscoped
from tournaments.models import Game, Match, Round, Tournament
from tournaments.services.errors import Conflict
from tournaments.services.hand_data import game_settings
from tournaments.services.rows import Columns, cursor, qn, update


def _violation(code: str, field: str, message: str) -> scoring.RuleViolation:
    return scoring.RuleViolation([scoring.Violation(code=code, field=field, message=message)])


_MATCH, _ROUND, _TOURNAMENT = Columns(Match, "m"), Columns(Round, "r"), Columns(Tournament, "t")


@functools.cache
def _lock_sql(vendor: str, with_viewer: bool) -> str:
    """One statement: the match with its round and tournament, locked; with a viewer, their roles in the tournament."""
    roles = ""
    if with_viewer:
        for through in (Tournament.organizers.through, Tournament.scorekeepers.through):
            meta = through._meta
            roles += (f", EXISTS (SELECT 1 FROM {qn(meta.db_table)} x WHERE x.{qn(meta.get_field('tournament').column)}"
                      f" = t.{qn(Tournament._meta.pk.column)} AND x.{qn(meta.get_field('user').column)} = %s)")
    lock = " FOR UPDATE OF m" if connection.features.has_select_for_update_of else ""
    return (f"SELECT {_MATCH.select()}, {_ROUND.select()}, {_TOURNAMENT.select()}{roles} "
            f"FROM {qn(Match._meta.db_table)} m "
            f"JOIN {qn(Round._meta.db_table)} r ON r.{qn(Round._meta.pk.column)} = m.{qn('round_id')} "
            f"JOIN {qn(Tournament._meta.db_table)} t ON t.{qn(Tournament._meta.pk.column)} = r.{qn('tournament_id')} "
            f"WHERE m.{qn(Match._meta.pk.column)} = %s{lock}")


def match_lock(match_id: int, viewer=None) -> Match:
    """Return the match row locked for update, with its round and tournament, in one statement.

    With ``viewer`` (a user), ``Match.DoesNotExist`` unless they may see the match (``access.visible_matches``),
    and the match's ``keeps_score`` tells whether they may enter its results (``access.can_keep_score``).
    """
    params = [match_id] if viewer is None else [getattr(viewer, "pk", None)] * 2 + [match_id]
    with cursor() as c:
        c.execute(_lock_sql(connection.vendor, viewer is not None), params)
        row = c.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    match, rnd, tournament = _MATCH.build(row), _ROUND.build(row, _MATCH.width), \
        _TOURNAMENT.build(row, _MATCH.width + _ROUND.width)
    Match.round.field.set_cached_value(match, rnd)
    Round.tournament.field.set_cached_value(rnd, tournament)
    if viewer is not None:
        unscoped = is_unscoped(viewer)
        listed = getattr(viewer, "is_authenticated", False) and any(row[-2:])
        if not (unscoped or tournament.public or listed):
            raise Match.DoesNotExist(f"no match {match_id} for this user")
        match.keeps_score = unscoped or listed
    return match


#: The fields ``match_result_apply`` sets.
MATCH_RESULT_FIELDS = ("games_won_ns", "games_won_ew", "points_ns", "points_ew", "winner", "status")


def match_refresh_result(match: Match, games: list[Game] | None = None) -> None:
    """Recompute games won, winner, status and game points of a locked match from its games, and save it.

    ``games``: the match's games in order, as the caller holds them (under the lock); read when not given.
    """
    moved = match_result_apply(match, games)
    update(match, MATCH_RESULT_FIELDS)
    match_result_saved(match, moved)


def match_result_apply(match: Match, games: list[Game] | None = None) -> bool:
    """Set the result fields (``MATCH_RESULT_FIELDS``) of a locked match from its games, unsaved; tell whether
    its status changed."""
    tournament = match.round.tournament
    if games is None:
        games = list(match.games.order_by("number").values_list("status", "winner", "total_ns", "total_ew"))
    else:
        games = [(g.status, g.winner, g.total_ns, g.total_ew) for g in games]
    winners = [winner or None for status, winner, _, _ in games if status == Game.Status.FINISHED]
    result = scoring.fold_match(tournament.effective_best_of, winners)
    match.games_won_ns = result.games_won["ns"]
    match.games_won_ew = result.games_won["ew"]
    match.points_ns = sum(ns for _, _, ns, _ in games)
    match.points_ew = sum(ew for _, _, _, ew in games)
    match.winner = (result.winner or "") if result.finished else ""
    was = match.status
    if result.finished:
        match.status = Match.Status.FINISHED
    elif games:
        match.status = Match.Status.PLAYING
    else:
        match.status = Match.Status.SCHEDULED
    return match.status != was


def match_result_saved(match: Match, moved: bool) -> None:
    """What follows a match's saved result: its version stamps (what the save signal's receiver does) and,
    when its status ``moved``, its round's status."""
    tournament_id = match.round.tournament_id
    versions.match_changed(match.pk, tournament_id, at_commit=True)  # the services read no stamp meanwhile
    if moved:
        round_refresh_status(match.round_id)
        versions.results_changed(tournament_id)  # the round's status, shown with its tables


def round_refresh_status(round_id: int) -> None:
    """Set a round paired, playing or finished from its matches' statuses (locked: two last matches may race)."""
    Round.objects.select_for_update().filter(pk=round_id).first()
    statuses = set(Match.objects.filter(round_id=round_id).values_list("status", flat=True))
    if statuses and statuses == {Match.Status.FINISHED}:
        status = Round.Status.FINISHED
    elif statuses - {Match.Status.SCHEDULED}:
        status = Round.Status.PLAYING
    else:
        status = Round.Status.PAIRED
    Round.objects.filter(pk=round_id).exclude(status=status).update(status=status)


@transaction.atomic
def game_start(*, match: Match, first_dealer: str, favourite: str = "", albur: str = "", user=None) -> Game:
    """Start the match's next game with the dealer drawn at the table."""
    match = match_lock(match.pk)
    return _game_start_locked(match=match, first_dealer=first_dealer, favourite=favourite, albur=albur)


def _game_start_locked(*, match: Match, first_dealer: str, favourite: str = "", albur: str = "",
                       games: list[Game] | None = None) -> Game:
    """Start the next game of a locked match; ``games``: its games in order when the caller holds them (appended to)."""
    if match.is_bye:
        raise _violation("game_over", "match", "a bye has no games to play")
    if match.status == Match.Status.FINISHED:
        raise _violation("game_over", "match",
                         f"the match is decided: {match.games_won_ns}–{match.games_won_ew} in games")
    if games is None:
        last = match.games.order_by("-number").first()
    else:
        last = games[-1] if games else None
    if last is not None and last.status != Game.Status.FINISHED:
        raise Conflict("game_in_progress", f"game {last.number} of this match is still being played")
    game = Game(match=match, number=(last.number + 1) if last else 1, first_dealer=first_dealer,
                favourite=favourite, albur=albur)
    # The engine validates the game's draws (first dealer, favourite suit, albur) and folds the empty
    # game: the albur's points and the first dealer.
    folded = scoring.fold_game(game_settings(game), [])
    game.total_ns, game.total_ew = folded.totals["ns"], folded.totals["ew"]
    game.next_dealer = folded.next_dealer or first_dealer
    game.next_multiplier = folded.next_multiplier
    game.save()
    if games is not None:
        games.append(game)
    match_refresh_result(match, games)  # status, round status and game points (an albur scores before any hand)
    return game
