"""Reads of a wall's tables: every match of a round, or every match being played, with names and points.

One answer for a whole round (a scoreboard app, a club's website, the hall's wall) instead of one
scoreboard a table: the teams and their players named, games won, the current game's points. Three
queries whatever the number of tables: the round, its matches with their teams, clubs and players
(joined), and their games (one prefetch).
"""

from django.db.models import Prefetch
from django.utils import timezone

from tournaments.models import Game, Match, Round, Tournament
from tournaments.selectors import confirmation
from tournaments.selectors.seats import players_of_matches

_JOINS = ("round__tournament", "ns__club", "ew__club", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2")


def _matches():
    games = Prefetch("games", queryset=Game.objects.order_by("number").only(
        "id", "match_id", "number", "status", "total_ns", "total_ew", "winner"))
    return Match.objects.select_related(*_JOINS).prefetch_related(games)


def _side(team) -> dict | None:
    if team is None:
        return None
    return {"id": team.pk, "name": team.name, "club": {"id": team.club_id, "name": team.club.name}}


def _players(team) -> list[dict]:
    return [] if team is None else [{"id": p.pk, "name": p.name} for p in (team.player_1, team.player_2)]


def result_status(match: Match) -> str | None:
    """Return the contract's ``result_status``: null until the match is finished, then ``final`` (a bye, confirmation
    off) or where its confirmation stands: ``entered``, ``confirmed``, ``disputed``, ``final``."""
    return confirmation.status_of(match)


def table_row(match: Match, players: dict | None = None) -> dict:
    """Return one table: the match with its teams and players named, games won and the current game's points.

    ``players``: the match's players when read for many (``seats.players_of_matches``); an individual event's
    match needs them (its players are its seats), a team event's are its teams'.
    """
    games = list(match.games.all())
    last = games[-1] if games else None
    return {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table,
        "bye": match.is_bye,
        "ns": _side(match.ns),
        "ew": _side(match.ew),
        "players": players if players is not None else {"ns": _players(match.ns), "ew": _players(match.ew)},
        "status": match.status,
        "result_status": result_status(match),
        "winner": match.winner or None,
        "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
        "points": {"ns": match.points_ns, "ew": match.points_ew},
        "game": None if last is None else {"number": last.number, "status": last.status,
                                           "totals": {"ns": last.total_ns, "ew": last.total_ew}},
        "updated_at": timezone.localtime(match.updated_at).isoformat(),
    }


def round_tables(*, tournament: Tournament, number: int, unpublished: bool = False) -> dict | None:
    """Return a round's number, status and every table (None: no such round, or not yet published and
    ``unpublished`` false: the reader does not see it, ``access.sees_unpublished``)."""
    rounds = Round.objects.filter(tournament=tournament, number=number)
    rnd = (rounds if unpublished else rounds.published()).only("id", "number", "status").first()
    if rnd is None:
        return None
    matches = list(_matches().filter(round=rnd).order_by("table"))
    players = players_of_matches(matches)
    return {"number": rnd.number, "status": rnd.status, "tables": [table_row(m, players[m.pk]) for m in matches]}


def live_tables(*, tournament: Tournament, unpublished: bool = False) -> dict:
    """Return the tournament's matches being played now (a hand entered, the match not finished), by round and table
    (those of rounds not yet published only with ``unpublished``)."""
    matches = _matches().filter(round__tournament=tournament, status=Match.Status.PLAYING)
    if not unpublished:
        matches = matches.filter(round__published_at__isnull=False)
    matches = list(matches.order_by("round__number", "table"))
    players = players_of_matches(matches)
    return {"tables": [table_row(m, players[m.pk]) for m in matches]}


def round_matches(rnd: Round) -> list[Match]:
    """A round's matches by table with their games in order (``match.games.all()``), in two queries: the pages of
    an individual event, whose players come from the round's seats (``seats.round_seating``)."""
    games = Prefetch("games", queryset=Game.objects.order_by("number").only(
        "id", "match_id", "number", "status", "total_ns", "total_ew", "winner"))
    return list(Match.objects.filter(round=rnd).prefetch_related(games).order_by("table"))
