"""Browser tests' plumbing: Debian's chromium driven by Playwright, and the ASGI app served by uvicorn in a thread.

The server runs in this process, so it reads the test database and, with the in-memory channel layer, pushes
in the same event loop as the views that publish; with REDIS_URL set the layer is Redis, as in production.
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


class AsgiServer:
    """uvicorn serving config.asgi's routes (and the static files, from the finders) on a free port."""

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


@pytest.fixture
def browser():
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are still sync.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
