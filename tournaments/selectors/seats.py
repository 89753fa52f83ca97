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

from tournaments.models import Entry, Match, Player, Round, RoundSeat, Stage, Tournament
from tournaments.pairing.individual.tables import ROTATION

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
    """One match's ``players`` (see ``players_of_matches``), read once for the match object (a scoreboard asks twice)."""
    found = match.__dict__.get("_players")
    if found is None:
        found = match.__dict__["_players"] = players_of_matches([match])[match.pk]
    return found


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


def player_seats(tournament: Tournament) -> dict[int, dict[tuple[int, int], tuple[int | None, str]]]:
    """``{player id: {(stage number, round number): (table, seat)}}`` of an individual event (round numbers count
    per stage), one query; sitting out: ``(None, "")``."""
    found: dict[int, dict[tuple[int, int], tuple[int | None, str]]] = {}
    for player, stage, number, table, seat in (
            RoundSeat.objects.filter(round__tournament=tournament)
            .values_list("player_id", "round__stage__number", "round__number", "match__table", "seat")):
        found.setdefault(player, {})[(stage or 1, number)] = (table, seat)
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
    # Read as values (a championship's 544 seats: four model instances each cost 70 ms), the player made of them.
    seats = RoundSeat.objects.filter(round=rnd).values_list(
        "player_id", "player__name", "player__club_id", "player__club__name", "seat", "match_id", "match__table")
    rows = [SeatRow(player=Player(pk=pid, name=name, club_id=club_id), number=numbers.get(pid), table=table,
                    seat=seat, match_id=match_id, club=club or "")
            for pid, name, club_id, club, seat, match_id, table in seats]
    return sorted(rows, key=lambda r: (folded(r.player.name), r.number or 0))


def seat_find(rnd: Round, query: str, *, limit: int = 20) -> list[SeatRow]:
    """The round's players whose name (or start number) matches ``query``: every word of it begins a word of the
    name, case and accents folded ("pee an" finds "An Peeters"); a number finds that start number."""
    return _matching(round_seats(rnd), query)[:limit]


def _matching(rows: list[SeatRow], query: str) -> list[SeatRow]:
    """``seat_find``'s rule over rows read already."""
    words = folded(" ".join(query.replace("\x00", "").split())).split()
    if not words:
        return []
    if len(words) == 1 and words[0].isdigit():
        return [r for r in rows if r.number == int(words[0])]
    found = []
    for row in rows:
        name_words = _name_words(row.player.name)
        if all(any(w.startswith(q) for w in name_words) for q in words):
            found.append(row)
    return found


def _name_words(name: str) -> set[str]:
    """The words a search may begin: "D'Hondt" is "d'hondt", "d", "hondt" and "dhondt"; a hyphen splits too."""
    text = folded(name).replace("-", " ").replace("\u2019", "'")
    return {*text.split(), *text.replace("'", " ").split(), *text.replace("'", "").split()}


def player_evening(tournament: Tournament, player: Player, published: bool = False) -> list[dict]:
    """A player's rounds in an individual event: table, seat, partner, opponents, result and points, by stage and
    round (``published``: of the published rounds alone, a public page's); ``round_obj`` the round with its stage."""
    seats = RoundSeat.objects.filter(round__tournament=tournament, player=player)
    if published:
        seats = seats.filter(round__published_at__isnull=False)
    seats = list(seats.select_related("round__stage", "match").order_by("round__stage__number", "round__number"))
    matches = [s.match for s in seats if s.match_id]
    players = players_of_matches(matches)
    rows = []
    for s in seats:
        if s.match_id is None:
            rows.append({"round": s.round.number, "round_obj": s.round, "sitting_out": True})
            continue
        m, side = s.match, s.side
        other = "ew" if side == "ns" else "ns"
        mine = players[m.pk][side]
        rows.append({
            "round": s.round.number, "round_obj": s.round, "sitting_out": False, "match": m.pk, "table": m.table, "seat": s.seat,
            "side": side, "partner": next((p for p in mine if p["id"] != player.pk), None),
            "opponents": players[m.pk][other], "status": m.status,
            "result": ("won" if m.winner == side else "draw" if m.winner == "draw" else "lost" if m.winner else None),
            "games": {"for": getattr(m, f"games_won_{side}"), "against": getattr(m, f"games_won_{other}")},
            "points": {"for": getattr(m, f"points_{side}"), "against": getattr(m, f"points_{other}")},
        })
    return rows


# -- the pages of an individual event: a round's tables and sit-outs, "where do I sit", the cycle's sheets ---------


def round_seating(rnd: Round) -> dict:
    """A round's seats read once (``round_seats``' two queries): ``{"rows": [SeatRow] alphabetically, "tables":
    {match id: {seat: SeatRow}}, "sitting_out": [SeatRow]}``."""
    rows = round_seats(rnd)
    tables: dict[int, dict[str, SeatRow]] = {}
    for row in rows:
        if row.match_id is not None:
            tables.setdefault(row.match_id, {})[row.seat] = row
    return {"rows": rows, "tables": tables, "sitting_out": [r for r in rows if r.match_id is None]}


@dataclass(frozen=True)
class SeatAnswer:
    """A player found by "where do I sit": their place, their partner and their opponents (none: sitting out)."""

    row: SeatRow
    partner: SeatRow | None
    opponents: tuple[SeatRow, ...]


def seat_lookup(rnd: Round, query: str, *, limit: int = 20) -> dict:
    """"Where do I sit" with everything a player needs: ``{"answers": [SeatAnswer], "count": n, "more": bool}``.

    ``seat_find``'s rule; ``count`` is how many players matched, ``more`` whether there were more than ``limit``
    (the page asks for more letters). The partners and opponents come from the same read of the round's seats.
    """
    rows = round_seats(rnd)
    found = _matching(rows, query)
    at_table: dict[int, dict[str, SeatRow]] = {}
    for row in rows:
        if row.match_id is not None:
            at_table.setdefault(row.match_id, {})[row.seat] = row
    answers = []
    for row in found[:limit]:
        if row.match_id is None:
            answers.append(SeatAnswer(row, None, ()))
            continue
        seats = at_table[row.match_id]
        mine, theirs = (SIDE_SEATS["ns"], SIDE_SEATS["ew"]) if row.side == "ns" else (SIDE_SEATS["ew"],
                                                                                     SIDE_SEATS["ns"])
        partner = next((seats[s] for s in mine if s != row.seat and s in seats), None)
        answers.append(SeatAnswer(row, partner, tuple(seats[s] for s in theirs if s in seats)))
    return {"answers": answers, "count": len(found), "more": len(found) > limit}


#: The seats N, S, E, W of each round of a ``tables`` cycle as indices into the cycle's players A, B, C, D (A the
#: seated scorer): A+B v C+D, A+C v B+D, A+D v B+C, the draw's own rotation.
CYCLE_ROTATION = ROTATION
CYCLE_SEATS = "NSEW"


def cycle_format(tournament: Tournament, stage: Stage | None) -> str:
    """The format that decides a round's cycle: its stage's (a later stage of a championship may be ``tables``
    after a Swiss, or the reverse), the tournament's for stage 1 or no stage."""
    return stage.format if stage is not None and stage.number > 1 else tournament.format


def cycle_round(tournament: Tournament, number: int, stage: Stage | None = None) -> int:
    """Which round of its cycle round ``number`` of ``stage`` is (1, 2 or 3); round numbers count per stage, so a
    later stage's cycle starts again at its round 1. A Swiss individual event (or stage) has no cycle (1)."""
    return (number - 1) % 3 + 1 if cycle_format(tournament, stage) == Tournament.Format.TABLES else 1


def cycle_numbers(tournament: Tournament, number: int, stage: Stage | None = None) -> list[int]:
    """The rounds of round ``number``'s cycle in its stage: three in a ``tables`` event or stage (none past the
    stage's last round), the round alone in a Swiss one."""
    if cycle_format(tournament, stage) != Tournament.Format.TABLES:
        return [number]
    first = number - cycle_round(tournament, number, stage) + 1
    last = stage.rounds if stage is not None and stage.number > 1 else tournament.rounds
    return [n for n in range(first, first + 3) if n <= max(last, number)]


@dataclass(frozen=True)
class CycleRound:
    """One round of a table's cycle: its seats, and its match when it is drawn (else the rotation's seats)."""

    number: int
    seats: dict[str, SeatRow | None]
    match_id: int | None
    table_code: str

    @property
    def drawn(self) -> bool:
        return self.match_id is not None


@dataclass(frozen=True)
class CycleTable:
    """A table of a round with its whole cycle, for its score sheet: the players A, B, C, D (A seated), the rounds."""

    table: int
    match_id: int
    players: tuple[SeatRow | None, ...]
    rounds: tuple[CycleRound, ...]


def cycle_tables(rnd: Round, tournament: Tournament | None = None) -> list[CycleTable]:
    """Every table of a round with its cycle's rounds in its stage, by table, in two queries (three without
    ``tournament``).

    The players A, B, C, D are read from the latest round of the cycle drawn at the table (a reserve who took a
    seat is there); the rounds of the cycle not drawn yet take their seats from the rotation.
    """
    tournament = tournament or rnd.tournament
    # The round's own stage: round numbers count per stage (stage 2's round 1 is not stage 1's) and its cycle starts
    # again at its round 1. A round read without its stage reads the rounds its cycle may hold and the stage with them.
    stage = rnd.stage if Round.stage.is_cached(rnd) else None
    if stage is not None:
        numbers = cycle_numbers(tournament, rnd.number, stage)
    else:
        first = rnd.number - (rnd.number - 1) % 3
        numbers = list(range(first, first + 3))
    start_numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                         .values_list("player_id", "start_number"))
    rows = list(RoundSeat.objects.filter(round__stage_id=rnd.stage_id, round__number__in=numbers, match__isnull=False)
                .select_related("player__club", "match", "round__stage"))
    if stage is None:
        stage = rows[0].round.stage if rows else None
        numbers = cycle_numbers(tournament, rnd.number, stage)
    seats: dict[tuple[int, int], dict[str, SeatRow]] = {}
    matches: dict[tuple[int, int], Match] = {}
    for s in rows:
        if s.round.number not in numbers:
            continue
        key = (s.round.number, s.match.table)
        seats.setdefault(key, {})[s.seat] = SeatRow(
            player=s.player, number=start_numbers.get(s.player_id), table=s.match.table, seat=s.seat,
            match_id=s.match_id, club=s.player.club.name if s.player.club_id else "")
        matches[key] = s.match
    tables = []
    for table in sorted(t for n, t in seats if n == rnd.number):
        latest = max(n for n in numbers if (n, table) in seats)
        players: list[SeatRow | None] = [None] * 4
        for seat, index in zip(CYCLE_SEATS, CYCLE_ROTATION[cycle_round(tournament, latest, stage)]):
            players[index] = seats[(latest, table)].get(seat)
        rounds = []
        for n in numbers:
            match = matches.get((n, table))
            at = (seats[(n, table)] if match is not None else
                  {seat: players[i] for seat, i in zip(CYCLE_SEATS, CYCLE_ROTATION[cycle_round(tournament, n, stage)])})
            rounds.append(CycleRound(n, {seat: at.get(seat) for seat in CYCLE_SEATS},
                                     match.pk if match else None, match.table_code if match else ""))
        tables.append(CycleTable(table, matches[(rnd.number, table)].pk, tuple(players), tuple(rounds)))
    return tables
