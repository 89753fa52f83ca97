"""Start matches and their games; fold a match's games into its result; tell where the next hand goes."""

import functools
from dataclasses import dataclass
from datetime import datetime

import scoring
from django.db import connection, transaction
from django.utils import timezone

from tournaments import access, versions
from tournaments.models import Game, Hand, Match, Round, Stage, Tournament
from tournaments.selectors.clock import time_over
from tournaments.services.errors import Conflict
from tournaments.services.hand_data import game_settings
from tournaments.services.lengths import STAGE_LENGTH_FIELDS, keep, length_from, length_of, stage_select
from tournaments.services.match_result import after_tiebreak, desk_result, match_length_result
from tournaments.services.rows import Columns, cursor, qn, update


def _violation(code: str, field: str, **params) -> scoring.RuleViolation:
    return scoring.RuleViolation([scoring.Violation(code=code, field=field, params=params)])


_MATCH, _ROUND, _TOURNAMENT = Columns(Match, "m"), Columns(Round, "r"), Columns(Tournament, "t")
_GAME = Columns(Game, "g")


@functools.cache
def _lock_sql(vendor: str, with_viewer: bool, with_games: bool = False) -> str:
    """One statement: the match with its round, tournament and stage's match length (``lengths``), locked; with a
    viewer, their roles in the tournament.

    ``with_games`` (PostgreSQL): then whether the locked row is the version of the statement's snapshot,
    and a row for each of the match's games, in order, with its last hand's number while it is played.
    """
    roles = games = joins = order = ""
    if with_viewer:  # the viewer's roles, in SQL access.py writes (its parameters: access.keeps_score_params)
        roles = f", {access.keeps_score_sql(f't.{qn(Tournament._meta.pk.column)}')}"
    if with_games:
        pk = qn(Match._meta.pk.column)
        # A lock waited for returns the row's newest version, but the rest of the statement reads the
        # snapshot taken when it started: its games are current only if the row's version is the snapshot's.
        games = (f", m.xmin::text = (SELECT s.xmin::text FROM {qn(Match._meta.db_table)} s WHERE s.{pk} = m.{pk}), "
                 f"{_GAME.select()}, {_played_sql()}")
        joins = f" LEFT JOIN {qn(Game._meta.db_table)} g ON g.{qn('match_id')} = m.{pk}"
        order = f" ORDER BY g.{qn('number')}"
    lock = " FOR UPDATE OF m" if connection.features.has_select_for_update_of else ""
    return (f"SELECT {_MATCH.select()}, {_ROUND.select()}, {_TOURNAMENT.select()}, {stage_select('s')}{roles}{games} "
            f"FROM {qn(Match._meta.db_table)} m "
            f"JOIN {qn(Round._meta.db_table)} r ON r.{qn(Round._meta.pk.column)} = m.{qn('round_id')} "
            f"JOIN {qn(Tournament._meta.db_table)} t ON t.{qn(Tournament._meta.pk.column)} = r.{qn('tournament_id')}"
            f" LEFT JOIN {qn(Stage._meta.db_table)} s ON s.{qn(Stage._meta.pk.column)} = r.{qn('stage_id')}"
            f"{joins} WHERE m.{qn(Match._meta.pk.column)} = %s{order}{lock}")


def _played_sql() -> str:
    """The number of the last hand of the game ``g`` while it is played (a parameter: the playing status)."""
    return (f"CASE WHEN g.{qn('status')} = %s THEN (SELECT MAX(h.{qn('number')}) FROM {qn(Hand._meta.db_table)} h "
            f"WHERE h.{qn('game_id')} = g.{qn('id')}) END")


@functools.cache
def _games_sql(vendor: str) -> str:
    """The match's games in order, each with its last hand's number while it is played (``match_games``)."""
    return (f"SELECT {_GAME.select()}, {_played_sql()} FROM {qn(Game._meta.db_table)} g "
            f"WHERE g.{qn('match_id')} = %s ORDER BY g.{qn('number')}")


def match_games(match: Match) -> tuple[list[Game], int]:
    """The match's games in order, and how many hands the last one has while it is played (else 0): one statement.

    Hands are numbered from 1 without gaps (only a game's last hand can be deleted), so the last
    number is their count.
    """
    with cursor() as c:
        c.execute(_games_sql(connection.vendor), [Game.Status.PLAYING, match.pk])
        return _games_of(c.fetchall(), 0, match)


def _games_of(rows, start: int, match: Match) -> tuple[list[Game], int]:
    """The games of ``rows`` (their columns from ``start``: ``_GAME``'s, then the last hand's number), of ``match``."""
    games, played = [], 0
    for row in rows:
        game = _GAME.build(row, start)
        if game is None:  # an outer join's row of a match without games
            break
        Game.match.field.set_cached_value(game, match)
        games.append(game)
        played = row[start + _GAME.width] or 0
    return games, played


def match_lock(match_id: int, viewer=None) -> Match:
    """Return the match row locked for update, with its round and tournament, in one statement.

    With ``viewer`` (a user), ``Match.DoesNotExist`` unless they may see the match (``access.visible_matches``),
    and the match's ``keeps_score`` tells whether they may enter its results (``access.can_keep_score``).
    """
    params = [match_id] if viewer is None else [*access.keeps_score_params(viewer), match_id]
    with cursor() as c:
        c.execute(_lock_sql(connection.vendor, viewer is not None), params)
        return match_locked(c.fetchone(), match_id, viewer)


def match_lock_with_games(match_id: int, viewer=None) -> tuple[Match, list | None, int]:
    """``match_lock`` (it raises the same), and the match's games in order (``Game`` instances of the
    match) with how many hands the last one has while it is played (else 0), read by the same
    statement on PostgreSQL.

    The games are None (read them after the lock) elsewhere, or when the lock waited for another
    transaction that changed the match (every write of a game or a hand saves its match, under this
    lock): the statement's games are then those of its snapshot, from before that change.
    """
    if connection.vendor != "postgresql":
        return match_lock(match_id, viewer), None, 0
    params = [] if viewer is None else access.keeps_score_params(viewer)
    with cursor() as c:
        c.execute(_lock_sql(connection.vendor, viewer is not None, True), [*params, Game.Status.PLAYING, match_id])
        rows = c.fetchall()
    head = _MATCH.width + _ROUND.width + _TOURNAMENT.width + len(STAGE_LENGTH_FIELDS) + (viewer is not None)
    match = match_locked(rows[0][:head] if rows else None, match_id, viewer)
    if not rows[0][head]:
        return match, None, 0
    return match, *_games_of(rows, head + 1, match)


def match_locked(row, match_id: int, viewer=None) -> Match:
    """The match of a row of ``_lock_sql`` without its games (None: no such match), checked as ``match_lock`` says."""
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    match, rnd, tournament = _MATCH.build(row), _ROUND.build(row, _MATCH.width), \
        _TOURNAMENT.build(row, _MATCH.width + _ROUND.width)
    Match.round.field.set_cached_value(match, rnd)
    Round.tournament.field.set_cached_value(rnd, tournament)
    start = _MATCH.width + _ROUND.width + _TOURNAMENT.width
    keep(rnd, length_from(row[start:start + len(STAGE_LENGTH_FIELDS)], tournament))
    if viewer is not None:
        listed = row[-1]  # the statement's last column: access.keeps_score_sql
        if not access.can_see_listed(viewer, tournament.public, listed):
            raise Match.DoesNotExist(f"no match {match_id} for this user")
        match.keeps_score = access.can_keep_score_listed(viewer, listed)
    return match


#: The fields ``match_result_apply`` sets.
MATCH_RESULT_FIELDS = ("games_won_ns", "games_won_ew", "points_ns", "points_ew", "winner", "status", "forfeit",
                       "decided_by")
#: Those of a match without the director's actions (``Match.directives`` empty): its ``forfeit`` and
#: ``decided_by`` are empty and stay so (the desk writes every field when it removes its last action), so the
#: hand's one statement leaves them out and keeps within psycopg's statement cache (``match_result_fields``).
MATCH_PLAYED_FIELDS = MATCH_RESULT_FIELDS[:6]


def match_result_fields(match: Match) -> tuple[str, ...]:
    """The result fields a write of the match's applied result must include (``MATCH_PLAYED_FIELDS``)."""
    return MATCH_RESULT_FIELDS if match.directives else MATCH_PLAYED_FIELDS


def match_refresh_result(match: Match, games: list[Game] | None = None) -> None:
    """Recompute games won, winner, status and game points of a locked match from its games, and save it.

    ``games``: the match's games in order, as the caller holds them (under the lock); read when not given.
    """
    moved = match_result_apply(match, games)
    update(match, MATCH_RESULT_FIELDS)
    match_result_saved(match, moved)


def match_result_apply(match: Match, games: list[Game] | None = None, *, walkover: str = "",
                       at: datetime | None = None) -> bool:
    """Set the result fields (``MATCH_RESULT_FIELDS``) of a locked match from its games, unsaved; tell whether
    its status changed.

    The one place a match's result is worked out: a bye (no ``ew`` team) is won by its team and a
    walkover (``walkover``: the side that wins it) by that side, both without games. The tournament's match
    length decides when the games are enough (``match_length_result``); a timed match is judged by its
    round's clock at ``at`` (the table's time of the hand that changed it; now by default). The director's
    active actions on the match (``Match.directives``, kept by tournaments/services/desk.py) are applied
    here, after every hand as after the action itself (``desk_result``).
    """
    was = match.status
    match.forfeit = match.decided_by = ""
    if match.is_bye or walkover:
        match.games_won_ns = match.games_won_ew = match.points_ns = match.points_ew = 0
        match.winner = walkover or Match.Winner.NS
        match.status = Match.Status.FINISHED
        return match.status != was
    if games is None:
        rows = list(match.games.order_by("number").values_list("status", "winner", "total_ns", "total_ew",
                                                               "tiebreak_deals"))
    else:
        rows = [(g.status, g.winner, g.total_ns, g.total_ew, g.tiebreak_deals) for g in games]
    # A knockout's tie-break game is no game of the match's length: it decides a match level after it.
    games = [row[:4] for row in rows if not row[4]]
    tiebreak = next((row[:4] for row in reversed(rows) if row[4]), None)
    length = length_of(match.round)
    if match.directives:
        _desk_apply(match, games, at, length, tiebreak)
        return match.status != was
    match.points_ns = sum(row[2] for row in rows)
    match.points_ew = sum(row[3] for row in rows)
    won, finished, winner = _length_result(match, length, games, (match.points_ns, match.points_ew), at)
    finished, winner = after_tiebreak(finished, winner or "", length.tiebreak_deals, tiebreak)
    match.games_won_ns = won["ns"]
    match.games_won_ew = won["ew"]
    match.winner = (winner or "") if finished else ""
    if finished:
        match.status = Match.Status.FINISHED
    elif rows:
        match.status = Match.Status.PLAYING
    else:
        match.status = Match.Status.SCHEDULED
    return match.status != was


def _length_result(match: Match, length, games: list[tuple], points: tuple[int, int], at: datetime | None):
    """(games won, finished, winner) of the match's games (not its tie-break game) under its length."""
    winners = [winner or None for status, winner, _, _ in games if status == Game.Status.FINISHED]
    if length.kind == Tournament.MatchLength.BEST_OF:
        # Without a finished game the length of the match does not matter.
        result = scoring.fold_match(length.best_of if winners else 1, winners)
        return result.games_won, result.finished, result.winner
    in_play = any(status != Game.Status.FINISHED for status, *_ in games)
    over = length.timed and time_over(match.round, at or timezone.now())
    return match_length_result(length.kind, length.games, winners, points, in_play=in_play, time_over=over)


def tiebreak_due(match: Match, games: list[Game] | None, at: datetime | None = None) -> int | None:
    """The deals of the tie-break game the match plays next (its games left it level after its length, in a
    knockout stage that plays one, and no tie-break game has won it yet); else None."""
    length = length_of(match.round)
    if not length.tiebreak_deals or match.status == Match.Status.FINISHED:
        return None
    if games is None:
        games = list(match.games.order_by("number"))
    played = [(g.status, g.winner, g.total_ns, g.total_ew) for g in games if not g.tiebreak_deals]
    points = (sum(g[2] for g in played), sum(g[3] for g in played))
    _, finished, winner = _length_result(match, length, played, points, at)
    return length.tiebreak_deals if finished and winner == "draw" else None


def _desk_apply(match: Match, games: list[tuple], at: datetime | None, length, tiebreak: tuple | None) -> None:
    """``match_result_apply``'s part for a match with the director's actions: ``desk_result`` over its games (a
    tie-break game decides a match its games left level, as without them)."""
    over = length.timed and time_over(match.round, at or timezone.now())
    result = desk_result(match.directives, games, length=length.kind, best_of=length.best_of,
                         match_games=length.games, time_over=over)
    (match.games_won_ns, match.games_won_ew, match.points_ns, match.points_ew, match.winner, finished,
     match.forfeit, match.decided_by) = result
    if not match.decided_by:
        finished, match.winner = after_tiebreak(finished, match.winner, length.tiebreak_deals, tiebreak)
        if tiebreak is not None:
            match.points_ns += tiebreak[2]
            match.points_ew += tiebreak[3]
    if finished:
        match.status = Match.Status.FINISHED
    elif games or tiebreak is not None:
        match.status = Match.Status.PLAYING
    else:
        match.status = Match.Status.SCHEDULED


def forfeit_game_points(tournament: Tournament) -> int:
    """What a game awarded by the director (a forfeit, a withdrawal's remaining games) is worth: the event's
    ``forfeit_points``, else the game's target (0 for a variant of a fixed number of deals without one)."""
    if tournament.forfeit_points is not None:
        return tournament.forfeit_points
    return tournament.variant_obj.rules(tournament.options or {}).target or 0


def match_result_saved(match: Match, moved: bool) -> None:
    """What follows a match's saved result: its version stamps (what the save signal's receiver does) and,
    when its status ``moved``, its round's status (a round not yet published: the stamps of those who see it)."""
    versions.match_saved(match, at_commit=True)  # the services read no stamp meanwhile
    if moved:
        round_refresh_status(match.round_id)
        versions.round_saved(match.round)  # the round's status, shown with its tables


def round_refresh_status(round_id: int) -> None:
    """Set a round paired, playing or finished from its matches' statuses (locked: two last matches may race)."""
    # Neither query takes the models' orderings: with the round's (its tournament first) the lock's join would
    # lock the tournament's row as well, and with the match's every table of the round would be joined and sorted
    # to find a few distinct statuses.
    Round.objects.select_for_update().filter(pk=round_id).order_by().first()
    statuses = set(Match.objects.filter(round_id=round_id).order_by().values_list("status", flat=True).distinct())
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
                       games: list[Game] | None = None, at: datetime | None = None) -> Game:
    """Start the next game of a locked match; ``games``: its games in order when the caller holds them (appended to);
    ``at``: when it started at the table (now by default)."""
    game = game_next(match=match, first_dealer=first_dealer, favourite=favourite, albur=albur, games=games, at=at)
    game.save()
    if games is not None:
        games.append(game)
    moved = match_result_apply(match, games, at=at)  # status, round status and game points (an albur scores first)
    update(match, MATCH_RESULT_FIELDS)
    match_result_saved(match, moved)
    return game


def game_next(*, match: Match, first_dealer: str, favourite: str = "", albur: str = "",
              games: list[Game] | None = None, at: datetime | None = None) -> Game:
    """Return the match's next game as it would start, unsaved, refused as ``game_start`` refuses it.

    ``games``: the match's games in order when the caller holds them; ``at``: when it starts at the table (the
    round clock refuses a game started after its end, ``round_time_over``; now by default).
    """
    at = at or timezone.now()
    if match.is_bye:
        raise _violation("game_over", "match", reason="bye")
    if match.status == Match.Status.FINISHED:
        raise _violation("game_over", "match", reason="match_decided", ns=match.games_won_ns, ew=match.games_won_ew)
    if games is None:
        last = match.games.order_by("-number").first()
    else:
        last = games[-1] if games else None
    if last is not None and last.status != Game.Status.FINISHED:
        raise Conflict("game_in_progress", None, {"game": last.number})
    # A knockout match level after its length plays its tie-break game, after the clock's end too.
    tiebreak = tiebreak_due(match, games, at) if last is not None else None
    if tiebreak is None and length_of(match.round).timed and time_over(match.round, at):
        raise Conflict("round_time_over", None, {"round": match.round.number,
                                                 "ended": timezone.localtime(match.round.clock_ends_at)
                                                 .strftime("%H:%M")})
    game = Game(match=match, number=(last.number + 1) if last else 1, first_dealer=first_dealer,
                favourite=favourite, albur=albur, started_at=at, tiebreak_deals=tiebreak)
    # The engine validates the game's draws (first dealer, favourite suit, albur) and folds the empty
    # game: the albur's points and the first dealer.
    folded = scoring.fold_game(game_settings(game), [])
    game.total_ns, game.total_ew = folded.totals["ns"], folded.totals["ew"]
    game.next_dealer = folded.next_dealer or first_dealer
    game.next_multiplier = folded.next_multiplier
    return game


@dataclass(frozen=True)
class NextHand:
    """Where a match's next hand goes: the one answer ``hand_enter``, ``hand_preview`` and the entry's state share."""

    #: The game in progress the hand continues; None when the hand would start game ``game_number``.
    game: Game | None
    game_number: int
    #: The hand's number in its game.
    number: int
    #: Who deals it: the game's next dealer; for a new game the seat after the last dealer (drawn at the table,
    #: so only a suggestion), "" before the first hand of the match.
    dealer: str
    #: What it is worth (a new game's first hand: 1).
    multiplier: int
    #: The match is decided (or a bye): it has no next hand; ``hand_enter`` refuses one.
    decided: bool

    @property
    def starts_game(self) -> bool:
        """Tell whether entering the hand starts a new game."""
        return self.game is None and not self.decided


def hand_next(*, match: Match, games: list[Game], played: int, last_dealer: str = "") -> NextHand:
    """Return where the match's next hand goes, from its games in order and the hands of the last one.

    ``played``: how many hands the last game has while it is played; ``last_dealer``: who dealt the last
    hand of the last game (the suggestion for a new game's first dealer). Reads and writes nothing.
    """
    last = games[-1] if games else None
    # A match the director decided with a game in play (a withdrawal mid-match, an adjusted result) takes no
    # more hands: that game stays as it was when the action was taken (reverted, the match takes them again).
    if last is not None and last.status == Game.Status.PLAYING and match.status != Match.Status.FINISHED:
        return NextHand(game=last, game_number=last.number, number=played + 1, dealer=last.next_dealer or "",
                        multiplier=last.next_multiplier, decided=False)
    decided = match.status == Match.Status.FINISHED or match.is_bye
    dealer = ""
    if last_dealer:
        tournament = match.round.tournament
        dealer = tournament.variant_obj.rules(tournament.options or {}).next_seat[last_dealer]
    return NextHand(game=None, game_number=last.number + 1 if last else 1, number=1, dealer=dealer, multiplier=1,
                    decided=decided)
