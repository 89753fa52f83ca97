"""The guide's push-channel clients, run as they are written in docs/api.md, against a real server.

The Python client (httpx) and the browser's (an ``EventSource`` in Debian's chromium) follow a tournament while
hands are entered; every stream ends after a second (``PUSH_STREAM_MAX_SECONDS``), so each client reconnects
with a new ticket and its last id several times: every hand must arrive once, in order.
"""

import re
import threading
import time
from pathlib import Path

import pytest

from api.models import AuthToken
from tests.factories import UserFactory
from tests.web.browser import browser, free_port, shared_chromium  # noqa: F401 (fixtures)
from tests.web.conftest import belgian_hand, make_tournament
from tests.webhooks.push_fixtures import memory_store  # noqa: F401 (fixture)
from tournaments.models import Match
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db(transaction=True)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def guide_block(language: str, holding: str) -> str:
    """The guide's fenced ``language`` block that holds ``holding``."""
    blocks = re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(), re.S)
    found = [b for b in blocks if holding in b]
    assert len(found) == 1, f"one {language} block with {holding!r} in docs/api.md"
    return found[0]


class Server:
    """uvicorn serving ``config.asgi.application`` (the stream's own application, Django's through the pool) in a
    thread of this process: the test database, the store in this process's memory."""

    def __init__(self):
        import uvicorn

        from config.asgi import application

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def evening(memory_store, settings):  # noqa: F811
    """A public tournament, its first table, a scorekeeper's token; streams that end after a second."""
    settings.PUSH_STREAM_MAX_SECONDS = 1
    settings.PUSH_HEARTBEAT_SECONDS = 0.5
    settings.ALLOWED_HOSTS = ["127.0.0.1", "testserver"]
    tournament = make_tournament(4)
    match = Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table").first()
    return tournament, match


def enter_hands(match, count: int, pause: float) -> list[int]:
    """``count`` hands of the match, ``pause`` seconds apart (across the streams' ends)."""
    ids = []
    for _ in range(count):
        time.sleep(pause)
        game = Match.objects.get(pk=match.pk).games.order_by("-number").first()
        hand, _ = hand_enter(match=Match.objects.get(pk=match.pk),
                             data=belgian_hand(game.hands.count() + 1 if game else 1))
        ids.append(hand.pk)
    return ids


def test_the_guides_python_client_follows_a_tournament_across_reconnections(evening):
    tournament, match = evening
    code = guide_block("python", "def events(")
    code = code.split("\nfor event in events(")[0]  # the function; the guide's loop is this test's
    keeper = UserFactory(username="keeper-guide")  # the guide's TOKEN: a scorekeeper's
    tournament.scorekeepers.add(keeper)
    token = AuthToken.objects.create(keeper)[1]
    with Server() as server:
        namespace = {}
        exec(compile(code, "docs/api.md (python)", "exec"), namespace)  # noqa: S102 - the guide's own code
        namespace["B"], namespace["TOKEN"] = f"{server.url}/api/v1", token
        received, done = [], threading.Event()

        def follow():
            for event in namespace["events"](tournament.slug):
                received.append(event)
                if done.is_set():
                    return

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        deadline = time.monotonic() + 10
        while not received and time.monotonic() < deadline:  # the first stream is open (its ready)
            time.sleep(0.05)
        entered = enter_hands(match, 6, pause=0.6)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not set(entered) <= {e["data"]["hand"]["id"] for e in received
                                                                   if e["event"] == "hand.entered"}:
            time.sleep(0.1)
        done.set()
    hands = [e["data"]["hand"]["id"] for e in received if e["event"] == "hand.entered"]
    assert hands == entered  # each once, in order, across several streams
    readies = [e for e in received if e["event"] == "ready"]
    assert len(readies) >= 3 and any(r["replayed"] for r in readies)  # it reconnected, and some were replayed
    assert "reset" not in {e["event"] for e in received}


def test_the_guides_browser_client_follows_a_tournament_across_reconnections(evening, browser):  # noqa: F811
    tournament, match = evening
    code = guide_block("js", "function follow(")
    code = code.split("\nfollow(")[0]  # the function; the guide's call is this test's
    with Server() as server:
        code = code.replace('const B = "https://tournaments.example.org/api/v1";', f'const B = "{server.url}/api/v1";')
        page = browser.new_page()
        page.goto(f"{server.url}/healthz/")
        page.evaluate("(code) => { window.seen = []; (0, eval)(code + '\\nwindow.follow = follow;'); }", code)
        page.evaluate("(slug) => window.follow(slug, (event) => window.seen.push(event))", tournament.slug)
        page.wait_for_function("window.seen.length > 0", timeout=10_000)
        entered = enter_hands(match, 6, pause=0.6)
        page.wait_for_function(
            "(ids) => ids.every(id => window.seen.some(e => e.event === 'hand.entered' && e.data.hand.id === id))",
            arg=entered, timeout=30_000)
        seen = page.evaluate("window.seen")
    hands = [e["data"]["hand"]["id"] for e in seen if e["event"] == "hand.entered"]
    assert hands == entered
    readies = [e for e in seen if e["event"] == "ready"]
    assert len(readies) >= 3 and any(r["replayed"] for r in readies)
