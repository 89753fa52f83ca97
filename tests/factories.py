"""factory_boy factories shared by the Django tests."""

import functools

import factory
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from tournaments.models import Club, Entry, Match, Player, Round, Team, Tournament


@functools.lru_cache(maxsize=None)
def _hash_once(raw: str, hashers: tuple[str, ...]) -> str:
    return make_password(raw)


def hashed_password(raw: str) -> str:
    """The password hashed by the settings' first hasher, once per password and hashers, not once per user.

    PBKDF2's million iterations took about 0.3 s a user; the hash is as real (the same salt for every user).
    """
    return _hash_once(raw, tuple(settings.PASSWORD_HASHERS))


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pw-for-tests", transform=hashed_password)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    city = "Gent"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n}")
    club = factory.SubFactory(ClubFactory)
    player_1 = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))
    player_2 = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    variant = "belgian-manille"
    format = Tournament.Format.SWISS
    rounds = 5
    public = True


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    team = factory.SubFactory(TeamFactory)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    ns = factory.SubFactory(TeamFactory)
    ew = factory.SubFactory(TeamFactory)
