"""ASGI entry point: Django for HTTP, Channels for the live pages' WebSockets.

Served in production by gunicorn with uvicorn workers:
    gunicorn config.asgi:application -k config.uvicorn_worker.Worker
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django's ASGI handler runs each request's sync code in a thread of its own, and a database connection
# belongs to its thread: a persistent one (CONN_MAX_AGE > 0) is never used again, stays open until its
# thread is collected, and a busy server runs PostgreSQL out of connections ("too many clients"). Under
# ASGI each request therefore opens and closes its connection, whatever CONN_MAX_AGE says.
os.environ["CONN_MAX_AGE"] = "0"
# Django first: the routing below imports models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.services.sweep import sweep_thread_start  # noqa: E402
from web.routing import websocket_urlpatterns  # noqa: E402

# Without a broker (tasks in-process) the web process runs the periodic sweep itself.
sweep_thread_start()

application = ProtocolTypeRouter({
    "http": django_application,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
