"""The organizer's pages say "All played" in their header, as the public pages' header does, while a multi-stage
event's last stage is played out and its organizer has not closed it yet (``pages_stages.awaiting_close``): not
"Running". The dashboard's line of that stage and its card on the Stages page say it too. The dashboard and the
round page know it from what they read already (no query more)."""

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.stage_pages import pools_then_knockout
from tournaments.models import Round, Stage, Tournament

pytestmark = pytest.mark.django_db


def header_badge(html: str) -> str:
    """The first badge of the organizer's header: the event's status."""
    start = html.index('<header class="t-header org-header">')
    start = html.index('<p class="t-meta">', start)
    return html[start:html.index("</span>", start)]


def signed_in(client, tournament):
    user = UserFactory()
    tournament.organizers.add(user)
    client.force_login(user)


def pages(tournament) -> list[str]:
    slug = tournament.slug
    final = Round.objects.filter(tournament=tournament, stage__number=2).order_by("-number").first()
    return [reverse("ws:tournament", args=[slug]), reverse("ws:entries", args=[slug]),
            reverse("ws:stages", args=[slug]), reverse("ws:actions", args=[slug]),
            reverse("ws:round", args=[slug, final.number]) + "?stage=2", reverse("ws:round", args=[slug, 1]) + "?stage=2"]


def test_the_organizers_header_says_all_played_until_the_last_stage_is_closed(client):
    tournament = pools_then_knockout(decided=3)  # the final and the match for third place played
    signed_in(client, tournament)
    for url in pages(tournament):
        answer = client.get(url)
        assert answer.status_code == 200, url
        badge = header_badge(answer.content.decode())
        assert 'class="badge status-played">All played' in badge and "Running" not in badge, url
    nl = client.get(reverse("ws:tournament", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'status-played">Alles gespeeld' in header_badge(nl)
    # Closed by its organizer (which finishes the event): "Finished", as before.
    Stage.objects.filter(tournament=tournament, number=2).update(status="closed")
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    for url in pages(tournament):
        badge = header_badge(client.get(url).content.decode())
        assert "status-finished" in badge and "All played" not in badge, url


def test_while_the_final_is_played_the_header_says_running(client):
    tournament = pools_then_knockout(decided=2)  # the final and the match for third place paired, not played
    signed_in(client, tournament)
    for url in pages(tournament):
        badge = header_badge(client.get(url).content.decode())
        assert 'status-running">Running' in badge and "All played" not in badge, url


def test_the_dashboards_stage_line_and_the_stages_card_say_all_played(client):
    tournament = pools_then_knockout(decided=3)
    signed_in(client, tournament)
    dashboard = client.get(reverse("ws:tournament", args=[tournament.slug])).content.decode()
    lines = dashboard[dashboard.index('<ol class="org-stage-lines">'):]
    lines = lines[:lines.index("</ol>")]
    assert re.search(r'<li class="is-current" aria-current="step">Stage 2: Knockout, [^<]*'
                     r'<span class="badge status-played">All played</span></li>', lines)
    assert 'status-closed">Closed</span>' in lines and "Running" not in lines  # stage 1 as before
    stages = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    card = stages[stages.index('id="stage-2"'):]
    assert '<span class="badge status-played">All played</span></h3>' in card[:card.index("</h3>") + 5]
    assert "All its matches are played: closing the last stage finishes the event." in card


def test_the_dashboard_and_the_round_page_read_nothing_more_for_it(client, django_assert_max_num_queries):
    """As many queries as before they said it (12 each for this event: the header's state is what they read)."""
    tournament = pools_then_knockout(decided=3)
    signed_in(client, tournament)
    final = Round.objects.filter(tournament=tournament, stage__number=2).order_by("-number").first()
    for url in (reverse("ws:tournament", args=[tournament.slug]),
                reverse("ws:round", args=[tournament.slug, final.number]) + "?stage=2"):
        with django_assert_max_num_queries(12):
            html = client.get(url).content.decode()
        assert 'status-played">All played' in header_badge(html), url


def test_an_individual_events_round_page_says_it_too(client):
    """The individual round page (``organize_draw.round_page``) from what it reads: stage 2's one round of tables
    finished, stage 2 the last and running."""
    from tests.web.workspace.individual import individual_event, seat_round
    from tournaments.models import Match

    organizer = UserFactory()
    event = individual_event(8, organizer=organizer, minutes=None)
    rnd = seat_round(event, 1)
    Stage.objects.filter(tournament=event, number=1).update(status="closed", rounds=1)
    last = Stage.objects.create(tournament=event, number=2, format="tables", rounds=1, best_of=1, status="running")
    Round.objects.filter(pk=rnd.pk).update(stage=last)  # stage 2's round 1 (round numbers count per stage)
    client.force_login(organizer)
    url = reverse("ws:round", args=[event.slug, 1]) + "?stage=2"
    badge = header_badge(client.get(url).content.decode())
    assert 'status-running">Running' in badge and "All played" not in badge  # its tables still playing
    Match.objects.filter(round=rnd).update(status="finished")
    Round.objects.filter(pk=rnd.pk).update(status="finished")
    badge = header_badge(client.get(url).content.decode())
    assert 'status-played">All played' in badge and "Running" not in badge
