"""Reads of the players entered in an individual event: the list by start number, one player's entry."""

from __future__ import annotations

from tournaments.models import Entry, Tournament


def entered_players(tournament: Tournament) -> list[Entry]:
    """The event's player entries with their players and clubs, by start number (one query)."""
    return list(Entry.objects.filter(tournament=tournament, player__isnull=False)
                .select_related("player__club").order_by("start_number", "player__name"))


def entered_player(tournament: Tournament, player_id: int) -> Entry | None:
    """A player's entry in the event, with the player and club (None: not entered)."""
    return (Entry.objects.filter(tournament=tournament, player_id=player_id)
            .select_related("player__club").first())
