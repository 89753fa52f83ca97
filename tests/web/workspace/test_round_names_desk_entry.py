"""The director's desks and the scorekeeper's pages name a knockout's rounds as its bracket names them
(``web.round_names``: "Quarter-finals", "Final", "Match for third place"), a later stage's round by its stage, any
other round by its number as before."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tests.web.stage_pages import knockout_event
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(client):
    """A knockout of eight: the quarter-finals and semi-finals played, the final and the match for third place
    paired; an organizer (and so a director and a scorekeeper) signed in."""
    tournament = knockout_event(8, decided=2, third_place=True)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents")
    user = UserFactory()
    tournament.organizers.add(user)
    client.force_login(user)
    return tournament, {(m.round.number, m.table): m for m in Match.objects.filter(round__tournament=tournament)
                        .select_related("round")}


def get(client, name, *args) -> str:
    answer = client.get(reverse(name, args=args))
    assert answer.status_code == 200, (name, answer.status_code)
    return answer.content.decode()


def test_the_scorekeepers_pages_name_the_knockouts_rounds(client, cup, django_assert_max_num_queries):
    tournament, matches = cup
    with django_assert_max_num_queries(10):
        listed = get(client, "ws:score", tournament.slug)
    for name in ("Final", "Semi-finals", "Quarter-finals"):
        assert f"<h2>{name} <span" in listed
    assert "Round 1" not in listed and "Round 3" not in listed
    final = get(client, "ws:score-match", tournament.slug, matches[(3, 1)].pk)
    assert "Table 1 · Final</h1>" in final and "Round 3" not in final
    third = get(client, "ws:score-match", tournament.slug, matches[(3, 2)].pk)
    assert "Table 2 · Match for third place</h1>" in third
    nl = client.get(reverse("ws:score-match", args=[tournament.slug, matches[(3, 1)].pk]),
                    HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Tafel 1 · Finale</h1>" in nl


def test_the_directors_desks_name_the_knockouts_rounds(client, cup, django_assert_max_num_queries):
    tournament, matches = cup
    semi = matches[(2, 1)]
    Match.objects.filter(pk=semi.pk).update(result_status="entered", result_at=timezone.now())
    with django_assert_max_num_queries(12):
        rows = get(client, "ws:desk-rows", tournament.slug)
    assert "Table 1 · Semi-finals</a></b>" in rows and "Round 2" not in rows  # a link to the match's hands
    with django_assert_max_num_queries(14):
        actions = get(client, "ws:actions", tournament.slug)
    assert re.search(rf'<option value="{matches[(3, 1)].pk}"[^>]*>Final, table 1: ', actions)
    assert re.search(rf'<option value="{matches[(3, 2)].pk}"[^>]*>Match for third place, table 2: ', actions)
    assert re.search(rf'<option value="{matches[(1, 4)].pk}"[^>]*>Quarter-finals, table 4: ', actions)
    assert "Round 1, table" not in actions
    fr = client.get(reverse("ws:actions", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Finale, table 1: " in fr


def test_a_swiss_events_rounds_keep_their_numbers(client):
    from tests.web.conftest import make_tournament

    tournament = make_tournament(4)
    user = UserFactory()
    tournament.organizers.add(user)
    client.force_login(user)
    match = Match.objects.filter(round__tournament=tournament).order_by("table").first()
    assert "<h2>Round 1 <span" in get(client, "ws:score", tournament.slug)
    assert "Table 1 · Round 1</h1>" in get(client, "ws:score-match", tournament.slug, match.pk)
    assert re.search(rf'<option value="{match.pk}"[^>]*>Round 1, table 1: ', get(client, "ws:actions", tournament.slug))


def test_the_score_list_puts_the_last_stages_rounds_first(client):
    """Round numbers count per stage: the knockout's semi-finals (its round 1) come before the pools' round 3."""
    from tests.web.stage_pages import roeselare_event

    tournament = roeselare_event(teams=8, pools=2, per_pool=1, best_next=2, name="Klein", slug="klein")
    client.force_login(tournament.organizers.first())
    listed = get(client, "ws:score", tournament.slug)
    assert listed.index("<h2>Semi-finals <span") < listed.index("<h2>Round 3 <span") < listed.index(
        "<h2>Round 1 <span")
