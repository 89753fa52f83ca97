"""Who plays where: the players of matches (both kinds of event), a round's seats, "where do I sit", a
player's evening.

Every match, in every event, has ``players``: ``{"ns": [...], "ew": [...]}`` (each ``{"id", "name"}``), the
team's two players in a team event (``ew`` empty for a bye), the seated players in an individual one
(``N``, ``S`` for ``ns``; ``E``, ``W`` for ``ew``). The functions here read them in one query however many
matches are asked for.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.models import Entry, Match, Player, Round, RoundSeat, Tournament

SIDE_SEATS = {"ns": ("N", "S"), "ew": ("E", "W")}


def _person(player: Player) -> dict:
    return {"id": player.pk, "name": player.name}


def players_of_matches(matches: Iterable[Match]) -> dict[int, dict[str, list[dict]]]:
    """``{match id: {"ns": [player, player], "ew": [...]}}`` for matches of one or more events.

    A team event's matches need ``ns__player_1`` ... joined to cost nothing more (as the scoreboard and the
    round's tables join them); an individual event's are read in one query of their seats.
    """
    matches = list(matches)
    found: dict[int, dict[str, list[dict]]] = {}
    seated = [m.pk for m in matches if m.ns_id is None]
    for m in matches:
        if m.ns_id is None:
            continue
        found[m.pk] = {side: ([_person(team.player_1), _person(team.player_2)] if team is not None else [])
                       for side, team in (("ns", m.ns), ("ew", m.ew))}
    if seated:
        seats = {}
        for seat in RoundSeat.objects.filter(match_id__in=seated).select_related("player"):
            seats.setdefault(seat.match_id, {})[seat.seat] = seat.player
        for pk in seated:
            at = seats.get(pk, {})
            found[pk] = {side: [_person(at[s]) for s in pair if s in at] for side, pair in SIDE_SEATS.items()}
    return found


def match_players(match: Match) -> dict[str, list[dict]]:
    """One match's ``players`` (see ``players_of_matches``)."""
    return players_of_matches([match])[match.pk]


def sitting_out(rnd: Round) -> list[Player]:
    """The players who sit a round of an individual event out, by name."""
    return [s.player for s in RoundSeat.objects.filter(round=rnd, match__isnull=True).select_related("player")
            .order_by("player__name", "player_id")]


def sitting_out_ids(rnds: Iterable[Round]) -> dict[int, list[int]]:
    """``{round id: [player ids]}`` of the players sitting each round out (one query)."""
    found: dict[int, list[int]] = {r.pk: [] for r in rnds}
    for round_id, player in (RoundSeat.objects.filter(round_id__in=list(found), match__isnull=True)
                             .order_by("player_id").values_list("round_id", "player_id")):
        found[round_id].append(player)
    return found


def player_seats(tournament: Tournament) -> dict[int, dict[int, tuple[int | None, str]]]:
    """``{player id: {round number: (table, seat)}}`` of an individual event, one query; sitting out: ``(None, "")``."""
    found: dict[int, dict[int, tuple[int | None, str]]] = {}
    for player, number, table, seat in (RoundSeat.objects.filter(round__tournament=tournament)
                                        .values_list("player_id", "round__number", "match__table", "seat")):
        found.setdefault(player, {})[number] = (table, seat)
    return found


def folded(text: str) -> str:
    """A name as a search compares it: case and accents folded ("Éva" finds "eva")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class SeatRow:
    """A player's place in a round: their table and seat, or sitting out (table None)."""

    player: Player
    number: int | None  # the start number
    table: int | None
    seat: str
    match_id: int | None
    club: str

    @property
    def side(self) -> str:
        return "ns" if self.seat in ("N", "S") else "ew" if self.seat else ""


def round_seats(rnd: Round) -> list[SeatRow]:
    """Every player of a round with their table and seat (sitting out: no table), in alphabetical order."""
    numbers = dict(Entry.objects.filter(tournament_id=rnd.tournament_id, player__isnull=False)
                   .values_list("player_id", "start_number"))
    rows = [SeatRow(player=s.player, number=numbers.get(s.player_id), table=s.match.table if s.match_id else None,
                    seat=s.seat, match_id=s.match_id, club=s.player.club.name if s.player.club_id else "")
            for s in RoundSeat.objects.filter(round=rnd).select_related("player__club", "match")]
    return sorted(rows, key=lambda r: (folded(r.player.name), r.number or 0))


def seat_find(rnd: Round, query: str, *, limit: int = 20) -> list[SeatRow]:
    """The round's players whose name (or start number) matches ``query``: every word of it begins a word of the
    name, case and accents folded ("pee an" finds "An Peeters"); a number finds that start number."""
    words = folded(" ".join(query.replace("\x00", "").split())).split()
    if not words:
        return []
    rows = round_seats(rnd)
    if len(words) == 1 and words[0].isdigit():
        return [r for r in rows if r.number == int(words[0])][:limit]
    found = []
    for row in rows:
        name_words = folded(row.player.name).replace("-", " ").split()
        if all(any(w.startswith(q) for w in name_words) for q in words):
            found.append(row)
    return found[:limit]


def player_evening(tournament: Tournament, player: Player) -> list[dict]:
    """A player's rounds in an individual event: table, seat, partner, opponents, result and points, by round."""
    seats = list(RoundSeat.objects.filter(round__tournament=tournament, player=player)
                 .select_related("round", "match").order_by("round__number"))
    matches = [s.match for s in seats if s.match_id]
    players = players_of_matches(matches)
    rows = []
    for s in seats:
        if s.match_id is None:
            rows.append({"round": s.round.number, "sitting_out": True})
            continue
        m, side = s.match, s.side
        other = "ew" if side == "ns" else "ns"
        mine = players[m.pk][side]
        rows.append({
            "round": s.round.number, "sitting_out": False, "match": m.pk, "table": m.table, "seat": s.seat,
            "side": side, "partner": next((p for p in mine if p["id"] != player.pk), None),
            "opponents": players[m.pk][other], "status": m.status,
            "result": ("won" if m.winner == side else "draw" if m.winner == "draw" else "lost" if m.winner else None),
            "games": {"for": getattr(m, f"games_won_{side}"), "against": getattr(m, f"games_won_{other}")},
            "points": {"for": getattr(m, f"points_{side}"), "against": getattr(m, f"points_{other}")},
        })
    return rows
