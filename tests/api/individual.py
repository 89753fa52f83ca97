"""Individual events for the API tests: an event, its players entered, rounds seated by hand (rows) or drawn."""

from __future__ import annotations

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Match, Player, Round, RoundSeat, Tournament
from tournaments.services.draws import entry_add_player

SEATS = "NESW"


def individual_event(**fields) -> Tournament:
    """A public Belgian individual event of tables of four, three rounds (``fields`` change it)."""
    defaults = {"name": "Kortrijkse Kaarting", "variant": "belgian-manille", "entry": "individual",
                "format": "tables", "rounds": 3, "best_of": 1}
    return TournamentFactory(**(defaults | fields))


def enter_players(tournament: Tournament, count: int, *, clubs: int = 3, without_club: int = 0) -> list[Player]:
    """Enter ``count`` players (start numbers 1..count) from ``clubs`` clubs, the last ``without_club`` clubless."""
    homes = [ClubFactory(name=f"Club {tournament.pk}-{i}") for i in range(clubs)]
    players = []
    for n in range(count):
        club = None if n >= count - without_club else homes[n % clubs]
        player = PlayerFactory(name=f"Speler {n + 1:02d}", club=club)
        entry_add_player(tournament=tournament, player=player)
        players.append(player)
    return players


def seated_round(tournament: Tournament, number: int, tables: list[tuple[Player, Player, Player, Player]],
                 out: tuple[Player, ...] = ()) -> Round:
    """A round seated by hand: one match a table of four (seats N, E, S, W in that order), ``out`` sitting out."""
    rnd = Round.objects.create(tournament=tournament, number=number, seed=f"seed-{number}")
    matches = Match.objects.bulk_create([Match(round=rnd, table=t, table_code=f"CODE{number}{t:02d}")
                                         for t in range(1, len(tables) + 1)])
    seats = [RoundSeat(round=rnd, match=m, player=p, seat=seat)
             for m, four in zip(matches, tables) for seat, p in zip(SEATS, four)]
    seats += [RoundSeat(round=rnd, match=None, player=p, seat="") for p in out]
    RoundSeat.objects.bulk_create(seats)
    return rnd


def names(players) -> list[dict]:
    return [{"id": p.pk, "name": p.name} for p in players]
