"""An individual event built from rows for the tests of its reads and pages: players of several clubs (and some
of none) entered with start numbers, rounds seated at tables of four by the ``tables`` rotation, sit-outs, codes.

The rows are what the draw service saves (``tournaments.services.draws._save_draw``): a round, one match a
table with its code and no teams, one ``RoundSeat`` a player. The pages read rows, so their tests do not depend
on the draw's choices: the first round of a cycle seats the players in start-number order, four to a table
(A at N, B at S, C at E, D at W), the last ``n % 4`` sitting out; rounds 2 and 3 turn the partnerships
(A+C v B+D, A+D v B+C), A staying seated.
"""

from __future__ import annotations

from tournaments.models import Club, Entry, Match, Player, Round, RoundSeat, Tournament
from tournaments.services.hands import hand_enter

FIRST = ["An", "Jan", "Piet", "Marie", "Els", "Koen", "Lieve", "Wout", "Griet", "Dirk", "Rita", "Luc", "Sofie",
         "Bart", "Hilde", "Marc", "Frank", "Ilse", "Geert", "Katrien", "Tom", "Veerle", "Joris", "Nele", "Éva"]
LAST = ["Peeters", "Claes", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Goossens", "Wouters", "De Smet",
        "Dubois", "Lambrecht", "Hermans", "Van Damme", "Vermeulen", "De Cock", "Verhaeghe", "D'Hondt", "Coppens",
        "Van den Broeck"]
CLUBS = ["De Zwarte Kat", "Café Sportwereld", "De Klaverboer"]
#: seats N, S, E, W of each round of a cycle, as indices into the cycle's players A, B, C, D
ROTATION = {1: (0, 1, 2, 3), 2: (0, 2, 1, 3), 3: (0, 3, 1, 2)}


def player_names(count: int) -> list[str]:
    """``count`` distinct names, the first ones "An Peeters", "Jan Claes", ..."""
    names = []
    combos = len(FIRST) * len(LAST)
    for i in range(count):
        j = i % combos
        first, last = FIRST[j % len(FIRST)], LAST[(j // len(FIRST) + j % len(FIRST)) % len(LAST)]
        names.append(f"{first} {last}" + (f" {i // combos + 1}" if i >= combos else ""))
    return names


def make_individual(players: int = 22, *, name: str = "Kaarting De Zwarte Kat", slug: str = "kaarting",
                    clubless: int = 2, rounds: int = 3, drawn: int = 1, public: bool = True,
                    format: str = "tables", minutes: int | None = 30, best_n: int | None = None) -> Tournament:
    """An individual event of ``players`` entered players (the last ``clubless`` of no club), ``drawn`` rounds."""
    tournament = Tournament.objects.create(
        name=name, slug=slug, variant="belgian-manille", entry=Tournament.EntryKind.INDIVIDUAL, format=format,
        rounds=rounds, public=public, status=Tournament.Status.RUNNING, club_best_n=best_n,
        match_length=Tournament.MatchLength.TIMED if minutes else Tournament.MatchLength.BEST_OF, minutes=minutes,
        club=Club.objects.get_or_create(name=CLUBS[0], defaults={"city": "Gent"})[0])
    clubs = [Club.objects.get_or_create(name=c, defaults={"city": "Aalst"})[0] for c in CLUBS]
    people = Player.objects.bulk_create([
        Player(name=n, club=None if i >= players - clubless else clubs[i % len(clubs)])
        for i, n in enumerate(player_names(players))])
    Entry.objects.bulk_create([Entry(tournament=tournament, player=p, start_number=i + 1)
                               for i, p in enumerate(people)])
    for number in range(1, drawn + 1):
        draw_round(tournament, number)
    return tournament


def draw_round(tournament: Tournament, number: int) -> Round:
    """Seat round ``number`` as described above; each table's code is ``T<round>-<table>``."""
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False)
                   .order_by("start_number").values_list("player_id", flat=True))
    tables = len(entries) // 4
    rnd = Round.objects.create(tournament=tournament, number=number, seed=f"seed-{number}")
    matches = Match.objects.bulk_create([Match(round=rnd, table=t + 1, table_code=f"T{number}{t + 1:03d}")
                                         for t in range(tables)])
    order = ROTATION[(number - 1) % 3 + 1] if tournament.format == "tables" else ROTATION[1]
    seats = []
    for t, match in enumerate(matches):
        abcd = entries[4 * t:4 * t + 4]
        for seat, index in zip("NSEW", order):
            seats.append(RoundSeat(round=rnd, match=match, player_id=abcd[index], seat=seat))
    seats += [RoundSeat(round=rnd, match=None, player_id=p, seat="") for p in entries[4 * tables:]]
    RoundSeat.objects.bulk_create(seats, batch_size=2000)
    return rnd


def seat_stage_round(tournament, stage, number: int, start_numbers: list[int]) -> Round:
    """Round ``number`` of ``stage`` seating ``start_numbers`` four to a table (A, B, C, D) by the cycle's rotation;
    each table's code is ``S<stage>R<round>T<table>``."""
    player_of = dict(Entry.objects.filter(tournament=tournament).values_list("start_number", "player_id"))
    rnd = Round.objects.create(tournament=tournament, stage=stage, number=number, seed=f"s{stage.number}-{number}")
    for t in range(len(start_numbers) // 4):
        match = Match.objects.create(round=rnd, table=t + 1, table_code=f"S{stage.number}R{number}T{t + 1}")
        abcd = start_numbers[4 * t:4 * t + 4]
        RoundSeat.objects.bulk_create([RoundSeat(round=rnd, match=match, player_id=player_of[abcd[i]], seat=seat)
                                       for seat, i in zip("NSEW", ROTATION[(number - 1) % 3 + 1])])
    return rnd


def belgian_hand(number: int, ns: int = 37) -> dict:
    """The Belgian summary of hand ``number`` of a game (1-based), the dealer turning clockwise from N."""
    tricks = (5, 3) if ns > 30 else (3, 5)
    return {"dealer": "NESW"[(number - 1) % 4], "trump": "H", "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns, "ew": 60 - ns}}


def play_hands(match: Match, count: int, ns: int = 37) -> None:
    """Enter ``count`` hands of the match's current game through the hand service."""
    game = match.games.order_by("-number").first()
    start = game.hands.count() if game is not None and game.status == "playing" else 0
    for i in range(start, start + count):
        hand_enter(match=match, data=belgian_hand(i + 1, ns))
