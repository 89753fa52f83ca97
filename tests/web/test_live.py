"""Live updates: changes published on commit to the Channels groups, and the polling endpoint with ETags.

The database work runs through asgiref's thread-sensitive ``sync_to_async``: in the test's own thread,
inside the test's transaction (``database_sync_to_async`` would close that connection).
"""

import asyncio
import os
import time
import uuid
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.test import override_settings
from django.urls import reverse

from tests.web.conftest import belgian_hand, enter_hands
from tournaments import live
from tournaments.models import Match
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def table(tournament, number=1) -> Match:
    return Match.objects.get(round__tournament=tournament, round__number=1, table=number)


async def listen(*groups: str) -> tuple:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return layer, channel


async def received(layer, channel, timeout=2.0) -> list[dict]:
    """Every message waiting on the channel (the first one awaited up to ``timeout``)."""
    messages = [await asyncio.wait_for(layer.receive(channel), timeout)]
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
        except asyncio.TimeoutError:
            return messages


def next_hand(match) -> dict:
    game = match.games.order_by("-number").first()
    return belgian_hand(game.hands.count() + 1 if game and game.status == "playing" else 1)


# -- publishing -----------------------------------------------------------------------------------------------------

@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_a_hand_publishes_to_its_match_and_tournament_on_commit(tournament, django_capture_on_commit_callbacks):
    match, other = table(tournament), table(tournament, 2)

    async def scenario():
        layer, match_channel = await listen(f"match-{match.pk}")
        _, tournament_channel = await listen(f"tournament-{tournament.pk}")
        _, other_channel = await listen(f"match-{other.pk}")

        def enter():
            with django_capture_on_commit_callbacks(execute=False) as callbacks:
                hand_enter(match=match, data=next_hand(match))
            return callbacks

        callbacks = await sync_to_async(enter)()
        with pytest.raises(asyncio.TimeoutError):  # nothing before the commit
            await received(layer, match_channel, timeout=0.1)
        for callback in callbacks:
            await sync_to_async(callback)()
        with pytest.raises(asyncio.TimeoutError):  # the other match's pages are not told
            await received(layer, other_channel, timeout=0.1)
        on_match = await received(layer, match_channel)
        on_tournament = await received(layer, tournament_channel)
        return on_match, on_tournament

    on_match, on_tournament = async_to_sync(scenario)()
    assert [m["type"] for m in on_match] == ["region.changed"]
    assert on_match[0]["version"]
    # The hand and the standings recompute it queued (run eagerly here): two changes of the tournament.
    assert {m["type"] for m in on_tournament} == {"region.changed"}
    assert len(on_tournament) >= 1
    versions = [m["version"] for m in on_match + on_tournament]
    assert len(set(versions)) == len(on_tournament), "one version per change, shared by its groups"


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_nothing_is_published_when_the_transaction_rolls_back(tournament):
    from django.db import transaction

    match = table(tournament)

    async def scenario():
        layer, channel = await listen(f"match-{match.pk}")

        def enter_and_roll_back():
            with pytest.raises(RuntimeError), transaction.atomic():
                hand_enter(match=match, data=next_hand(match))
                raise RuntimeError

        await sync_to_async(enter_and_roll_back)()
        with pytest.raises(asyncio.TimeoutError):
            await received(layer, channel, timeout=0.3)

    async_to_sync(scenario)()


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_standings_and_pairing_publish_to_the_tournament(tournament, django_capture_on_commit_callbacks):
    async def scenario():
        layer, channel = await listen(f"tournament-{tournament.pk}")

        def recompute():
            with django_capture_on_commit_callbacks(execute=True):
                standings_recompute(tournament=tournament)

        await sync_to_async(recompute)()
        return await received(layer, channel)

    assert [m["type"] for m in async_to_sync(scenario)()] == ["region.changed"]
    sent = []
    with mock.patch.object(live, "_send", side_effect=sent.append):
        with django_capture_on_commit_callbacks(execute=True):
            round_pair(tournament=tournament, force=True)
    assert [f"tournament-{tournament.pk}"] in sent


def test_a_failing_layer_is_logged_never_raised(tournament, django_capture_on_commit_callbacks, caplog):
    match = table(tournament)
    broken = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                          "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}  # nothing listens on port 1
    with override_settings(CHANNEL_LAYERS=broken):
        with django_capture_on_commit_callbacks(execute=True):
            hand, created = hand_enter(match=match, data=next_hand(match))
    assert created and hand.pk  # stored and answered without waiting for the layer
    deadline = time.monotonic() + 5
    while "live update to match-" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.02)  # the publisher's thread logs the failure when it comes
    assert "live update to match-" in caplog.text


class RecordingLayer:
    """A layer out of process memory (sent to through the publisher's loop) that records what it is sent."""

    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((time.monotonic(), group, message["version"]))


@pytest.mark.django_db(databases=[])
def test_the_publisher_coalesces_the_changes_of_a_group():
    publisher, layer, interval = live._Publisher(), RecordingLayer(), 0.3
    publisher._own_layer = lambda shared: shared

    def wait_for(count, seconds=5.0):
        deadline = time.monotonic() + seconds
        while len(layer.sent) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)  # and nothing more comes on its heels
        return [group for _, group, _ in layer.sent]

    start = time.monotonic()
    publisher.send(layer, ["match-1", "tournament-1"], timeout=1.0, interval=interval)
    assert wait_for(2) == ["match-1", "tournament-1"]  # the first change of a group goes at once
    for _ in range(5):  # a burst: one message a group at the end of the coalescing time
        publisher.send(layer, ["match-1", "tournament-1"], timeout=1.0, interval=interval)
    publisher.send(layer, ["match-2", "tournament-1"], timeout=1.0, interval=interval)
    assert sorted(wait_for(5)[2:]) == ["match-1", "match-2", "tournament-1"]
    times = {group: at for at, group, _ in layer.sent[2:]}
    assert times["match-1"] - start >= interval and times["tournament-1"] - start >= interval
    assert len({version for _, _, version in layer.sent}) == 5  # each message a version of its own
    time.sleep(interval)
    quiet = time.monotonic()
    publisher.send(layer, ["match-1"], timeout=1.0, interval=interval)  # quiet for a while: at once again
    assert wait_for(6)[5:] == ["match-1"]
    assert layer.sent[5][0] - quiet < interval


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL: the channel layer on Redis")
@pytest.mark.django_db(transaction=True)
def test_a_hand_reaches_a_listener_through_redis(tournament):
    match = table(tournament)
    hand = next_hand(match)
    layers = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                          "CONFIG": {"hosts": [os.environ["REDIS_URL"]], "prefix": f"test-{uuid.uuid4().hex[:8]}"}}}

    async def scenario():
        layer, channel = await listen(f"match-{match.pk}")
        await sync_to_async(hand_enter)(match=match, data=hand)  # commits: autocommit
        messages = await received(layer, channel, timeout=5)
        await layer.group_discard(f"match-{match.pk}", channel)
        await layer.flush()
        return messages

    with override_settings(CHANNEL_LAYERS=layers):
        messages = async_to_sync(scenario)()
    assert [m["type"] for m in messages] == ["region.changed"]


# -- the polling endpoint -------------------------------------------------------------------------------------------

def region_url(kind, pk):
    return reverse("web:live-region", args=[kind, pk])


def region_pks(tournament) -> dict[str, int]:
    return {"match": table(tournament).pk, "round": tournament.round_set.get(number=1).pk,
            "standings": tournament.pk, "wall": tournament.pk}


@pytest.mark.parametrize("kind", ["match", "round", "standings", "wall"])
def test_endpoint_answers_the_region_with_an_etag_then_304(client, tournament, kind):
    url = region_url(kind, region_pks(tournament)[kind])
    response = client.get(url)
    assert response.status_code == 200
    etag = response["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert response["Cache-Control"] == "no-cache"
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}
    assert response.content.strip()
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    assert client.get(url, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


PAGES = {"match": "web:match", "round": "web:round", "standings": "web:standings", "wall": "web:wall"}


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "signed-in"])
@pytest.mark.parametrize("kind", ["match", "round", "standings", "wall"])
def test_a_page_s_region_is_not_modified_at_its_first_poll(client, tournament, kind, signed_in, django_user_model):
    """The region a page carries has the tag its poll is answered with: the page's first poll (or its socket's
    catch-up fetch) was a 200 for every visitor, the whole region sent again and swapped in just after load."""
    import re

    if signed_in:
        client.force_login(django_user_model.objects.create_user("reader"))
    pk = region_pks(tournament)[kind]
    args = {"match": [tournament.slug, pk], "round": [tournament.slug, 1]}.get(kind, [tournament.slug])
    page = client.get(reverse(PAGES[kind], args=args))
    assert page.status_code == 200
    etag = re.search(r'data-live-etag="([^"]*)"', page.content.decode()).group(1).replace("&quot;", '"')
    poll = client.get(region_url(kind, pk), HTTP_IF_NONE_MATCH=etag)
    assert poll.status_code == 304, etag


def test_endpoint_answers_the_new_region_after_a_hand(client, tournament):
    match = table(tournament)
    url = region_url("match", match.pk)
    etag = client.get(url)["ETag"]
    enter_hands(match, 1)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag


def test_endpoint_etag_depends_on_the_language(client, tournament):
    url = region_url("standings", tournament.pk)
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    nl = client.get(url, HTTP_ACCEPT_LANGUAGE="nl")
    assert en.status_code == nl.status_code == 200
    assert en["ETag"] != nl["ETag"]
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="nl", HTTP_IF_NONE_MATCH=en["ETag"]).status_code == 200


def test_endpoint_refuses_private_missing_and_unknown(client, tournament, private_tournament):
    private_match = Match.objects.filter(round__tournament=private_tournament).first()
    assert client.get(region_url("match", private_match.pk)).status_code == 404
    assert client.get(region_url("standings", private_tournament.pk)).status_code == 404
    assert client.get(region_url("round", private_tournament.round_set.get().pk)).status_code == 404
    assert client.get(region_url("match", 999999)).status_code == 404
    assert client.get(f"/live/nonsense/{tournament.pk}/").status_code == 404
    assert client.post(region_url("standings", tournament.pk)).status_code == 405


@pytest.mark.parametrize("kind", ["match", "round", "standings", "wall"])
def test_endpoint_query_count_is_constant(client, tournament, kind, django_assert_max_num_queries):
    pk = region_pks(tournament)[kind]
    with django_assert_max_num_queries(12) as small:
        client.get(region_url(kind, pk))
    # More hands and more results: the same number of queries.
    enter_hands(table(tournament), 4)
    standings_recompute(tournament=tournament)
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(region_url(kind, pk))


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL: the settings of the Redis layer")
def test_the_redis_layer_waits_longer_than_its_blocking_pop():
    """redis-py 8 times sockets out after 5 s, the layer's blocking pop lasts 5 s: idle sockets would fail."""
    import config.settings as configured
    from channels_redis.core import RedisChannelLayer

    layer = configured.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"] == "config.channel_layer.RedisChannelLayer"  # channels_redis with a waiting pool
    (host,) = layer["CONFIG"]["hosts"]
    assert host["address"] == os.environ["REDIS_URL"]
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout


def test_endpoint_serves_a_private_region_to_its_organizers_only(client, private_tournament, django_user_model):
    """As in the API: a private tournament's live regions are its organizers' and scorekeepers'."""
    url = region_url("standings", private_tournament.pk)
    keeper = django_user_model.objects.create_user("keeper-private", password="pw")
    client.force_login(keeper)
    assert client.get(url).status_code == 404
    private_tournament.scorekeepers.add(keeper)
    assert client.get(url).status_code == 200


def test_the_standings_group_hears_recomputes_not_hands(tournament, django_capture_on_commit_callbacks):
    """A hand tells its match and its tournament (round, wall); only a recompute tells the standings page."""
    match = table(tournament)
    sent = []
    with mock.patch.object(live, "_send", side_effect=sent.append), \
            mock.patch("tournaments.services.standings.standings_recompute_schedule"):
        with django_capture_on_commit_callbacks(execute=True):
            hand_enter(match=match, data=next_hand(match))
    assert sent == [[f"match-{match.pk}", f"tournament-{tournament.pk}"]]
    sent.clear()
    with mock.patch.object(live, "_send", side_effect=sent.append):
        with django_capture_on_commit_callbacks(execute=True):
            standings_recompute(tournament=tournament)
    assert sent == [[f"tournament-{tournament.pk}", f"standings-{tournament.pk}"]]


@pytest.mark.parametrize("kind", ["match", "round", "standings", "wall"])
def test_a_visitors_unchanged_poll_is_answered_from_the_stamps_without_rendering(client, tournament, kind,
                                                                                  django_assert_max_num_queries,
                                                                                  monkeypatch):
    """250 pages polling every 1.5 s: an unchanged poll costs a cache read, not a rendering (bench_night)."""
    import web.regions

    url = region_url(kind, region_pks(tournament)[kind])
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304  # the tournament's facts now kept

    def no_rendering(*args, **kwargs):
        raise AssertionError("an unchanged poll rendered its region")

    monkeypatch.setattr(web.regions, "render_region", no_rendering)
    with django_assert_max_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag


def test_a_stamped_poll_sees_the_next_recompute_and_the_next_hand(client, tournament,
                                                                  django_capture_on_commit_callbacks):
    urls = {kind: region_url(kind, pk) for kind, pk in region_pks(tournament).items()}
    tags = {kind: client.get(url)["ETag"] for kind, url in urls.items()}
    with django_capture_on_commit_callbacks(execute=True):
        enter_hands(table(tournament), 1)
    for kind in ("match", "round", "wall"):
        answer = client.get(urls[kind], HTTP_IF_NONE_MATCH=tags[kind])
        assert answer.status_code == 200 and answer["ETag"] != tags[kind], kind
        tags[kind] = answer["ETag"]
    # The standings change with their recompute (which in-process tasks may have run already).
    tags["standings"] = client.get(urls["standings"])["ETag"]
    assert client.get(urls["standings"], HTTP_IF_NONE_MATCH=tags["standings"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(tournament=tournament)
    assert client.get(urls["standings"], HTTP_IF_NONE_MATCH=tags["standings"]).status_code == 200
    assert client.get(urls["match"], HTTP_IF_NONE_MATCH=tags["match"]).status_code == 304


def test_a_changed_region_is_rendered_once_for_every_poller(client, tournament, monkeypatch):
    """The round's pollers after a hand: the first renders it, the others get that rendering from the cache."""
    import web.regions

    url = region_url("round", region_pks(tournament)["round"])
    first = client.get(url)
    calls = []
    real = web.regions.render_region
    monkeypatch.setattr(web.regions, "render_region", lambda *a, **k: calls.append(a) or real(*a, **k))
    enter_hands(table(tournament), 1)
    from tournaments import versions

    versions.results_changed(tournament.pk)  # the commit's bump, which this test's transaction never sees
    answers = [client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]) for _ in range(5)]
    assert {a.status_code for a in answers} == {200} and len({a["ETag"] for a in answers}) == 1
    assert len({a.content for a in answers}) == 1 and answers[0].content != first.content
    assert len(calls) == 1


@pytest.mark.parametrize("kind", ["round", "wall"])
def test_a_wide_region_is_rendered_again_at_most_once_a_bound(client, tournament, kind, monkeypatch):
    """A championship's 136 tables change its round and wall nine times a second: their pollers get the rendering
    of the last bound (its own tag, so a page that has it gets a 304), then the new one once the bound is past."""
    import web.regions
    from tournaments import versions

    url = region_url(kind, region_pks(tournament)[kind])
    calls = []
    real = web.regions.render_region
    monkeypatch.setattr(web.regions, "render_region", lambda *a, **k: calls.append(a) or real(*a, **k))
    with override_settings(LIVE_WIDE_SECONDS=30):
        first = client.get(url)
        enter_hands(table(tournament), 1)
        versions.results_changed(tournament.pk)  # the commit's bump, which this test's transaction never sees
        soon = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert soon.status_code == 304 and soon["ETag"] == first["ETag"]  # within the bound: as it was
        assert client.get(url).content == first.content and len(calls) == 1
    with override_settings(LIVE_WIDE_SECONDS=0):
        later = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert later.status_code == 200 and later["ETag"] != first["ETag"] and later.content != first.content
        assert len(calls) == 2
        assert client.get(url, HTTP_IF_NONE_MATCH=later["ETag"]).status_code == 304  # and kept under its stamps


def test_a_match_region_is_rendered_at_every_change(client, tournament):
    """A match's region is one table's: every hand is on its next poll, with no bound."""
    from tournaments import versions

    match = table(tournament)
    url = region_url("match", match.pk)
    with override_settings(LIVE_WIDE_SECONDS=30):
        first = client.get(url)
        enter_hands(match, 1)
        versions.match_changed(match.pk, tournament.pk)
        answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200 and answer.content != first.content


@pytest.mark.parametrize("kind", ["match", "round", "standings", "wall"])
def test_a_browser_s_gzip_poll_is_answered_304(client, tournament, kind):
    """A browser asks for gzip: the answer's tag comes back weak (W/"..."), and its next poll, naming it so, is a
    304. It was a 200 with the whole region for every poll of every browser, the tag never recognised."""
    url = region_url(kind, region_pks(tournament)[kind])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip" and first["ETag"].startswith("W/")
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("page", ["match", "round", "standings", "wall"])
def test_a_browser_s_gzip_page_is_answered_304_when_unchanged(client, tournament, page):
    pk = region_pks(tournament)[page]
    args = {"match": [tournament.slug, pk], "round": [tournament.slug, 1]}.get(page, [tournament.slug])
    url = reverse(PAGES[page], args=args)
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200 and first["ETag"].startswith("W/")
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
