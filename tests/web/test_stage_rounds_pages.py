"""A multi-stage event's round pages: round numbers count per stage, so a later stage's round has its own address
(``/t/<slug>/stages/<s>/rounds/<n>/``) and name ("Stage 2, round 1"); ``/t/<slug>/rounds/<n>/`` stays stage 1's."""

import pytest

from tests.web.stage_pages import roeselare_event
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def match_links(tournament, stage: int, number: int) -> set[str]:
    return {f"/t/{tournament.slug}/matches/{pk}/" for pk in Match.objects.filter(
        round__tournament=tournament, round__stage__number=stage, round__number=number).values_list("pk", flat=True)}


def test_a_later_stages_round_is_reached_through_its_stage_and_the_old_address_stays_stage_1s(client):
    tournament = roeselare_event(teams=16, pools=4, per_pool=2, best_next=0, name="Duo", slug="duo")
    pools_one, knockout_one = match_links(tournament, 1, 1), match_links(tournament, 2, 1)
    assert len(pools_one) == 8 and len(knockout_one) == 4
    old = client.get("/t/duo/rounds/1/").content.decode()
    assert all(link in old for link in pools_one) and not any(link in old for link in knockout_one)
    page = client.get("/t/duo/stages/2/rounds/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert all(link in html for link in knockout_one) and not any(link in html for link in pools_one)
    # The knockout of 8's first round, named as its bracket names it.
    assert '<a href="/t/duo/stages/2/rounds/1/" aria-current="page">Quarter-finals</a>' in html
    assert '<a href="/t/duo/rounds/3/">Round 3</a>' in html
    assert client.get("/t/duo/stages/2/rounds/2/").status_code == 404
    assert client.get("/t/duo/stages/3/rounds/1/").status_code == 404
    # The rounds page without a number shows the round being played, the knockout's; the event's page links it.
    latest = client.get("/t/duo/rounds/").content.decode()
    assert all(link in latest for link in knockout_one)
    home = client.get("/t/duo/").content.decode()
    assert 'href="/t/duo/stages/2/rounds/1/"' in home and "Quarter-finals" in home
