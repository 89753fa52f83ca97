"""The entry pages after the deciding hand (the user walk-through): the tournament's name in a scorekeeper's nav
leads to a page they may open, the answer to the deciding hand says the result waits for its confirmation, and
only the phone that entered a waiting result is offered to correct or delete its last hand."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.workspace.test_team_table_code import event, open_table, play_to_the_end, table  # noqa: F401 (fixture)
from tournaments.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def test_a_scorekeepers_nav_leads_to_the_matches_to_score_not_to_the_organizers_dashboard(event):
    keeper = UserFactory(username="keeper")
    event.scorekeepers.add(keeper)
    client = Client()
    client.force_login(keeper)
    match = Match.objects.filter(round__tournament=event).order_by("table").first()
    dashboard = reverse("ws:tournament", args=[event.slug])
    for url in (reverse("ws:score", args=[event.slug]), reverse("ws:score-match", args=[event.slug, match.pk])):
        page = client.get(url).content.decode()
        assert f'href="{dashboard}"' not in page, url
        assert f'href="{reverse("ws:score", args=[event.slug])}">{event.name}</a>' in page, url
    assert client.get(dashboard).status_code == 404  # why: the dashboard is the organizers'


def test_an_organizers_nav_still_leads_to_the_dashboard(event):
    organizer = UserFactory(username="org")
    event.organizers.add(organizer)
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("ws:score", args=[event.slug])).content.decode()
    assert f'href="{reverse("ws:tournament", args=[event.slug])}">{event.name}</a>' in page


def _outcome(page: str) -> str:
    start = page.index('<section class="entry-outcome"')
    return page[start:page.index("</section>", start)]


def test_the_entering_phone_reads_that_the_result_waits_and_may_still_correct_it(event):
    match = table(event)
    phone = Client()
    open_table(phone, event, match.table_code)
    play_to_the_end(phone, event, match)
    page = phone.get(reverse("ws:table-match", args=[event.slug, match.pk])).content.decode()
    outcome = _outcome(page)  # the section the queue's script swaps in after the deciding hand
    assert "Waiting for confirmation" in outcome
    assert "You can still correct or delete its last hand." in outcome
    assert reverse("ws:table-correct", args=[event.slug, match.pk]) in page


def test_another_phone_of_the_table_is_not_offered_a_correction_it_would_be_refused(event):
    match = table(event)
    entering, other = Client(), Client()
    open_table(entering, event, match.table_code)
    play_to_the_end(entering, event, match)
    open_table(other, event, match.table_code)
    page = other.get(reverse("ws:table-match", args=[event.slug, match.pk])).content.decode()
    assert "Waiting for confirmation" in _outcome(page)
    assert "You can still correct" not in page
    assert reverse("ws:table-correct", args=[event.slug, match.pk]) not in page
    assert reverse("ws:table-delete", args=[event.slug, match.pk]) not in page
    assert "The match is decided." in _outcome(page)
    assert reverse("ws:table-confirm", args=[event.slug, match.pk]) in page  # it may confirm instead


def test_a_scorekeeper_signed_in_may_still_correct_a_waiting_result(event):
    match = table(event)
    open_table(phone := Client(), event, match.table_code)
    play_to_the_end(phone, event, match)
    keeper = UserFactory(username="keeper")
    event.scorekeepers.add(keeper)
    client = Client()
    client.force_login(keeper)
    page = client.get(reverse("ws:score-match", args=[event.slug, match.pk])).content.decode()
    assert reverse("ws:score-correct", args=[event.slug, match.pk]) in page


def test_the_confirm_page_groups_the_names_by_team_and_says_either_side_confirms_a_phones_entry(event):
    match = table(event)
    entering, other = Client(), Client()
    open_table(entering, event, match.table_code)
    play_to_the_end(entering, event, match)
    open_table(other, event, match.table_code)
    page = other.get(reverse("ws:table-confirm", args=[event.slug, match.pk])).content.decode()
    for side, team in (("ns", match.ns), ("ew", match.ew)):
        start = page.index(f'<legend class="side-{side}">{team.name}</legend>')
        group = page[start:page.index("</fieldset>", start)]
        assert team.player_1.name in group and team.player_2.name in group
        assert 'class="choice confirm-player' in group  # the entry pages' big choices
    assert "someone of either side checks it" in page
    assert "Someone of the side that did not enter the result" not in page
    # The waiting box above says the same, not "someone of the other side".
    assert "someone of either side confirms the result on another phone" in page
    assert "someone of the other side confirms" not in page
