"""Rounds published on purpose (issue 28) on the site: a round not yet published is on no public page, live
region, wall, print page or sheet for the public (its organizers print it first), and the organizer's round page
marks it and publishes it with a button."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.conftest import enter_hands
from tournaments.models import Match, Round
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(db):
    """Round 1 played and published; round 2 paired while the event publishes on purpose."""
    tournament = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=1)
    tournament.organizers.add(UserFactory(username="orga"))
    for i in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    first = round_pair(tournament=tournament)
    for match in first.matches.all():
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            enter_hands(Match.objects.get(pk=match.pk), 1, ns=60)
    tournament.auto_publish = False
    tournament.save()
    second = round_pair(tournament=tournament)
    assert second.number == 2 and not second.published
    return tournament


def second_round(cup) -> Round:
    return Round.objects.get(tournament=cup, number=2)


def test_the_public_pages_know_nothing_of_it(client, cup):
    rnd = second_round(cup)
    match = rnd.matches.order_by("table").first()
    slug = cup.slug
    for name in ("web:round", "web:round-print", "web:round-sheets"):
        assert client.get(reverse(name, args=[slug, 2])).status_code == 404, name
    assert client.get(reverse("web:match", args=[slug, match.pk])).status_code == 404
    assert client.get(reverse("web:match-sheet", args=[slug, match.pk])).status_code == 404
    for kind, pk in (("round", rnd.pk), ("match", match.pk)):
        assert client.get(reverse("web:live-region", args=[kind, pk])).status_code == 404, kind
    rounds = client.get(reverse("web:rounds", args=[slug])).content.decode()
    assert reverse("web:round", args=[slug, 1]) in rounds and reverse("web:round", args=[slug, 2]) not in rounds
    wall = client.get(reverse("web:live-region", args=["wall", cup.pk])).content.decode()
    for m in rnd.matches.all():
        assert reverse("web:match", args=[slug, m.pk]) not in wall
    overview = client.get(reverse("web:tournament", args=[slug])).content.decode()
    assert reverse("web:match", args=[slug, match.pk]) not in overview


def test_its_organizers_print_its_sheets_before_publishing(client, cup):
    client.force_login(cup.organizers.get())
    assert client.get(reverse("web:round-sheets", args=[cup.slug, 2])).status_code == 200
    assert client.get(reverse("web:round-print", args=[cup.slug, 2])).status_code == 200
    assert client.get(reverse("web:round", args=[cup.slug, 2])).status_code == 404  # the public page: the public's


def test_the_organizers_round_page_marks_it_and_its_button_publishes_it(client, cup):
    client.force_login(cup.organizers.get())
    page = client.get(reverse("ws:round", args=[cup.slug, 2])).content.decode()
    publish = reverse("ws:round-publish", args=[cup.slug, 2])
    assert f'action="{publish}"' in page and "Not published" in page and "not published" in page
    assert f'href="{reverse("web:round", args=[cup.slug, 2])}"' not in page  # no link to a public page's 404
    first = client.get(reverse("ws:round", args=[cup.slug, 1])).content.decode()
    assert reverse("ws:round-publish", args=[cup.slug, 1]) not in first
    response = client.post(publish, follow=True)
    assert response.status_code == 200 and "Round 2 is published" in response.content.decode()
    assert second_round(cup).published
    assert f'action="{publish}"' not in response.content.decode()
    client.logout()
    assert client.get(reverse("web:round", args=[cup.slug, 2])).status_code == 200
    region = client.get(reverse("web:live-region", args=["round", second_round(cup).pk]))
    assert region.status_code == 200


def test_only_its_organizers_publish_it(client, cup):
    keeper = UserFactory(username="keeper")
    cup.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.post(reverse("ws:round-publish", args=[cup.slug, 2])).status_code == 404
    assert not second_round(cup).published


def test_the_tournament_form_sets_automatic_publication(client, cup):
    import re

    from tests.web.workspace.test_tournament_form import settings_data

    client.force_login(cup.organizers.get())
    url = reverse("ws:tournament-edit", args=[cup.slug])
    page = client.get(url).content.decode()
    assert re.search(r'<input[^>]*name="auto_publish"[^>]*value="False"[^>]*checked', page)
    data = settings_data(name=cup.name, rounds=str(cup.rounds), best_of="1", starts_on="")
    response = client.post(url, data)  # not sent: as it was
    assert response.status_code == 302, response.content.decode()[:3000]
    cup.refresh_from_db()
    assert cup.auto_publish is False and not second_round(cup).published
    response = client.post(url, {**data, "auto_publish": "True"})
    assert response.status_code == 302
    cup.refresh_from_db()
    assert cup.auto_publish is True and second_round(cup).published  # turned on: the round waiting is published


def test_an_individual_events_round_waits_too_its_codes_open_nothing(client):
    from tests.web.workspace.individual import individual_event, seat_round
    from tournaments.models import Tournament

    organizer = UserFactory(username="kaart-orga")
    event = individual_event(8, organizer=organizer, minutes=None, public=True)
    Tournament.objects.filter(pk=event.pk).update(auto_publish=False)
    event.refresh_from_db()
    rnd = seat_round(event, 1, codes=["ACD347", "KMN679"])
    assert not rnd.published
    assert client.get(reverse("web:round-seat", args=[event.slug, 1])).status_code == 404
    assert client.get(reverse("web:round-seats-print", args=[event.slug, 1])).status_code == 404
    assert client.get(reverse("web:round-sheets", args=[event.slug, 1])).status_code == 404
    assert "ACD347" not in client.get(reverse("web:seat", args=[event.slug])).content.decode()
    refused = client.post(reverse("ws:table-code", args=[event.slug]), {"code": "ACD347"})
    assert refused.status_code == 400  # no table has that code, to a phone, before the round is published
    client.force_login(organizer)
    page = client.get(reverse("ws:round", args=[event.slug, 1])).content.decode()
    assert f'action="{reverse("ws:round-publish", args=[event.slug, 1])}"' in page
    sheets = client.get(reverse("web:round-sheets", args=[event.slug, 1]))
    assert sheets.status_code == 200 and "ACD347" in sheets.content.decode()  # printed before publishing
    client.post(reverse("ws:round-publish", args=[event.slug, 1]))
    client.logout()
    opened = client.post(reverse("ws:table-code", args=[event.slug]), {"code": "ACD347"})
    assert opened.status_code == 302
    assert client.get(reverse("web:round-seat", args=[event.slug, 1])).status_code == 200
