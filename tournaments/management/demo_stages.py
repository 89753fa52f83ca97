"""The demo's multi-stage event (``manage.py load_demo``): the Roeselare duo championship scaled down. Sixteen
pairs in four pools of four (a round robin in each, games of four deals), the first two of each pool to a
knockout of eight with a match for third place; the pools played, the pools stage closed, the knockout
started and its first round paired, so the stages' tabs, the pools and the bracket have something to show.

Everything goes through the services, as the organizer and the scorekeeper would: the stages planned
(``stage_update``, ``stage_add``), each round paired (``round_pair``), hand summaries drawn at random
(``POOLS_POINTS``) and entered with ``hand_enter``, the stage closed and the next started (``stage_close``,
``stage_start``).
"""

from __future__ import annotations

from tournaments.models import Club, Match, Player, Team, Tournament
from tournaments.services.games import hand_next
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start, stage_update

#: A game of four deals (the Roeselare games are of sixteen): a pools match is one such game.
DUO = dict(slug="roeselaarse-duo", name="Roeselaarse Duo", variant="belgian-manille", format=Tournament.Format.POOLS,
           rounds=3, best_of=1, options={"deals": 4})
#: The club that brings the other eight pairs (the demo's two Belgian clubs bring theirs).
ROESELARE = ("Manilleclub De Mandel", "Roeselare", [
    ("De Mandelkes", "Noël Vanhove", "Ria Dewitte"),
    ("Zot en Zot", "Geert Declercq", "Ann Vandamme"),
    ("De Rodenbachers", "Johan Verbeke", "Kathy Desmet"),
    ("Troef Tien", "Patrick Lievens", "Linda Coussens"),
    ("Den Draad", "Eddy Vanneste", "Martine Dejonghe"),
    ("De Late Muul", "Wim Vandenbussche", "Greet Ostyn"),
    ("De Klavers", "Stefaan Dumon", "Inge Vanlerberghe"),
    ("Boer Erin", "Rudy Callewaert", "Nancy Vermeersch"),
])
#: The pairs in seed order (the pools are drawn from it by pots): the demo's Belgian teams and De Mandel's.
DUO_SEEDS = ["De Manillekes", "De Mandelkes", "Den Ajuin", "Zot en Zot", "Troef Zot", "De Rodenbachers",
             "Boer en Zot", "Troef Tien", "Muul Op Tafel", "Den Draad", "Ik Ga Mee", "De Late Muul",
             "De Vier Azen", "De Klavers", "De Tiensten", "Boer Erin"]


def duo_teams(teams: dict[str, Team], organizer) -> dict[str, Team]:
    """The demo's teams with De Mandel's eight pairs (made if missing)."""
    club, created = Club.objects.get_or_create(name=ROESELARE[0], defaults={"city": ROESELARE[1]})
    if created:
        club.managers.add(organizer)
    out = dict(teams)
    for name, *people in ROESELARE[2]:
        players = [Player.objects.get_or_create(club=club, name=person)[0] for person in people]
        out[name] = Team.objects.get_or_create(club=club, name=name,
                                               defaults={"player_1": players[0], "player_2": players[1]})[0]
    return out


def reset_duo_people() -> None:
    """Delete the pairs and players only the duo brought (after its tournament is deleted)."""
    Team.objects.filter(club__name=ROESELARE[0], name__in=[t[0] for t in ROESELARE[2]]).delete()
    Player.objects.filter(club__name=ROESELARE[0], name__in=[p for t in ROESELARE[2] for p in t[1:]]).delete()


#: The points a pools hand gives the first side (of the 60 of a deal, four tricks each): summaries as a
#: scorekeeper types them from the sheet, drawn at random (a hand played out card by card, as the demo's other
#: events are, would make the load several times slower for the same pages).
POOLS_POINTS = (10, 20, 25, 30, 35, 40, 50)


def _summary(table, dealer: str) -> dict:
    rng = table.rng
    ns = rng.choice(POOLS_POINTS)
    return {"dealer": dealer, "trump": rng.choice(table.variant.suits), "tricks": {"ns": 4, "ew": 4},
            "points": {"ns": ns, "ew": 60 - ns}}


def _play(match: Match, table, user) -> None:
    """Enter hands at a pools table until its match is decided (one game of four deals)."""
    dealer = table.rng.choice(table.rules.order)
    while True:
        hand, _ = hand_enter(match=match, data=_summary(table, dealer), user=user)
        game = hand.game
        if game.match.status == Match.Status.FINISHED:
            return
        dealer = hand_next(match=game.match, games=[game], played=hand.number, last_dealer=hand.dealer).dealer


def load_duo(create_tournament, table, users: dict) -> Tournament:
    """Create the duo (``create_tournament`` makes the row and enters the pairs), plan its stages, play the
    pools, close them, start the knockout and pair its first round."""
    tournament = create_tournament(DUO)
    organizer = users["organizer"]
    # Published seeds of the demo's own (the same pools and bracket at every load, as the hands are).
    stage_update(tournament=tournament, number=1, user=organizer, pools=4, seed=f"{DUO['slug']}-pools")
    stage_add(tournament=tournament, user=organizer, format="knockout", rounds=3, best_of=3, third_place=True,
              seed=f"{DUO['slug']}-knockout",
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    for _ in range(3):
        rnd = round_pair(tournament=tournament, user=organizer)
        for match in rnd.matches.exclude(ew=None).order_by("table"):
            _play(match, table, users["scorekeeper"])
    stage_close(tournament=tournament, number=1, user=organizer)
    stage_start(tournament=tournament, number=2, user=organizer)
    round_pair(tournament=tournament, user=organizer)
    return tournament
