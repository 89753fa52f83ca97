"""A real HTTP receiver for the webhook tests: http.server in a thread, recording every request."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

POLL_SECONDS = 0.02


class Receiver:
    """Answers each POST with the next status of ``script`` (the last one repeats) and records it."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.requests: list[dict] = []
        self.script: list[int] = [200]
        self.headers: dict[str, str] = {}  # sent with every answer (a redirect's Location)
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    n = len(receiver.requests)
                    status = receiver.script[min(n, len(receiver.script) - 1)]
                    receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(f"answer {n + 1}: {status}".encode() + b" x" * 2000)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.port = self.server.server_port
        self.url = f"http://{host}:{self.port}/hook"
        # Polled every 20 ms for its shutdown (serve_forever's default, 0.5 s, was half a second of every test).
        self.thread = threading.Thread(target=self.server.serve_forever, args=(POLL_SECONDS,), daemon=True)
        self.thread.start()

    def events(self) -> list[str]:
        return [r["headers"]["X-Manille-Event"] for r in self.requests]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Throttle counters in a private local-memory cache."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "webhook-tests"}}
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
