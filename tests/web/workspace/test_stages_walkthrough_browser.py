"""The Roeselare format run from the workspace, on the real server in headless Chromium at a phone's width: the
organizer plans "pools, then a knockout" from the template, pairs the pools' rounds from the dashboard, is told
when the pools are played, closes them and starts the knockout on the Stages page, pairs and follows the knockout
to its final; a player follows the event on the public stage pages, the bracket and the event's ranking.

The tables' results are written by the test (the hands' own pages are other tests'); the pages are parked on
about:blank while it writes, as SQLite's shared-cache test database asks.
"""

import pytest

from tests.factories import UserFactory
from tests.tournaments.test_rounds_service import finish_round, make_tournament
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.workspace.test_organize_browser import shoot, sign_in
from tournaments.models import Match, Round, Stage, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def walk():
    organizer = UserFactory(username="orga", password="orga-password")
    tournament, teams = make_tournament(8, public=True, slug="roeselare-walk", name="Roeselare walk",
                                        status=Tournament.Status.DRAFT)
    tournament.organizers.add(organizer)
    with AsgiServer() as server:
        yield server, tournament, teams


def play(page, tournament, stage: int, number: int, pick) -> None:
    """The tables of the stage's round ``number`` finish (the stronger seed wins), written while no page polls."""
    page.goto("about:blank")
    rnd = Round.objects.get(tournament=tournament, stage__number=stage, number=number)
    finish_round(rnd, pick)


def test_the_roeselare_format_from_the_pools_to_the_final(browser, walk):  # noqa: F811
    server, tournament, teams = walk
    rank = {t.pk: i for i, t in enumerate(teams)}

    def stronger(m):
        return "ns" if rank[m.ns_id] < rank[m.ew_id] else "ew"

    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en")
    slug = tournament.slug
    sign_in(page, server, f"/my/t/{slug}/stages/")
    page.fill("#pools", "2")
    page.fill("#per_pool", "2")
    page.fill("#best_next", "0")
    page.check("#t_third_place")
    page.click("text=Plan these stages")
    page.wait_for_load_state()
    assert Stage.objects.filter(tournament=tournament).count() == 2
    shoot(page, "walk-stages-planned")

    page.goto(f"{server.url}/my/t/{slug}/")
    page.locator("form button", has_text="Start").click()
    page.wait_for_load_state()
    for number in (1, 2, 3):
        page.goto(f"{server.url}/my/t/{slug}/")
        button = page.locator("form.pair-form button")
        assert button.inner_text().strip() == f"Pair round {number}"
        button.click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/my/t/{slug}/rounds/{number}/")
        play(page, tournament, 1, number, stronger)

    page.goto(f"{server.url}/my/t/{slug}/")
    assert "Stage 1 is played: every round is finished." in page.inner_text("main")
    assert page.locator("form.pair-form button").count() == 0
    shoot(page, "walk-pools-played")
    page.locator(".stage-over + p a", has_text="Stages").click()
    page.wait_for_load_state()
    page.locator("button", has_text="Close stage 1").click()
    page.wait_for_load_state()
    page.locator("button", has_text="Start stage 2").click()
    page.wait_for_load_state()
    if not Round.objects.filter(tournament=tournament, stage__number=2).exists():
        page.goto(f"{server.url}/my/t/{slug}/")
        page.locator("form.pair-form button", has_text="Pair stage 2, round 1").click()
        page.wait_for_load_state()
    semi = Round.objects.get(tournament=tournament, stage__number=2, number=1)
    assert semi.matches.exclude(ew=None).count() == 2
    page.goto(f"{server.url}/my/t/{slug}/rounds/1/?stage=2")
    assert "Semi-finals" in page.title() and "At no table" not in page.inner_text("main")
    shoot(page, "walk-semi-finals")

    play(page, tournament, 2, 1, stronger)
    final = Round.objects.get(tournament=tournament, stage__number=2, number=2)
    assert final.matches.count() == 2  # the final and the match for third place
    play(page, tournament, 2, 2, stronger)
    assert not Match.objects.filter(round__tournament=tournament).exclude(status=Match.Status.FINISHED).exists()
    page.goto(f"{server.url}/my/t/{slug}/")
    assert page.locator("form.pair-form button").count() == 0  # nothing more to pair after the final

    # A player follows it on a phone: the knockout stage's bracket with its winner, the event's ranking.
    player = browser.new_page(viewport={"width": 390, "height": 844}, locale="en")
    player.goto(f"{server.url}/t/{slug}/stages/2/")
    winner = final.matches.get(table=1)
    champion = winner.ns.name if winner.winner == "ns" else winner.ew.name
    assert f"Winner: {champion}." in player.inner_text("main")
    assert player.locator("svg#bracket").count() == 1
    shoot(player, "walk-bracket")
    player.goto(f"{server.url}/t/{slug}/stages/ranking/")
    ranking = player.inner_text("main")
    assert ranking.index(champion) < ranking.index(teams[-1].name)
    assert "in pool" in ranking
    shoot(player, "walk-ranking")
