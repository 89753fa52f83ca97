"""Fixtures of the site's tests: a public tournament with a round paired and results entered through the services."""

import pytest

from tests.factories import ClubFactory, EntryFactory, TeamFactory, TournamentFactory
from tests.web.browser import shared_chromium  # noqa: F401 - the fixture that the modules' browser fixture asks for
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

SEATS = "NESW"


@pytest.fixture(autouse=True)
def _site_settings(settings):
    """A private local-memory cache and an in-memory channel layer: the site's tests share nothing."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "web-tests"}}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Emptied for each test: a local-memory cache of one name is shared by the process, and counters keyed by
    # ids that SQLite gives again after a rollback (a match's request allowance) would carry over.
    from django.core.cache import cache

    cache.clear()


def belgian_hand(number: int, ns: int = 37, *, first_dealer: str = "N") -> dict:
    """The Belgian summary of hand ``number`` of a game (1-based), the dealer turning clockwise."""
    dealer = SEATS[(SEATS.index(first_dealer) + number - 1) % 4]
    tricks = (5, 3) if ns > 30 else (3, 5)
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns, "ew": 60 - ns}}


def enter_hands(match, count: int, ns: int = 37) -> None:
    """Enter ``count`` hands of the match's current game through the service, as a scorekeeper would."""
    game = match.games.order_by("-number").first()
    start = game.hands.count() if game is not None and game.status == "playing" else 0
    for i in range(start, start + count):
        hand_enter(match=match, data=belgian_hand(i + 1, ns))


def make_tournament(teams: int = 4, *, public: bool = True, name: str = "Gentse Beker", slug: str = "gentse-beker",
                    club_name: str = "De Zwarte Kat"):
    """Return a Belgian Swiss tournament with ``teams`` entries and round 1 paired."""
    club = ClubFactory(name=club_name, city="Gent")
    tournament = TournamentFactory(name=name, slug=slug, club=club, variant="belgian-manille", best_of=3,
                                   public=public)
    for i in range(teams):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"{name} ploeg {i + 1}", club=club), seed=i + 1)
    round_pair(tournament=tournament)
    return tournament


@pytest.fixture
def tournament(db):
    """A public Belgian tournament of 5 teams (so a bye), round 1 paired, table 1 with three hands, table 2 won."""
    tournament = make_tournament(5)
    rnd = tournament.round_set.get(number=1)
    played = list(rnd.matches.filter(ew__isnull=False).order_by("table"))
    enter_hands(played[0], 3)
    # Table 2: two games won by NS with all-tricks-free hands of 60-0 would end fast; 37s take longer.
    for _ in range(2):
        enter_hands(played[1], 1, ns=60)
        while played[1].games.order_by("-number").first().status == "playing":
            enter_hands(played[1], 1, ns=60)
        played[1].refresh_from_db()
    standings_recompute(tournament=tournament)
    return tournament


@pytest.fixture
def private_tournament(db):
    return make_tournament(4, public=False, name="Besloten Beker", slug="besloten-beker", club_name="Het Witte Paard")
