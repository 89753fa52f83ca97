"""Who may create a tournament (issue #24): ``TOURNAMENT_CREATORS`` = ``anyone`` signed in (the default) or
``staff`` only, decided in ``tournaments.access.can_create_tournament`` and obeyed by the API, the workspace and
the admin."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from rest_framework.test import APIClient

from api.models import AuthToken
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.test_admin_volunteers import volunteer
from tournaments import access
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BODY = {"name": "Gentse Beker", "variant": "belgian-manille", "format": "swiss", "rounds": 7, "best_of": 3,
        "options": {}, "public": True}


@pytest.fixture
def people(db):
    club = ClubFactory(name="De Zwarte Kat")
    manager = UserFactory(username="manager")
    club.managers.add(manager)
    desk = volunteer("desk")  # staff in the Volunteers group, managing a club: not "staff" here
    club.managers.add(desk)
    return {"plain": UserFactory(username="plain"), "manager": manager, "desk": desk,
            "staff": UserFactory(username="staff", is_staff=True),
            "root": UserFactory(username="root", is_staff=True, is_superuser=True)}


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def test_anyone_signed_in_by_default(people):
    assert django_settings.TOURNAMENT_CREATORS == "anyone"
    assert all(access.can_create_tournament(u) for u in people.values())
    assert not access.can_create_tournament(None)


def test_staff_only_when_set(settings, people):
    settings.TOURNAMENT_CREATORS = "staff"
    allowed = {name for name, user in people.items() if access.can_create_tournament(user)}
    assert allowed == {"staff", "root"}  # a club's manager is not enough: anyone may found a club
    assert not access.can_create_tournament(None)


def test_the_api_obeys(settings, people):
    settings.TOURNAMENT_CREATORS = "staff"
    for name in ("plain", "manager", "desk"):
        answer = api(people[name]).post("/api/v1/tournaments/", BODY, format="json")
        assert answer.status_code == 403, name
        assert answer.json()["errors"][0]["detail"] == "Only staff may create tournaments on this site."
    assert not Tournament.objects.exists()
    assert api(people["staff"]).post("/api/v1/tournaments/", BODY, format="json").status_code == 201
    settings.TOURNAMENT_CREATORS = "anyone"
    assert api(people["plain"]).post("/api/v1/tournaments/", BODY, format="json").status_code == 201


def test_the_workspace_obeys(settings, client, people):
    settings.TOURNAMENT_CREATORS = "staff"
    client.force_login(people["manager"])
    assert client.get(reverse("ws:tournament-new")).status_code == 404
    client.force_login(people["staff"])
    assert client.get(reverse("ws:tournament-new")).status_code == 200
    settings.TOURNAMENT_CREATORS = "anyone"
    client.force_login(people["manager"])
    assert client.get(reverse("ws:tournament-new")).status_code == 200


def test_the_admin_obeys(settings, client, people):
    add = reverse("admin:tournaments_tournament_add")
    client.force_login(people["desk"])
    assert client.get(add).status_code == 200  # a volunteer managing a club may, by default
    settings.TOURNAMENT_CREATORS = "staff"
    assert client.get(add).status_code == 403
    client.force_login(people["root"])
    assert client.get(add).status_code == 200
