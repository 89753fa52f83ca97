"""The organizer's stages page through a stage's life (the Roeselare walk-through): the template's pools stage
plays as many rounds as its pools' round robin, every stage's card says its format and rounds, stage 1 is not
started while the event is a draft, and the last stage is closed here once all its matches are played, which
finishes the event."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.test_rounds_service import finish_round
from tests.tournaments.test_stages_close_start import by_seed
from tests.tournaments.test_stages_knockout_extras import knockout_after_pools
from tests.web.stage_pages import teams_for
from tests.web.workspace.test_organize_stages import organizer_of
from tournaments.models import Round, Stage, Tournament
from tournaments.services.rounds import round_pair

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def card(page, number):
    start = page.index(f'id="stage-{number}"')
    return page[start:page.index("</li>", start)]


def test_a_pools_stage_plays_its_pools_round_robin():
    from web.workspace.organize_stages import pool_rounds

    assert [pool_rounds(16, 4), pool_rounds(18, 4), pool_rounds(60, 15), pool_rounds(15, 3)] == [3, 5, 3, 5]
    assert pool_rounds(16, 4, double=True) == 6 and pool_rounds(1, 1) == 0


def test_the_template_sets_the_pools_rounds_and_every_card_says_its_format_and_rounds(client):
    tournament = TournamentFactory(name="Roeselaarse Duo", slug="roeselare-duo")  # a Swiss of 5 rounds
    assert tournament.rounds == 5
    teams_for(tournament, 16)
    client.force_login(organizer_of(tournament))
    answer = client.post(reverse("ws:stage-template", args=[tournament.slug]),
                         {"pools": 4, "per_pool": 2, "best_next": 0, "best_of": 3, "third_place": "1"})
    assert answer.status_code == 302
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    assert [(s.format, s.pools, s.rounds) for s in stages] == [("pools", 4, 3), ("knockout", 0, 3)]
    tournament.refresh_from_db()
    assert (tournament.format, tournament.rounds) == ("pools", 3)
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    first, second = card(page, 1), card(page, 2)
    assert "Pools" in first and "3 rounds" in first and "4 pools" in first and "round robin" in first
    assert "Knockout" in second and "3 rounds" in second and "a match for third place" in second
    # Before the event starts, no stage runs: stage 1 is not started.
    assert "Not started" in first and "Running" not in page


def test_the_last_stage_is_closed_here_once_its_matches_are_played_and_that_finishes_the_event(client):
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2)
    client.force_login(organizer_of(tournament))
    url = reverse("ws:stages", args=[tournament.slug])
    pick = by_seed(teams)
    reopen_1 = reverse("ws:stage-reopen", args=[tournament.slug, 1])
    assert reopen_1 in card(client.get(url).content.decode(), 1)  # stage 2 has no result yet
    finish_round(round_pair(tournament=tournament), pick)  # the semi-finals
    first = card(client.get(url).content.decode(), 1)  # reopening would be refused: not offered (a walk-through)
    assert reopen_1 not in first and "Stage 2 has results already: this stage stays closed." in first
    last = card(client.get(url).content.decode(), 2)
    assert "once all its matches are played" in last and "Close stage 2" not in last
    finish_round(Round.objects.get(stage=stage, number=2), pick)  # the final
    last = card(client.get(url).content.decode(), 2)
    assert "All its matches are played: closing the last stage finishes the event." in last
    assert reverse("ws:stage-close", args=[tournament.slug, 2]) in last
    answer = client.post(reverse("ws:stage-close", args=[tournament.slug, 2]), follow=True)
    assert "Stage 2 is closed: the event is finished." in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.CLOSED
    public = client.get(reverse("web:stage", args=[tournament.slug, 2])).content.decode()
    assert "Running" not in public
    assert "Add stage 3" not in client.get(url).content.decode()  # a finished event gains no stage
