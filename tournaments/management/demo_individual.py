"""The demo's individual kaarting (``manage.py load_demo``): 22 players of three clubs and two of none, drawn to
tables of four by the draw service, timed rounds of 30 minutes.

Everything goes through the services, as the organizer and the scorekeeper would: the players entered with
start numbers (``entry_add_player``), each round drawn (``round_pair``), its clock started and ended
(``round_clock_*``), and hands dealt and played at random by the command's ``Table`` and entered with
``hand_enter``. Rounds 1 and 2 are played (one or two whole games a table, then the clock ends them);
round 3 is drawn, its clock running, hands in at three of its tables. The draw's seed is the server's: the
seating changes from one load to the next, the hands (dealt from the demo's seed) do not.
"""

from __future__ import annotations

from tournaments.models import Club, Game, Match, Player, Round, RoundSeat, Tournament
from tournaments.services.clock import round_clock_end, round_clock_start
from tournaments.services.draws import entry_add_player
from tournaments.services.games import hand_next
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair

KAARTING = dict(slug="kaarting-zwarte-kat", name="Kaarting De Zwarte Kat", variant="belgian-manille",
                entry=Tournament.EntryKind.INDIVIDUAL, format=Tournament.Format.TABLES, rounds=3,
                match_length=Tournament.MatchLength.TIMED, minutes=30, at_time=Tournament.AtTime.FINISH)
#: A club of its own for the kaarting (the other players come from the demo's two Belgian clubs), and two
#: players of no club.
KLAVERBOER = ("De Klaverboer", "Ninove", ["Jef Van Acker", "Mieke De Bruyne", "Staf Raes", "Lotte Cnudde"])
CLUBLESS = ["Rik Deprez", "Nora Mahieu"]
BELGIAN_CLUBS = ("De Zwarte Kat", "Café Sportwereld")
#: Hands entered at the first tables of round 3, the round in play.
ROUND_THREE_HANDS = (5, 3, 2)


def kaarting_players() -> list[Player]:
    """The kaarting's 22 players: the Belgian clubs' 16, De Klaverboer's four, two of no club (made if missing)."""
    club, _ = Club.objects.get_or_create(name=KLAVERBOER[0], defaults={"city": KLAVERBOER[1]})
    players = list(Player.objects.filter(club__name__in=BELGIAN_CLUBS).order_by("club__name", "name"))
    players += [Player.objects.get_or_create(club=club, name=name)[0] for name in KLAVERBOER[2]]
    for name in CLUBLESS:
        player = Player.objects.filter(club__isnull=True, name=name).first()
        players.append(player or Player.objects.create(club=None, name=name))
    return players


def reset_kaarting_people() -> None:
    """Delete the players and the club only the kaarting brought (after its tournament is deleted)."""
    Player.objects.filter(club__name=KLAVERBOER[0], name__in=KLAVERBOER[2]).delete()
    Player.objects.filter(club__isnull=True, name__in=CLUBLESS).delete()


def _play_games(match: Match, table, user, games: int | None = None, hands: int | None = None) -> None:
    """Enter hands at a table until ``games`` games are won (or ``hands`` hands are in)."""
    dealer = table.rng.choice(table.rules.order)
    entered = 0
    while True:
        if hands is not None and entered >= hands:
            return
        if games is not None and Game.objects.filter(match=match, status=Game.Status.FINISHED).count() >= games:
            return
        hand, _ = hand_enter(match=match, data=table.belgian_hand(dealer), user=user)
        entered += 1
        game = hand.game
        dealer = hand_next(match=game.match, games=[game], played=hand.number, last_dealer=hand.dealer).dealer


def load_kaarting(create_tournament, table, users: dict) -> Tournament:
    """Create the kaarting (``create_tournament`` makes the row, as for the demo's other tournaments), enter its
    players, draw and play rounds 1 and 2, draw round 3 and start its clock with a few hands in."""
    tournament = create_tournament(KAARTING)
    for player in kaarting_players():
        entry_add_player(tournament=tournament, player=player)
    for number in (1, 2, 3):
        rnd = round_pair(tournament=tournament, user=users["organizer"])
        round_clock_start(round=rnd, user=users["organizer"])
        matches = list(Match.objects.filter(round=rnd).order_by("table"))
        if number < 3:
            for match in matches:
                _play_games(match, table, users["scorekeeper"], games=1 + match.table % 2)
            round_clock_end(round=rnd, user=users["organizer"])  # the games are over: time up finishes the matches
        else:
            for match, hands in zip(matches, ROUND_THREE_HANDS):
                _play_games(match, table, users["scorekeeper"], hands=hands)
    return tournament


def describe(tournament: Tournament) -> list[str]:
    """The kaarting's rounds as the command reports them: each table's partnerships and its state."""
    lines = []
    seats: dict[int, dict[str, str]] = {}
    for seat in RoundSeat.objects.filter(round__tournament=tournament, match__isnull=False).select_related("player"):
        seats.setdefault(seat.match_id, {})[seat.seat] = seat.player.name
    for rnd in Round.objects.filter(tournament=tournament).order_by("number"):
        out = RoundSeat.objects.filter(round=rnd, match__isnull=True).count()
        lines.append(f"  round {rnd.number}: {rnd.matches.count()} tables, {out} sitting out")
        for match in rnd.matches.order_by("table"):
            at = seats.get(match.pk, {})
            state = (f"{match.games_won_ns}–{match.games_won_ew}" if match.status != Match.Status.SCHEDULED
                     else "not started")
            lines.append(f"    table {match.table}: {at.get('N')} & {at.get('S')} – {at.get('E')} & {at.get('W')}: "
                         f"{state} ({match.get_status_display().lower()})")
    return lines
