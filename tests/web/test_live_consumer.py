"""The live regions' WebSocket: refused for private or unknown regions, pushes the new HTML after a change."""

import asyncio
import time
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.web.conftest import belgian_hand, make_tournament
from tournaments.models import Match
from tournaments.services.hands import hand_enter
from tournaments.services.standings import standings_recompute
from web import consumers
from web.regions import etag_of, render_region

# Committed rows: the consumer reads them from its own thread and connection.
pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.fixture(autouse=True)
def _fresh_renderings():
    consumers.rendering_cache_clear()
    yield
    consumers.rendering_cache_clear()


def communicator(path: str, headers=ORIGIN) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=headers)


def first_match(tournament) -> Match:
    return Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()


def enter_next_hand(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    game = match.games.order_by("-number").first()
    hand_enter(match=match, data=belgian_hand(game.hands.count() + 1 if game else 1))


async def refused(path: str) -> int | None:
    ws = communicator(path)
    connected, _ = await ws.connect()
    if not connected:
        return None
    message = await ws.receive_output(timeout=2)
    # The client answers the server's close, as a browser does; the consumer then stops (an error in it raises
    # here). Waiting for it to stop unanswered took wait()'s whole second, and proved nothing more.
    await ws.disconnect()
    assert message["type"] == "websocket.close"
    return message["code"]


def test_private_missing_and_unknown_regions_are_refused():
    private = make_tournament(4, public=False, name="Besloten Beker", slug="besloten-beker")
    match = first_match(private)
    for path in (f"/ws/live/match/{match.pk}/", f"/ws/live/standings/{private.pk}/",
                 f"/ws/live/wall/{private.pk}/", f"/ws/live/round/{private.round_set.get().pk}/",
                 "/ws/live/match/999999/", f"/ws/live/nonsense/{private.pk}/"):
        assert async_to_sync(refused)(path) == consumers.CLOSE_NOT_FOUND, path


def test_a_foreign_origin_is_refused():
    tournament = make_tournament(4)

    async def scenario():
        ws = communicator(f"/ws/live/standings/{tournament.pk}/", headers=[(b"origin", b"http://evil.example")])
        connected, _ = await ws.connect()
        return connected

    assert async_to_sync(scenario)() is False


def test_viewers_get_the_new_html_after_a_hand_rendered_once_per_language():
    tournament = make_tournament(4)
    match = first_match(tournament)
    renders = []

    def counting_render(kind, pk, lang, user=None):
        renders.append((kind, pk, lang))
        return render_region(kind, pk, lang, user)

    async def scenario():
        viewers = [communicator(f"/ws/live/match/{match.pk}/?lang=nl") for _ in range(3)]
        viewers.append(communicator(f"/ws/live/match/{match.pk}/?lang=fr"))
        viewers.append(communicator(f"/ws/live/match/{match.pk}/?lang=xx"))  # unknown: the default language
        standings = communicator(f"/ws/live/standings/{tournament.pk}/")
        for ws in [*viewers, standings]:
            connected, _ = await ws.connect()
            assert connected
        await database_sync_to_async(enter_next_hand)(match.pk)
        pushed = [await ws.receive_json_from(timeout=5) for ws in viewers]
        on_standings = await standings.receive_json_from(timeout=5)
        for ws in [*viewers, standings]:
            await ws.disconnect()
        return pushed, on_standings

    import web.regions

    with mock.patch.object(consumers, "render_region", side_effect=counting_render), \
            mock.patch.object(web.regions, "render_region", side_effect=counting_render):
        pushed, on_standings = async_to_sync(scenario)()
    assert pushed[0] == pushed[1] == pushed[2] and pushed[0]["html"] == render_region("match", match.pk, "nl")
    assert pushed[3]["html"] == render_region("match", match.pk, "fr") and pushed[3]["etag"] != pushed[0]["etag"]
    assert pushed[4]["html"] == render_region("match", match.pk, "en")
    # A visitor's push carries the tag the region's polls answer with: a page that falls back to polling gets a 304.
    from django.test import Client

    for message, lang in ((pushed[0], "nl"), (pushed[3], "fr"), (pushed[4], "en")):
        poll = Client().get(f"/live/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE=lang, HTTP_IF_NONE_MATCH=message["etag"])
        assert poll.status_code == 304, lang
    assert "html" in on_standings and on_standings["etag"]
    # One rendering per language for the match, however many viewers.
    match_renders = [r for r in renders if r[0] == "match"]
    assert sorted(match_renders) == sorted([("match", match.pk, "nl"), ("match", match.pk, "fr"),
                                            ("match", match.pk, "en")])


def test_standings_viewers_get_each_recompute():
    tournament = make_tournament(4)

    async def scenario():
        ws = communicator(f"/ws/live/standings/{tournament.pk}/?lang=es")
        connected, _ = await ws.connect()
        assert connected
        await database_sync_to_async(standings_recompute)(tournament=tournament)
        message = await ws.receive_json_from(timeout=5)
        assert await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message["etag"] == etag_of(render_region("standings", tournament.pk, "es"), "es")


def test_a_region_made_private_closes_its_sockets():
    tournament = make_tournament(4)

    async def scenario():
        ws = communicator(f"/ws/live/standings/{tournament.pk}/")
        connected, _ = await ws.connect()
        assert connected
        await database_sync_to_async(type(tournament).objects.filter(pk=tournament.pk).update)(public=False)
        await database_sync_to_async(standings_recompute)(tournament=tournament)
        message = await ws.receive_output(timeout=5)
        await ws.disconnect()  # the client's answer to the close (see refused)
        return message

    assert async_to_sync(scenario)() == {"type": "websocket.close", "code": consumers.CLOSE_NOT_FOUND}


def test_concurrent_changes_render_once_per_version():
    tournament = make_tournament(4)
    calls = []

    def slow_render(kind, pk, lang, user=None):
        calls.append(lang)
        return f"<p>{kind} {pk} {lang}</p>"

    async def scenario():
        with mock.patch.object(consumers, "render_region", side_effect=slow_render):
            results = await asyncio.gather(*[consumers.rendering("standings", tournament.pk, "en", "v1")
                                             for _ in range(50)])
            again = await consumers.rendering("standings", tournament.pk, "en", "v2")
        return results, again

    results, again = async_to_sync(scenario)()
    assert len(set(results)) == 1 and calls == ["en", "en"]
    assert again == results[0]


def test_a_private_region_is_pushed_to_its_organizers(django_user_model):
    private = make_tournament(4, public=False, name="Besloten Beker", slug="besloten-beker")
    match = first_match(private)
    organizer = django_user_model.objects.create_user("org-live", password="pw")
    private.organizers.add(organizer)

    async def follow():
        ws = communicator(f"/ws/live/match/{match.pk}/?lang=nl")
        ws.scope["user"] = organizer
        connected, _ = await ws.connect()
        assert connected
        await database_sync_to_async(enter_next_hand)(match.pk)
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(follow)()
    assert match.ns.name in message["html"]


def test_a_wide_region_is_rendered_at_most_once_a_bound_and_never_misses_a_change():
    """The round, standings and wall hear every table's hands: renderings at least LIVE_WIDE_SECONDS apart, the
    changes heard while one waits share it, and a change heard after one began reading gets the next."""
    from django.test import override_settings

    tournament = make_tournament(4)
    began = []

    def render(kind, pk, lang, user=None):
        began.append(time.monotonic())
        return f"<p>{kind} {pk} {lang} {len(began)}</p>"

    async def scenario():
        with mock.patch.object(consumers, "render_region", side_effect=render):
            first = await consumers.wide_rendering("standings", tournament.pk, "en")
            # Three changes inside the bound: one rendering at its end, shared by all three.
            waiting = [asyncio.ensure_future(consumers.wide_rendering("standings", tournament.pk, "en"))
                       for _ in range(3)]
            shared = await asyncio.gather(*waiting)
            # A change heard while that one was reading would not be covered: it waits for the next.
            late = await consumers.wide_rendering("standings", tournament.pk, "en")
        return first, shared, late

    with override_settings(LIVE_WIDE_SECONDS=0.3):
        first, shared, late = async_to_sync(scenario)()
    assert len(began) == 3
    assert shared[0] is shared[1] is shared[2] and shared[0] != first and late not in (first, shared[0])
    assert began[1] - began[0] >= 0.29 and began[2] - began[1] >= 0.29
