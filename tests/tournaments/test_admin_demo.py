"""The admin over the demo: every page renders, the changelists' filters and search. The demo is loaded once for the
module (tests/shared_data.py): each test runs in a savepoint over it."""

from io import StringIO

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import RequestFactory
from api.models import AuthToken

from tests.shared_data import shared_data
from tests.tournaments.test_admin import url
from tournaments.models import Game, Hand, Match

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),  # whitenoise: no collectstatic in tests
    pytest.mark.usefixtures("_demo"),
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def _demo(django_db_setup, django_db_blocker):
    """load_demo, once for the module (its superuser ``admin`` is then pytest-django's ``admin_user``)."""
    with shared_data(django_db_blocker, lambda: call_command("load_demo", stdout=StringIO())):
        yield


def test_every_admin_page_renders_for_a_superuser(admin_client, admin_user):
    """Changelist, add page (or 403 where adding is the services' job) and a change page of every model."""
    Group.objects.create(name="Scorekeepers")
    AuthToken.objects.create(admin_user, device="laptop")
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    problems, seen = [], []
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label
        pages = [("changelist", url(model, "changelist"), 200),
                 ("add", url(model, "add"), 200 if model_admin.has_add_permission(request) else 403)]
        obj = model_admin.get_queryset(request).order_by("-pk").first()
        if obj is not None:
            pages.append(("change", url(model, "change", obj.pk), 200))
            pages.append(("history", url(model, "history", obj.pk), 200))
        for page, address, expected in pages:
            status = admin_client.get(address).status_code
            seen.append((label, page))
            if status != expected:
                problems.append(f"{label} {page} {address}: {status}, expected {expected}")
    assert not problems
    for label in ("tournaments.Club", "tournaments.Player", "tournaments.Team", "tournaments.Tournament",
                  "tournaments.Entry", "tournaments.Round", "tournaments.Match", "tournaments.Game",
                  "tournaments.Hand", "tournaments.Standing", "auth.User", "auth.Group"):
        assert (label, "change") in seen, f"no {label} to open"


def test_changelist_filters_and_search_render(admin_client):
    for model, query in ((Match, "?status__exact=finished"), (Match, "?q=Ajuin"), (Game, "?status__exact=playing"),
                         (Hand, "?trump=none"), (Hand, "?q=Compadres")):
        response = admin_client.get(url(model, "changelist") + query)
        assert response.status_code == 200, (model, query)
