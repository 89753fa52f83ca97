"""Fixtures of the API tests: clients for each role, a small tournament with a match."""

import pytest
from api.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import ClubFactory, MatchFactory, TeamFactory, TournamentFactory, UserFactory


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Throttle counters in a private local-memory cache: never the shared Redis."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "api-tests"}}
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def client_for(user=None) -> APIClient:
    """Return an API client authenticated by the user's token (anonymous without a user)."""
    client = APIClient()
    if user is not None:
        _, key = AuthToken.objects.create(user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


@pytest.fixture
def stranger(db):
    return UserFactory(username="stranger")


@pytest.fixture
def club(db):
    return ClubFactory(name="De Zwarte Kat", city="Gent")


@pytest.fixture
def manager(club):
    user = UserFactory(username="manager")
    club.managers.add(user)
    return user


@pytest.fixture
def other_manager(db):
    """A manager of another club."""
    user = UserFactory(username="other-manager")
    ClubFactory(name="Het Witte Paard").managers.add(user)
    return user


@pytest.fixture
def tournament(club):
    return TournamentFactory(name="Gentse Beker", club=club, variant="belgian-manille", best_of=3)


@pytest.fixture
def organizer(tournament):
    user = UserFactory(username="organizer")
    tournament.organizers.add(user)
    return user


@pytest.fixture
def scorekeeper(tournament):
    user = UserFactory(username="scorekeeper")
    tournament.scorekeepers.add(user)
    return user


@pytest.fixture
def other_scorekeeper(db):
    """A scorekeeper of another tournament."""
    user = UserFactory(username="other-scorekeeper")
    TournamentFactory(name="Brugse Beker").scorekeepers.add(user)
    return user


@pytest.fixture
def teams(club):
    return TeamFactory(name="De Manilles", club=club), TeamFactory(name="De Muulen", club=club)


@pytest.fixture
def match(tournament, teams):
    """A Belgian Manille match, best of 3 boams to 101, table 1 of round 1."""
    return MatchFactory(round__tournament=tournament, round__number=1, table=1, ns=teams[0], ew=teams[1])


@pytest.fixture
def private_tournament(club):
    return TournamentFactory(name="Besloten Beker", club=club, public=False)


@pytest.fixture
def private_match(private_tournament):
    return MatchFactory(round__tournament=private_tournament, round__number=1, table=1)


@pytest.fixture
def as_user():
    """Return a client for a user (None: anonymous)."""
    return client_for


@pytest.fixture
def served_schema(_served_schema_text) -> dict:
    """The schema the server serves (tests/conftest.py's, fetched once a session), parsed afresh for each test (no
    test sees another's changes to it)."""
    import json

    return json.loads(_served_schema_text)


@pytest.fixture(scope="session")
def schema_file(tmp_path_factory, django_db_blocker):
    """The schema as JSON, written once to a temporary folder."""
    from django.core.management import call_command

    path = tmp_path_factory.mktemp("schema") / "schema.json"
    with django_db_blocker.unblock():
        call_command("spectacular", "--format", "openapi-json", "--file", str(path))
    return path


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, its connections without Nagle's algorithm.

    Django's WSGIRequestHandler writes a response's headers and body in two sends: on a kept-alive connection (the
    generated client's, schemathesis') the body waited for the client's delayed ACK, some 40 ms a request, the
    most of the coverage phase's minute. Production's servers (gunicorn, uvicorn) set TCP_NODELAY themselves.
    """
    from django.core.servers.basehttp import WSGIRequestHandler

    before = WSGIRequestHandler.disable_nagle_algorithm
    WSGIRequestHandler.disable_nagle_algorithm = True
    yield live_server
    WSGIRequestHandler.disable_nagle_algorithm = before
