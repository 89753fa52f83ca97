"""Browser tests' plumbing: Debian's chromium driven by Playwright, and the ASGI app served by uvicorn in a thread.

The server runs in this process, so it reads the test database and, with the in-memory channel layer, pushes
in the same event loop as the views that publish; with REDIS_URL set the layer is Redis, as in production.

On SQLite the test database lives in memory with a shared cache, which every thread's connection opens: there
SQLite locks whole tables between connections and answers a conflict at once with "database table is locked"
(no busy wait, whatever the timeout). A test that writes from its own thread while a page polls from the server's
thread then fails now and then. While a server runs, every connection to that database reads uncommitted
(``PRAGMA read_uncommitted``, SQLite's answer for shared-cache readers): a reader takes no table lock, so it
neither waits for a writer nor makes one fail. Two writers at once would still conflict; the tests write from one
side at a time.
"""

import os
import shutil
import socket
import threading
import time

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_missing_reason() -> str | None:
    """Say why the browser tests cannot run here, or None when they can."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no chromium at {CHROMIUM} (apt-get install chromium): browser tests skipped"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed: browser tests skipped"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _shared_cache(connection) -> bool:
    return connection.vendor == "sqlite" and connection.is_in_memory_db()


def _read_uncommitted(sender, connection, **kwargs) -> None:
    if _shared_cache(connection):
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


class ReadsUncommitted:
    """While it is entered, every connection to SQLite's shared-cache test database reads uncommitted: those opened
    later (the server's threads) by the ``connection_created`` signal, this thread's open one at once."""

    def __enter__(self):
        from django.db import connections
        from django.db.backends.signals import connection_created

        connection_created.connect(_read_uncommitted, dispatch_uid="browser-read-uncommitted")
        for connection in connections.all(initialized_only=True):
            if connection.connection is not None:
                _read_uncommitted(None, connection)
        return self

    def __exit__(self, *exc):
        from django.db import connections
        from django.db.backends.signals import connection_created

        connection_created.disconnect(dispatch_uid="browser-read-uncommitted")
        for connection in connections.all(initialized_only=True):
            if connection.connection is not None and _shared_cache(connection):
                with connection.cursor() as cursor:
                    cursor.execute("PRAGMA read_uncommitted = 0")


class AsgiServer:
    """uvicorn serving config.asgi's routes (and the static files, from the finders) on a free port.

    While it runs, the server's threads close their database connections after each request (``CONN_MAX_AGE`` 0,
    set in place: the open connections read this very dict), so none outlives the test database.
    """

    def __init__(self):
        import uvicorn
        from channels.routing import ProtocolTypeRouter
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application

        from config.asgi import application

        app = ProtocolTypeRouter({"http": ASGIStaticFilesHandler(get_asgi_application()),
                                  "websocket": application.application_mapping["websocket"]})
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="off", ws="websockets-sansio"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        from django.db import connections

        self.db_settings = connections["default"].settings_dict
        self.max_age = self.db_settings.get("CONN_MAX_AGE", 0)
        self.db_settings["CONN_MAX_AGE"] = 0
        self.reads_uncommitted = ReadsUncommitted().__enter__()
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.reads_uncommitted.__exit__(*exc)
        self.db_settings["CONN_MAX_AGE"] = self.max_age


class SharedChromium:
    """One chromium for every browser test in a row: started by the first, kept for the next (each test gets its own
    contexts, closed after it), stopped when a test that needs no browser comes (tests/conftest.py) or at the end.

    Starting Playwright's driver and chromium took about 2 s a test. While Playwright's sync API runs, its event loop
    is this thread's running loop, so it cannot stay up for the other tests: Django's ORM would refuse them, and
    ``async_to_sync`` (the live consumer's tests) fails in a thread with a running loop.
    """

    def __init__(self):
        self.playwright_manager = None
        self.chromium = None

    def get(self):
        if self.chromium is not None and not self.chromium.is_connected():
            self.stop()  # crashed in an earlier test: start again
        if self.chromium is None:
            from playwright.sync_api import sync_playwright

            # Playwright's sync API keeps an event loop in this thread; the tests' own ORM calls are still sync.
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self.playwright_manager = sync_playwright()
            playwright = self.playwright_manager.__enter__()
            executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
            self.chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        return self.chromium

    def close_contexts(self) -> None:
        """Close what a test opened (its pages with it): the next test starts with no cookie, storage or page."""
        if self.chromium is not None and self.chromium.is_connected():
            for context in self.chromium.contexts:
                context.close()

    def stop(self) -> None:
        if self.playwright_manager is None:
            return
        try:
            if self.chromium is not None and self.chromium.is_connected():
                self.chromium.close()
        finally:
            self.chromium = None
            manager, self.playwright_manager = self.playwright_manager, None
            manager.__exit__(None, None, None)
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


SHARED = SharedChromium()


@pytest.fixture
def shared_chromium():
    """The shared chromium (tests/conftest.py stops it before a test whose fixtures do not include this one)."""
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(reason)
    yield SHARED.get()
    SHARED.close_contexts()


@pytest.fixture
def browser(shared_chromium):
    return shared_chromium


@pytest.fixture
def server():
    """The site served by ``AsgiServer`` for one test (a test file imports it, as it imports ``browser``)."""
    with AsgiServer() as running:
        yield running


def save_shot(folder: str | None, page, name: str) -> None:
    """A full-page screenshot ``<name>.png`` in ``folder`` when one is given (an environment variable's, for a
    person to look at), else none."""
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)
