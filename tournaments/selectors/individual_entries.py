"""Reads of an individual event's entries for the organizer's pages: the players entered (found by a few letters of
their name, their club or their start number), the players to enter, the kept-apart pairs, the reserves."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Entry, KeptApart, Player, Tournament


def player_entries(*, tournament: Tournament, q: str = "") -> QuerySet:
    """The event's entries with their players and clubs, in start-number order, withdrawn ones last; ``q``: a start
    number, or words each found in the player's name or club."""
    qs = Entry.objects.filter(tournament=tournament, player__isnull=False).select_related("player__club",
                                                                                         "replaces__player")
    words = q.split()[:6]
    if len(words) == 1 and words[0].isdigit():
        qs = qs.filter(start_number=int(words[0]))
    else:
        for word in words:
            qs = qs.filter(Q(player__name__icontains=word) | Q(player__club__name__icontains=word))
    return qs.order_by("withdrawn", "start_number", "pk")


def player_search(*, q: str, exclude_tournament: Tournament | None = None) -> QuerySet:
    """The active players of every club (and of none) whose name or club holds each word of ``q``, by name."""
    qs = Player.objects.filter(retired=False).select_related("club")
    for word in q.split()[:6]:
        qs = qs.filter(Q(name__icontains=word) | Q(club__name__icontains=word))
    if exclude_tournament is not None:
        qs = qs.exclude(pk__in=Entry.objects.filter(tournament=exclude_tournament, player__isnull=False)
                        .values("player_id"))
    return qs.order_by("name", "club__name", "pk")


def kept_apart_pairs(*, tournament: Tournament) -> list[dict]:
    """The event's kept-apart pairs, each with both players, their start numbers and the reason."""
    numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                   .values_list("player_id", "start_number"))
    return [{"pair": p, "a": p.player_a, "b": p.player_b, "a_number": numbers.get(p.player_a_id),
             "b_number": numbers.get(p.player_b_id)}
            for p in KeptApart.objects.filter(tournament=tournament).select_related("player_a", "player_b")
            .order_by("player_a__name", "player_b__name")]


def free_reserves(*, tournament: Tournament) -> int:
    """How many reserves are still free to take a leaver's seat."""
    return Entry.objects.filter(tournament=tournament, reserve=True, withdrawn=False).count()
