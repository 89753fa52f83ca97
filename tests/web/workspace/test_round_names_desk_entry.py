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


def test_the_desks_alert_names_a_knockouts_round_as_its_row_does(client, cup, django_assert_max_num_queries):
    """A new dispute's alert (the row's ``data-alert``, which ws-desk.js says) is no "table 1 of round 3" in a
    knockout: "table 1 of the final", the match for third place, the semi-finals, in every language."""
    tournament, matches = cup
    final, third, semi = matches[(3, 1)], matches[(3, 2)], matches[(2, 1)]
    for m in (final, third, semi):
        Match.objects.filter(pk=m.pk).update(status="finished", result_status="disputed", result_at=timezone.now())
    with django_assert_max_num_queries(12):
        rows = get(client, "ws:desk-rows", tournament.slug)
    assert f'id="desk-{final.pk}" data-alert="A new dispute: table 1 of the final.">' in rows
    assert f'id="desk-{third.pk}" data-alert="A new dispute: the match for third place (table 2).">' in rows
    assert f'id="desk-{semi.pk}" data-alert="A new dispute: table 1 of the semi-finals.">' in rows
    assert "of round" not in rows
    said = {"nl": ("tafel 1 van de finale.", "de wedstrijd om de derde plaats (tafel 2).",
                   "tafel 1 van de halve finales."),
            "fr": ("table 1 de la finale.", "le match pour la troisième place (table 2).",
                   "table 1 des demi-finales."),
            "es": ("mesa 1 de la final.", "el partido por el tercer puesto (mesa 2).", "mesa 1 de las semifinales."),
            "ca": ("taula 1 de la final.", "el partit pel tercer lloc (taula 2).", "taula 1 de les semifinals.")}
    for lang, words in said.items():
        html = client.get(reverse("ws:desk-rows", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        for m, end in zip((final, third, semi), words):
            assert re.search(rf'id="desk-{m.pk}" data-alert="[^"]*: {re.escape(end)}">', html), (lang, end)


def test_the_desks_alert_names_a_later_stages_round_by_its_stage():
    from tests.web.stage_pages import roeselare_event
    from web.workspace.round_words import new_dispute

    tournament = roeselare_event(teams=8, pools=2, per_pool=1, best_next=2, name="Klein", slug="klein")
    pools = Match.objects.select_related("round__stage").filter(round__tournament=tournament, round__stage__number=1,
                                                                round__number=3).order_by("table").first()
    assert new_dispute(pools) == f"A new dispute: table {pools.table} of round 3."
    semi = Match.objects.select_related("round__stage").get(round__tournament=tournament, round__stage__number=2,
                                                            table=2)
    assert new_dispute(semi) == "A new dispute: table 2 of the semi-finals."
    from tournaments.models import Stage

    Stage.objects.filter(pk=semi.round.stage_id).update(format="swiss")  # a later stage that is no knockout
    semi = Match.objects.select_related("round__stage").get(pk=semi.pk)
    assert new_dispute(semi) == "A new dispute: table 2 of stage 2, round 1."
