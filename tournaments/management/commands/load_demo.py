"""Load a realistic demo: clubs, players, teams, a Belgian Swiss cup with round 1 played, a Malilla round robin,
a second Belgian Swiss with its teams entered and no round yet, for the organizer to pair from the workspace,
an individual kaarting of 22 players at tables of four, timed, three rounds drawn (``demo_individual``), and a
multi-stage duo event, pools then a knockout with its first round paired (``demo_stages``).

Every hand is dealt and played out at random (seeded, so the demo is the same on every machine) with
only legal cards, as checked by the rules engine's ``check_play``; the tricks and points that play
yields are then entered through ``hand_enter``, exactly as a scorekeeper would type them from a
paper sheet. Nothing here writes a score: the services and the engine compute every one.
"""

import os
import random
import time

import scoring
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from tournaments.access import VOLUNTEERS
from tournaments.management.demo_individual import (
    KAARTING,
    KLAVERBOER,
    describe,
    load_kaarting,
    reset_kaarting_people,
)
from tournaments.management.demo_stages import (
    DUO,
    DUO_SEEDS,
    ROESELARE,
    duo_teams,
    load_duo,
    reset_duo_people,
)
from tournaments.models import Club, Entry, Game, Hand, Match, Player, Team, Tournament
from tournaments.services.games import hand_next
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import pending_key, standings_recompute_schedule

#: The seed of the demo's deals; change it and every hand changes. With 127 the Belgian matches end
#: 2-1, 1-2, 2-0 and 2-1 with muul hands and doublings among them, and the finished Malilla match
#: has a held-back turn-up bonus.
SEED = 127

ADMIN_USERNAME = "admin"
ORGANIZER_USERNAME = "organizer"
SCOREKEEPER_USERNAME = "scorekeeper"

#: club name, city, teams as (team name, player 1, player 2)
CLUBS = [
    ("De Zwarte Kat", "Gent", [
        ("De Manillekes", "Jan Claeys", "Pieter Vandenberghe"),
        ("Troef Zot", "Hilde De Smet", "Marc Verhaeghe"),
        ("Muul Op Tafel", "Koen Maes", "Lieve Van den Broeck"),
        ("De Vier Azen", "Wout Janssens", "Griet Mertens"),
    ]),
    ("Café Sportwereld", "Aalst", [
        ("Den Ajuin", "Dirk Goossens", "Rita Wouters"),
        ("Boer en Zot", "Luc De Cock", "An Jacobs"),
        ("Ik Ga Mee", "Bart Vermeulen", "Els Lambrecht"),
        ("De Tiensten", "Frank Van Damme", "Sofie Hermans"),
    ]),
    ("Club Social La Malilla", "Puebla", [
        ("Los Compadres", "José Hernández", "Juan Martínez"),
        ("Las Malillas", "María García", "Guadalupe López"),
        ("Oros y Copas", "Luis González", "Carmen Rodríguez"),
        ("Los del Barrio", "Miguel Pérez", "Rosa Sánchez"),
    ]),
]

#: Seed order of the Gentse Beker: the two Belgian clubs' teams, alternating.
BELGIAN_SEEDS = ["De Manillekes", "Den Ajuin", "Troef Zot", "Boer en Zot",
                 "Muul Op Tafel", "Ik Ga Mee", "De Vier Azen", "De Tiensten"]
MEXICAN_SEEDS = ["Los Compadres", "Las Malillas", "Oros y Copas", "Los del Barrio"]

BELGIAN = dict(slug="gentse-beker", name="Gentse Beker", variant="belgian-manille",
               format=Tournament.Format.SWISS, rounds=5, best_of=3)
MEXICAN = dict(slug="copa-malilla", name="Copa Malilla", variant="mexican-malilla",
               format=Tournament.Format.ROUND_ROBIN, rounds=3, best_of=1)
#: Entered, not paired: the organizer pairs round 1 from the workspace (/my/), the scorekeeper enters its hands.
WORKSPACE = dict(slug="aalsterse-avond", name="Aalsterse Avond", variant="belgian-manille",
                 format=Tournament.Format.SWISS, rounds=3, best_of=1)
WORKSPACE_SEEDS = ["Den Ajuin", "De Manillekes", "Boer en Zot", "Troef Zot",
                   "Ik Ga Mee", "Muul Op Tafel", "De Tiensten", "De Vier Azen"]
DEMO_SLUGS = (BELGIAN["slug"], MEXICAN["slug"], WORKSPACE["slug"], KAARTING["slug"], DUO["slug"])

#: Hands of the Malilla match left in progress.
MALILLA_HANDS_IN_PROGRESS = 3


class Table:
    """Deals and plays hands of one variant at random, with legal cards only."""

    def __init__(self, variant: str, rng: random.Random, options: dict | None = None):
        self.variant = scoring.get_variant(variant)
        self.rules = self.variant.rules(options)
        self.options = options or {}
        self.rng = rng

    def deal(self) -> dict[str, list[str]]:
        cards = list(self.variant.cards)
        self.rng.shuffle(cards)
        per = len(cards) // 4
        # A shuffled deck in four packets: which seat gets which packet does not matter.
        return {seat: cards[i * per:(i + 1) * per] for i, seat in enumerate(("N", "E", "S", "W"))}

    def play_out(self, dealer: str, hands: dict, **trump) -> tuple["scoring.PlayResult", list[str]]:
        cards: list[str] = []
        while True:
            result = scoring.check_play(self.variant, dealer=dealer, hands=hands, cards=cards,
                                        options=self.options, **trump)
            if not result.legal:  # cannot happen: every card comes from the engine's legal cards
                raise CommandError(f"the demo played an illegal card: {result.violation}")
            if result.complete:
                return result, cards
            legal = result.next["legal_cards"]
            # Half the time the first legal card (the highest of its suit: deck order is strongest first),
            # else any legal card: plays that look like people's, and every one of them legal.
            cards.append(legal[0] if self.rng.random() < 0.5 else self.rng.choice(legal))

    def belgian_hand(self, dealer: str) -> dict:
        """Deal, let the dealer choose trump (or muul), let the opponents double, play it out."""
        rng = self.rng
        hands = self.deal()
        own = hands[dealer]
        high = sum(1 for c in own if c[:-1] in ("10", "A"))
        if high >= 4 or (high == 3 and rng.random() < 0.3):
            trump = "none"  # muul: strong enough to play without trump (doubles the hand)
        else:
            def strength(suit):
                held = [c for c in own if c[-1] == suit]
                return len(held) * 3 + sum(self.variant.rank_points.get(c[:-1], 0) for c in held)
            trump = max(self.variant.suits, key=lambda s: (strength(s), rng.random()))
        doublings = 0
        left = self.rules.next_seat[dealer]
        if trump != "none":
            their = [c for c in hands[left] if c[-1] == trump]
            if len(their) >= 3 and any(c.startswith("10") for c in their) and rng.random() < 0.6:
                doublings = 1  # "ik ga mee"
                mine = [c for c in own if c[-1] == trump]
                if len(mine) >= 4 and rng.random() < 0.5:
                    doublings = 2  # "ik ga tegen"
        result, _cards = self.play_out(dealer, hands, trump=trump)
        data = {"dealer": dealer, "trump": trump, "tricks": result.tricks_won, "points": result.points}
        if doublings:
            data["doublings"] = doublings
        return data

    def malilla_hand(self, dealer: str) -> dict:
        """Deal, turn the dealer's last card for trump, play it out."""
        hands = self.deal()
        turned = hands[dealer][-1]
        trump = self.variant.suits[self.variant.deck.card_suit(turned)]
        result, _cards = self.play_out(dealer, hands, turned_card=turned)
        data = {"dealer": dealer, "turned_card": turned, "trump": trump,
                "tricks": result.tricks_won, "points": result.points}
        return data


def debug_on() -> bool:
    """Tell whether the deployment runs with DEBUG on: the setting, or the environment it comes from.

    The environment counts too because pytest-django turns ``settings.DEBUG`` off for every test;
    a deployment sets ``DEBUG=0`` in its environment (config/settings.py reads it from there).
    """
    if settings.DEBUG:
        return True
    value = os.environ.get("DEBUG", "")
    return value == "" or value.strip().lower() in {"1", "true", "yes", "on"}


class Command(BaseCommand):
    help = ("Load a realistic demo (clubs, players, teams, a Belgian Manille Swiss cup with round 1 played, "
            "a Mexican Malilla round robin under way, a Belgian Swiss ready to pair, an individual kaarting of 22 "
            "players with three rounds drawn, a duo event of pools then a knockout). Idempotent; --reset deletes "
            "the demo and loads it again.")

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete the demo data first, then load it again.")
        parser.add_argument("--force", action="store_true",
                            help="Load the demo, with its admin/admin superuser, even when DEBUG is off.")

    def handle(self, *args, reset=False, force=False, **options):
        if not force and not debug_on() and not get_user_model().objects.filter(username=ADMIN_USERNAME).exists():
            raise CommandError(
                f"DEBUG is off: the demo would create the superuser {ADMIN_USERNAME!r} with password "
                f"{ADMIN_USERNAME!r} (and users whose password is their name). Use --force to load it anyway.")
        started = time.monotonic()
        self.verbosity = options.get("verbosity", 1)
        self.changed = False
        if reset:
            self.reset()
        self.deferred: list[int] = []
        try:
            with transaction.atomic():
                users = self.ensure_users()
                teams = self.ensure_clubs(users["organizer"])
                loaded = []
                if Tournament.objects.filter(slug=BELGIAN["slug"]).exists():
                    self.say(f"Tournament {BELGIAN['name']!r} exists; left as is.")
                else:
                    loaded.append(self.load_belgian(teams, users))
                if Tournament.objects.filter(slug=MEXICAN["slug"]).exists():
                    self.say(f"Tournament {MEXICAN['name']!r} exists; left as is.")
                else:
                    loaded.append(self.load_mexican(teams, users))
                if Tournament.objects.filter(slug=WORKSPACE["slug"]).exists():
                    self.say(f"Tournament {WORKSPACE['name']!r} exists; left as is.")
                else:
                    self.create_tournament(WORKSPACE, "Café Sportwereld", WORKSPACE_SEEDS, teams, users)
                    self.say(f"{WORKSPACE['name']}: {len(WORKSPACE_SEEDS)} teams entered, no round yet "
                             f"(the organizer pairs round 1 at /my/t/{WORKSPACE['slug']}/).")
                if Tournament.objects.filter(slug=KAARTING["slug"]).exists():
                    self.say(f"Tournament {KAARTING['name']!r} exists; left as is.")
                else:
                    rng = random.Random(f"{SEED}-{KAARTING['slug']}")
                    loaded.append(load_kaarting(
                        lambda spec: self.create_tournament(spec, "De Zwarte Kat", [], teams, users),
                        Table(KAARTING["variant"], rng), users))
                if Tournament.objects.filter(slug=DUO["slug"]).exists():
                    self.say(f"Tournament {DUO['name']!r} exists; left as is.")
                else:
                    rng = random.Random(f"{SEED}-{DUO['slug']}")
                    pairs = duo_teams(teams, users["organizer"])
                    loaded.append(load_duo(
                        lambda spec: self.create_tournament(spec, ROESELARE[0], DUO_SEEDS, pairs, users),
                        Table(DUO["variant"], rng, DUO["options"]), users))
        finally:
            for tournament_id in self.deferred:
                cache.delete(pending_key(tournament_id))
        for tournament in loaded:
            standings_recompute_schedule(tournament.pk)
        elapsed = time.monotonic() - started
        if not self.changed:
            self.stdout.write(self.style.SUCCESS(
                "The demo is already loaded: nothing changed (use --reset to delete it and load it again)."))
            return
        for tournament in loaded:
            self.summarise(tournament)
        self.stdout.write(self.style.SUCCESS(f"Demo loaded in {elapsed:.1f} s."))

    # -- output -------------------------------------------------------------------------------

    def say(self, message: str) -> None:
        if self.verbosity >= 1:
            self.stdout.write(message)

    def summarise(self, tournament: Tournament) -> None:
        entries = tournament.entries.count()
        if tournament.is_individual:
            self.stdout.write(f"{tournament.name} ({tournament.variant}, individual, tables of four, "
                              f"{tournament.minutes} minutes a round, {entries} players; where do I sit: "
                              f"/t/{tournament.slug}/seat/):")
            for line in describe(tournament):
                self.stdout.write(line)
            return
        self.stdout.write(f"{tournament.name} ({tournament.variant}, {tournament.get_format_display().lower()}, "
                          f"best of {tournament.effective_best_of}, {entries} teams):")
        for match in Match.objects.filter(round__tournament=tournament).select_related("round", "ns", "ew"):
            hands = Hand.objects.filter(game__match=match).count()
            if match.status == Match.Status.FINISHED:
                winner = {"ns": match.ns, "ew": match.ew}.get(match.winner, "draw")
                state = f"{match.games_won_ns}–{match.games_won_ew}, won by {winner}"
            elif match.status == Match.Status.PLAYING:
                game = match.games.order_by("-number").first()
                state = f"in progress, game {game.number} at {game.total_ns}–{game.total_ew}"
            else:
                state = "not started"
            self.stdout.write(f"  round {match.round.number} table {match.table}: {match.ns} – {match.ew}: "
                              f"{state} ({hands} hands)")

    # -- reset ----------------------------------------------------------------------------------

    def reset(self) -> None:
        """Delete the demo tournaments (with their rounds, matches, games, hands and history) and teams."""
        with transaction.atomic():
            game_ids = list(Game.objects.filter(match__round__tournament__slug__in=DEMO_SLUGS)
                            .values_list("pk", flat=True))
            deleted, _ = Tournament.objects.filter(slug__in=DEMO_SLUGS).delete()
            # After the delete: the cascade itself records a "deleted" history row for every hand.
            Hand.history.filter(game_id__in=game_ids).delete()
            try:
                for club_name, _city, team_rows in CLUBS:
                    names = [row[0] for row in team_rows]
                    players = [p for row in team_rows for p in row[1:]]
                    Team.objects.filter(club__name=club_name, name__in=names).delete()
                    Player.objects.filter(club__name=club_name, name__in=players).delete()
                reset_kaarting_people()
                reset_duo_people()
            except ProtectedError as exc:
                raise CommandError(f"cannot reset the demo: its teams or players are used elsewhere ({exc})") from exc
            for club_name in [c[0] for c in CLUBS] + [KLAVERBOER[0], ROESELARE[0]]:
                try:
                    with transaction.atomic():
                        Club.objects.filter(name=club_name).delete()
                except ProtectedError:
                    self.say(f"Club {club_name!r} kept: it has players or teams that are not part of the demo.")
        self.say(f"Deleted the demo data ({deleted} rows with the tournaments).")

    # -- people and clubs -----------------------------------------------------------------------

    def ensure_users(self) -> dict:
        User = get_user_model()
        if User.objects.filter(username=ADMIN_USERNAME).exists():
            self.say(f"User {ADMIN_USERNAME!r} exists; left as is.")
        else:
            User.objects.create_superuser(ADMIN_USERNAME, f"{ADMIN_USERNAME}@example.org", ADMIN_USERNAME)
            self.changed = True
            self.stdout.write(self.style.WARNING(
                f"Created superuser {ADMIN_USERNAME!r} with password {ADMIN_USERNAME!r}: for local use only."))
        users = {}
        for role, username in (("organizer", ORGANIZER_USERNAME), ("scorekeeper", SCOREKEEPER_USERNAME)):
            user = User.objects.filter(username=username).first()
            if user is None:
                # A volunteer: staff to sign in to the admin, scoped there (and everywhere) to their roles.
                user = User(username=username, email=f"{username}@example.org", is_staff=True)
                user.set_password(username)
                user.save()
                volunteers = Group.objects.filter(name=VOLUNTEERS).first()
                if volunteers is not None:
                    user.groups.add(volunteers)
                self.changed = True
                self.say(f"Created the {role} user {username!r} with password {username!r}.")
            else:
                self.say(f"User {username!r} exists; left as is.")
            users[role] = user
        return users

    def ensure_clubs(self, organizer) -> dict[str, Team]:
        teams: dict[str, Team] = {}
        for club_name, city, team_rows in CLUBS:
            club, created = Club.objects.get_or_create(name=club_name, defaults={"city": city})
            self.changed |= created
            if created:
                club.managers.add(organizer)
            for team_name, *player_names in team_rows:
                players = []
                for player_name in player_names:
                    player, created = Player.objects.get_or_create(club=club, name=player_name)
                    self.changed |= created
                    players.append(player)
                team, created = Team.objects.get_or_create(
                    club=club, name=team_name, defaults={"player_1": players[0], "player_2": players[1]})
                self.changed |= created
                teams[team_name] = team
        return teams

    # -- tournaments ----------------------------------------------------------------------------

    def create_tournament(self, spec: dict, club_name: str, seeds: list[str], teams: dict, users: dict):
        tournament = Tournament.objects.create(
            **spec, club=Club.objects.get(name=club_name), public=True, starts_on=timezone.localdate(),
        )
        # Every hand asks for a standings recompute; the standings service coalesces those requests with a
        # per-tournament "pending" flag. Holding the flag for the whole load makes it one recompute at the end
        # instead of one per hand.
        cache.add(pending_key(tournament.pk), 1, timeout=300)
        self.deferred.append(tournament.pk)
        tournament.organizers.add(users["organizer"])
        tournament.scorekeepers.add(users["scorekeeper"])
        Entry.objects.bulk_create(
            [Entry(tournament=tournament, team=teams[name], seed=seed) for seed, name in enumerate(seeds, 1)])
        self.changed = True
        return tournament

    def pair_first_round(self, tournament: Tournament, users: dict) -> list[Match]:
        """Pair round 1 through the pairing service, as the organizer would."""
        round_ = round_pair(tournament=tournament, user=users["organizer"])
        tournament.refresh_from_db()
        return list(round_.matches.select_related("ns", "ew").order_by("table"))

    def load_belgian(self, teams: dict, users: dict) -> Tournament:
        tournament = self.create_tournament(BELGIAN, "De Zwarte Kat", BELGIAN_SEEDS, teams, users)
        matches = self.pair_first_round(tournament, users)  # Swiss round 1: top half against bottom half
        rng = random.Random(f"{SEED}-{tournament.slug}")
        table = Table(tournament.variant, rng, tournament.options)
        for match in matches:
            # The 30-30 tie of the demo: the fourth deal at table 2 is redealt until it ties.
            self.play_match(match, table, users["scorekeeper"], tie_at=4 if match.table == 2 else None)
        return tournament

    def load_mexican(self, teams: dict, users: dict) -> Tournament:
        tournament = self.create_tournament(MEXICAN, "Club Social La Malilla", MEXICAN_SEEDS, teams, users)
        finished, in_progress = self.pair_first_round(tournament, users)  # the Berger table's round 1
        rng = random.Random(f"{SEED}-{tournament.slug}")
        table = Table(tournament.variant, rng, tournament.options)
        self.play_match(finished, table, users["scorekeeper"])
        self.play_match(in_progress, table, users["scorekeeper"], max_hands=MALILLA_HANDS_IN_PROGRESS)
        return tournament

    def play_match(self, match: Match, table: Table, user, *, tie_at: int | None = None,
                   max_hands: int | None = None) -> None:
        """Enter hands through the service until the match is decided (or ``max_hands`` are in)."""
        rules = table.rules
        dealer = table.rng.choice(rules.order)  # the first dealer, drawn at the table
        entered = 0
        while max_hands is None or entered < max_hands:
            if table.variant.trump_mode == "turned":
                data = table.malilla_hand(dealer)
            else:
                data = table.belgian_hand(dealer)
                if entered + 1 == tie_at:
                    while data["points"] != {"ns": 30, "ew": 30}:
                        data = table.belgian_hand(dealer)
            hand, _ = hand_enter(match=match, data=data, user=user)
            entered += 1
            game = hand.game  # as saved, with its match as saved
            if game.match.status == Match.Status.FINISHED:
                return
            # Who deals next, as the table's entry says: the game's next dealer, or for the next game the seat
            # after the last dealer (the deal passes on as after any other hand).
            dealer = hand_next(match=game.match, games=[game], played=hand.number, last_dealer=hand.dealer).dealer
