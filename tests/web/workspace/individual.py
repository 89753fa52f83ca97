"""An individual event for the workspace's tests: players entered through the services, and a round seated from
rows (tables of four with their codes, the players left over sitting out) where a test needs no real draw."""

from __future__ import annotations

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, Match, Round, RoundSeat, Tournament
from tournaments.services.draws import entry_add_player

#: Twenty-two names of a Flemish kaarting, two of them without a club.
NAMES = ["An Peeters", "Bart Claes", "Chris Wouters", "Dirk Maes", "Els Janssens", "Frank Willems", "Greet Goossens",
         "Hilde Jacobs", "Ivo Mertens", "Jan De Smet", "Karel Hermans", "Lies Dumont", "Marc Aerts", "Nele Pauwels",
         "Omer Lambert", "Paula Dubois", "Rik Vermeulen", "Sofie Martens", "Tom Michiels", "Ulla Desmet",
         "Vic Renard", "Wim Segers"]


def individual_event(players: int = 22, *, name: str = "Kaarting De Kat", slug: str = "kaarting-de-kat",
                     organizer=None, fmt: str = "tables", rounds: int = 3, minutes: int | None = 30,
                     public: bool = False) -> Tournament:
    """A draft individual event with ``players`` entered (start numbers 1..n), two clubs and players of none."""
    tournament = TournamentFactory(
        name=name, slug=slug, entry=Tournament.EntryKind.INDIVIDUAL, format=fmt, rounds=rounds, public=public,
        match_length=Tournament.MatchLength.TIMED if minutes else Tournament.MatchLength.BEST_OF,
        minutes=minutes, best_of=1)
    if organizer is not None:
        tournament.organizers.add(organizer)
    clubs = [ClubFactory(name=f"{name} club A"), ClubFactory(name=f"{name} club B")]
    for i in range(players):
        player_name = NAMES[i] if i < len(NAMES) else f"Speler {i + 1}"
        club = None if i % 11 == 10 else clubs[i % 2]
        entry_add_player(tournament=tournament, player=PlayerFactory(name=player_name, club=club))
    return tournament


def seat_round(tournament: Tournament, number: int = 1, codes: list[str] | None = None) -> Round:
    """Seat round ``number`` from rows: the active players in start-number order, rotated by the round, four to
    a table (N, E, S, W), the rest sitting out; table ``t``'s code is ``codes[t - 1]`` (or ``T<n>R<t>CD``)."""
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False)
                   .order_by("start_number"))
    shift = (number - 1) * 3 % max(1, len(entries))
    order = entries[shift:] + entries[:shift]
    rnd = Round.objects.create(tournament=tournament, number=number, seed=f"seed{number}")
    tables = len(order) // 4
    for t in range(tables):
        code = codes[t] if codes else f"R{number}T{t + 1}CD"
        match = Match.objects.create(round=rnd, table=t + 1, table_code=code)
        for seat, entry in zip("NESW", order[4 * t:4 * t + 4]):
            RoundSeat.objects.create(round=rnd, match=match, player=entry.player, seat=seat)
    for entry in order[4 * tables:]:
        RoundSeat.objects.create(round=rnd, match=None, player=entry.player, seat="")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    return rnd
