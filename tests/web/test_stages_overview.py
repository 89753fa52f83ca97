"""A multi-stage event on the public pages around its stages: the overview's "About" a line a stage, and every
page's header saying "All played" between the last stage's final result and its closing, with ETags that move at
both (never a 304 with a stale header)."""

import pytest
from django.urls import reverse

from tests.web.conftest import enter_hands
from tests.web.stage_pages import pools_then_knockout, roeselare_event
from tournaments.models import Match, Round, Stage

pytestmark = pytest.mark.django_db


def about(html: str) -> str:
    start = html.index('id="about"')
    return html[start:html.index("</dl>", start)]


def three_stages():
    """Pools, then a Swiss of 3 rounds (closed), then the knockout of ``pools_then_knockout``."""
    tournament = pools_then_knockout(decided=1, name="Drie fasen", slug="drie")
    Stage.objects.filter(tournament=tournament, number=2).update(number=3)
    Stage.objects.create(tournament=tournament, number=2, format="swiss", rounds=4, best_of=1, status="closed")
    return tournament


def test_the_overview_says_each_stages_format_rounds_and_length_at_constant_queries(
        client, django_assert_max_num_queries):
    two = pools_then_knockout(decided=1)
    three = three_stages()
    with django_assert_max_num_queries(20) as few:
        html = about(client.get(reverse("web:tournament", args=[two.slug])).content.decode())
    assert '<a href="/t/roeselare/stages/1/">Stage 1: Pools</a>, 3 rounds, best of 3</li>' in html
    assert '<a href="/t/roeselare/stages/2/">Stage 2: Knockout</a>, 3 rounds, best of 3</li>' in html
    assert "<dt>Format</dt>" not in html and "<dt>Rounds</dt>" not in html and "<dt>Matches</dt>" not in html
    assert "<dt>Match points</dt>" in html and "<dt>Ranking</dt>" in html  # the rest of the facts stay
    with django_assert_max_num_queries(20) as many:
        html = about(client.get(reverse("web:tournament", args=[three.slug])).content.decode())
    assert len(few.captured_queries) == len(many.captured_queries)
    assert "Stage 2: Swiss system</a>, 4 rounds, one game</li>" in html and "Stage 3: Knockout</a>, 3 rounds" in html
    nl = about(client.get(reverse("web:tournament", args=[two.slug]), HTTP_ACCEPT_LANGUAGE="nl").content.decode())
    assert "Fase 2: Knock-out</a>, 3 rondes, beste van 3</li>" in nl


def test_a_one_stage_events_overview_is_unchanged(client):
    from tests.web.conftest import make_tournament

    tournament = make_tournament(4)
    html = about(client.get(reverse("web:tournament", args=[tournament.slug])).content.decode())
    assert "<dt>Format</dt><dd>Swiss system</dd>" in html and "<dt>Matches</dt><dd>best of 3</dd>" in html
    assert "stage-lines" not in html


def final_of(tournament) -> Match:
    last = Round.objects.filter(tournament=tournament, stage__number=2).order_by("-number").first()
    return last.matches.get(table=1)


def enter_the_final(match: Match) -> None:
    """The final's result through the scorekeeper's service, hand by hand until the match is won."""
    while match.status != Match.Status.FINISHED:
        enter_hands(match, 1, ns=60)
        match.refresh_from_db()


def played_event():
    """Pools of 4 then a knockout of 4: the semi-finals played, the final paired (through the services)."""
    tournament = roeselare_event(teams=8, pools=2, per_pool=1, best_next=2, knockout_rounds_played=1,
                                 name="Klein", slug="klein")
    final = final_of(tournament)
    assert final.round.number == 2 and final.status != Match.Status.FINISHED
    return tournament, final


def header_badge(html: str) -> str:
    start = html.index('<p class="t-meta">')
    return html[start:html.index("</span>", start)]


def test_the_headers_say_all_played_once_the_final_is_entered_and_their_etags_move(client):
    from tournaments.services.stages import stage_close

    tournament, final = played_event()
    slug = tournament.slug
    urls = [reverse("web:standings", args=[slug]), reverse("web:rounds", args=[slug]), f"/t/{slug}/rounds/1/",
            f"/t/{slug}/stages/2/rounds/2/", reverse("web:match", args=[slug, final.pk]),
            reverse("web:team", args=[slug, final.ns_id])]
    tags = {}
    for url in urls:
        first = client.get(url)
        assert first.status_code == 200 and 'status-running">Running' in header_badge(first.content.decode()), url
        tags[url] = first.get("ETag")
    assert client.get(urls[0], HTTP_IF_NONE_MATCH=tags[urls[0]]).status_code == 304  # unchanged: a 304
    enter_the_final(final)
    for url in urls:
        answer = client.get(url, HTTP_IF_NONE_MATCH=tags[url] or "")
        assert answer.status_code == 200, url  # no 304 with the header that said "Running"
        assert 'status-played">All played' in header_badge(answer.content.decode()), url
        tags[url] = answer.get("ETag")
    # Closed by its organizers: "Finished", again not a 304 with the header that said "All played".
    stage_close(tournament=tournament, number=2, user=tournament.organizers.first())
    for url in urls:
        answer = client.get(url, HTTP_IF_NONE_MATCH=tags[url] or "")
        assert answer.status_code == 200, url
        badge = header_badge(answer.content.decode())
        assert 'status-finished">Finished' in badge and "All played" not in badge, url


def test_without_the_cache_the_header_counts_in_the_etag(client, settings):
    """No version stamps (the cache unreachable): the ETag is the region's and the header's, "All played" in it."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    tournament, final = played_event()
    url = f"/t/{tournament.slug}/rounds/1/"  # the pools' first round: its tables do not change with the final
    first = client.get(url)
    assert 'status-running">Running' in header_badge(first.content.decode())
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    enter_the_final(final)
    answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200 and 'status-played">All played' in header_badge(answer.content.decode())


def test_an_individual_multi_stage_events_overview_says_each_stage(client):
    from tests.individual import make_individual

    tournament = make_individual(16, drawn=1, minutes=30, slug="kampioen")
    Stage.objects.create(tournament=tournament, number=2, format="tables", rounds=2, match_length="games",
                         match_games=4)
    html = about(client.get(reverse("web:tournament", args=[tournament.slug])).content.decode())
    assert "Stage 1: Tables of four</a>, 3 rounds, 30 minutes a round" in html
    assert "Stage 2: Tables of four</a>, 2 rounds, 4 games, each counted</li>" in html
    assert "<dt>Format</dt>" not in html and "<dt>Sitting out</dt>" in html  # the individual rules stay
