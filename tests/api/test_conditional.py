"""A visitor's early 304 (``api.views.conditional.VisitorNotModified``): DRF's own 304, without DRF's machinery."""

import pytest
from rest_framework.views import APIView

from tests.api.conftest import client_for
from tests.api.deals import summary
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def urls(tournament, match) -> list[str]:
    return [f"/api/v1/matches/{match.pk}/", f"/api/v1/tournaments/{tournament.pk}/standings/",
            f"/api/v1/tournaments/{tournament.pk}/rounds/", f"/api/v1/tournaments/{tournament.pk}/rounds/1/"]


def test_a_visitors_early_304_is_the_one_drf_gives(tournament, match, anon, monkeypatch):
    hand_enter(match=match, data=summary("N"))
    etags, through_drf = {}, {}
    for url in urls(tournament, match):
        etags[url] = anon.get(url)["ETag"]
        # An Accept other than plain JSON's is negotiated by DRF: the 304 of DRF's path.
        through_drf[url] = anon.get(url, HTTP_IF_NONE_MATCH=etags[url], HTTP_ACCEPT="application/json; indent=2")
        assert through_drf[url].status_code == 304, url

    def not_here(*args, **kwargs):
        raise AssertionError("DRF's request machinery ran")

    monkeypatch.setattr(APIView, "initial", not_here)
    for url in urls(tournament, match):
        early = anon.get(url, HTTP_IF_NONE_MATCH=etags[url])
        assert early.status_code == 304 and early.content == b"", url
        assert dict(early.items()) == dict(through_drf[url].items()), url


def test_anything_but_a_visitors_unchanged_get_goes_through_drf(tournament, match, anon, scorekeeper):
    url = f"/api/v1/matches/{match.pk}/"
    etag = anon.get(url)["ETag"]
    # A token that is not one is refused, whatever the ETag.
    bad = anon.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_AUTHORIZATION="Token not-a-token")
    assert bad.status_code == 401
    # A limit is validated first.
    standings = f"/api/v1/tournaments/{tournament.pk}/standings/"
    etag_standings = anon.get(standings)["ETag"]
    assert anon.get(f"{standings}?limit=0", HTTP_IF_NONE_MATCH=etag_standings).status_code == 400
    # A changed scoreboard is built, with the stamps the early check read.
    client_for(scorekeeper).post(f"{url}hands/", summary("N"), format="json")
    changed = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and len(changed.json()["games"][0]["hands"]) == 1
    assert anon.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_a_round_made_while_unpublished_moves_no_visitors_etag_until_it_is_published(
        tournament, anon, organizer, django_capture_on_commit_callbacks):
    """Issue 28: a round paired while the event publishes on purpose, its matches and a hand entered there change
    none of the public's answers, so their ETags stay (304); its organizers' answers move; publishing moves both."""
    from django.test import Client

    from tests.factories import EntryFactory, TeamFactory
    from tournaments.models import Match
    from tournaments.services.publication import round_publish
    from tournaments.services.rounds import round_pair

    for _ in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory())
    first = round_pair(tournament=tournament)  # published as it is paired; the event runs
    hand_enter(match=Match.objects.filter(round=first).first(), data=summary("N"))
    tournament.auto_publish = False
    tournament.save(update_fields=["auto_publish"])
    board = Match.objects.filter(round=first).first()
    api = [f"/api/v1/tournaments/{tournament.pk}/rounds/", f"/api/v1/tournaments/{tournament.pk}/rounds/1/",
           f"/api/v1/tournaments/{tournament.pk}/rounds/1/tables/", f"/api/v1/tournaments/{tournament.pk}/live/",
           f"/api/v1/matches/{board.pk}/"]
    page, browser = f"/t/{tournament.slug}/rounds/", Client()
    browser.get(page)  # the page's first visit sets its CSRF cookie, which its tag names
    tags = {url: anon.get(url)["ETag"] for url in api} | {page: browser.get(page)["ETag"]}
    inside = client_for(organizer)
    theirs = inside.get(api[0])["ETag"]

    with django_capture_on_commit_callbacks(execute=True):
        second = round_pair(tournament=tournament, force=True)
    assert not second.published
    with django_capture_on_commit_callbacks(execute=True):
        hand_enter(match=Match.objects.filter(round=second).first(), data=summary("E"))  # scored before publication
    for url in api:
        answer = anon.get(url, HTTP_IF_NONE_MATCH=tags[url])
        assert answer.status_code == 304 and answer["ETag"] == tags[url], url
    assert browser.get(page, HTTP_IF_NONE_MATCH=tags[page]).status_code == 304
    moved = inside.get(api[0], HTTP_IF_NONE_MATCH=theirs)
    assert moved.status_code == 200 and moved.json()["count"] == 2

    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=second)
    shown = anon.get(api[0], HTTP_IF_NONE_MATCH=tags[api[0]])
    assert shown.status_code == 200 and shown.json()["count"] == 2
    assert browser.get(page, HTTP_IF_NONE_MATCH=tags[page]).status_code == 200


def test_a_write_through_a_copy_of_the_round_older_than_its_publication_moves_the_publics_stamps(
        tournament, match, django_capture_on_commit_callbacks):
    """A service holding its round as it was before another transaction published it writes to the unpublished
    answers' stamp; once committed, the round found published, the public's stamps move too (never stale)."""
    from django.utils import timezone

    from tournaments import versions
    from tournaments.models import Match, Round

    Round.objects.filter(pk=match.round_id).update(published_at=None)
    stale = Match.objects.select_related("round").get(pk=match.pk)  # the round read unpublished
    Round.objects.filter(pk=match.round_id).update(published_at=timezone.now())  # published by someone else
    public = versions.stamps(*versions.results_keys(tournament.pk))
    with django_capture_on_commit_callbacks(execute=False) as pending:
        versions.match_saved(stale)
    assert versions.stamps(*versions.results_keys(tournament.pk)) == public  # not yet: written as unpublished
    for callback in pending:
        callback()  # the commit
    assert versions.stamps(*versions.results_keys(tournament.pk)) != public
