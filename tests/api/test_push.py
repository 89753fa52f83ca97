"""The push channel (issue 29, point 4): tickets, the stream on the ASGI application, in process and on Redis.

The stream is driven as the ASGI server drives it (``config.asgi.application``), the hands entered through the
services in another thread, as a request of another server would: every event crosses the real store.
"""

import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from api.push import ticket_issue
from tests.api.conftest import client_for
from tests.api.push_client import Stream
from tests.factories import UserFactory
from tests.web.conftest import belgian_hand, make_tournament
from tests.webhooks.push_fixtures import memory_store, redis_store, store  # noqa: F401 (fixtures)
from tournaments.models import Hand, Match
from tournaments.services.hands import hand_enter
from webhooks import push_store
from webhooks.models import Delivery, Endpoint

# Committed rows: the stream reads them from its own thread and connection.
pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario):
    return async_to_sync(scenario)()


def first_match(tournament) -> Match:
    return Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()


def enter_next_hand(match_id: int) -> int:
    match = Match.objects.get(pk=match_id)
    game = match.games.order_by("-number").first()
    hand, _ = hand_enter(match=match, data=belgian_hand(game.hands.count() + 1 if game else 1))
    return hand.pk


def ticket_for(user=None, tournament=None) -> str:
    """A ticket as a client gets it: POST /api/v1/push/tickets/ with its token (none: anonymous)."""
    body = {} if tournament is None else {"tournament": tournament}
    answer = client_for(user).post("/api/v1/push/tickets/", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["ticket"]


aticket = database_sync_to_async(ticket_for)


def hands_of(events) -> list[int]:
    return [data["data"]["hand"]["id"] for _id, data in events if data["event"] == "hand.entered"]


@pytest.fixture
def public_and_private(store):
    """A public tournament and a private one (its organizer), round 1 paired in each."""
    public = make_tournament(4)
    private = make_tournament(4, public=False, name="Besloten Beker", slug="besloten-beker", club_name="Het Hof")
    organizer = UserFactory(username="organizer-push")
    private.organizers.add(organizer)
    return public, private, organizer


def test_a_ticket_names_what_it_follows_and_a_private_tournament_only_to_who_may_see_it(public_and_private):
    public, private, organizer = public_and_private
    anonymous = client_for(None).post("/api/v1/push/tickets/", {"tournament": public.slug}, format="json")
    assert anonymous.status_code == 201
    body = anonymous.json()
    assert set(body) == {"ticket", "expires", "url"} and body["url"].endswith(f"/api/v1/push/stream/?ticket={body['ticket']}")
    stranger = UserFactory(username="stranger-push")
    for user in (None, stranger):
        refused = client_for(user).post("/api/v1/push/tickets/", {"tournament": private.pk}, format="json")
        assert refused.status_code == 404 and refused.json()["errors"][0]["code"] == "not_found"
    assert client_for(organizer).post("/api/v1/push/tickets/", {"tournament": private.slug},
                                      format="json").status_code == 201
    for bad in ({"tournament": "no such cup"}, {"tournament": 0}, {"tournament": True}, {"tournament": [1]}):
        answer = client_for(organizer).post("/api/v1/push/tickets/", bad, format="json")
        assert answer.status_code == 400 and answer.json()["errors"][0]["attr"] == "tournament", bad


def test_an_unknown_expired_or_used_ticket_is_refused_in_the_apis_shape(store, settings):
    tournament = make_tournament(4)
    used = ticket_for(None, tournament.pk)
    settings.PUSH_TICKET_SECONDS = 1
    lapsing = ticket_for(None, tournament.pk)
    time.sleep(1.1)

    async def scenario():
        first = await Stream(used).open()
        assert first.status == 200
        await first.next_event()
        answers = {}
        for name, ticket, language in (("used", used, None), ("expired", lapsing, None), ("unknown", "nonsense", None),
                                       ("missing", None, None), ("french", "nonsense", "fr")):
            refused = await Stream(ticket, language=language).open()
            answers[name] = (refused.status, refused.headers["content-type"], await refused.json())
        await first.close()
        return answers

    answers = run(scenario)
    codes = {name: (status, body["errors"][0]["code"]) for name, (status, _type, body) in answers.items()}
    assert codes == {"used": (401, "ticket_used"), "expired": (401, "ticket_expired"), "unknown": (401, "ticket_invalid"),
                     "missing": (401, "ticket_invalid"), "french": (401, "ticket_invalid")}
    for status, content_type, body in answers.values():
        assert content_type == "application/json" and body["type"] == "client_error"
        assert set(body["errors"][0]) == {"code", "detail", "attr"} and body["errors"][0]["attr"] is None
    assert "1 seconds" in answers["expired"][2]["errors"][0]["detail"]
    assert answers["french"][2]["errors"][0]["detail"] != answers["unknown"][2]["errors"][0]["detail"]
    assert "ticket" in answers["french"][2]["errors"][0]["detail"]


def test_a_private_tournaments_events_reach_only_who_may_see_it(public_and_private):
    public, private, organizer = public_and_private
    stranger = UserFactory(username="stranger-push")
    staff = UserFactory(username="staff-push", is_staff=True)
    tickets = {"anonymous": ticket_for(None), "stranger": ticket_for(stranger), "organizer": ticket_for(organizer),
               "staff": ticket_for(staff), "organizer on the public one": ticket_for(organizer, public.slug)}
    private_match, public_match = first_match(private).pk, first_match(public).pk

    async def scenario():
        streams = {name: await Stream(ticket).open() for name, ticket in tickets.items()}
        for stream in streams.values():
            assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
            (_id, ready), = await stream.events_until_ready()
            assert ready["event"] == "ready" and ready["replayed"] == 0
            if ready["tournament"] is not None:  # one tournament followed: its id, and its detail beside it
                assert ready["tournament"] == public.pk and ready["tournament_detail"]["slug"] == public.slug
            else:
                assert ready["tournament_detail"] is None
        hidden = await database_sync_to_async(enter_next_hand)(private_match)
        shown = await database_sync_to_async(enter_next_hand)(public_match)
        seen = {}
        for name, stream in streams.items():
            events = []
            while shown not in hands_of(events):
                events.append(await stream.next_event())
            while not await stream.nothing(0.5):  # and whatever follows (the standings), a private event late too
                events.append(stream.last)
            seen[name] = events
            await stream.close()
        return seen, hidden, shown

    seen, hidden, shown = run(scenario)
    for name in ("anonymous", "stranger", "organizer on the public one"):
        assert hands_of(seen[name]) == [shown], name
        assert {data["tournament"] for _id, data in seen[name]} == {public.pk}, name
    for name in ("organizer", "staff"):
        assert hands_of(seen[name]) == [hidden, shown], name  # in the order they were entered
        assert {data["tournament"] for _id, data in seen[name]} == {public.pk, private.pk}, name
        assert "standings.updated" in {data["event"] for _id, data in seen[name]}


def test_events_come_in_order_each_with_an_id_and_the_webhooks_body(store):
    tournament = make_tournament(4)
    match = first_match(tournament)
    Endpoint.objects.create(tournament=tournament, url="https://hooks.example.org/manille")  # a webhook as well

    async def scenario():
        stream = await Stream(await aticket(None, tournament.slug)).open()
        await stream.events_until_ready()
        entered = [await database_sync_to_async(enter_next_hand)(match.pk) for _ in range(4)]
        events = []
        while len(hands_of(events)) < 4:
            events.append(await stream.next_event())
        await stream.close()
        return entered, events

    entered, events = run(scenario)
    assert hands_of(events) == entered
    ids = [push_store.parse_id(event_id) for event_id, _data in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    numbers = [data["data"]["hand"]["number"] for _id, data in events if data["event"] == "hand.entered"]
    assert numbers == [1, 2, 3, 4]
    first = next(data for _id, data in events if data["event"] == "hand.entered")
    assert set(first) == {"id", "event", "created", "tournament", "tournament_detail", "data"}
    assert set(first["data"]) == {"hand", "match"}
    assert first["tournament"] == tournament.pk
    assert first["tournament_detail"] == {"id": tournament.pk, "slug": tournament.slug, "name": tournament.name}
    # The webhook's delivery of the same hand carries the same event id.
    delivered = Delivery.objects.filter(event="hand.entered").order_by("id").values_list("event_id", flat=True)
    assert [str(u) for u in delivered][:4] == [data["id"] for _id, data in events if data["event"] == "hand.entered"]


def test_a_reconnection_replays_what_it_missed_then_goes_on(store):
    tournament = make_tournament(4)
    match = first_match(tournament)

    async def scenario():
        stream = await Stream(await aticket(None, tournament.pk)).open()
        await stream.events_until_ready()
        first = await database_sync_to_async(enter_next_hand)(match.pk)
        events = []
        while first not in hands_of(events):
            events.append(await stream.next_event())
        last_seen = events[-1][0]
        await stream.close()
        missed = [await database_sync_to_async(enter_next_hand)(match.pk) for _ in range(3)]
        # An EventSource reconnecting sends the header; a new EventSource the query parameter.
        again = await Stream(await aticket(None, tournament.pk), last_event_id=last_seen).open()
        replay = await again.events_until_ready()
        live = await database_sync_to_async(enter_next_hand)(match.pk)
        after = []
        while live not in hands_of(after):
            after.append(await again.next_event())
        await again.close()
        by_query = await Stream(await aticket(None, tournament.pk), query_last=last_seen).open()
        replay_by_query = await by_query.events_until_ready()
        await by_query.close()
        return missed, replay, live, after, replay_by_query

    missed, replay, live, after, replay_by_query = run(scenario)
    assert hands_of(replay) == missed and replay[-1][1]["event"] == "ready"
    assert replay[-1][1]["replayed"] == len(replay) - 1  # the hands and the standings' updates
    assert hands_of(after) == [live]
    ids = [push_store.parse_id(i) for i, _data in replay + after]
    assert ids == sorted(ids)
    assert hands_of(replay_by_query) == [*missed, live]


def test_a_last_event_id_too_old_or_unknown_is_answered_reset(store, settings):
    tournament = make_tournament(4)
    match = first_match(tournament)

    async def scenario():
        stream = await Stream(await aticket(None, tournament.pk)).open()
        (ready_id, _ready), = await stream.events_until_ready()
        await stream.close()
        answers = {}
        future = f"{push_store.parse_id(ready_id)[0] + 60_000}-0"
        for name, last, language in (("garbage", "not-an-id", None), ("future", future, None),
                                     ("old", "1000-0", None), ("old in Dutch", "1000-0", "nl")):
            again = await Stream(await aticket(None, tournament.pk), last_event_id=last, language=language).open()
            answers[name] = await again.events_until_ready()
            await again.close()
        # Kept a second only: an id two seconds old is older than what is kept.
        settings.PUSH_REPLAY_SECONDS = 1
        await database_sync_to_async(enter_next_hand)(match.pk)
        await database_sync_to_async(time.sleep)(2)
        again = await Stream(await aticket(None, tournament.pk), last_event_id=ready_id).open()
        answers["window"] = await again.events_until_ready()
        await again.close()
        return answers

    answers = run(scenario)
    reasons = {name: [data.get("reason") for _id, data in events] for name, events in answers.items()}
    assert reasons == {"garbage": ["unknown", None], "future": ["unknown", None], "old": ["expired", None],
                       "old in Dutch": ["expired", None], "window": ["expired", None]}
    for events in answers.values():
        (reset_id, reset), (ready_id, ready) = events
        assert reset["event"] == "reset" and ready["event"] == "ready" and reset_id == ready_id
        assert reset["detail"] and ready["replayed"] == 0
    assert answers["old"][0][1]["detail"] != answers["old in Dutch"][0][1]["detail"]


def test_nothing_is_built_while_nobody_listens(store):
    tournament = make_tournament(4)
    enter_next_hand(first_match(tournament).pk)
    state = store.state()
    assert state.last == (0, 0) and state.since is None


def test_streams_are_limited_per_user_and_per_address(store, settings):
    settings.PUSH_CONNECTIONS_PER_USER = 2
    settings.PUSH_CONNECTIONS_PER_ADDRESS = 1
    tournament = make_tournament(4)
    user = UserFactory(username="busy-push")

    async def scenario():
        mine = [await Stream(await aticket(user)).open() for _ in range(2)]
        third = await Stream(await aticket(user)).open()
        refused = (third.status, third.headers.get("retry-after"), await third.json())
        anonymous = await Stream(await aticket(None, tournament.pk), client="10.0.0.1").open()
        same_address = await Stream(await aticket(None, tournament.pk), client="10.0.0.1").open()
        other_address = await Stream(await aticket(None, tournament.pk), client="10.0.0.2").open()
        statuses = [anonymous.status, same_address.status, other_address.status]
        await mine[0].close()
        fourth = await Stream(await aticket(user)).open()
        for stream in (*mine[1:], anonymous, other_address, fourth):
            await stream.close()
        return refused, statuses, fourth.status

    (status, retry_after, body), statuses, after_closing = run(scenario)
    assert status == 429 and int(retry_after) > 0
    assert body["errors"][0]["code"] == "push_connections" and "2" in body["errors"][0]["detail"]
    assert statuses == [200, 429, 200] and after_closing == 200


def test_a_quiet_stream_says_it_is_alive(store, settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.2
    tournament = make_tournament(4)

    async def scenario():
        stream = await Stream(await aticket(None, tournament.pk)).open()
        await stream.events_until_ready()
        beat = await stream.next_frame(comments=True)
        await stream.close()
        return beat

    assert run(scenario)["comment"] == "keep-alive"


def test_a_stream_ends_after_its_longest_life(store, settings):
    settings.PUSH_STREAM_MAX_SECONDS = 0.3
    settings.PUSH_HEARTBEAT_SECONDS = 0.1
    tournament = make_tournament(4)

    async def scenario():
        stream = await Stream(await aticket(None, tournament.pk)).open()
        await stream.events_until_ready()
        with pytest.raises(EOFError):
            while True:
                await stream.next_frame(comments=True)
        await stream.communicator.wait(5)
        return stream.ended

    assert run(scenario) is True


def test_a_tournament_made_private_stops_its_events_to_others(store):
    tournament = make_tournament(4)
    match = first_match(tournament)

    async def scenario():
        stream = await Stream(await aticket(None)).open()
        await stream.events_until_ready()
        await database_sync_to_async(type(tournament).objects.filter(pk=tournament.pk).update)(public=False)
        await database_sync_to_async(enter_next_hand)(match.pk)
        quiet = await stream.nothing(0.5)
        await stream.close()
        refused = await Stream(ticket_issue(user=None, tournament=tournament)[0]).open()  # issued while public
        return quiet, refused.status, (await refused.json())["errors"][0]["code"]

    assert run(scenario) == (True, 404, "not_found")
    assert Hand.objects.filter(game__match=match).count() == 1


def test_cors_lets_a_listed_club_website_read_the_stream(store, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://cafedekaart.be"]
    tournament = make_tournament(4)

    async def scenario():
        listed = await Stream(await aticket(None, tournament.pk), origin="https://cafedekaart.be").open()
        other = await Stream(await aticket(None, tournament.pk), origin="https://elsewhere.example").open()
        refused = await Stream("nonsense", origin="https://cafedekaart.be").open()
        headers = (listed.headers, other.headers, refused.headers)
        await listed.close()
        await other.close()
        await refused.body()
        return headers

    listed, other, refused = run(scenario)
    assert listed["access-control-allow-origin"] == "https://cafedekaart.be"
    assert "access-control-allow-origin" not in other
    assert refused["access-control-allow-origin"] == "https://cafedekaart.be"  # the page reads why


def test_django_streams_only_from_a_store_in_process(store):
    """``runserver`` (the zero-setup run) reaches the stream through Django's URLs: it streams with the store in
    process, and refuses with Redis (``web``'s threads must not hold streams: the proxy sends the path to live)."""
    tournament = make_tournament(4)
    ticket = ticket_for(None, tournament.pk)
    answer = client_for(None).get(f"/api/v1/push/stream/?ticket={ticket}", HTTP_ACCEPT="text/event-stream",
                                  HTTP_ACCEPT_ENCODING="gzip, deflate")
    if store.in_process:
        assert answer.status_code == 200 and answer["Content-Type"].startswith("text/event-stream")
        assert "Content-Encoding" not in answer  # gzip would hold the events back in its buffer
        first = next(iter(answer.streaming_content)).decode()
        assert '"event":"ready"' in first
        answer.close()
    else:
        assert answer.status_code == 503 and answer["Retry-After"]
        assert answer.json()["errors"][0]["code"] == "push_unavailable"
        assert answer.json()["type"] == "server_error"


def test_other_methods_are_refused_and_a_preflight_answered(store, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://cafedekaart.be"]

    async def scenario():
        post = await Stream("x", method="POST").open()
        post_body = await post.body()
        preflight = Stream("x", method="OPTIONS", origin="https://cafedekaart.be")
        preflight.scope["headers"].append((b"access-control-request-method", b"GET"))
        preflight.scope["headers"].append((b"access-control-request-headers", b"last-event-id"))
        await preflight.open()
        await preflight.body()
        return post.status, post.headers, post_body, preflight.status, preflight.headers

    status, headers, body, preflight_status, preflight = run(scenario)
    assert status == 405 and headers["allow"] == "GET, OPTIONS" and body == b""
    assert preflight_status == 200 and preflight["access-control-allow-origin"] == "https://cafedekaart.be"
    assert "last-event-id" in preflight["access-control-allow-headers"]


def test_a_stream_that_began_before_its_process_reads_the_store_ends_after_ready(memory_store, monkeypatch):  # noqa: F811
    """The process's reader of the store started after the stream's place (a busy machine): the stream ends after
    ``ready`` rather than miss events, and the client's reconnection with that id replays them."""
    tournament = make_tournament(4)
    listen = memory_store.listen
    monkeypatch.setattr(memory_store, "listen", lambda listener: (listen(listener), (10 ** 13, 0))[1])

    async def scenario():
        stream = await Stream(await aticket(None, tournament.pk)).open()
        events = await stream.events_until_ready()
        with pytest.raises(EOFError):
            await stream.next_frame()
        await stream.communicator.wait(5)
        return events

    [(_id, ready)] = run(scenario)
    assert ready["event"] == "ready"
