"""Reads for the organizer's pages: entries, teams to enter, forbidden pairs, a round's tables, the results."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournaments.models import Entry, ForbiddenPair, Match, Player, Round, Team, Tournament


def tournament_entries(*, tournament: Tournament) -> QuerySet:
    """Return the entries of a tournament with their teams, clubs and players, in seed order (unseeded last)."""
    return (Entry.objects.filter(tournament=tournament)
            .select_related("team__club", "team__player_1", "team__player_2")
            .order_by("withdrawn", "seed", "team__name"))


def team_search(*, q: str, exclude_tournament: Tournament | None = None) -> QuerySet:
    """Return the active teams of every club whose name, club or a player's name holds each word of ``q``."""
    qs = Team.objects.filter(retired=False).select_related("club", "player_1", "player_2")
    for word in q.split()[:6]:
        qs = qs.filter(Q(name__icontains=word) | Q(club__name__icontains=word)
                       | Q(player_1__name__icontains=word) | Q(player_2__name__icontains=word))
    if exclude_tournament is not None:
        qs = qs.exclude(pk__in=Entry.objects.filter(tournament=exclude_tournament).values("team_id"))
    return qs.order_by("name", "club__name")


def club_active_players(*, club_id: int) -> QuerySet:
    """Return a club's active players by name (the players a new team of the entry form can pair)."""
    return Player.objects.filter(club_id=club_id, retired=False).order_by("name")


def tournament_forbidden_pairs(*, tournament: Tournament) -> QuerySet:
    """Return a tournament's forbidden pairs with both teams and their clubs."""
    return (ForbiddenPair.objects.filter(tournament=tournament)
            .select_related("team_a__club", "team_b__club").order_by("team_a__name", "team_b__name"))


def tournament_rounds(*, tournament: Tournament) -> QuerySet:
    """Return a tournament's rounds, stage by stage (round numbers count per stage), each with its stage, how many
    matches it has and how many are finished (byes included)."""
    return (Round.objects.filter(tournament=tournament).select_related("stage").order_by("stage__number", "number")
            .annotate(tables=Count("matches"),
                      finished=Count("matches", filter=Q(matches__status=Match.Status.FINISHED))))


def round_matches(*, round: Round) -> QuerySet:
    """Return a round's matches with teams, clubs, players and whether any game was started, by table."""
    return (Match.objects.filter(round=round)
            .select_related("ns__club", "ew__club", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2")
            .annotate(game_count=Count("games")).order_by("table"))


def tournament_results(*, tournament: Tournament) -> QuerySet:
    """Return every match of a tournament with its round (and the round's stage), teams and clubs, by stage, round
    and table (round numbers count per stage)."""
    return (Match.objects.filter(round__tournament=tournament)
            .select_related("round__stage", "ns__club", "ew__club")
            .order_by("round__stage__number", "round__number", "table"))
