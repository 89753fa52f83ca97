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
