"""ASGI entry point: Django for HTTP, Channels for the live pages' WebSockets.

Served in production by gunicorn with uvicorn workers:
    gunicorn config.asgi:application -k config.uvicorn_worker.Worker
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
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
