"""ASGI entry point: the live pages' WebSockets (Channels), and HTTP through Django's WSGI handler.

In docker-compose this server (``live``) serves the WebSockets under ``/ws/`` behind the proxy, and
the HTTP requests go to ``web`` (gunicorn's sync workers, ``config.wsgi``). Run alone (the
Docker image's default command, a one-container install) it serves both:

    gunicorn config.asgi:application -c python:config.gunicorn -k config.uvicorn_worker.Worker

HTTP is handed to Django's WSGI handler in a fixed pool of ``ASGI_HTTP_THREADS`` threads (a2wsgi).
Django's own ASGI handler runs each request in a thread of its own, which opens a database
connection of its own: nothing bounds them, a busy evening reaches PostgreSQL's
``max_connections`` and results are refused ("too many clients"); and starting a thread and a
connection per request served 650 requests a second where the WSGI handler served 2,200 (the
scoreboard, two workers, measured side by side: README "Why this server"). In the pool each thread keeps its connection
(``CONN_MAX_AGE``), so a process holds at most ``ASGI_HTTP_THREADS`` connections for HTTP, plus
the one of the thread Channels runs the consumers' database work in.

The push channel's stream (``/api/v1/push/stream/``, Server-Sent Events to API clients) is an ASGI
application of its own (``api.push_asgi``), sent its path before the pool: it lasts, and a thread of
the pool would be held for as long.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

# Django first: the routing below imports models.
django_application = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from api.push import STREAM_PATH  # noqa: E402
from api.push_asgi import push_stream  # noqa: E402
from tournaments.services.sweep import sweep_thread_start  # noqa: E402
from web.routing import websocket_urlpatterns  # noqa: E402

# Without a broker (tasks in-process) the web process runs the periodic sweep itself.
sweep_thread_start()

django_http = WSGIMiddleware(django_application, workers=settings.ASGI_HTTP_THREADS)


async def http(scope, receive, send):
    """The push channel's stream to its own application, every other request to Django's through the pool."""
    if scope["path"] == STREAM_PATH:
        return await push_stream(scope, receive, send)
    return await django_http(scope, receive, send)


application = ProtocolTypeRouter({
    "http": http,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
