"""Reads for a club's pages: its players and teams, searched, active or retired."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from tournaments.models import Entry, Player, Team


def club_players(*, club_id: int, q: str = "", retired: bool = False) -> QuerySet:
    """Return a club's players (active ones, or the retired ones) whose name or licence holds each word of ``q``,
    each with how many of the club's teams they are in (``team_count``)."""
    qs = Player.objects.filter(club_id=club_id, retired=retired)
    for word in q.split()[:6]:
        qs = qs.filter(Q(name__icontains=word) | Q(licence__icontains=word))
    teams = Team.objects.filter(Q(player_1=OuterRef("pk")) | Q(player_2=OuterRef("pk")))
    return qs.annotate(in_team=Exists(teams)).order_by("name", "pk")


def club_teams(*, club_id: int, q: str = "", retired: bool = False) -> QuerySet:
    """Return a club's teams (active ones, or the retired ones) whose name or a player's name holds each word of
    ``q``, with their players and how many tournaments each entered (``entry_count``)."""
    qs = Team.objects.filter(club_id=club_id, retired=retired).select_related("player_1", "player_2")
    for word in q.split()[:6]:
        qs = qs.filter(Q(name__icontains=word) | Q(player_1__name__icontains=word)
                       | Q(player_2__name__icontains=word))
    entries = Entry.objects.filter(team=OuterRef("pk")).values("team").annotate(n=Count("pk")).values("n")
    return qs.annotate(entry_count=entries).order_by("name", "pk")


def club_counts(*, club_id: int) -> dict:
    """Return how many active and retired players and teams a club has."""
    players = Player.objects.filter(club_id=club_id).aggregate(
        active=Count("pk", filter=Q(retired=False)), retired=Count("pk", filter=Q(retired=True)))
    teams = Team.objects.filter(club_id=club_id).aggregate(
        active=Count("pk", filter=Q(retired=False)), retired=Count("pk", filter=Q(retired=True)))
    return {"players": players, "teams": teams}


def club_player_choices(*, club_id: int, keep: tuple = ()) -> QuerySet:
    """Return the players a team of the club may be formed of: the active ones, and those in ``keep`` (ids)."""
    return Player.objects.filter(Q(retired=False) | Q(pk__in=[k for k in keep if k]), club_id=club_id).order_by("name")


def club_export_players(*, club_id: int) -> QuerySet:
    """Return every player of a club, retired ones included, in the export's order."""
    return Player.objects.filter(club_id=club_id).order_by("name", "pk")


def club_export_teams(*, club_id: int) -> QuerySet:
    """Return every team of a club with its players, retired ones included, in the export's order."""
    return Team.objects.filter(club_id=club_id).select_related("player_1", "player_2").order_by("name", "pk")
