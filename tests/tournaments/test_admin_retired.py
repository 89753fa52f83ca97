"""The admin's lists of players and teams show and filter the ``retired`` flag."""

import re

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, TeamFactory
from tournaments.models import Player, Team

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),  # whitenoise: no collectstatic in tests
]


@pytest.fixture
def registry(db):
    club = ClubFactory(name="De Zwarte Kat")
    active = [PlayerFactory(club=club, name=n) for n in ("Jan Claeys", "Koen Maes")]
    gone = [PlayerFactory(club=club, name=n, retired=True) for n in ("Hilde De Smet", "Marc Verhaeghe")]
    TeamFactory(club=club, name="Troef Zot", player_1=active[0], player_2=active[1])
    TeamFactory(club=club, name="De Vier Azen", player_1=gone[0], player_2=gone[1], retired=True)
    return club


def changelist(model) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_changelist")


def rows(page: str) -> dict[str, bool]:
    """Each row's first column (the name) and its retired icon."""
    out = {}
    for row in re.findall(r"<tr>.*?</tr>", page, re.S):
        name = re.search(r'<th class="field-name"><a [^>]*>([^<]+)</a>', row)
        flag = re.search(r'<td class="field-retired_flag"><img [^>]*alt="(True|False)"', row)
        if name and flag:
            out[name.group(1)] = flag.group(1) == "True"
    return out


@pytest.mark.parametrize("model, retired, active", [
    (Player, {"Hilde De Smet", "Marc Verhaeghe"}, {"Jan Claeys", "Koen Maes"}),
    (Team, {"De Vier Azen"}, {"Troef Zot"}),
])
def test_the_list_shows_retired_and_filters_on_it(admin_client, registry, model, retired, active):
    page = admin_client.get(changelist(model)).content.decode()
    assert 'column-retired_flag">' in page and '>Retired</a>' in page
    assert rows(page) == {**{n: True for n in retired}, **{n: False for n in active}}
    assert re.search(r"<summary>\s*By retired\s*</summary>|<h3>\s*By retired\s*</h3>", page)
    only_retired = admin_client.get(changelist(model) + "?retired__exact=1").content.decode()
    assert rows(only_retired) == {n: True for n in retired}
    only_active = admin_client.get(changelist(model) + "?retired__exact=0").content.decode()
    assert rows(only_active) == {n: False for n in active}
    # Sortable on the flag: the retired ones last, then first.
    column = 5  # name, club, licence / player_1, player_2, … retired_flag: its place in list_display
    ascending = admin_client.get(changelist(model) + f"?o={column}.1").content.decode()
    assert list(rows(ascending).values()) == sorted(rows(ascending).values())


def test_the_column_and_the_filter_speak_the_users_language(admin_client, registry):
    page = admin_client.get(changelist(Team), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "non-actief" in page.lower()


def test_the_admin_enters_no_retired_team(admin_client, registry):
    """The entry form refuses a team its club retired, as the services do; an entry it already had stays editable."""
    from tests.factories import TournamentFactory
    from tournaments.models import Entry

    tournament = TournamentFactory()
    active, retired = TeamFactory(), TeamFactory(retired=True)
    add = reverse("admin:tournaments_entry_add")
    refused = admin_client.post(add, {"tournament": tournament.pk, "team": retired.pk})
    assert refused.status_code == 200 and not Entry.objects.filter(team=retired).exists()
    assert "its club manager can bring it back" in refused.content.decode()
    assert admin_client.post(add, {"tournament": tournament.pk, "team": active.pk}).status_code == 302
    entry = Entry.objects.get(team=active)
    Team.objects.filter(pk=active.pk).update(retired=True)
    change = reverse("admin:tournaments_entry_change", args=[entry.pk])
    assert admin_client.post(change, {"tournament": tournament.pk, "team": active.pk, "seed": 3}).status_code == 302
    assert Entry.objects.get(pk=entry.pk).seed == 3
